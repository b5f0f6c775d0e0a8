package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
)

// copyRun copies the report package's test results into a temporary
// directory (chbench report writes REPORT.md next to them).
func copyRun(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "..", "report", "testdata", "run")
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// chbench report writes DIR/REPORT.md (and prints its path), the same
// bytes as -o -, the same on a second run; -compare of a run with itself
// finds no difference.
func TestReportCommand(t *testing.T) {
	dir := copyRun(t)
	out, _, err := runCLI(t, "report", "-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "REPORT.md")
	if out != path+"\n" {
		t.Errorf("stdout %q, want the report's path", out)
	}
	written, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runCLI(t, "report", "-dir", dir, "-o", "-")
	if err != nil || stdout != string(written) {
		t.Errorf("-o - differs from REPORT.md (err %v)", err)
	}
	if !strings.Contains(stdout, "## Pick this if") || !strings.Contains(stdout, "| `ring` | classic |") {
		t.Errorf("report lacks its sections:\n%s", stdout)
	}
	cmp, _, err := runCLI(t, "report", "-dir", dir, "-compare", dir)
	if err != nil || !strings.Contains(cmp, "\n0 cells differ,") {
		t.Errorf("-compare with itself: %v\n%s", err, cmp)
	}
}

// report's errors and their exit status: a bad profile value or an extra
// argument is a usage error (2), a directory without results or an
// unreadable profile an error while running (1).
func TestReportUsageErrors(t *testing.T) {
	dir := copyRun(t)
	prof := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(prof, []byte("nodes = 10\nreplicas = 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"report", "-dir", dir, "-profile", prof}, 2, `bad.txt:2: replicas = "0": want a replication factor 1..5`},
		{[]string{"report", "-dir", dir, "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"report", "-dir", t.TempDir()}, 1, "no result files"},
		// A profile that cannot be read is an error while running (exit
		// 1), as a missing -keyfile is.
		{[]string{"report", "-dir", dir, "-profile", filepath.Join(dir, "absent.txt")}, 1, "-profile: open " + filepath.Join(dir, "absent.txt")},
		{[]string{"report", "-dir", dir, "-profile", dir}, 1, "is a directory"},
	} {
		_, _, err := runCLI(t, c.args...)
		var stderr strings.Builder
		if code := cli.ExitCode(err, &stderr); code != c.code || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr.String(), c.code, c.msg)
		}
	}
}
