package trace

import (
	"bytes"
	"time"
)

// A memcached metadump (`lru_crawler metadump all|<classes>|hash`) is one
// line per live item, written by crawler.c's crawler_metadump_eval:
//
//	key=<key> exp=<exptime> la=<last access> cas=<cas> fetch=<yes|no> cls=<class> size=<bytes>\n
//
// (1.6.22 and later append flags=<client flags>, builds with extstore
// ext_page= and ext_offset=), then END\r\n; newer versions start with
// OK\r\n. The key is URI-encoded by util.c's uriencode: every byte but
// A-Z a-z 0-9 - . _ ~ as %XX. exp is the Unix time the item expires, -1
// for never; la the Unix time of its last access; size is ITEM_ntotal,
// the bytes the item takes in memcached's memory (item header, key and
// its NUL, value with its CRLF, CAS). Fields are read by name, so their
// order and unknown extra fields do not matter.
//
// Each line becomes one request: a get of the item at time la, with
// ValueSize = size - len(key) (so KeySize + ValueSize is the item's size)
// and TTL = exp - la (at least 1 s; 0 for exp=-1).
type metadump struct {
	textParser
	key   []byte
	ended bool
}

func newMetadump(r *reader) (parser, error) {
	m := &metadump{}
	m.textParser = textParser{m.parse}
	return m, nil
}

func (m *metadump) next(r *reader) bool {
	if m.textParser.next(r) {
		return true
	}
	if !m.ended && r.err == nil && r.stats.Records > 0 {
		r.stats.Unterminated = true
	}
	return false
}

func (m *metadump) parse(r *reader, line []byte, n, off int64) bool {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	switch {
	case string(line) == "END":
		m.ended = true
		r.stats.Skipped++
		return false
	case string(line) == "OK" || len(line) == 0:
		r.stats.Skipped++
		return false
	case !bytes.HasPrefix(line, []byte("key=")):
		r.bad(n, off, "not a metadump line (key=... exp=... la=... size=...): %q", clip(line))
		return true
	}
	m.ended = false
	var key, exp, la, size []byte
	var haveKey, haveExp, haveLa, haveSize bool
	for rest := line; len(rest) > 0; {
		var f []byte
		f, rest, _ = bytes.Cut(rest, []byte{' '})
		if len(f) == 0 {
			continue
		}
		name, val, ok := bytes.Cut(f, []byte{'='})
		if !ok {
			r.bad(n, off, "field %q is not name=value", clip(f))
			return true
		}
		switch string(name) {
		case "key":
			key, haveKey = val, true
		case "exp":
			exp, haveExp = val, true
		case "la":
			la, haveLa = val, true
		case "size":
			size, haveSize = val, true
		}
	}
	if !haveKey || !haveExp || !haveLa || !haveSize {
		r.bad(n, off, "a metadump line needs key=, exp=, la= and size=: %q", clip(line))
		return true
	}
	var ok bool
	if m.key, ok = uriDecode(m.key[:0], key); !ok || len(m.key) == 0 {
		r.bad(n, off, "key %q is not URI-encoded (%%XX escapes)", clip(key))
		return true
	}
	access, ok1 := parseUint(la)
	total, ok2 := parseUint(size)
	expires, ok3 := parseUint(exp)
	if string(exp) == "-1" {
		expires, ok3 = 0, true
	}
	switch {
	case !ok1 || access > maxSeconds:
		r.bad(n, off, "la=%q is not a Unix time", clip(la))
		return true
	case !ok2 || total > maxSize || int(total) < len(m.key):
		r.bad(n, off, "size=%q is not a whole number of bytes holding the %d-byte key", clip(size), len(m.key))
		return true
	case !ok3 || expires > maxSeconds:
		r.bad(n, off, "exp=%q is not -1 or a Unix time", clip(exp))
		return true
	}
	q := r.request(n, off)
	q.Key, q.KeySize, q.ValueSize, q.Op = m.key, len(m.key), int(total)-len(m.key), OpGet
	q.Time = time.Duration(access) * time.Second
	if expires > 0 {
		q.TTL = time.Duration(max(int64(expires)-int64(access), 1)) * time.Second
	}
	return true
}

func sniffMetadump(lines [][]byte) bool {
	items := 0
	for _, l := range lines {
		l = bytes.TrimSuffix(l, []byte{'\r'})
		switch {
		case string(l) == "END" || string(l) == "OK":
		case bytes.HasPrefix(l, []byte("key=")) && bytes.Contains(l, []byte(" exp=")) && bytes.Contains(l, []byte(" la=")) && bytes.Contains(l, []byte(" size=")):
			items++
		default:
			return false
		}
	}
	return items > 0 || len(lines) > 0 && string(bytes.TrimSuffix(lines[len(lines)-1], []byte{'\r'})) == "END"
}

// uriDecode appends the URI-decoded s to dst: %XX (hexadecimal) is the
// byte XX, every other byte itself. It reports false for a % not followed
// by two hexadecimal digits.
func uriDecode(dst, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			dst = append(dst, c)
			continue
		}
		if i+2 >= len(s) {
			return dst, false
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return dst, false
		}
		v := hi<<4 | lo
		dst = append(dst, byte(v))
		i += 2
	}
	return dst, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
