package live

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/chbench/chbench/internal/procgroup"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Script is a helper program (a Python, Node or Java program driving a
// real client library) that answers one JSON request per line on its
// standard input with one JSON reply per line on its standard output. It
// runs in its own process group, killed by Stop.
type Script struct {
	name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	errs *procgroup.Tail
	done chan struct{}
	stop sync.Once
}

// StartScript runs the program path with args (the first being, for an
// interpreter, the script file), in dir when dir is not "", with env
// added to this process's environment.
func StartScript(path string, args []string, dir string, env ...string) (*Script, error) {
	s := &Script{name: path, errs: &procgroup.Tail{Max: 8192}, done: make(chan struct{})}
	s.cmd = exec.Command(path, args...)
	s.cmd.Dir = dir
	if len(env) > 0 {
		s.cmd.Env = append(os.Environ(), env...)
	}
	s.cmd.Stderr = s.errs
	procgroup.Set(s.cmd)
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("live: %s: %w", path, err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("live: %s: %w", path, err)
	}
	s.out = bufio.NewReaderSize(stdout, 1<<20)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("live: start %s: %w", path, err)
	}
	go func() { s.cmd.Wait(); close(s.done) }()
	return s, nil
}

// Call writes req as one JSON line, and decodes the next line of output
// into reply, waiting at most timeout. On a timeout or a bad reply the
// process is stopped and the error carries the end of its stderr.
func (s *Script) Call(req, reply any, timeout time.Duration) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	return s.Send(append(b, '\n'), reply, timeout)
}

// Send writes raw (a request in the program's own line format, ending in
// a newline) and decodes the next line of output, a JSON value, into
// reply, as Call does.
func (s *Script) Send(raw []byte, reply any, timeout time.Duration) error {
	var err error
	got := make(chan error, 1)
	var line []byte
	go func() {
		if _, err := s.in.Write(raw); err != nil {
			got <- err
			return
		}
		var err error
		line, err = s.out.ReadBytes('\n')
		got <- err
	}()
	select {
	case err = <-got:
	case <-time.After(timeout):
		s.Stop()
		<-got
		return fmt.Errorf("live: %s gave no reply within %v: %s", s.name, timeout, s.errs)
	}
	if err != nil {
		s.Stop()
		return fmt.Errorf("live: %s: %w: %s", s.name, err, s.errs)
	}
	if err := json.Unmarshal(line, reply); err != nil {
		s.Stop()
		return fmt.Errorf("live: %s: reply %.200q: %w: %s", s.name, line, err, s.errs)
	}
	return nil
}

// Stop kills the process group and waits up to 5 s for the process to
// exit. It is safe to call more than once.
func (s *Script) Stop() error {
	var err error
	s.stop.Do(func() {
		s.in.Close()
		procgroup.Kill(s.cmd)
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			err = fmt.Errorf("live: %s (pid %d) still running 5 s after SIGKILL", s.name, s.cmd.Process.Pid)
		}
	})
	return err
}
