package trace

import (
	"bytes"
	"fmt"
	"io"
	"time"
)

// Meta's KV cache traces are CSV files whose first line is a header; the
// header names the columns, in any order, as CacheLib's cachebench reads
// them (KVReplayGenerator.h: key, op, size required; op_count, key_size,
// ttl, op_time, cache_hits optional). The releases use four layouts
// (libCacheSim's traceConv script for them):
//
//	202206  key,op,size,op_count,key_size
//	202210  op_time,key,key_size,op,op_count,size,cache_hits,ttl
//	202312  key,op,size,op_count,key_size,ttl
//	202401  op_time,key,key_size,op,op_count,size,cache_hits,ttl,usecase,sub_usecase
//
// A row stands for op_count requests (cachebench replays it op_count
// times; 0 is an invalid row there and here). op is GET, GET_LEASE (read),
// SET, SET_LEASE (write) or DELETE. key is an anonymized numeric ID
// (decimal; 16 hexadecimal digits in 202401), key_size the original key's
// size, size the value's, ttl seconds. op_time is the trace's clock in
// seconds (cachebench divides it by timestampFactor, default 1; libCacheSim
// subtracts the first). usecase becomes Request.Client.
type metaKV struct {
	textParser
	key, op, size, count, keySize, ttl, time, usecase int // column indexes, -1 when absent
	ncols                                             int
	fields                                            [][]byte
}

func newMetaKV(r *reader) (parser, error) {
	line, _, err := r.lines.read()
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%s: the trace is empty (a Meta KV trace starts with a header line)", MetaKV)
		}
		return nil, fmt.Errorf("%s: reading the header: %w", MetaKV, err)
	}
	m := &metaKV{key: -1, op: -1, size: -1, count: -1, keySize: -1, ttl: -1, time: -1, usecase: -1}
	cols := bytes.Split(bytes.TrimSuffix(line, []byte{'\r'}), []byte{','})
	for i, c := range cols {
		var p *int
		switch string(c) {
		case "key":
			p = &m.key
		case "op":
			p = &m.op
		case "size":
			p = &m.size
		case "op_count":
			p = &m.count
		case "key_size":
			p = &m.keySize
		case "ttl":
			p = &m.ttl
		case "op_time":
			p = &m.time
		case "usecase":
			p = &m.usecase
		default:
			continue // cache_hits, sub_usecase and unknown columns are not used
		}
		if *p >= 0 {
			return nil, fmt.Errorf("%s: header %q names column %q twice", MetaKV, clip(line), c)
		}
		*p = i
	}
	if m.key < 0 || m.op < 0 || m.size < 0 {
		return nil, fmt.Errorf("%s: line 1 %q is not a header naming the key, op and size columns (CacheLib's KVReplayGenerator requires them)", MetaKV, clip(line))
	}
	m.ncols = len(cols)
	m.fields = make([][]byte, m.ncols)
	r.stats.Skipped++
	r.stats.HasTime, r.stats.HasClient = m.time >= 0, m.usecase >= 0
	m.textParser = textParser{m.parse}
	return m, nil
}

func (m *metaKV) parse(r *reader, line []byte, n, off int64) bool {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if !splitN(line, ',', m.fields) {
		r.bad(n, off, "%d columns, the header names %d: %q", bytes.Count(line, []byte{','})+1, m.ncols, clip(line))
		return true
	}
	f := m.fields
	size, ok := parseUint(f[m.size])
	if !ok || size > maxSize {
		r.bad(n, off, "size %q is not a whole number of bytes", clip(f[m.size]))
		return true
	}
	var op Op
	switch string(f[m.op]) {
	case "GET", "GET_LEASE":
		op = OpGet
	case "SET", "SET_LEASE":
		op = OpSet
	case "DELETE":
		op = OpDelete
	default:
		r.bad(n, off, "unknown op %q (want GET, GET_LEASE, SET, SET_LEASE or DELETE)", clip(f[m.op]))
		return true
	}
	if len(f[m.key]) == 0 {
		r.bad(n, off, "empty key")
		return true
	}
	count, keySize, ttl, ts := uint64(1), uint64(len(f[m.key])), uint64(0), uint64(0)
	if m.count >= 0 {
		if count, ok = parseUint(f[m.count]); !ok || count == 0 || count > 1<<40 {
			r.bad(n, off, "op_count %q is not a whole number >= 1", clip(f[m.count]))
			return true
		}
	}
	if m.keySize >= 0 {
		if keySize, ok = parseUint(f[m.keySize]); !ok || keySize > maxSize {
			r.bad(n, off, "key_size %q is not a whole number of bytes", clip(f[m.keySize]))
			return true
		}
	}
	if m.ttl >= 0 {
		if ttl, ok = parseUint(f[m.ttl]); !ok || ttl > maxSeconds {
			r.bad(n, off, "ttl %q is not a whole number of seconds", clip(f[m.ttl]))
			return true
		}
	}
	if m.time >= 0 {
		if ts, ok = parseUint(f[m.time]); !ok || ts > maxSeconds {
			r.bad(n, off, "op_time %q is not a whole number", clip(f[m.time]))
			return true
		}
	}
	q := r.request(n, off)
	q.Key, q.KeySize, q.ValueSize, q.Op, q.Count = f[m.key], int(keySize), int(size), op, int64(count)
	q.TTL, q.Time = time.Duration(ttl)*time.Second, time.Duration(ts)*time.Second
	if m.usecase >= 0 {
		q.Client = f[m.usecase]
	}
	return true
}

func sniffMetaKV(lines [][]byte) bool {
	h := map[string]bool{}
	for _, c := range bytes.Split(bytes.TrimSuffix(lines[0], []byte{'\r'}), []byte{','}) {
		h[string(c)] = true
	}
	return h["key"] && h["op"] && h["size"]
}
