package tempfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// names returns the names in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// An anonymous file can be written and read back and has no name in its
// directory, so nothing is left when the process dies (Linux; elsewhere
// it is a removed file, which has no name either).
func TestAnonymousHasNoName(t *testing.T) {
	dir := t.TempDir()
	f, err := Anonymous(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("keys\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := f.ReadAt(buf, 0); err != nil || string(buf) != "keys\n" {
		t.Errorf("read back %q, %v", buf, err)
	}
	if n := names(t, dir); len(n) != 0 {
		t.Errorf("the anonymous file has a name: %v", n)
	}
}

// An Output replaces its path only on Commit, with mode 0644; on Linux no
// name exists while it is written; Abort leaves the old file and no
// temporary one.
func TestOutputCommitAndAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "movement.csv")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := NewOutput(path)
	if err != nil {
		t.Fatal(err)
	}
	o.File().WriteString("new")
	if n := names(t, dir); runtime.GOOS == "linux" && len(n) != 1 {
		t.Errorf("while writing, the directory holds %v, want only movement.csv", n)
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(b) != "new" || fi.Mode().Perm() != 0o644 {
		t.Errorf("after Commit: %q, mode %v; want \"new\", 0644", b, fi.Mode().Perm())
	}
	o, err = NewOutput(path)
	if err != nil {
		t.Fatal(err)
	}
	o.File().WriteString("partial")
	o.Abort()
	b, _ = os.ReadFile(path)
	if n := names(t, dir); string(b) != "new" || len(n) != 1 {
		t.Errorf("after Abort: %q, directory %v; want the committed file alone", b, n)
	}
}
