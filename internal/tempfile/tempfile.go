// Package tempfile removes a command's temporary files when the command is
// interrupted. Commands that replace a file atomically (write a temporary
// file in the same directory, then rename it over the target) Track the
// temporary file while it exists; main calls RemoveOnSignal once, so that
// SIGINT or SIGTERM removes every tracked file before the process dies of
// the same signal (so a shell or make still sees the interrupt). Without
// it an interrupted "chbench plot" left .NAME.NNN.tmp files behind.
package tempfile

import (
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

var (
	mu    sync.Mutex
	paths = map[string]bool{}
	once  sync.Once
)

// Create is os.CreateTemp(dir, pattern), with the new file tracked for
// removal on SIGINT or SIGTERM; call the returned untrack once the file has
// been renamed or removed. Once a signal has arrived Create blocks until
// the process exits, so no new temporary file outlives the cleanup.
func Create(dir, pattern string) (*os.File, func(), error) {
	mu.Lock() // no signal cleanup between creating and tracking
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		mu.Unlock()
		return nil, func() {}, err
	}
	paths[f.Name()] = true
	mu.Unlock()
	name := f.Name()
	return f, func() {
		mu.Lock()
		delete(paths, name)
		mu.Unlock()
	}, nil
}

// Pattern is the os.CreateTemp pattern of the temporary file through which
// a file named base is replaced: ".BASE.*.tmp", in base's directory.
func Pattern(base string) string { return "." + base + ".*.tmp" }

// Longest is the longest name Pattern(base) can give: os.CreateTemp's
// random part is a uint32 in decimal, at most 10 digits.
func Longest(base string) string { return "." + base + ".4294967295.tmp" }

// Probe reports whether a file with the longest temporary name of base,
// Longest(base), can be created in dir, by creating and removing it (the
// only sure test of a name's length and the directory's permissions). An
// existing file of that name counts as yes. It holds the lock signal
// cleanup takes, so an interrupt cannot leave the probe behind.
func Probe(dir, base string) error {
	mu.Lock()
	defer mu.Unlock()
	name := filepath.Join(dir, Longest(base))
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(name)
}

// RemoveOnSignal installs, once per process, a handler for SIGINT and
// SIGTERM that removes every tracked file and then re-raises the signal
// with its default action, so the process ends as interrupted (exit status
// 128+signal in a shell).
func RemoveOnSignal() {
	once.Do(func() {
		var sigs []os.Signal
		for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
			// A signal ignored at start (SIGINT of a background job in a
			// non-interactive shell) stays ignored: it would not end the
			// process, so it must not start a cleanup either.
			if !signal.Ignored(s) {
				sigs = append(sigs, s)
			}
		}
		if len(sigs) == 0 {
			return
		}
		c := make(chan os.Signal, 1)
		signal.Notify(c, sigs...)
		go func() {
			sig := <-c
			mu.Lock() // held until exit: Create blocks
			for p := range paths {
				os.Remove(p)
			}
			signal.Reset(sigs...)
			s, _ := sig.(syscall.Signal)
			syscall.Kill(os.Getpid(), s)
			// The re-raised signal ends the process; should it not, exit
			// with the status a shell gives a process killed by it.
			time.Sleep(time.Second)
			os.Exit(128 + int(s))
		}()
	})
}
