package propagate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/trace"
)

// Trace is a recorded request stream (package trace) that a [Study]
// replays in place of generated requests. Its clock is the trace's own:
// a request's time on the replay's clock is Request.Time minus the first
// request's, in seconds, as given (not rescaled), so the change times
// (Study.At) count from the trace's first request and the replay span
// selects the part of the trace that is replayed; requests outside the
// span are skipped. Every replay reads the same requests (only the
// propagation draws differ between replays):
//
//   - a record standing for Count requests (Meta's op_count) is Count
//     requests at its time;
//   - gets are reads; sets, adds, deletes and every other operation that
//     changes or removes a value are writes (the cache-aside workload's
//     write: the database is updated and the key deleted on the writer's
//     server);
//   - request i (0-based, over the expanded requests of the whole trace)
//     comes from client Mix64(Seed ^ salt ^ i) mod C (a fixed salt),
//     the same client in every replay, so the C clients share the
//     requests evenly whatever clients the trace names.
type Trace struct {
	// Open opens the trace for one pass; it is called once per replay.
	Open func() (trace.Reader, error)
	// Path names the trace in the rows (key_file) and in errors.
	Path string
	// Keys is the trace's number of distinct keys (trace.Stats), recorded
	// in the rows and used for the cache-aside memory estimate.
	Keys int
}

// traceSalt keeps the trace's client assignment apart from other draws.
const traceSalt = 0x7472616365 // "trace"

// source returns the trace as the [Source] of a replay over [start, end)
// seconds from clients clients, assigned with seed.
func (t *Trace) source(start, end float64, clients int, seed uint64) Source {
	return &traceSource{t: t, start: start, end: end, clients: uint64(clients), seed: seed ^ traceSalt}
}

type traceSource struct {
	t          *Trace
	start, end float64
	clients    uint64
	seed       uint64
}

// Open opens the trace for replay r; every replay reads it from the start.
func (s *traceSource) Open(int) (Stream, error) {
	if s.t.Open == nil {
		return nil, fmt.Errorf("trace %q: not opened", s.t.Path)
	}
	r, err := s.t.Open()
	if err != nil {
		return nil, err
	}
	return &traceStream{s: s, r: r}, nil
}

type traceStream struct {
	s       *traceSource
	r       trace.Reader
	cur     Request
	left    int64   // copies of the current record still to yield
	i       uint64  // expanded requests seen, in and out of the span
	t0      float64 // the first request's time, seconds
	started bool
	last    float64
	inSpan  int64
	err     error
	done    bool
}

// Scan advances to the next request inside the span.
func (st *traceStream) Scan() bool {
	for {
		if st.left > 0 {
			st.left--
			st.cur.Client = int(algorithms.Mix64(st.s.seed^st.i) % st.s.clients)
			st.i++
			st.inSpan++
			return true
		}
		if st.err != nil || !st.r.Scan() {
			st.finish()
			return false
		}
		q, ok := st.r.Record().(*trace.Request)
		if !ok { // a syntax error: reported with the trace's summary
			continue
		}
		t := q.Time.Seconds()
		if !st.started {
			st.t0, st.started = t, true
		}
		t -= st.t0
		if t < st.last {
			st.err = fmt.Errorf("trace %q: line %d (byte %d): request at %v s before the previous at %v s: the trace must be in time order", st.s.t.Path, q.Line, q.Offset, t, st.last)
			continue
		}
		st.last = t
		n := max(q.Count, 1)
		if t < st.s.start || t >= st.s.end {
			st.i += uint64(n)
			continue
		}
		if st.inSpan+n > MaxRequests {
			st.err = fmt.Errorf("trace %q: more than %d requests inside the span [%v, %v) s", st.s.t.Path, MaxRequests, st.s.start, st.s.end)
			continue
		}
		op := Write
		if q.Op.IsRead() {
			op = Read
		}
		// The key outlives the next Scan: a copy, not the reader's buffer.
		st.cur = Request{Time: t, Key: string(q.Key), Op: op}
		st.left = n
	}
}

// finish records the end of the pass: the reader's error, or none of the
// trace's requests inside the span.
func (st *traceStream) finish() {
	if st.done {
		return
	}
	st.done = true
	if st.err != nil {
		st.close()
		return
	}
	if err := st.r.Err(); err != nil {
		st.err = err
	} else if st.inSpan == 0 {
		st.err = fmt.Errorf("trace %q: no request inside the replay span [%v, %v) s of its clock (the first request at 0 s, the last at %s s): give -at or -span inside it", st.s.t.Path, st.s.start, st.s.end, strconv.FormatFloat(st.last, 'g', 6, 64))
	}
	st.close()
}

// close closes the reader, if it is a closer (a file).
func (st *traceStream) close() {
	if c, ok := st.r.(interface{ Close() error }); ok {
		if err := c.Close(); err != nil && st.err == nil {
			st.err = err
		}
	}
}

func (st *traceStream) Request() Request { return st.cur }
func (st *traceStream) Err() error       { return st.err }

// traceRate returns the requests per second and the write fraction that a
// trace replay's totals show: requests over the span's length.
func traceRate(requests, reads, start, end float64) (rate, writes float64) {
	if !(end > start) || !(requests > 0) {
		return 0, 0
	}
	return requests / (end - start), math.Max(0, requests-reads) / requests
}
