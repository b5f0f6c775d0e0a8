// Package supervise runs a command's work in a child process of itself so
// that a crash is reported with an exit status of its own. A Go program
// that panics outside a recovered goroutine, or dies of a fatal runtime
// error (out of memory, a concurrent map write), exits with status 2, the
// status chbench reserves for usage errors; no code of the dying process
// can change that. [Main] therefore starts the same executable again as
// the worker, with the same arguments, standard streams and environment
// (plus [envWorker]), hands the worker a pipe that the Go runtime's crash
// output goes to (runtime/debug.SetCrashOutput, which the worker installs
// in [Worker]), and exits with the worker's status, except that a worker
// that crashed (anything arrived on the pipe) makes it exit with
// [CrashStatus] and a message saying so. Signals that end a process
// (SIGINT, SIGTERM, SIGHUP) are passed on to the worker, and a worker
// ended by a signal ends the supervisor by the same signal, so a shell or
// make sees the interrupt as before. Should the supervisor itself be
// killed (SIGKILL), the kernel sends the worker SIGTERM (Linux), which
// removes its temporary files as an interrupt does.
package supervise

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"
)

// CrashStatus is the exit status of a command whose worker crashed: a Go
// panic or fatal runtime error, a bug of the program, never bad input.
const CrashStatus = 3

// envWorker marks the worker process; its value is the file descriptor of
// the crash pipe.
const envWorker = "CHBENCH_SUPERVISED_WORKER"

// crashFD is the worker's file descriptor of the crash pipe (the first of
// exec.Cmd.ExtraFiles).
const crashFD = 3

// ends are the signals passed on to the worker.
var ends = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// Worker reports whether this process is the worker started by [Main];
// if so it sends the Go runtime's crash output to the supervisor's pipe
// from now on (in addition to standard error).
func Worker() bool {
	if os.Getenv(envWorker) != "1" {
		return false
	}
	os.Unsetenv(envWorker) // not for the processes the worker starts
	syscall.CloseOnExec(crashFD)
	f := os.NewFile(crashFD, "crash pipe")
	if f == nil {
		return true
	}
	if err := debug.SetCrashOutput(f, debug.CrashOptions{}); err == nil {
		f.Close() // SetCrashOutput holds its own copy of the descriptor
	}
	return true
}

// Main runs this executable again as the worker, with args (os.Args[1:])
// and the standard streams of this process, waits for it, and returns the
// exit status to end with: the worker's, or [CrashStatus] after a crash,
// when a message naming it goes to stderr. It returns ok false, and
// starts nothing, when the executable cannot be run again (then the
// caller does the work in this process).
func Main(args []string, stderr io.Writer) (status int, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, false
	}
	defer pr.Close()
	cmd := exec.Command(exe, args...)
	cmd.Args[0] = os.Args[0]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), envWorker+"=1")
	cmd.ExtraFiles = []*os.File{pw}
	setParentDeath(cmd)
	// The kernel's parent-death signal follows the thread that started
	// the worker: keep this goroutine on it until the worker is done.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var watch []os.Signal
	for _, s := range ends {
		if !signal.Ignored(s) { // an ignored signal stays ignored, in the worker too
			watch = append(watch, s)
		}
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, watch...)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		pw.Close()
		return 0, false
	}
	pw.Close()
	var crash bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&crash, io.LimitReader(pr, 1<<20))
		close(read)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
wait:
	for {
		select {
		case s := <-sigs:
			cmd.Process.Signal(s)
		case werr = <-done:
			break wait
		}
	}
	select { // the pipe closes when the worker ends
	case <-read:
	case <-time.After(time.Second):
	}
	if crash.Len() > 0 {
		fmt.Fprintf(stderr, "chbench: internal error: the command crashed (a Go panic or fatal runtime error such as running out of memory; its trace is above); this is a bug of chbench, not of the input: exit status %d\n", CrashStatus)
		return CrashStatus, true
	}
	st, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if werr != nil && st.Signaled() {
		signal.Reset(watch...)
		syscall.Kill(os.Getpid(), st.Signal())
		time.Sleep(time.Second) // the signal ends the process; should it not:
		return 128 + int(st.Signal()), true
	}
	return cmd.ProcessState.ExitCode(), true
}
