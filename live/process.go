package live

import (
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/chbench/chbench/internal/procgroup"
)

// Loopback is the only host this package starts servers on or connects to.
const Loopback = "127.0.0.1"

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago (the
// kernel's choice for port 0). Another process may take it before the
// caller binds it; Start then fails with the server's own message.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", Loopback+":0")
	if err != nil {
		return 0, fmt.Errorf("live: no free port on %s: %w", Loopback, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Addr returns "127.0.0.1:port".
func Addr(port int) string { return net.JoinHostPort(Loopback, strconv.Itoa(port)) }

// checkLoopback returns an error unless addr is 127.0.0.1:port.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("live: address %q: %w", addr, err)
	}
	if host != Loopback {
		return fmt.Errorf("live: address %q: only %s is allowed", addr, Loopback)
	}
	return nil
}

// MissingBinary is the error Start returns when a server binary is not
// installed; Package names the Debian package that provides it.
type MissingBinary struct{ Binary, Package string }

func (e *MissingBinary) Error() string {
	return fmt.Sprintf("%s not found in PATH (Debian package %s)", e.Binary, e.Package)
}

// packages maps each binary this package runs to its Debian package.
var packages = map[string]string{
	"redis-server": "redis-server",
	"redis-cli":    "redis-tools",
	"memcached":    "memcached",
	"nutcracker":   "nutcracker",
}

// LookBinary returns the path of a server binary, or a *MissingBinary.
func LookBinary(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		pkg := packages[name]
		if pkg == "" {
			pkg = "unknown"
		}
		return "", &MissingBinary{Binary: name, Package: pkg}
	}
	return p, nil
}

// Process is a server started by [Start], running in its own process
// group.
type Process struct {
	Name string // binary name
	Addr string // 127.0.0.1:port it listens on
	cmd  *exec.Cmd
	out  *procgroup.Tail
	done chan struct{} // closed when the process has exited
	stop sync.Once
}

// Start runs binary name with args in its own process group and waits,
// for at most timeout, until addr (which must be 127.0.0.1:port) accepts
// TCP connections. If the process exits first or the time runs out, it is
// killed and the error carries the end of its output.
func Start(name string, args []string, addr string, timeout time.Duration) (*Process, error) {
	if err := checkLoopback(addr); err != nil {
		return nil, err
	}
	path, err := LookBinary(name)
	if err != nil {
		return nil, err
	}
	p := &Process{Name: name, Addr: addr, out: &procgroup.Tail{Max: 4096}, done: make(chan struct{})}
	p.cmd = exec.Command(path, args...)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	procgroup.Set(p.cmd)
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("live: start %s: %w", name, err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			// Another process may have taken the port after FreePort:
			// then this server fails to bind and exits at once, while
			// the dial reached the other one. Give it a moment to do so.
			select {
			case <-p.done:
				return nil, fmt.Errorf("live: %s exited after %s accepted a connection (port taken by another process?): %s", name, addr, p.out)
			case <-time.After(100 * time.Millisecond):
			}
			return p, nil
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("live: %s exited before listening on %s: %s", name, addr, p.out)
		default:
		}
		if time.Now().After(deadline) {
			p.Stop()
			return nil, fmt.Errorf("live: %s not listening on %s after %v: %s", name, addr, timeout, p.out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the process group (SIGKILL: these servers keep nothing worth
// a clean shutdown) and waits up to 5 s for the process to exit. It is
// safe to call more than once.
func (p *Process) Stop() error {
	var err error
	p.stop.Do(func() {
		procgroup.Kill(p.cmd)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			err = fmt.Errorf("live: %s (pid %d) still running 5 s after SIGKILL", p.Name, p.cmd.Process.Pid)
		}
	})
	return err
}

// Output returns the last bytes the process wrote to stdout and stderr.
func (p *Process) Output() string { return p.out.String() }

// IsMissing reports whether err says a server binary is not installed.
func IsMissing(err error) bool {
	var m *MissingBinary
	return errors.As(err, &m)
}
