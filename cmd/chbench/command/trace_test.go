package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
)

// A trace with no readable record is refused by every command that reads
// one: an error while running (not a usage error) naming the file, the
// format and the unreadable records, after the first unreadable lines
// have been shown (on stderr; the trace command shows them on stdout).
func TestTraceWithoutReadableRequestIsRefused(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.trace")
	if err := os.WriteFile(bad, []byte("garbage\nmore garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(dir, "fleet.toml")
	if err := os.WriteFile(profile, []byte("nodes = 4\n[traffic]\ntrace = \"bad.trace\"\ntrace_format = \"twitter\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := []string{"-trace", bad, "-trace-format", "twitter"}
	for _, args := range [][]string{
		{"trace"},
		{"trace", "-format", "csv"},
		{"simulate", "-algo", "ring", "-nodes", "4", "-memory", "1MiB", "-rate", "100"},
		{"load", "-algo", "ring", "-nodes", "4", "-sets", "1"},
		{"spread", "-algo", "ring", "-nodes", "4", "-sets", "1"},
		{"move", "-algo", "ring", "-from", "4", "-to", "5", "-sets", "1"},
		{"replication", "-algo", "ring", "-replicas", "2", "-from", "4", "-to", "5", "-sets", "1"},
		{"storm", "-algo", "ring", "-from", "4", "-to", "5", "-sets", "1"},
		{"switch", "-from", "ring", "-to", "jump", "-nodes", "4", "-sets", "1"},
		{"propagate", "-algo", "ring", "-from", "4", "-to", "5"},
		{"domains", "-algo", "ring", "-nodes", "4", "-sets", "1"},
		{"fleet", "-profile", profile, "-shares"},
		{"fleet", "-profile", profile, "-load"},
	} {
		if args[0] != "fleet" {
			args = append(args, tr...)
		}
		stdout, stderr, err := runCLI(t, args...)
		want := `trace "` + bad + `": 0 readable requests in format twitter, 2 unreadable records`
		if err == nil || cli.IsUsage(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("chbench %s: error %v (usage error: %v), want a run-time error saying %q", strings.Join(args, " "), err, cli.IsUsage(err), want)
		}
		shown := stderr
		if args[0] == "trace" {
			shown = stdout
		}
		if args[0] == "trace" && args[1] == "-format" {
			if stdout != "" {
				t.Errorf("chbench %s: wrote a row of an unreadable trace:\n%s", strings.Join(args, " "), stdout)
			}
			continue
		}
		for _, line := range []string{`"garbage"`, `"more garbage"`} {
			if !strings.Contains(shown, line) {
				t.Errorf("chbench %s: the unreadable record %s is not shown:\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), line, stdout, stderr)
			}
		}
	}
}

// An empty trace holds no request either: refused, with 0 unreadable
// records.
func TestEmptyTraceIsRefused(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.trace")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "trace", "-trace", empty, "-trace-format", "twitter")
	want := `trace "` + empty + `": 0 readable requests in format twitter, 0 unreadable records`
	if err == nil || cli.IsUsage(err) || err.Error() != want {
		t.Errorf("chbench trace on an empty file: error %v, want %q", err, want)
	}
}
