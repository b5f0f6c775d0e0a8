package live

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/chbench/chbench/internal/procgroup"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file holds what the trace readers' live checks and the replay of a
// trace through real memcached servers need: items of chosen sizes, a
// metadump, a plain Redis server, and client programs (redis-cli) run in
// their own process group.

// StartRedis starts a plain (non-cluster) redis-server on 127.0.0.1:port
// keeping nothing on disk (its working directory is dir).
func StartRedis(dir string, port int) (*Process, error) {
	args := []string{"--bind", Loopback, "--port", strconv.Itoa(port), "--dir", dir, "--save", "", "--appendonly", "no",
		"--daemonize", "no", "--logfile", ""}
	return Start("redis-server", args, Addr(port), StartTimeout)
}

// SetSizes stores, for each i, a value of sizes[i] bytes under keys[i]
// (flags 0, no expiry), pipelined as SetAll is, and checks every reply is
// STORED. Keys must be ValidKey; sizes >= 0.
func (c *Memcache) SetSizes(keys []string, sizes []int) error {
	if len(keys) != len(sizes) {
		return fmt.Errorf("live: %d keys, %d sizes", len(keys), len(sizes))
	}
	for i, k := range keys {
		if !ValidKey(k) || sizes[i] < 0 {
			return fmt.Errorf("live: memcache key %q or size %d: not storable", k, sizes[i])
		}
	}
	for lo := 0; lo < len(keys); lo += setBatch {
		hi := min(lo+setBatch, len(keys))
		err := c.pipeline(func(w *bufio.Writer) error {
			for i := lo; i < hi; i++ {
				fmt.Fprintf(w, "set %s 0 0 %d\r\n", keys[i], sizes[i])
				for range sizes[i] {
					w.WriteByte('v')
				}
				if _, err := w.WriteString("\r\n"); err != nil {
					return err
				}
			}
			return nil
		}, func() error {
			for i := lo; i < hi; i++ {
				line, err := readLine(c.r)
				if err != nil {
					return fmt.Errorf("set %q: %w", keys[i], err)
				}
				if line != "STORED" {
					return fmt.Errorf("set %q: %s", keys[i], line)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Metadump runs `lru_crawler metadump all` and returns its output, every
// line up to and including END\r\n, at most max bytes. A reply that does
// not end in END (ERROR, BUSY) is an error quoting it.
func (c *Memcache) Metadump(max int) ([]byte, error) {
	var out bytes.Buffer
	err := c.pipeline(func(w *bufio.Writer) error {
		_, err := w.WriteString("lru_crawler metadump all\r\n")
		return err
	}, func() error {
		for {
			line, err := c.r.ReadBytes('\n')
			if err != nil {
				return err
			}
			out.Write(line)
			if out.Len() > max {
				return fmt.Errorf("metadump longer than %d bytes", max)
			}
			switch s := string(bytes.TrimRight(line, "\r\n")); {
			case s == "END":
				return nil
			case strings.HasPrefix(s, "ERROR") || strings.HasPrefix(s, "BUSY") || strings.HasPrefix(s, "CLIENT_ERROR"):
				return fmt.Errorf("lru_crawler metadump: %s", s)
			}
		}
	})
	return out.Bytes(), err
}

// Do sends one storage or retrieval command of the text protocol and
// returns the first line of its reply: for get, "HIT" when a value came
// back and "MISS" otherwise (the value is read and dropped); for set, add,
// replace, append and prepend (data is the value), STORED or NOT_STORED;
// for delete, DELETED or NOT_FOUND. Keys must be ValidKey.
func (c *Memcache) Do(cmd, key string, data []byte) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("live: memcache key %q: empty, longer than 250 bytes, or with whitespace", key)
	}
	var reply string
	err := c.pipeline(func(w *bufio.Writer) error {
		switch cmd {
		case "get", "delete":
			fmt.Fprintf(w, "%s %s\r\n", cmd, key)
		case "set", "add", "replace", "append", "prepend":
			fmt.Fprintf(w, "%s %s 0 0 %d\r\n", cmd, key, len(data))
			w.Write(data)
			w.WriteString("\r\n")
		default:
			return fmt.Errorf("command %q: not one Do sends", cmd)
		}
		return nil
	}, func() error {
		line, err := readLine(c.r)
		if err != nil {
			return err
		}
		if cmd != "get" {
			reply = line
			return nil
		}
		reply = "MISS"
		if strings.HasPrefix(line, "VALUE ") {
			f := strings.Fields(line)
			n, err := strconv.Atoi(f[len(f)-1])
			if err != nil || n < 0 {
				return fmt.Errorf("get: bad length in %q", line)
			}
			if _, err := c.r.Discard(n + 2); err != nil {
				return err
			}
			if line, err = readLine(c.r); err != nil {
				return err
			}
			reply = "HIT"
		}
		if line != "END" {
			return fmt.Errorf("get %q: unexpected reply %q", key, line)
		}
		return nil
	})
	return reply, err
}

// Client is a client program (redis-cli) started by [StartClient], in its
// own process group, its output collected.
type Client struct {
	p   *Process
	out *syncBuffer
}

// StartClient runs binary name with args in its own process group,
// collecting its standard output; stderr is kept for error messages. It
// does not wait for anything: poll Output. Stop it with Stop, which kills
// the group.
func StartClient(name string, args []string) (*Client, error) {
	path, err := LookBinary(name)
	if err != nil {
		return nil, err
	}
	c := &Client{out: &syncBuffer{}}
	c.p = &Process{Name: name, out: &procgroup.Tail{Max: 4096}, done: make(chan struct{})}
	c.p.cmd = exec.Command(path, args...)
	c.p.cmd.Stdout, c.p.cmd.Stderr = c.out, c.p.out
	procgroup.Set(c.p.cmd)
	if err := c.p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("live: start %s: %w", name, err)
	}
	go func() { c.p.cmd.Wait(); close(c.p.done) }()
	return c, nil
}

// Output returns what the client has written to stdout so far.
func (c *Client) Output() []byte { return c.out.Bytes() }

// WaitFor polls the output until it holds want or timeout passes,
// reporting whether it did.
func (c *Client) WaitFor(want []byte, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if bytes.Contains(c.Output(), want) {
			return true
		}
		select {
		case <-c.p.done:
			return bytes.Contains(c.Output(), want)
		case <-time.After(10 * time.Millisecond):
		}
	}
	return false
}

// Stop kills the client's process group (see Process.Stop).
func (c *Client) Stop() error { return c.p.Stop() }

// Stderr returns the end of the client's standard error.
func (c *Client) Stderr() string { return c.p.Output() }

// RunClient runs binary name with args to completion, at most timeout
// (then its process group is killed), and returns its standard output; a
// non-zero exit is an error with the end of its standard error.
func RunClient(ctx context.Context, name string, args []string, timeout time.Duration) ([]byte, error) {
	c, err := StartClient(name, args)
	if err != nil {
		return nil, err
	}
	defer c.Stop()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	select {
	case <-c.p.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("live: %s did not finish within %v: %w", name, timeout, ctx.Err())
	}
	if st := c.p.cmd.ProcessState; st != nil && !st.Success() {
		return nil, fmt.Errorf("live: %s %s: %v: %s", name, strings.Join(args, " "), st, c.Stderr())
	}
	return c.Output(), nil
}

// syncBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

var _ io.Writer = (*syncBuffer)(nil)
