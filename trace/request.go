package trace

import (
	"fmt"
	"time"
)

// Op is a cache operation as the traces name it. The names are Twitter's
// (twemcache's text protocol: get, gets, set, add, replace, cas, append,
// prepend, delete, incr, decr); the other formats map onto them (Meta's
// GET and GET_LEASE are get, SET and SET_LEASE set, DELETE delete; Redis
// commands by what they do to a key, see the redis-monitor format).
type Op uint8

// The operations, in Twitter's order.
const (
	OpGet Op = iota
	OpGets
	OpSet
	OpAdd     // store only if absent
	OpReplace // store only if present
	OpCas     // store only if present (and unchanged: traces do not carry the CAS token)
	OpAppend  // extend a present value
	OpPrepend // extend a present value
	OpDelete
	OpIncr // change a present counter
	OpDecr // change a present counter
	// NumOps is the number of operations; Op values are 0..NumOps-1.
	NumOps
)

var opNames = [NumOps]string{"get", "gets", "set", "add", "replace", "cas", "append", "prepend", "delete", "incr", "decr"}

// String returns the operation's name ("get", "set", ...).
func (o Op) String() string {
	if o < NumOps {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// ParseOp returns the Op named s in Twitter's spelling (lower case), and
// false for any other string.
func ParseOp(s string) (Op, bool) {
	for i, n := range opNames {
		if n == s {
			return Op(i), true
		}
	}
	return 0, false
}

// IsRead reports whether o reads a value (get, gets): the requests a hit
// ratio counts.
func (o Op) IsRead() bool { return o == OpGet || o == OpGets }

// IsWrite reports whether o stores or changes a value (set, add, replace,
// cas, append, prepend, incr, decr).
func (o Op) IsWrite() bool { return o >= OpSet && o != OpDelete && o < NumOps }

// Request is one request of a trace, the one type every reader yields.
// Key and Client alias the reader's buffers: they are valid until the
// next Scan (copy them to keep them).
type Request struct {
	// Time is when the request arrived, measured from the trace's own
	// clock origin (the Unix epoch for Twitter, MONITOR, metadump; the
	// trace's first second for libCacheSim and Meta). It is 0 in formats
	// without a clock (Format.HasTime false).
	Time time.Duration
	// Key is the key as the trace spells it (anonymized in Twitter's and
	// Meta's traces, the decimal object ID in libCacheSim's).
	Key []byte
	// KeySize is the key's size in bytes as the trace states it: the
	// original key's size where the trace anonymizes keys (Twitter's and
	// Meta's key_size), len(Key) elsewhere.
	KeySize int
	// ValueSize is the value's size in bytes: 0 when the trace does not
	// say (gets that missed in Twitter's traces, key lists). For a
	// memcached metadump it is the item's size in memcached's memory
	// minus the key, so KeySize + ValueSize is what the item occupies.
	ValueSize int
	// Op is the operation.
	Op Op
	// TTL is the time to live a write sets, 0 for none (and for reads).
	TTL time.Duration
	// Count is how many identical requests the record stands for (>= 1):
	// Meta's op_count, a key-count file's count, 1 elsewhere.
	Count int64
	// Client names the requesting client where the trace has one
	// (Twitter's client_id, Meta's usecase, MONITOR's address), else nil.
	Client []byte
	// Line is the 1-based line the request came from in text formats; 0
	// in binary ones.
	Line int64
	// Offset is the byte offset of the record in the decompressed input.
	Offset int64
}

// Bytes returns the request's object size, KeySize + ValueSize bytes: what
// the object occupies in a cache that charges keys and values (as
// libCacheSim sizes Twitter's objects).
func (r *Request) Bytes() int64 { return int64(r.KeySize) + int64(r.ValueSize) }

// A Record is what one Scan of a [Reader] produces: a *[Request] or a
// *[SyntaxError].
type Record interface{ isRecord() }

func (*Request) isRecord()     {}
func (*SyntaxError) isRecord() {}

// SyntaxError is a record a reader could not read. It is a value to report
// (as benchfmt's syntax errors are), not the end of the trace: the reader
// goes on with the next record.
type SyntaxError struct {
	Format string // the format's name
	Line   int64  // 1-based line in text formats, 0 in binary ones
	Offset int64  // byte offset of the record in the decompressed input
	Msg    string // what is wrong, naming the bad value
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: line %d: %s", e.Format, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: byte %d: %s", e.Format, e.Offset, e.Msg)
}
