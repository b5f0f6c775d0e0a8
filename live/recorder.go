package live

import (
	"bufio"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Recorder is a set of listeners on 127.0.0.1 that speak enough of
// memcached's text protocol for a client or proxy to route keys to them,
// and record which listener each key reached. It stands in for a fleet of
// memcached servers when only the routing is observed: hundreds of
// "servers" cost one goroutine per connection. Replies: get/gets answer a
// miss (END), set/add/replace/append/prepend/cas answer STORED, delete
// NOT_FOUND, version a version line, anything else ERROR. A Recorder made
// by [StartRESPRecorder] speaks Redis's RESP instead (see there).
type Recorder struct {
	resp  bool
	lns   []net.Listener
	ports []int
	mu    sync.Mutex
	seen  map[string][]int32 // key -> listener indexes it reached, in order
	conns map[net.Conn]bool
	wg    sync.WaitGroup
	once  sync.Once
}

// StartRecorder listens on n ports of 127.0.0.1 chosen by the kernel.
func StartRecorder(n int) (*Recorder, error) { return startRecorder(autoAddrs(n), false) }

// StartRecorderAt listens on the given loopback addresses (127.x.y.z:port,
// in order), for checks whose server labels must not change from run to
// run; resp selects RESP as for StartRESPRecorder.
func StartRecorderAt(addrs []string, resp bool) (*Recorder, error) {
	for _, a := range addrs {
		if err := checkLoopbackRange(a); err != nil {
			return nil, err
		}
	}
	return startRecorder(addrs, resp)
}

// autoAddrs returns n addresses 127.0.0.1:0 (a port the kernel picks).
func autoAddrs(n int) []string {
	a := make([]string, n)
	for i := range a {
		a[i] = Loopback + ":0"
	}
	return a
}

// checkLoopbackRange returns an error unless addr is an IPv4 loopback
// address (127.0.0.0/8) with a port.
func checkLoopbackRange(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("live: address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || ip.To4() == nil || !ip.IsLoopback() {
		return fmt.Errorf("live: address %q: only 127.0.0.0/8 is allowed", addr)
	}
	return nil
}

// StartRESPRecorder is StartRecorder for clients of Redis: requests are
// RESP arrays; GET, SET, DEL, EXISTS and friends record their first key
// and answer a miss (null bulk), OK or 0; PING answers PONG, CLIENT and
// SELECT OK; HELLO (and anything else) is an unknown command, so clients
// fall back to RESP2.
func StartRESPRecorder(n int) (*Recorder, error) { return startRecorder(autoAddrs(n), true) }

func startRecorder(addrs []string, resp bool) (*Recorder, error) {
	r := &Recorder{resp: resp, seen: map[string][]int32{}, conns: map[net.Conn]bool{}}
	for i, a := range addrs {
		ln, err := net.Listen("tcp", a)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("live: recorder listener %d of %d: %w", i, len(addrs), err)
		}
		r.lns = append(r.lns, ln)
		r.ports = append(r.ports, ln.Addr().(*net.TCPAddr).Port)
		r.wg.Add(1)
		go r.accept(ln, int32(i))
	}
	return r, nil
}

// Ports returns the listeners' ports, in listener order.
func (r *Recorder) Ports() []int { return r.ports }

// Reset forgets every key recorded so far.
func (r *Recorder) Reset() {
	r.mu.Lock()
	r.seen = map[string][]int32{}
	r.mu.Unlock()
}

// Where returns the index of the listener key reached, -1 when it reached
// none, and an error when it reached more than one.
func (r *Recorder) Where(key string) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.seen[key]
	if len(s) == 0 {
		return -1, nil
	}
	for _, i := range s[1:] {
		if i != s[0] {
			return -1, fmt.Errorf("key %q reached listeners %v (ports of several servers)", key, s)
		}
	}
	return int(s[0]), nil
}

// Close stops every listener and connection and waits for their
// goroutines. It is safe to call more than once.
func (r *Recorder) Close() {
	r.once.Do(func() {
		for _, ln := range r.lns {
			ln.Close()
		}
		r.mu.Lock()
		for c := range r.conns {
			c.Close()
		}
		r.mu.Unlock()
		r.wg.Wait()
	})
}

func (r *Recorder) accept(ln net.Listener, idx int32) {
	defer r.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		r.mu.Lock()
		r.conns[c] = true
		r.mu.Unlock()
		r.wg.Add(1)
		go r.serve(c, idx)
	}
}

func (r *Recorder) note(key string, idx int32) {
	r.mu.Lock()
	r.seen[key] = append(r.seen[key], idx)
	r.mu.Unlock()
}

// recorderIdle closes a connection that sends nothing for this long, so a
// client that hangs cannot keep the test waiting.
const recorderIdle = 60 * time.Second

func (r *Recorder) serve(c net.Conn, idx int32) {
	defer r.wg.Done()
	defer func() {
		c.Close()
		r.mu.Lock()
		delete(r.conns, c)
		r.mu.Unlock()
	}()
	in := bufio.NewReaderSize(c, 64<<10)
	out := bufio.NewWriterSize(c, 64<<10)
	if r.resp {
		r.serveRESP(c, idx, in, out)
		return
	}
	for {
		c.SetDeadline(time.Now().Add(recorderIdle))
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			out.WriteString("ERROR\r\n")
		} else {
			switch f[0] {
			case "get", "gets":
				for _, k := range f[1:] {
					r.note(k, idx)
				}
				out.WriteString("END\r\n")
			case "set", "add", "replace", "append", "prepend", "cas":
				if len(f) < 5 {
					out.WriteString("ERROR\r\n")
					break
				}
				n, err := strconv.Atoi(f[4])
				if err != nil || n < 0 || n > 1<<20 {
					return
				}
				if _, err := in.Discard(n + 2); err != nil {
					return
				}
				r.note(f[1], idx)
				if f[len(f)-1] != "noreply" {
					out.WriteString("STORED\r\n")
				}
			case "delete":
				if len(f) > 1 {
					r.note(f[1], idx)
				}
				if f[len(f)-1] != "noreply" {
					out.WriteString("NOT_FOUND\r\n")
				}
			case "version":
				out.WriteString("VERSION 1.6.18\r\n")
			case "quit":
				out.Flush()
				return
			default:
				out.WriteString("ERROR\r\n")
			}
		}
		if in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				return
			}
		}
	}
}

// serveRESP answers RESP requests until the client closes or idles.
func (r *Recorder) serveRESP(c net.Conn, idx int32, in *bufio.Reader, out *bufio.Writer) {
	for {
		c.SetDeadline(time.Now().Add(recorderIdle))
		req, err := readReply(in)
		if err != nil || req.Kind != '*' || len(req.Array) == 0 {
			return
		}
		cmd := strings.ToUpper(req.Array[0].Str)
		switch cmd {
		case "GET", "SET", "DEL", "EXISTS", "INCR", "EXPIRE", "TTL", "HGET", "HSET":
			if len(req.Array) > 1 {
				r.note(req.Array[1].Str, idx)
			}
			switch cmd {
			case "GET", "HGET":
				out.WriteString("$-1\r\n")
			case "SET":
				out.WriteString("+OK\r\n")
			default:
				out.WriteString(":0\r\n")
			}
		case "PING":
			out.WriteString("+PONG\r\n")
		case "CLIENT", "SELECT":
			out.WriteString("+OK\r\n")
		default:
			fmt.Fprintf(out, "-ERR unknown command '%s'\r\n", strings.ReplaceAll(cmd, "\r\n", " "))
		}
		if in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				return
			}
		}
	}
}
