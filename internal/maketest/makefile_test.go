package maketest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeGo stands in for the go command: "build -o P" writes a fake binary
// at P (which writes -out files and prints a line), "test" is a slow
// benchmark run, "tool benchstat" prints a table.
const fakeGo = `#!/bin/sh
case "$1" in
build)
  out=""; while [ $# -gt 0 ]; do [ "$1" = "-o" ] && out=$2; shift; done
  mkdir -p "$(dirname "$out")"
  printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = "-out" ] && echo fake > "$2"; shift; done\necho fake\n' > "$out"
  chmod +x "$out";;
test) sleep 0.3; echo "BenchmarkFake 1 1 ns/op";;
*) echo table;;
esac
`

// setup copies the Makefile into a temporary directory with the fake go
// and returns the directory and the make arguments.
func setup(t *testing.T) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	dir := t.TempDir()
	mf, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), mf, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "peers"), 0o755); err != nil {
		t.Fatal(err)
	}
	goPath := filepath.Join(dir, "fakego")
	if err := os.WriteFile(goPath, []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, []string{"--no-print-directory", "GO=" + goPath, "RESULTS=res"}
}

// interrupt starts make target in dir, sends SIGINT to the top make process
// alone once the staged run has started, and waits until every process
// make started has ended.
func interrupt(t *testing.T, dir string, args []string) error {
	t.Helper()
	cmd := exec.Command("make", args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	defer syscall.Kill(-pgid, syscall.SIGKILL)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "res/.tmp-run/lookup.txt.tmp")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the staged run did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	for syscall.Kill(-pgid, 0) == nil { // sub-makes that outlive the top make
		if time.Now().After(deadline) {
			t.Fatal("sub-makes still running")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return err
}

// Issue 9, kind 9: a SIGINT to the top make process alone let the
// sub-makes finish and publish a new result set while make reported an
// interrupt. Publishing is now a line of the top make's own recipe, which
// an interrupted make never reaches.
func TestInterruptedMakeDoesNotPublish(t *testing.T) {
	for _, target := range []string{"quick", "bench"} {
		dir, args := setup(t)
		err := interrupt(t, dir, append(args, target))
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Errorf("make %s: ended with %v, want an interrupt", target, err)
		}
		if entries, _ := os.ReadDir(filepath.Join(dir, "res")); len(entries) != 1 || entries[0].Name() != ".tmp-run" {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("make %s interrupted: res/ holds %s, want only the staging directory .tmp-run", target, strings.Join(names, " "))
		}
	}
}

// publish refuses a staging directory that holds no complete run.
func TestPublishRefusesIncompleteRun(t *testing.T) {
	dir, args := setup(t)
	if err := os.MkdirAll(filepath.Join(dir, "res/.tmp-run"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "res/.tmp-run/lookup.txt"), []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", append(args, "publish")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no complete run") {
		t.Errorf("make publish of an incomplete run: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "res/lookup.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial lookup.txt was published")
	}
}
