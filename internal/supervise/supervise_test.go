package supervise

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// envCase makes the test binary a supervised program (TestMain) that
// ends as the case says.
const envCase = "SUPERVISE_TEST_CASE"

// TestMain: with envCase set the test binary is a program whose main is
// Main, and whose worker ends as the case says, so that the tests run the
// real supervisor and worker as separate processes.
func TestMain(m *testing.M) {
	c := os.Getenv(envCase)
	if c == "" {
		os.Exit(m.Run())
	}
	if !Worker() {
		status, ok := Main(os.Args[1:], os.Stderr)
		if !ok {
			fmt.Fprintln(os.Stderr, "supervisor did not start")
			os.Exit(99)
		}
		os.Exit(status)
	}
	switch c {
	case "ok":
		fmt.Println("args", strings.Join(os.Args[1:], " "))
		os.Exit(0)
	case "usage":
		os.Exit(2)
	case "error":
		os.Exit(1)
	case "panic-in-goroutine": // the runtime exits 2
		done := make(chan bool)
		go func() { panic("boom") }()
		<-done
	case "out-of-memory": // a fatal error, which no recover catches
		var keep [][]byte
		for {
			keep = append(keep, make([]byte, 1<<40))
		}
	case "sigterm":
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(10 * time.Second)
	case "wait-for-signal":
		fmt.Println("ready")
		time.Sleep(10 * time.Second)
		os.Exit(0)
	}
	os.Exit(98)
}

// run runs the test binary as a supervised program ending as c says and
// returns its exit status (or -signal for a process ended by a signal)
// and its output.
func run(t *testing.T, c string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envCase+"="+c)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && st.Signaled() {
		return -int(st.Signal()), string(out)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// The supervisor exits with the worker's status and passes its arguments
// and output through; a worker that crashes (a panic in a goroutine, a
// fatal out-of-memory error, both of which the Go runtime ends with
// status 2) makes it exit with CrashStatus and say so; a worker ended by a
// signal ends it by the same signal.
func TestExitStatusOfTheWorker(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int
		says   string
	}{
		{"ok", 0, "args a -b c"},
		{"usage", 2, ""},
		{"error", 1, ""},
		{"panic-in-goroutine", CrashStatus, "internal error: the command crashed"},
		{"out-of-memory", CrashStatus, "internal error: the command crashed"},
		{"sigterm", -int(syscall.SIGTERM), ""},
	} {
		status, out := run(t, c.name, "a", "-b", "c")
		if status != c.status || !strings.Contains(out, c.says) {
			t.Errorf("%s: exit status %d, want %d with %q:\n%s", c.name, status, c.status, c.says, out)
		}
		if c.status != CrashStatus && strings.Contains(out, "internal error") {
			t.Errorf("%s: reported as a crash:\n%s", c.name, out)
		}
	}
}

// A SIGTERM sent to the supervisor alone (as timeout(1) sends it) reaches
// the worker, and both end by it.
func TestSignalReachesTheWorker(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envCase+"=wait-for-signal")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil || string(buf) != "ready\n" {
		t.Fatalf("worker did not start: %q %v", buf, err)
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	st, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !st.Signaled() || st.Signal() != syscall.SIGTERM {
		t.Errorf("supervisor ended with %v, want SIGTERM", cmd.ProcessState)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the worker outlived the signal by %v (it sleeps 10 s)", d)
	}
}
