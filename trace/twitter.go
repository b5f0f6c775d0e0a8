package trace

import (
	"bytes"
	"math"
	"time"
)

// parseTwitter reads one line of Twitter's cache trace (twitter/cache-trace
// README.md): seven comma-separated columns, timestamp (seconds),
// anonymized key, key size, value size, client ID, operation (get, gets,
// set, add, replace, cas, append, prepend, delete, incr, decr) and TTL
// (seconds, 0 for none and on reads). The traces have no header.
func parseTwitter(r *reader, line []byte, n, off int64) bool {
	var f [7][]byte
	if !splitN(line, ',', f[:]) {
		r.bad(n, off, "%d columns, want 7 (timestamp,key,key_size,value_size,client_id,operation,TTL): %q", bytes.Count(line, []byte{','})+1, clip(line))
		return true
	}
	ts, ok1 := parseUint(f[0])
	ks, ok2 := parseUint(f[2])
	vs, ok3 := parseUint(f[3])
	ttl, ok4 := parseUint(f[6])
	op, ok5 := parseOpBytes(f[5])
	switch {
	case !ok1:
		r.bad(n, off, "timestamp %q is not a whole number of seconds", clip(f[0]))
	case len(f[1]) == 0:
		r.bad(n, off, "empty key")
	case !ok2 || ks > maxSize:
		r.bad(n, off, "key size %q is not a whole number of bytes", clip(f[2]))
	case !ok3 || vs > maxSize:
		r.bad(n, off, "value size %q is not a whole number of bytes", clip(f[3]))
	case !ok5:
		r.bad(n, off, "unknown operation %q (want get, gets, set, add, replace, cas, append, prepend, delete, incr, decr)", clip(f[5]))
	case !ok4 || ttl > maxSeconds:
		r.bad(n, off, "TTL %q is not a whole number of seconds", clip(f[6]))
	case ts > maxSeconds:
		r.bad(n, off, "timestamp %d s is too far from the epoch", ts)
	default:
		q := r.request(n, off)
		q.Time = time.Duration(ts) * time.Second
		q.Key, q.KeySize, q.ValueSize = f[1], int(ks), int(vs)
		q.Client, q.Op, q.TTL = f[4], op, time.Duration(ttl)*time.Second
	}
	return true
}

func sniffTwitter(lines [][]byte) bool {
	var f [7][]byte
	for _, l := range lines {
		if !splitN(l, ',', f[:]) {
			return false
		}
		_, ok1 := parseUint(f[0])
		_, ok2 := parseUint(f[2])
		_, ok3 := parseUint(f[3])
		_, ok4 := parseUint(f[6])
		_, ok5 := parseOpBytes(f[5])
		if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || len(f[1]) == 0 {
			return false
		}
	}
	return true
}

// maxSize bounds a size field (1 TiB): larger is a corrupt record, and
// sizes stay well inside an int.
const maxSize = 1 << 40

// maxSeconds bounds a time or TTL in seconds so that it fits a
// time.Duration (about 292 years).
const maxSeconds = uint64(math.MaxInt64 / int64(time.Second))

// splitN splits line at sep into exactly len(f) fields, reporting false
// for any other number.
func splitN(line []byte, sep byte, f [][]byte) bool {
	for i := range len(f) - 1 {
		j := bytes.IndexByte(line, sep)
		if j < 0 {
			return false
		}
		f[i], line = line[:j], line[j+1:]
	}
	if bytes.IndexByte(line, sep) >= 0 {
		return false
	}
	f[len(f)-1] = line
	return true
}

// parseUint parses a decimal number of at most 18 digits (no sign, no
// spaces).
func parseUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// parseOpBytes returns the Op named b (Twitter's lower-case names).
func parseOpBytes(b []byte) (Op, bool) {
	for i, name := range opNames {
		if string(b) == name {
			return Op(i), true
		}
	}
	return 0, false
}
