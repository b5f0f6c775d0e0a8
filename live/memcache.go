package live

import (
	"bufio"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// Memcache is a connection to a memcached server, or to a proxy speaking
// its text protocol (twemproxy), on 127.0.0.1. It is not safe for
// concurrent use.
type Memcache struct {
	conn    net.Conn
	r       *bufio.Reader
	timeout time.Duration
}

// DialMemcache connects to addr (127.0.0.1:port only). Every later call
// must complete within timeout, or fails.
func DialMemcache(addr string, timeout time.Duration) (*Memcache, error) {
	if err := checkLoopback(addr); err != nil {
		return nil, err
	}
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, fmt.Errorf("live: memcache %s: %w", addr, err)
	}
	return &Memcache{conn: c, r: bufio.NewReaderSize(c, 64<<10), timeout: timeout}, nil
}

// Close closes the connection.
func (c *Memcache) Close() error { return c.conn.Close() }

// ValidKey reports whether key can be sent in the text protocol: 1 to 250
// bytes, no whitespace or control characters.
func ValidKey(key string) bool {
	if len(key) == 0 || len(key) > 250 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] <= ' ' || key[i] == 0x7f {
			return false
		}
	}
	return true
}

// pipeline writes the requests from a goroutine while read consumes the
// replies, so any number of requests fits in the socket buffers.
func (c *Memcache) pipeline(write func(w *bufio.Writer) error, read func() error) error {
	c.conn.SetDeadline(time.Now().Add(c.timeout))
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(c.conn, 64<<10)
		if err := write(w); err != nil {
			werr <- err
			return
		}
		werr <- w.Flush()
	}()
	if err := read(); err != nil {
		c.conn.Close() // unblocks the writer
		<-werr
		return fmt.Errorf("live: memcache %s: %w", c.conn.RemoteAddr(), err)
	}
	if err := <-werr; err != nil {
		return fmt.Errorf("live: memcache %s: write: %w", c.conn.RemoteAddr(), err)
	}
	return nil
}

// setBatch is the number of set commands in flight at once: enough to
// hide round trips, few enough that a proxy's queue of outstanding
// requests stays short (twemproxy times out requests queued too long).
const setBatch = 2000

// SetAll stores value under every key (flags 0, no expiry) with pipelined
// set commands, up to 2,000 in flight, and checks every reply is STORED.
// Keys must be ValidKey.
func (c *Memcache) SetAll(keys []string, value string) error {
	for _, k := range keys {
		if !ValidKey(k) {
			return fmt.Errorf("live: memcache key %q: empty, longer than 250 bytes, or with whitespace", k)
		}
	}
	for i := 0; i < len(keys); i += setBatch {
		if err := c.setBatch(keys[i:min(i+setBatch, len(keys))], value); err != nil {
			return err
		}
	}
	return nil
}

func (c *Memcache) setBatch(keys []string, value string) error {
	hdr := " 0 0 " + strconv.Itoa(len(value)) + "\r\n"
	return c.pipeline(func(w *bufio.Writer) error {
		for _, k := range keys {
			w.WriteString("set ")
			w.WriteString(k)
			w.WriteString(hdr)
			w.WriteString(value)
			if _, err := w.WriteString("\r\n"); err != nil {
				return err
			}
		}
		return nil
	}, func() error {
		for _, k := range keys {
			line, err := readLine(c.r)
			if err != nil {
				return fmt.Errorf("set %q: %w", k, err)
			}
			if line != "STORED" {
				return fmt.Errorf("set %q: %s", k, line)
			}
		}
		return nil
	})
}

// getBatch is the number of keys per multi-key get.
const getBatch = 100

// Has returns, for each key, whether the server holds it (pipelined
// multi-key get commands of up to 100 keys). Keys must be ValidKey.
func (c *Memcache) Has(keys []string) ([]bool, error) {
	found := make([]bool, len(keys))
	err := c.pipeline(func(w *bufio.Writer) error {
		for i := 0; i < len(keys); i += getBatch {
			w.WriteString("get")
			for _, k := range keys[i:min(i+getBatch, len(keys))] {
				w.WriteByte(' ')
				w.WriteString(k)
			}
			if _, err := w.WriteString("\r\n"); err != nil {
				return err
			}
		}
		return nil
	}, func() error {
		for i := 0; i < len(keys); i += getBatch {
			batch := keys[i:min(i+getBatch, len(keys))]
			j := 0 // values arrive in request order, hits only
			for {
				line, err := readLine(c.r)
				if err != nil {
					return err
				}
				if line == "END" {
					break
				}
				f := strings.Fields(line)
				if len(f) < 4 || f[0] != "VALUE" {
					return fmt.Errorf("get: unexpected reply %q", line)
				}
				n, err := strconv.Atoi(f[3])
				if err != nil || n < 0 {
					return fmt.Errorf("get: bad length in %q", line)
				}
				if _, err := c.r.Discard(n + 2); err != nil {
					return err
				}
				for j < len(batch) && batch[j] != f[1] {
					j++
				}
				if j == len(batch) {
					return fmt.Errorf("get: value for %q, which was not asked for (or out of order)", f[1])
				}
				found[i+j] = true
				j++
			}
		}
		return nil
	})
	return found, err
}

// FlushAll invalidates every item on the server.
func (c *Memcache) FlushAll() error {
	return c.pipeline(func(w *bufio.Writer) error {
		_, err := w.WriteString("flush_all\r\n")
		return err
	}, func() error {
		line, err := readLine(c.r)
		if err == nil && line != "OK" {
			err = fmt.Errorf("flush_all: %s", line)
		}
		return err
	})
}

// DeleteAll deletes every key (pipelined delete commands, up to 2,000 in
// flight), as an expiry would remove it; a key the server does not hold
// is no error. Keys must be ValidKey.
func (c *Memcache) DeleteAll(keys []string) error {
	for _, k := range keys {
		if !ValidKey(k) {
			return fmt.Errorf("live: memcache key %q: empty, longer than 250 bytes, or with whitespace", k)
		}
	}
	for i := 0; i < len(keys); i += setBatch {
		batch := keys[i:min(i+setBatch, len(keys))]
		err := c.pipeline(func(w *bufio.Writer) error {
			for _, k := range batch {
				w.WriteString("delete ")
				w.WriteString(k)
				if _, err := w.WriteString("\r\n"); err != nil {
					return err
				}
			}
			return nil
		}, func() error {
			for _, k := range batch {
				line, err := readLine(c.r)
				if err != nil {
					return fmt.Errorf("delete %q: %w", k, err)
				}
				if line != "DELETED" && line != "NOT_FOUND" {
					return fmt.Errorf("delete %q: %s", k, line)
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
