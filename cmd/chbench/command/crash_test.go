package command

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
)

// A panic of a command's own goroutine comes back from run as an internal
// error, which exits with status 3 (never the usage error's 2) and says
// it is a bug of chbench.
func TestRunRecoversAPanic(t *testing.T) {
	commands["test-panic"] = command{"panics", plain(func([]string, io.Writer, io.Writer) error { panic("boom") })}
	defer delete(commands, "test-panic")
	_, _, err := runCLI(t, "test-panic")
	if !cli.IsInternal(err) || !strings.Contains(err.Error(), "panic: boom") {
		t.Fatalf("run of a panicking command: %v, want an internal error naming the panic", err)
	}
	var msg strings.Builder
	if code := cli.ExitCode(err, &msg); code != 3 || !strings.Contains(msg.String(), "internal error") {
		t.Errorf("exit status %d (%q), want 3 and the words internal error", code, msg.String())
	}
}

// The chbench process runs its work in a supervised worker, so a crash
// that the Go runtime ends with status 2 (a panic in a goroutine no
// recover reaches) exits 3 with a message, not as a usage error.
func TestCrashIsNotAUsageError(t *testing.T) {
	cmd := exec.Command(os.Args[0], "test-crash")
	cmd.Env = append(os.Environ(), "CHBENCH_MAIN=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 3 || !strings.Contains(string(out), "panic: test-crash") || !strings.Contains(string(out), "chbench: internal error") {
		t.Errorf("exit status %d, want 3 with the panic and a message:\n%s", code, out)
	}
}
