package tempfile

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// The helper process: create a tracked temporary file and an untracked one,
// say where they are, and wait to be interrupted.
func TestMain(m *testing.M) {
	if dir := os.Getenv("TEMPFILE_HELPER_DIR"); dir != "" {
		RemoveOnSignal()
		f, _, err := Create(dir, ".plot.png.*.tmp")
		if err != nil {
			os.Exit(3)
		}
		os.WriteFile(filepath.Join(dir, "kept"), nil, 0o644)
		os.Stdout.WriteString(f.Name() + "\n")
		select {}
	}
	os.Exit(m.Run())
}

// SIGINT and SIGTERM remove the tracked temporary files and the process
// still dies of the signal; untracked files stay.
func TestSignalRemovesTrackedFiles(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), "TEMPFILE_HELPER_DIR="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			cmd.Process.Kill()
			t.Fatalf("helper: %v", err)
		}
		tmp := line[:len(line)-1]
		if _, err := os.Stat(tmp); err != nil {
			t.Fatalf("temporary file missing before the signal: %v", err)
		}
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
			t.Errorf("%v: helper ended with %v, want death by the signal", sig, err)
		}
		if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v: %s still exists (%v)", sig, tmp, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "kept")); err != nil {
			t.Errorf("%v: untracked file removed: %v", sig, err)
		}
	}
}
