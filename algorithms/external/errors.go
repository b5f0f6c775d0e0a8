package external

import (
	"errors"
	"fmt"
	"strings"
)

// The causes an [*Error] wraps; test them with errors.Is.
var (
	// ErrExited: the program exited or crashed before its reply was
	// complete.
	ErrExited = errors.New("the program exited")
	// ErrTimeout: the reply did not arrive within Config.Timeout; the
	// program was killed.
	ErrTimeout = errors.New("no complete reply within the deadline")
	// ErrLineTooLong: a reply line exceeded the longest possible answer;
	// the program was killed.
	ErrLineTooLong = errors.New("reply line too long")
	// ErrGarbage: a reply line that the protocol does not allow (a byte
	// outside a token, a status other than ok or error, an invalid
	// handshake).
	ErrGarbage = errors.New("malformed reply")
	// ErrCount: an answer with a wrong number of node IDs, or more answer
	// lines than keys.
	ErrCount = errors.New("wrong number of answers")
	// ErrNotMember: an answer named a node that is not in the membership.
	ErrNotMember = errors.New("not a member")
	// ErrReply: the program replied error; it stays usable.
	ErrReply = errors.New("the program replied error")
	// ErrInterrupted: the context given to Start was done and the program
	// was killed.
	ErrInterrupted = errors.New("interrupted")
	// ErrClosed: the Process was closed.
	ErrClosed = errors.New("closed")
)

// Error is a failed request to an external placement, with where it
// failed. All fields but Program, Request and Err may be zero.
type Error struct {
	Program    string // the placement's name from the handshake, or the command before it
	Request    string // "hello", "members", "locate" or "drop"
	Membership uint64 // the membership the request names; 0 for hello
	// Batch is the 0-based number of the failed locate request within the
	// LocateKeys or ReplicateKeys call, of Batches; First and Last are the
	// indexes (into the call's keys) of its first and last key. Batches is
	// 0 for other requests.
	Batch, Batches, First, Last int
	// Key is the index into the call's keys of the key whose answer failed,
	// or -1 when the failure concerns no one key; KeyText is that key.
	Key     int
	KeyText string
	Line    string // the offending reply line, cut to 200 bytes; "" when none
	Err     error  // the cause, wrapping one of the Err variables above
	Stderr  string // the end of the program's standard error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "external %s: %s", e.Program, e.Request)
	if e.Batches > 0 {
		fmt.Fprintf(&b, " batch %d of %d (keys %d to %d)", e.Batch+1, e.Batches, e.First, e.Last)
	}
	if e.Membership > 0 {
		fmt.Fprintf(&b, " of membership %d", e.Membership)
	}
	if e.Key >= 0 && e.Batches > 0 {
		fmt.Fprintf(&b, ", key %d %q", e.Key, e.KeyText)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	if e.Line != "" {
		fmt.Fprintf(&b, "; reply line %q", e.Line)
	}
	if e.Stderr != "" {
		fmt.Fprintf(&b, "; its stderr ends: %s", e.Stderr)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// shown returns line cut to 200 bytes, for Error.Line.
func shown(line []byte) string {
	const max = 200
	if len(line) > max {
		return fmt.Sprintf("%s... (%d bytes)", line[:max], len(line))
	}
	return string(line)
}
