package external

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/internal/escape"
)

// readBuf is the size of the reply reader's buffer: lines up to this
// length are read without copying.
const readBuf = 64 << 10

var errTooLong = errors.New("line too long")

// lineReader reads reply lines of bounded length.
type lineReader struct {
	br   *bufio.Reader
	long []byte // a line longer than the buffer, assembled
}

func (r *lineReader) init(f *os.File) { r.br = bufio.NewReaderSize(f, readBuf) }

// next returns the next line without its line end ("\n" or "\r\n"),
// valid until the next call. A line longer than limit bytes returns its
// first bytes and errTooLong, without reading the rest; a line cut short
// by the end of the stream returns the part read and the read error.
func (r *lineReader) next(limit int) ([]byte, error) {
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull {
			if len(r.long) > limit+2 {
				return r.long[:256], errTooLong
			}
			line, err = r.br.ReadSlice('\n')
			r.long = append(r.long, line...)
		}
		line = r.long
	}
	if err == nil {
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	if len(line) > limit {
		return line[:256], errTooLong
	}
	return line, err
}

// req describes the request being served, for errors.
type req struct {
	name                        string
	membership                  uint64
	batch, batches, first, last int
	keys                        []string
}

// newError returns the *Error of a failure of q at key (an index into
// q.keys, or -1), with the offending line.
func (p *Process) newError(q *req, key int, line []byte, cause error) *Error {
	e := &Error{Program: p.name, Request: q.name, Membership: q.membership, Key: -1, Err: cause, Stderr: p.stderr.String()}
	if q.batches > 0 {
		e.Batch, e.Batches, e.First, e.Last = q.batch, q.batches, q.first, q.last
	}
	if key >= 0 && key < len(q.keys) {
		e.Key, e.KeyText = key, q.keys[key]
	}
	if line != nil {
		e.Line = shown(line)
	}
	return e
}

// fail stops the program after a failure that leaves the stream
// unusable, records the failure for every later request, and returns it.
// p.mu is held.
func (p *Process) fail(q *req, key int, line []byte, cause error) error {
	if a := p.aborted.Load(); a != nil {
		cause = fmt.Errorf("%w (%v)", *a, cause)
	}
	p.kill()
	p.drainWrite()
	e := p.newError(q, key, line, cause)
	p.err = e
	return e
}

// usable returns the error that keeps requests from being sent, or nil.
// p.mu is held.
func (p *Process) usable(q *req) error {
	if p.err != nil {
		return fmt.Errorf("external %s: %s: stopped by an earlier failure: %w", p.name, q.name, p.err)
	}
	if a := p.aborted.Load(); a != nil {
		return p.newError(q, -1, nil, *a)
	}
	return nil
}

// send hands b to the writer and sets the deadline of its reply. It
// returns false when the program has already exited. p.mu is held.
func (p *Process) send(b []byte) bool {
	dl := time.Now().Add(p.cfg.Timeout)
	p.stdout.SetReadDeadline(dl)
	select {
	case p.writes <- write{b: b, deadline: dl}:
		p.inflight = true
		return true
	case <-p.done:
		return false
	}
}

// drainWrite waits for the write in flight, if any, and returns its error.
// The write has the reply's deadline, and a killed program's pipe fails
// the write at once, so the wait is bounded. p.mu is held.
func (p *Process) drainWrite() error {
	if !p.inflight {
		return nil
	}
	p.inflight = false
	select {
	case err := <-p.written:
		return err
	case <-time.After(p.cfg.Timeout + exitWait):
		return fmt.Errorf("writing the request still blocked %v after its deadline", exitWait)
	}
}

// readFailure returns the cause of a failed read of answer got of want
// (an error of lineReader.next; want is 0 for a reply without answers).
func (p *Process) readFailure(err error, got, want, limit int) error {
	switch {
	case errors.Is(err, errTooLong):
		return fmt.Errorf("%w: longer than %d bytes, the longest answer possible", ErrLineTooLong, limit)
	case want == 0 && errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("%w (%v); killed", ErrTimeout, p.cfg.Timeout)
	case want == 0 && errors.Is(err, io.EOF):
		return fmt.Errorf("%w (%s) before replying", ErrExited, p.exitStatus())
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("%w (%v): %d of %d answers read; killed", ErrTimeout, p.cfg.Timeout, got, want)
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w (%s) after %d of %d answers", ErrExited, p.exitStatus(), got, want)
	}
	return fmt.Errorf("%w: reading its output: %v", ErrExited, err)
}

// status reads the status line of a reply. It returns the fields after
// "ok" (nil for a bare ok), or a cause: ErrReply with the program's message
// (the stream is intact) or another error (it is not: fatal is true).
func (p *Process) status(want int) (fields []byte, line []byte, cause error, fatal bool) {
	line, err := p.rd.next(MinLineBytes)
	if err != nil {
		return nil, line, p.readFailure(err, 0, want, MinLineBytes), true
	}
	switch {
	case string(line) == "ok":
		return nil, line, nil, false
	case bytes.HasPrefix(line, []byte("ok ")):
		return line[3:], line, nil, false
	case string(line) == "error" || bytes.HasPrefix(line, []byte("error ")):
		msg := strings.TrimSpace(strings.TrimPrefix(string(line), "error"))
		return nil, line, fmt.Errorf("%w: %q", ErrReply, msg), false
	}
	word, _, _ := bytes.Cut(line, []byte{' '})
	return nil, line, fmt.Errorf("%w: reply begins with %q, want ok or error (the previous reply had more lines than announced?)", ErrGarbage, shown(word)), true
}

// extra returns an error when output follows a complete reply before the
// next request: the program wrote more lines than the reply holds.
func (p *Process) extra() ([]byte, error) {
	if p.rd.br.Buffered() == 0 {
		return nil, nil
	}
	b, _ := p.rd.br.Peek(min(p.rd.br.Buffered(), 200))
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	return line, fmt.Errorf("%w: more lines than the reply holds", ErrCount)
}

// simple sends a request whose reply is a status line only (members,
// drop) and returns the error of its reply, or nil on ok.
func (p *Process) simple(q *req, b []byte) error {
	if !p.send(b) {
		return p.fail(q, -1, nil, fmt.Errorf("%w (%s) before the request", ErrExited, p.exitStatus()))
	}
	fields, line, cause, fatal := p.status(0)
	if fatal {
		return p.fail(q, -1, line, cause)
	}
	if err := p.drainWrite(); err != nil {
		return p.fail(q, -1, nil, fmt.Errorf("%w: did not read the whole request: %v", ErrGarbage, err))
	}
	if cause == nil && fields != nil {
		return p.fail(q, -1, line, fmt.Errorf("%w: %s replied %q, want ok alone", ErrGarbage, q.name, shown(line)))
	}
	if line, err := p.extra(); err != nil {
		return p.fail(q, -1, line, err)
	}
	if cause != nil {
		return p.newError(q, -1, nil, cause)
	}
	return nil
}

// hello performs the handshake.
func (p *Process) hello() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := &req{name: "hello"}
	if !p.send([]byte("hello " + strconv.Itoa(Version) + "\n")) {
		return p.fail(q, -1, nil, fmt.Errorf("%w (%s) before the handshake", ErrExited, p.exitStatus()))
	}
	fields, line, cause, fatal := p.status(0)
	if fatal {
		return p.fail(q, -1, line, cause)
	}
	if err := p.drainWrite(); err != nil {
		return p.fail(q, -1, nil, fmt.Errorf("%w: did not read the handshake: %v", ErrExited, err))
	}
	if cause != nil {
		return p.fail(q, -1, line, cause)
	}
	name, facts, err := parseHello(fields)
	if err != nil {
		return p.fail(q, -1, line, err)
	}
	if line, err := p.extra(); err != nil {
		return p.fail(q, -1, line, err)
	}
	p.name, p.facts = name, facts
	return nil
}

// parseHello parses the fields after "ok" of the handshake reply:
// "1 NAME FACT=VALUE...".
func parseHello(fields []byte) (string, algorithms.Facts, error) {
	var f algorithms.Facts
	words := strings.Split(string(fields), " ")
	if len(words) < 2 {
		return "", f, fmt.Errorf("%w: handshake %q: want ok, the version 1, the placement's name and its facts", ErrGarbage, fields)
	}
	if words[0] != strconv.Itoa(Version) {
		return "", f, fmt.Errorf("%w: handshake version %q: chbench speaks version %d", ErrGarbage, words[0], Version)
	}
	raw, err := escape.Decode(nil, []byte(words[1]))
	if err != nil || len(raw) == 0 || strings.ContainsFunc(string(raw), unicode.IsControl) {
		return "", f, fmt.Errorf("%w: placement name %q: want a non-empty token without control characters", ErrGarbage, words[1])
	}
	seen := map[string]bool{}
	f.Replicas = 1
	for _, w := range words[2:] {
		k, v, ok := strings.Cut(w, "=")
		if !ok || seen[k] {
			return "", f, fmt.Errorf("%w: handshake fact %q: want NAME=VALUE, each name once", ErrGarbage, w)
		}
		seen[k] = true
		var bad bool
		switch k {
		case "weighted":
			f.Weighted, bad = yesNo(v)
		case "ordered":
			f.Ordered, bad = yesNo(v)
		case "stateful":
			f.Stateful, bad = yesNo(v)
		case "leave":
			f.OnlyLastLeaves, bad = v == "last", v != "any" && v != "last"
		case "replicas":
			n, err := strconv.Atoi(v)
			f.Replicas, bad = n, err != nil || n < 1 || n > algorithms.MaxReplicas
		default:
			return "", f, fmt.Errorf("%w: unknown handshake fact %q (known: weighted, leave, ordered, replicas, stateful)", ErrGarbage, k)
		}
		if bad {
			return "", f, fmt.Errorf("%w: handshake fact %q: value %q is not one of %s", ErrGarbage, k, v, factValues[k])
		}
	}
	for _, k := range []string{"weighted", "leave", "ordered"} {
		if !seen[k] {
			return "", f, fmt.Errorf("%w: handshake lacks the fact %s (%s)", ErrGarbage, k, factValues[k])
		}
	}
	return string(raw), f, nil
}

var factValues = map[string]string{
	"weighted": "yes, no", "ordered": "yes, no", "stateful": "yes, no", "leave": "any, last",
	"replicas": fmt.Sprintf("1 to %d", algorithms.MaxReplicas),
}

func yesNo(v string) (value, bad bool) { return v == "yes", v != "yes" && v != "no" }
