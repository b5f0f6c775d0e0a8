// Package procgroup starts child programs in a process group of their own
// and kills the whole group, so that nothing a child forks (a shell and the
// interpreter it runs, a server and its workers) outlives the code that
// started it. It also keeps the tail of a child's output for error
// messages. The live package (real servers) and the external placement
// (a program speaking chbench's line protocol) start their children
// through it.
package procgroup

import (
	"bytes"
	"sync"
)

// Tail is an io.Writer that keeps the last Max bytes written to it (Max >
// 0; a Tail with Max 0 keeps nothing). It is safe for concurrent use.
type Tail struct {
	Max int

	mu  sync.Mutex
	buf []byte
}

// Write appends b, dropping the oldest bytes beyond Max. It never fails.
func (t *Tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.Max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// String returns the kept bytes with surrounding white space trimmed, or
// "(no output)" when nothing but white space was written.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := bytes.TrimSpace(t.buf)
	if len(s) == 0 {
		return "(no output)"
	}
	return string(s)
}
