package simulate

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/memory"
	"github.com/chbench/chbench/trace"
)

// Placement is one placement to replay the trace through: a Locator on
// Config.Nodes and the label its rows carry ("" = its Algorithm()).
type Placement struct {
	Label   string
	Locator algorithms.Locator
}

// Outcome is a run: one Result per placement, in the order given, and
// what the trace held.
type Outcome struct {
	Results []*Result
	Stats   *trace.Stats
	// BadRecords are the first MaxBadRecords records the reader could not
	// read (Stats.BadRecords counts them all); they were left out.
	BadRecords []trace.SyntaxError
}

// MaxBadRecords is how many unreadable records an Outcome keeps.
const MaxBadRecords = 20

// chunkRequests is how many requests one chunk carries.
const chunkRequests = 4096

// chunksInFlight bounds the chunks read ahead of the slowest replay.
const chunksInFlight = 8

// creq is a request as the replays see it: its time on the simulation's
// clock (since the first request), its sizes and what it does.
type creq struct {
	h                  uint64 // the key's identity in the caches (keyHash)
	t                  time.Duration
	ttl                time.Duration
	keySize, valueSize int64
	count              int64
	op                 trace.Op
}

// keyHash is a key's identity in the caches: xxHash64 of the key, salted
// so that it is unrelated to placements hashing the key with xxHash64.
func keyHash(key []byte) uint64 { return algorithms.Mix64(xxhash.Sum64(key) ^ 0x6361636865) } // "cache"

// chunk is a run of requests shared by every replay; its keys alias its
// arena.
type chunk struct {
	reqs    []creq
	keys    []string
	arena   []byte
	ends    []int
	pending atomic.Int32
}

// Run replays the requests of r through every placement at once: a
// client routes each request with the placement's Locator (in batches,
// LocateKeys) to one of the nodes of Config.Nodes, each a cache of
// Config.Capacity bytes with LRU eviction in front of a database, and the
// membership changes at Config.Events. See the package doc for the model.
//
// The trace is read once: one goroutine parses it into chunks of 4,096
// requests that every replay consumes in order, each replay on its own
// goroutine, at most Config.Workers computing at once; memory is the
// caches, the rows and at most 8 chunks, whatever the trace's length.
// Each replay is sequential, so the results are the same, byte for byte,
// for any number of workers.
//
// It returns Config.Validate's error, an error for a placement whose
// membership differs from Config.Nodes or whose labels repeat, a trace
// without a clock and no Config.Rate, a placement that fails (a Locator
// error, a membership an algorithm cannot place), too many rows, or the
// reader's error.
func Run(r trace.Reader, placements []Placement, cfg Config) (*Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(placements) == 0 {
		return nil, fmt.Errorf("simulate: no placement to replay")
	}
	if cfg.Baseline == 0 {
		cfg.Baseline = 5
	}
	cfg.Memory = memory.OrDefault(cfg.Memory)
	if cfg.Rate == 0 && !r.Stats().HasTime {
		return nil, fmt.Errorf("simulate: the %s trace has no clock: give a request rate", r.Format().Name)
	}
	want := make([]string, len(cfg.Nodes))
	for i, n := range cfg.Nodes {
		want[i] = n.ID
	}
	slices.Sort(want)
	labels := map[string]bool{}
	replays := make([]*replay, len(placements))
	for i, p := range placements {
		if p.Locator == nil {
			return nil, fmt.Errorf("simulate: placement %d has no locator", i)
		}
		label := p.Label
		if label == "" {
			label = p.Locator.Algorithm()
		}
		if labels[label] {
			return nil, fmt.Errorf("simulate: two placements are labelled %q: label them apart", label)
		}
		labels[label] = true
		var got []string
		for _, n := range p.Locator.Nodes() {
			got = append(got, n.ID)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return nil, fmt.Errorf("simulate: placement %s is built on nodes %v, the configuration names %v", label, got, want)
		}
		rp, err := newReplay(&cfg, label, p.Locator, MaxRows/len(placements))
		if err != nil {
			return nil, err
		}
		replays[i] = rp
	}
	workers := cfg.Workers
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	free := make(chan *chunk, chunksInFlight)
	for range chunksInFlight {
		free <- &chunk{reqs: make([]creq, 0, chunkRequests), keys: make([]string, 0, chunkRequests)}
	}
	ins := make([]chan *chunk, len(replays))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, rp := range replays {
		ins[i] = make(chan *chunk, chunksInFlight)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range ins[i] {
				sem <- struct{}{}
				rp.chunk(c)
				<-sem
				if c.pending.Add(-1) == 0 {
					free <- c
				}
			}
		}()
	}
	out := &Outcome{Stats: r.Stats()}
	last, rerr := produce(r, &cfg, free, ins, out)
	for _, in := range ins {
		close(in)
	}
	wg.Wait()
	if rerr != nil {
		return nil, rerr
	}
	for _, rp := range replays {
		if rp.err == nil {
			rp.apply(last) // events at the last request's time
			rp.finish(last)
		}
		if rp.err != nil {
			return nil, rp.err
		}
		out.Results = append(out.Results, &rp.res)
	}
	return out, nil
}

// produce reads r into chunks and hands each to every replay. It returns
// the time of the last request.
func produce(r trace.Reader, cfg *Config, free chan *chunk, ins []chan *chunk, out *Outcome) (time.Duration, error) {
	var t0, last time.Duration
	var i int64
	c := <-free
	reset := func(c *chunk) {
		c.reqs, c.keys, c.arena, c.ends = c.reqs[:0], c.keys[:0], c.arena[:0], c.ends[:0]
	}
	reset(c)
	send := func() {
		start := 0
		for _, e := range c.ends {
			c.keys = append(c.keys, unsafe.String(unsafe.SliceData(c.arena[start:]), e-start))
			start = e
		}
		c.pending.Store(int32(len(ins)))
		for _, in := range ins {
			in <- c
		}
		c = <-free
		reset(c)
	}
	for r.Scan() {
		q, ok := r.Record().(*trace.Request)
		if !ok {
			if len(out.BadRecords) < MaxBadRecords {
				out.BadRecords = append(out.BadRecords, *r.Record().(*trace.SyntaxError))
			}
			continue
		}
		var t time.Duration
		if cfg.Rate > 0 {
			s := float64(i) / cfg.Rate * float64(time.Second)
			if s >= math.MaxInt64 {
				return 0, fmt.Errorf("simulate: request %d at %v requests per second lies beyond the clock's range", i, cfg.Rate)
			}
			t = time.Duration(s)
		} else {
			if i == 0 {
				t0 = q.Time
			}
			t = q.Time - t0
		}
		t = max(t, last) // a trace out of time order is replayed in file order
		last = t
		i++
		c.arena = append(c.arena, q.Key...)
		c.ends = append(c.ends, len(c.arena))
		c.reqs = append(c.reqs, creq{h: keyHash(q.Key), t: t, ttl: q.TTL, keySize: int64(q.KeySize), valueSize: int64(q.ValueSize), count: max(q.Count, 1), op: q.Op})
		if len(c.reqs) == chunkRequests {
			send()
		}
	}
	if len(c.reqs) > 0 {
		send()
	}
	if err := r.Err(); err != nil {
		return 0, err
	}
	return last, nil
}
