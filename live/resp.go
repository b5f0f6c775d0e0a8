package live

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// Reply is one RESP2 reply (Redis serialization protocol): Kind is '+'
// (status), '-' (error), ':' (integer), '$' (bulk string; Nil for a null
// bulk) or '*' (array; Nil for a null array).
type Reply struct {
	Kind  byte
	Str   string // status, error or bulk text
	Int   int64
	Array []Reply
	Nil   bool
}

// Redis is a connection to one Redis server on 127.0.0.1. It is not safe
// for concurrent use.
type Redis struct {
	conn    net.Conn
	r       *bufio.Reader
	timeout time.Duration
}

// DialRedis connects to the Redis server at addr (127.0.0.1:port only).
// Every later call must complete within timeout, or fails.
func DialRedis(addr string, timeout time.Duration) (*Redis, error) {
	if err := checkLoopback(addr); err != nil {
		return nil, err
	}
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, fmt.Errorf("live: redis %s: %w", addr, err)
	}
	return &Redis{conn: c, r: bufio.NewReaderSize(c, 64<<10), timeout: timeout}, nil
}

// Close closes the connection.
func (c *Redis) Close() error { return c.conn.Close() }

// Do sends one command and returns its reply (a '-' reply is a Reply, not
// an error; errors are transport and protocol failures).
func (c *Redis) Do(args ...string) (Reply, error) {
	rs, err := c.Pipeline([][]string{args})
	if err != nil {
		return Reply{}, err
	}
	return rs[0], nil
}

// Pipeline sends every command without waiting and returns the replies in
// order. A writer goroutine streams the commands while the replies are
// read, so any number of commands fits in the socket buffers.
func (c *Redis) Pipeline(cmds [][]string) ([]Reply, error) {
	c.conn.SetDeadline(time.Now().Add(c.timeout))
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(c.conn, 64<<10)
		var b []byte
		for _, cmd := range cmds {
			b = append(b[:0], '*')
			b = strconv.AppendInt(b, int64(len(cmd)), 10)
			b = append(b, "\r\n"...)
			for _, a := range cmd {
				b = append(b, '$')
				b = strconv.AppendInt(b, int64(len(a)), 10)
				b = append(b, "\r\n"...)
				b = append(b, a...)
				b = append(b, "\r\n"...)
			}
			if _, err := w.Write(b); err != nil {
				werr <- err
				return
			}
		}
		werr <- w.Flush()
	}()
	out := make([]Reply, len(cmds))
	for i := range out {
		r, err := readReply(c.r)
		if err != nil {
			c.conn.Close() // unblocks the writer
			<-werr
			return nil, fmt.Errorf("live: redis %s: reply %d of %d: %w", c.conn.RemoteAddr(), i, len(cmds), err)
		}
		out[i] = r
	}
	if err := <-werr; err != nil {
		return nil, fmt.Errorf("live: redis %s: write: %w", c.conn.RemoteAddr(), err)
	}
	return out, nil
}

// readLine reads one CRLF-terminated line without the CRLF.
func readLine(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	if len(line) < 2 || line[len(line)-2] != '\r' {
		return "", fmt.Errorf("line %q not terminated by CRLF", line)
	}
	return line[:len(line)-2], nil
}

func readReply(r *bufio.Reader) (Reply, error) {
	line, err := readLine(r)
	if err != nil {
		return Reply{}, err
	}
	if line == "" {
		return Reply{}, fmt.Errorf("empty reply line")
	}
	rep := Reply{Kind: line[0]}
	body := line[1:]
	switch rep.Kind {
	case '+', '-':
		rep.Str = body
	case ':':
		rep.Int, err = strconv.ParseInt(body, 10, 64)
	case '$':
		n, perr := strconv.Atoi(body)
		if perr != nil || n < -1 {
			return Reply{}, fmt.Errorf("bad bulk length %q", body)
		}
		if n == -1 {
			rep.Nil = true
			break
		}
		buf := make([]byte, n+2)
		if _, err = io.ReadFull(r, buf); err == nil {
			rep.Str = string(buf[:n])
		}
	case '*':
		n, perr := strconv.Atoi(body)
		if perr != nil || n < -1 {
			return Reply{}, fmt.Errorf("bad array length %q", body)
		}
		if n == -1 {
			rep.Nil = true
			break
		}
		rep.Array = make([]Reply, n)
		for i := range rep.Array {
			if rep.Array[i], err = readReply(r); err != nil {
				break
			}
		}
	default:
		return Reply{}, fmt.Errorf("unknown reply type %q", line)
	}
	return rep, err
}
