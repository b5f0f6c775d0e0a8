// Package external is a placement that runs in another process: any
// program, in any language, that speaks chbench's line protocol
// (docs/protocol.md, version 1) on its standard input and output.
//
// [Start] runs the program in a process group of its own and performs the
// handshake, which names the placement and states its [algorithms.Facts].
// [Process.New] sends a membership and returns a [Locator], an
// [algorithms.Locator]: every measure written against that interface runs
// on the program unchanged. A Locator's lookups are batches of keys
// ([Config.Batch] per request) written to the program while its answers
// are read, so neither side waits on a full pipe.
//
// Nothing hangs: every reply has a deadline ([Config.Timeout]); a reply
// line longer than the longest possible answer is refused; the program is
// killed, with everything it forked, when it fails in any way, when
// [Process.Close] is called, when the context given to Start is done (the
// command line's interrupt), and by the kernel should chbench itself die
// (on Linux). Its exit is always waited for, so it leaves no zombie. Each
// failure is an [*Error] naming the request, the batch, the key and the
// line at fault, and ending with the tail of the program's standard error.
//
// chbench's side is deterministic: the same calls with the same keys and
// memberships write the same bytes.
package external

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/internal/procgroup"
)

// Version is the protocol version this package speaks.
const Version = 1

// Prefix marks an external placement in an algorithm list: "exec:" followed
// by a shell command, as in -algo 'exec:python3 examples/python/ring.py'.
const Prefix = "exec:"

const (
	// DefaultTimeout is the deadline for each reply when Config.Timeout is
	// 0: the whole reply to one request (4,096 keys by default, or a
	// membership) must arrive within it.
	DefaultTimeout = 10 * time.Second
	// DefaultBatch is the number of keys per locate request when
	// Config.Batch is 0. Above about 1,000 keys per request the pipe round
	// trip is a small part of chbench's cost per key (BenchmarkLocateKeys);
	// 4,096 keeps a batch's request and reply within a few hundred KiB.
	DefaultBatch = 4096
	// MaxBatch is the largest Config.Batch.
	MaxBatch = 1 << 16
	// MinLineBytes is the least length of reply line chbench accepts; an
	// answer line may be longer when R node IDs need it (see Locator).
	MinLineBytes = 64 << 10
	// StderrBytes is how much of the end of the program's standard error
	// is kept for error messages.
	StderrBytes = 4 << 10
	// closeGrace is how long Close waits for the program to exit on its own
	// after its standard input is closed, before killing it.
	closeGrace = time.Second
	// exitWait bounds every wait for the program's exit after a kill.
	exitWait = 5 * time.Second
)

// Config says which program to run and how to talk to it.
type Config struct {
	// Command is run as sh -c Command. Exactly one of Command and Args is
	// set.
	Command string
	// Args is the program and its arguments, run without a shell; Args[0]
	// is looked up in PATH.
	Args []string
	// Dir is the program's working directory; "" is chbench's.
	Dir string
	// Env holds KEY=VALUE pairs added to chbench's environment for the
	// program.
	Env []string
	// Timeout is the deadline for each reply (> 0); 0 means DefaultTimeout.
	Timeout time.Duration
	// Batch is the number of keys per locate request, 1 to MaxBatch; 0
	// means DefaultBatch.
	Batch int
}

// Parse returns the Config of an algorithm name of the form Prefix +
// command, and false for any other name.
func Parse(name string) (Config, bool) {
	cmd, ok := strings.CutPrefix(name, Prefix)
	if !ok {
		return Config{}, false
	}
	return Config{Command: cmd}, true
}

func (c Config) check() (Config, error) {
	switch {
	case c.Command == "" && len(c.Args) == 0:
		return c, errors.New("external: no program: set a command (exec:CMD) or an argument vector")
	case c.Command != "" && len(c.Args) > 0:
		return c, fmt.Errorf("external: both a command %q and arguments %q: set one", c.Command, c.Args)
	case len(c.Args) > 0 && c.Args[0] == "":
		return c, errors.New("external: empty program name in the argument vector")
	case c.Timeout < 0:
		return c, fmt.Errorf("external: timeout %v: must be > 0 (0 means %v)", c.Timeout, DefaultTimeout)
	case c.Batch < 0 || c.Batch > MaxBatch:
		return c, fmt.Errorf("external: batch %d: need 1 to %d keys per request (0 means %d)", c.Batch, MaxBatch, DefaultBatch)
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Batch == 0 {
		c.Batch = DefaultBatch
	}
	return c, nil
}

// program returns the command as the user gave it, for messages.
func (c Config) program() string {
	if c.Command != "" {
		return c.Command
	}
	return strings.Join(c.Args, " ")
}

// Process is a running program that speaks the protocol. Its methods are
// safe for concurrent use; requests are sent one at a time.
type Process struct {
	cfg    Config
	name   string
	facts  algorithms.Facts
	cmd    *exec.Cmd
	stdin  *os.File // the write end of the program's standard input
	stdout *os.File // the read end of its standard output
	stderr *procgroup.Tail
	done   chan struct{} // closed when the program has exited and been reaped
	stop   func() bool   // stops the context's kill

	writes  chan write            // requests for the writer goroutine
	written chan error            // its results, one per write
	aborted atomic.Pointer[error] // why the program was killed from outside a request

	closeOnce sync.Once
	closeErr  error

	mu       sync.Mutex // serializes requests; guards the fields below
	rd       lineReader
	wbuf     []byte
	scratch  []byte
	nextID   uint64
	inflight bool  // a write was handed to the writer and not waited for
	err      error // the failure that stopped the program; every later request returns it
}

type write struct {
	b        []byte
	deadline time.Time
}

// Start runs the program of cfg and performs the handshake (docs/protocol.md),
// waiting at most cfg.Timeout for its reply. The program is killed when ctx
// is done, when a request fails and at [Process.Close], which the caller
// must call. Start returns an error for an invalid cfg, a program that
// cannot be started, or a handshake that is not version 1 with valid facts
// (an [*Error]); the program is then killed.
func Start(ctx context.Context, cfg Config) (*Process, error) {
	cfg, err := cfg.check()
	if err != nil {
		return nil, err
	}
	p := &Process{cfg: cfg, name: cfg.program(), stderr: &procgroup.Tail{Max: StderrBytes}, done: make(chan struct{}),
		writes: make(chan write), written: make(chan error, 1), nextID: 1}
	if cfg.Command != "" {
		p.cmd = exec.Command("sh", "-c", cfg.Command)
	} else {
		p.cmd = exec.Command(cfg.Args[0], cfg.Args[1:]...)
	}
	p.cmd.Dir = cfg.Dir
	if len(cfg.Env) > 0 {
		p.cmd.Env = append(os.Environ(), cfg.Env...)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("external: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("external: %w", err)
	}
	p.stdin, p.stdout = inW, outR
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, p.stderr
	// The standard error copy ends when every holder of the pipe is dead;
	// the whole group is killed before any wait, so this bound is a
	// safeguard only.
	p.cmd.WaitDelay = time.Second
	procgroup.Set(p.cmd)
	err = p.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("external: start %q: %w", cfg.program(), err)
	}
	go func() {
		p.cmd.Wait()
		close(p.done)
	}()
	go p.writer()
	p.rd.init(outR)
	p.stop = context.AfterFunc(ctx, func() {
		p.abort(fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx)))
	})
	if err := p.hello(); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Name returns the placement's name from the handshake.
func (p *Process) Name() string { return p.name }

// Facts returns the facts the program declared in its handshake.
func (p *Process) Facts() algorithms.Facts { return p.facts }

// Command returns the program as configured: the shell command, or the
// argument vector joined by spaces.
func (p *Process) Command() string { return p.cfg.program() }

// Err returns the failure that stopped the program, or nil while it
// serves requests (after Close, an error wrapping ErrClosed).
func (p *Process) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	if a := p.aborted.Load(); a != nil {
		return *a
	}
	return nil
}

// Close closes the program's standard input, waits up to one second for
// it to exit, kills its process group, and waits for its exit (up to 5 s,
// after which it returns an error naming the process ID). A request in
// flight fails with ErrClosed. Close is safe to call more than once and
// returns the same result each time.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		p.aborted.CompareAndSwap(nil, &errClosed)
		p.stdin.Close()
		select {
		case <-p.done:
		case <-time.After(closeGrace):
		}
		procgroup.Kill(p.cmd)
		select {
		case <-p.done:
		case <-time.After(exitWait):
			p.closeErr = fmt.Errorf("external %s: process %d still running %v after SIGKILL", p.name, p.cmd.Process.Pid, exitWait)
		}
		p.stdout.Close()
		if p.stop != nil {
			p.stop()
		}
	})
	return p.closeErr
}

var errClosed = error(ErrClosed)

// abort kills the program from outside a request (a done context): the
// request in flight, if any, then fails with reason.
func (p *Process) abort(reason error) {
	p.aborted.CompareAndSwap(nil, &reason)
	procgroup.Kill(p.cmd)
}

// writer writes requests to the program's standard input, so that a
// request is written while its reply is read: a program that answers as
// it reads never blocks on a full pipe.
func (p *Process) writer() {
	for {
		select {
		case w := <-p.writes:
			p.stdin.SetWriteDeadline(w.deadline)
			_, err := p.stdin.Write(w.b)
			p.written <- err
		case <-p.done:
			return
		}
	}
}

// exitStatus waits up to exitWait for the program to exit and describes how
// it ended ("exit status 1", "signal: killed").
func (p *Process) exitStatus() string {
	select {
	case <-p.done:
		return p.cmd.ProcessState.String()
	case <-time.After(exitWait):
		return "still running after closing its standard output"
	}
}

// kill stops the program after a failed request and waits for its exit.
func (p *Process) kill() {
	procgroup.Kill(p.cmd)
	select {
	case <-p.done:
	case <-time.After(exitWait):
	}
}
