package trace

import (
	"encoding/binary"
	"io"
	"math"
	"time"

	"github.com/chbench/chbench/algorithms"
)

// OracleRecordSize is the size of one oracleGeneral record.
const OracleRecordSize = 24

// oracleBatch is how many records one read fetches.
const oracleBatch = 8192

// oracle reads libCacheSim's oracleGeneral binary trace
// (oracleGeneralBin.h; written by traceConv.cpp): packed 24-byte records,
// little-endian as libCacheSim writes them on x86,
//
//	offset 0  u32 clock_time         seconds
//	offset 4  u64 obj_id             a hash of the original key
//	offset 12 u32 obj_size           bytes
//	offset 16 i64 next_access_vtime  1-based number of the next request for obj_id; -1 (or INT64_MAX) if none
//
// with no header. Each record is one read (the format has no operation);
// the key is obj_id in decimal. A file whose length is not a multiple of
// 24 ends in a SyntaxError for the partial record. A next_access_vtime
// that does not point after its own request is a SyntaxError too: the
// file is not oracleGeneral or is corrupt.
type oracle struct {
	buf  []byte
	pos  int   // next record in buf
	n    int64 // records read (this record's 1-based number once read)
	done bool
	key  []byte // the decimal text of the current ID (appendDecimal)
}

func newOracle(r *reader) (parser, error) {
	return &oracle{buf: make([]byte, 0, oracleBatch*OracleRecordSize), key: make([]byte, 0, 24)}, nil
}

func (o *oracle) next(r *reader) bool {
	if o.pos+OracleRecordSize > len(o.buf) {
		if o.done {
			if rest := len(o.buf) - o.pos; rest > 0 {
				o.pos = len(o.buf)
				r.bad(0, r.lines.off, "%d trailing bytes: not a whole %d-byte record", rest, OracleRecordSize)
				r.lines.off += int64(rest)
				return true
			}
			return false
		}
		if !o.fill(r) {
			return false
		}
		return o.next(r)
	}
	rec := o.buf[o.pos : o.pos+OracleRecordSize]
	o.pos += OracleRecordSize
	off := r.lines.off
	r.lines.off += OracleRecordSize
	o.n++
	next := int64(binary.LittleEndian.Uint64(rec[16:]))
	if next != -1 && next != math.MaxInt64 && next <= o.n {
		r.bad(0, off, "record %d: next access %d does not come after it (want -1 or > %d)", o.n, next, o.n)
		return true
	}
	id := binary.LittleEndian.Uint64(rec[4:])
	h := algorithms.Mix64(id)
	o.key = appendDecimal(o.key[:0], id)
	q := r.request(0, off)
	q.Time = time.Duration(binary.LittleEndian.Uint32(rec)) * time.Second
	q.Key, q.KeySize, q.ValueSize, q.Op = o.key, len(o.key), int(binary.LittleEndian.Uint32(rec[12:])), OpGet
	r.stats.MaxID = max(r.stats.MaxID, id)
	r.hash, r.hashed = h, true
	return true
}

// fill reads the next batch, keeping a partial record.
func (o *oracle) fill(r *reader) bool {
	rest := copy(o.buf[:cap(o.buf)], o.buf[o.pos:])
	o.buf, o.pos = o.buf[:cap(o.buf)], 0
	n, err := io.ReadFull(r.br, o.buf[rest:])
	o.buf = o.buf[:rest+n]
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		o.done = true
	default:
		return r.fail(err)
	}
	return true
}

// sniffOracle reports whether b looks like oracleGeneral records: at
// least one whole record (and whole records only when atEOF), clock times
// that never decrease, every next-access number after its own request,
// and every one that falls inside the sample naming a record of the same
// object.
func sniffOracle(b []byte, atEOF bool) bool {
	n := len(b) / OracleRecordSize
	if n == 0 || atEOF && len(b)%OracleRecordSize != 0 {
		return false
	}
	var last uint32
	for i := range n {
		rec := b[i*OracleRecordSize:]
		t := binary.LittleEndian.Uint32(rec)
		if t < last {
			return false
		}
		last = t
		next := int64(binary.LittleEndian.Uint64(rec[16:]))
		if next == -1 || next == math.MaxInt64 {
			continue
		}
		if next <= int64(i+1) {
			return false
		}
		if next <= int64(n) {
			if binary.LittleEndian.Uint64(b[(next-1)*OracleRecordSize+4:]) != binary.LittleEndian.Uint64(rec[4:]) {
				return false
			}
		}
	}
	return true
}
