package trace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
)

// Writer writes requests in one trace format, so that chbench's generated
// workloads can feed other tools and its readers' tests. Close flushes
// (and for oracle-general writes everything); the underlying io.Writer is
// not closed. A request the format cannot hold (a key with a comma in a
// CSV format, a newline in a line format) is an error naming it.
//
// What a format cannot say is dropped: the read reproduces the requests
// only as far as the format carries them (Format.HasTime, HasSize,
// HasTTL, HasClient; oracle-general has no operations and a numeric ID
// for each key; MONITOR has no gets/prepend/cas of its own, see
// [NewWriter]).
type Writer interface {
	Write(q *Request) error
	Close() error
}

// NewWriter returns a Writer of format name into w:
//
//   - twitter: one line per request, times and TTLs in whole seconds, the
//     client (or 0 when the request has none);
//   - meta-kv: the header [MetaKVColumns] and one row per request (op_count
//     = Count), GET/SET/DELETE for reads/writes/deletes, usecase = client;
//   - oracle-general: 24-byte records with the next access of every
//     request; the object ID is the key when it is a decimal uint64, else
//     its xxHash64 (as libCacheSim's traceConv hashes text IDs). It holds
//     the requests in memory (24 bytes each) until Close, which computes the
//     next accesses backwards and writes them;
//   - metadump: one line per request (la = time, exp = time + TTL or -1,
//     size = key + value bytes), then END;
//   - redis-scan, keys: the key on a line (Count lines for a Count > 1);
//   - redis-monitor: reads as GET, writes as SET (NX for add, XX for
//     replace and cas; EX for a TTL) with a value of ValueSize bytes,
//     append as APPEND, incr/decr as INCR/DECR, delete as DEL;
//   - key-count: key<TAB>Count.
//
// It returns an error naming an unknown format.
func NewWriter(w io.Writer, format string) (Writer, error) {
	if _, err := LookupFormat(format); err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	switch format {
	case OracleGeneral:
		return &oracleWriter{w: bw}, nil
	case MetaKV:
		return newMetaKVWriter(bw, MetaKVColumns)
	}
	return &lineWriter{w: bw, format: format}, nil
}

// MetaKVColumns is the header [NewWriter] writes for meta-kv: the 202401
// release's layout, the one with every column.
var MetaKVColumns = []string{"op_time", "key", "key_size", "op", "op_count", "size", "cache_hits", "ttl", "usecase", "sub_usecase"}

// NewMetaKVWriter returns a meta-kv Writer with the given header columns
// (a subset of MetaKVColumns in any order, with key, op and size), e.g.
// the 202206 layout key, op, size, op_count, key_size. It returns an error
// naming an unknown, repeated or missing column.
func NewMetaKVWriter(w io.Writer, columns []string) (Writer, error) {
	return newMetaKVWriter(bufio.NewWriterSize(w, 64<<10), columns)
}

func newMetaKVWriter(w *bufio.Writer, columns []string) (Writer, error) {
	seen := map[string]bool{}
	for _, c := range columns {
		known := false
		for _, k := range MetaKVColumns {
			known = known || c == k
		}
		if !known || seen[c] {
			return nil, fmt.Errorf("meta-kv column %q: unknown or repeated (known: %s)", c, strings.Join(MetaKVColumns, ", "))
		}
		seen[c] = true
	}
	if !seen["key"] || !seen["op"] || !seen["size"] {
		return nil, fmt.Errorf("meta-kv columns %s: need key, op and size", strings.Join(columns, ","))
	}
	mw := &metaKVWriter{w: w, cols: columns}
	_, err := w.WriteString(strings.Join(columns, ",") + "\n")
	return mw, err
}

type metaKVWriter struct {
	w    *bufio.Writer
	cols []string
	b    []byte
}

func (m *metaKVWriter) Write(q *Request) error {
	if bytes.ContainsAny(q.Key, ",\n\r") || bytes.ContainsAny(q.Client, ",\n\r") || len(q.Key) == 0 {
		return fmt.Errorf("meta-kv: key %q or client %q: empty, or holds a comma or line break", q.Key, q.Client)
	}
	b := m.b[:0]
	for i, c := range m.cols {
		if i > 0 {
			b = append(b, ',')
		}
		switch c {
		case "op_time":
			b = strconv.AppendInt(b, int64(q.Time/time.Second), 10)
		case "key":
			b = append(b, q.Key...)
		case "key_size":
			b = strconv.AppendInt(b, int64(q.KeySize), 10)
		case "op":
			switch {
			case q.Op.IsRead():
				b = append(b, "GET"...)
			case q.Op == OpDelete:
				b = append(b, "DELETE"...)
			default:
				b = append(b, "SET"...)
			}
		case "op_count":
			b = strconv.AppendInt(b, max(q.Count, 1), 10)
		case "size":
			b = strconv.AppendInt(b, int64(q.ValueSize), 10)
		case "ttl":
			b = strconv.AppendInt(b, int64(q.TTL/time.Second), 10)
		case "usecase":
			if len(q.Client) == 0 {
				b = append(b, '0')
			}
			b = append(b, q.Client...)
		default: // cache_hits, sub_usecase
			b = append(b, '0')
		}
	}
	m.b = append(b, '\n')
	_, err := m.w.Write(m.b)
	return err
}

func (m *metaKVWriter) Close() error { return m.w.Flush() }

// lineWriter writes the line formats.
type lineWriter struct {
	w      *bufio.Writer
	format string
	b      []byte
	cas    uint64
	items  int
}

func (l *lineWriter) Write(q *Request) error {
	b := l.b[:0]
	key := q.Key
	switch l.format {
	case Twitter:
		if len(key) == 0 || bytes.ContainsAny(key, ",\n\r") || bytes.ContainsAny(q.Client, ",\n\r") {
			return fmt.Errorf("twitter: key %q or client %q: empty, or holds a comma or line break", key, q.Client)
		}
		for range max(q.Count, 1) {
			b = strconv.AppendInt(b, int64(q.Time/time.Second), 10)
			b = append(b, ',')
			b = append(b, key...)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(q.KeySize), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(q.ValueSize), 10)
			b = append(b, ',')
			if len(q.Client) == 0 {
				b = append(b, '0')
			}
			b = append(b, q.Client...)
			b = append(b, ',')
			b = append(b, q.Op.String()...)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(q.TTL/time.Second), 10)
			b = append(b, '\n')
		}
	case Metadump:
		if len(key) == 0 {
			return fmt.Errorf("metadump: empty key")
		}
		l.cas++
		la := int64(q.Time / time.Second)
		b = append(b, "key="...)
		b = uriEncode(b, key)
		b = append(b, " exp="...)
		if q.TTL > 0 {
			b = strconv.AppendInt(b, la+int64((q.TTL+time.Second-1)/time.Second), 10)
		} else {
			b = append(b, "-1"...)
		}
		b = append(b, " la="...)
		b = strconv.AppendInt(b, la, 10)
		b = append(b, " cas="...)
		b = strconv.AppendUint(b, l.cas, 10)
		b = append(b, " fetch=no cls=1 size="...)
		b = strconv.AppendInt(b, int64(len(key)+q.ValueSize), 10)
		b = append(b, '\n')
	case RedisScan, Keys:
		if bytes.IndexByte(key, '\n') >= 0 || l.format == Keys && (len(bytes.TrimSpace(key)) == 0 || bytes.HasSuffix(key, []byte{'\r'}) || bytes.IndexByte(key, 0) >= 0) {
			return fmt.Errorf("%s: key %q cannot be one line of the format", l.format, key)
		}
		for range max(q.Count, 1) {
			b = append(b, key...)
			b = append(b, '\n')
		}
	case KeyCount:
		if len(key) == 0 || bytes.ContainsAny(key, "\n\r") {
			return fmt.Errorf("key-count: key %q: empty, or holds a line break", key)
		}
		b = append(b, key...)
		b = append(b, '\t')
		b = strconv.AppendInt(b, max(q.Count, 1), 10)
		b = append(b, '\n')
	case RedisMonitor:
		for range max(q.Count, 1) {
			b = appendMonitor(b, q)
		}
	}
	l.b = b
	_, err := l.w.Write(b)
	return err
}

func (l *lineWriter) Close() error {
	if l.format == Metadump {
		if _, err := l.w.WriteString("END\r\n"); err != nil {
			return err
		}
	}
	return l.w.Flush()
}

// appendMonitor appends q as a MONITOR line.
func appendMonitor(b []byte, q *Request) []byte {
	b = strconv.AppendInt(b, int64(q.Time/time.Second), 10)
	b = append(b, '.')
	us := int64(q.Time%time.Second) / 1000
	b = append(b, fmt.Sprintf("%06d", us)...)
	b = append(b, " [0 "...)
	if len(q.Client) == 0 {
		b = append(b, "127.0.0.1:1"...)
	}
	b = append(b, q.Client...)
	b = append(b, "] "...)
	value := func(b []byte) []byte {
		b = append(b, " \""...)
		for range q.ValueSize {
			b = append(b, 'v')
		}
		return append(b, '"')
	}
	ttl := func(b []byte) []byte {
		if q.TTL <= 0 {
			return b
		}
		b = append(b, ` "EX" "`...)
		b = strconv.AppendInt(b, int64((q.TTL+time.Second-1)/time.Second), 10)
		return append(b, '"')
	}
	cmd := func(name string) []byte {
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, "\" "...)
		return sdsRepr(b, q.Key)
	}
	switch q.Op {
	case OpGet, OpGets:
		b = cmd("GET")
	case OpSet:
		b = ttl(value(cmd("SET")))
	case OpAdd:
		b = ttl(append(value(cmd("SET")), ` "NX"`...))
	case OpReplace, OpCas, OpPrepend:
		b = ttl(append(value(cmd("SET")), ` "XX"`...))
	case OpAppend:
		b = value(cmd("APPEND"))
	case OpIncr:
		b = cmd("INCR")
	case OpDecr:
		b = cmd("DECR")
	case OpDelete:
		b = cmd("DEL")
	}
	return append(b, '\n')
}

// sdsRepr appends s quoted as Redis's sdscatrepr does.
func sdsRepr(b, s []byte) []byte {
	b = append(b, '"')
	for _, c := range s {
		switch c {
		case '\\', '"':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\a':
			b = append(b, '\\', 'a')
		case '\b':
			b = append(b, '\\', 'b')
		default:
			if c >= 0x20 && c < 0x7f { // isprint in the C locale
				b = append(b, c)
			} else {
				b = append(b, fmt.Sprintf("\\x%02x", c)...)
			}
		}
	}
	return append(b, '"')
}

// uriEncode appends s encoded as memcached's uriencode does.
func uriEncode(b, s []byte) []byte {
	const hexdigits = "0123456789ABCDEF"
	for _, c := range s {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b = append(b, c)
		} else {
			b = append(b, '%', hexdigits[c>>4], hexdigits[c&15])
		}
	}
	return b
}

// oracleWriter collects records and writes them with their next access.
type oracleWriter struct {
	w    *bufio.Writer
	recs []byte
}

func (o *oracleWriter) Write(q *Request) error {
	if q.Time < 0 || q.Time/time.Second > 1<<32-1 || q.ValueSize < 0 || int64(q.ValueSize) > 1<<32-1 {
		return fmt.Errorf("oracle-general: time %v or size %d does not fit 32 bits", q.Time, q.ValueSize)
	}
	id, err := strconv.ParseUint(string(q.Key), 10, 64)
	if err != nil || len(q.Key) > 1 && q.Key[0] == '0' {
		id = xxhash.Sum64(q.Key)
	}
	var rec [OracleRecordSize]byte
	binary.LittleEndian.PutUint32(rec[0:], uint32(q.Time/time.Second))
	binary.LittleEndian.PutUint64(rec[4:], id)
	binary.LittleEndian.PutUint32(rec[12:], uint32(q.ValueSize))
	for range max(q.Count, 1) {
		o.recs = append(o.recs, rec[:]...)
	}
	return nil
}

// Close fills in every next access (the 1-based number of the next record
// for the same object, -1 when none, as traceConv does) walking
// backwards, and writes the records.
func (o *oracleWriter) Close() error {
	n := len(o.recs) / OracleRecordSize
	nextOf := make(map[uint64]int64)
	for i := n - 1; i >= 0; i-- {
		rec := o.recs[i*OracleRecordSize:]
		id := binary.LittleEndian.Uint64(rec[4:])
		next, ok := nextOf[id]
		if !ok {
			next = -1
		}
		binary.LittleEndian.PutUint64(rec[16:], uint64(next))
		nextOf[id] = int64(i + 1)
	}
	if _, err := o.w.Write(o.recs); err != nil {
		return err
	}
	o.recs = nil
	return o.w.Flush()
}

// Copy writes every request r yields to w and closes w. It returns the
// first SyntaxError or read error of r, or w's error.
func Copy(w Writer, r Reader) error {
	for r.Scan() {
		switch rec := r.Record().(type) {
		case *Request:
			if err := w.Write(rec); err != nil {
				return err
			}
		case *SyntaxError:
			return rec
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	return w.Close()
}
