// Package dump reads key dumps, the owners a real system gave its keys,
// and compares them with a chbench placement or with another dump.
//
// A dump is a text file of lines "KEY<TAB>SERVER": a key, one tab, the
// node that holds it (a user's library, their proxy's logs, a cache's key
// listing). KEY and SERVER are tokens of the external placement protocol
// (docs/protocol.md): a byte from '!' to '~' other than '%' stands for
// itself, every other byte (space, tab, control characters, '%', bytes >=
// 0x7F) is written %XX, so a key may hold any bytes and the empty key is an
// empty field. A line may end in "\r\n". Keys made only of visible ASCII
// without '%' (most cache keys) need no escaping at all. The same format
// is the conformance suite's reference vector file.
//
// [Reader] reads a dump as a stream, shaped like bufio.Scanner (Scan,
// Record, Err), with memory independent of the dump's length; a malformed
// line stops it with a [*SyntaxError] naming the file and line. [Compare]
// and [CompareDumps] measure agreement; [Guess] ranks chbench's placements
// by how well they reproduce a dump.
package dump

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/chbench/chbench/internal/escape"
)

// MaxLineBytes is the longest dump line accepted: a key of 1 MiB
// (keyset.MaxKeyBytes) escaped in full, a tab and a server name.
const MaxLineBytes = 3<<20 + 4<<10

// Record is one line of a dump: the key and its server, decoded, and the
// line's 1-based number.
type Record struct {
	Key, Server string
	Line        int
}

// SyntaxError is a malformed dump line.
type SyntaxError struct {
	File string // the name given to NewReader
	Line int    // 1-based
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Reader reads the records of a dump one at a time.
type Reader struct {
	name string
	sc   *bufio.Scanner
	line int
	rec  Record
	buf  []byte
	err  error
}

// NewReader returns a Reader of the dump r; name (a file name) appears in
// its errors.
func NewReader(r io.Reader, name string) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	return &Reader{name: name, sc: sc}
}

// Scan reads the next record, returning false at the end of the dump or at
// the first error (see Err).
func (r *Reader) Scan() bool {
	if r.err != nil {
		return false
	}
	if !r.sc.Scan() {
		switch err := r.sc.Err(); {
		case errors.Is(err, bufio.ErrTooLong):
			r.err = &SyntaxError{File: r.name, Line: r.line + 1, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
		case err != nil:
			r.err = fmt.Errorf("%s: after line %d: %w", r.name, r.line, err)
		}
		return false
	}
	r.line++
	line := bytes.TrimSuffix(r.sc.Bytes(), []byte{'\r'})
	key, server, ok := bytes.Cut(line, []byte{'\t'})
	if !ok {
		return r.fail("no tab: want KEY<TAB>SERVER (bytes outside visible ASCII escaped as %XX)")
	}
	if bytes.IndexByte(server, '\t') >= 0 {
		return r.fail(fmt.Sprintf("%d tab-separated fields, want 2 (KEY<TAB>SERVER; a tab inside a key is written %%09)", bytes.Count(line, []byte{'\t'})+1))
	}
	if len(server) == 0 {
		return r.fail("empty server name")
	}
	var err error
	if r.buf, err = escape.Decode(r.buf[:0], key); err != nil {
		return r.fail(fmt.Sprintf("key: %v", err))
	}
	k := string(r.buf)
	if r.buf, err = escape.Decode(r.buf[:0], server); err != nil {
		return r.fail(fmt.Sprintf("server: %v", err))
	}
	r.rec = Record{Key: k, Server: string(r.buf), Line: r.line}
	return true
}

func (r *Reader) fail(msg string) bool {
	r.err = &SyntaxError{File: r.name, Line: r.line, Msg: msg}
	return false
}

// Record returns the record read by the last successful Scan.
func (r *Reader) Record() Record { return r.rec }

// Err returns the error that stopped Scan: a [*SyntaxError] or a read
// error, or nil at the end of the dump.
func (r *Reader) Err() error { return r.err }

// Format returns the dump line of key and server, without its newline:
// both escaped, joined by a tab.
func Format(key, server string) string {
	b := escape.Append(nil, key)
	b = append(b, '\t')
	return string(escape.Append(b, server))
}
