package simulate

import (
	"fmt"
	"slices"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/trace"
)

// node is one cache server of a replay.
type node struct {
	n          algorithms.Node
	capacity   int64
	fromWeight bool // capacity follows the weight (Capacity.PerWeight)
	cache      *lru // nil once gone (left, or failed)
	member     bool
	down       bool
	inRow      bool // a member at some time in the current row
	gets, hits int64
}

// step is an event as the replay applies it: a Fail is two steps, the
// loss of the cache at its time and the removal from the membership
// Detect later.
type step struct {
	at    time.Duration
	event int // index into Config.Events
	kind  EventKind
	down  bool // the first half of a Fail
}

// replay is one placement's simulation, fed the trace's chunks in order.
type replay struct {
	cfg     *Config
	label   string
	loc     algorithms.Locator
	members []algorithms.Node
	byID    map[string]*node
	order   []*node // every node ever, in order of first membership
	owner   []*node // indexed like loc.Nodes()
	owners  []int
	steps   []step
	next    int
	maxRows int

	rowStart, rowEnd time.Duration
	row              Window
	counts           counts // cache events of every cache so far
	rowCounts        counts // counts at the current row's start
	sizeSum, sizeN   int64
	res              Result
	err              error
	warmed           uint64 // keeps the warming loads (see chunk)
}

// warmBatch is how many requests chunk warms before replaying them: the
// table slots and entries of 256 lookups are read first, independent
// loads whose memory latencies the processor overlaps, so the replay
// finds them in its caches (BenchmarkLRUGetWarmed: about half the time
// per lookup of BenchmarkLRUGet at 10^6 items).
const warmBatch = 256

func newReplay(cfg *Config, label string, loc algorithms.Locator, maxRows int) (*replay, error) {
	rp := &replay{cfg: cfg, label: label, loc: loc, members: slices.Clone(cfg.Nodes), byID: map[string]*node{}, maxRows: maxRows,
		rowEnd: cfg.Window, res: Result{Placement: label}}
	for _, n := range cfg.Nodes {
		rp.addNode(n, cfg.Capacity.of(n), true)
	}
	for i, e := range cfg.Events {
		if e.Kind == Fail {
			rp.steps = append(rp.steps, step{at: e.At, event: i, kind: Fail, down: true}, step{at: e.At + e.Detect, event: i, kind: Fail})
		} else {
			rp.steps = append(rp.steps, step{at: e.At, event: i, kind: e.Kind})
		}
	}
	slices.SortStableFunc(rp.steps, func(a, b step) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		}
		return 0
	})
	if err := rp.route(); err != nil {
		return nil, err
	}
	return rp, nil
}

func (rp *replay) addNode(n algorithms.Node, capacity int64, fromCfg bool) {
	_, named := rp.cfg.Capacity.PerNode[n.ID]
	nd := &node{n: n, capacity: capacity, fromWeight: fromCfg && !named, cache: newLRU(capacity, &rp.counts), member: true, inRow: true}
	rp.byID[n.ID] = nd
	rp.order = append(rp.order, nd)
}

// route maps the locator's owner indexes to nodes.
func (rp *replay) route() error {
	ns := rp.loc.Nodes()
	if len(ns) != len(rp.members) {
		return fmt.Errorf("simulate: %s: the placement has %d nodes, the membership %d", rp.label, len(ns), len(rp.members))
	}
	rp.owner = rp.owner[:0]
	for _, n := range ns {
		nd, ok := rp.byID[n.ID]
		if !ok || !nd.member {
			return fmt.Errorf("simulate: %s: the placement names node %q, which is not a member", rp.label, n.ID)
		}
		rp.owner = append(rp.owner, nd)
	}
	return nil
}

// chunk replays one chunk of requests, applying the events that fall
// before each request.
func (rp *replay) chunk(c *chunk) {
	if rp.err != nil {
		return
	}
	for i := 0; i < len(c.reqs); {
		end := len(c.reqs)
		if rp.next < len(rp.steps) {
			at := rp.steps[rp.next].at
			if c.reqs[i].t >= at {
				if rp.err = rp.apply(c.reqs[i].t); rp.err != nil {
					return
				}
				continue
			}
			for j := i; j < end; j++ {
				if c.reqs[j].t >= at {
					end = j
					break
				}
			}
		}
		if cap(rp.owners) < end-i {
			rp.owners = make([]int, end-i)
		}
		owners := rp.owners[:end-i]
		if err := rp.loc.LocateKeys(c.keys[i:end], owners); err != nil {
			rp.err = fmt.Errorf("simulate: %s: %w", rp.label, err)
			return
		}
		for b := i; b < end; b += warmBatch {
			bend := min(b+warmBatch, end)
			var sum uint64
			for j := b; j < bend; j++ {
				o := owners[j-i]
				if o < 0 || o >= len(rp.owner) {
					rp.err = fmt.Errorf("simulate: %s: owner %d of %d nodes", rp.label, o, len(rp.owner))
					return
				}
				if cache := rp.owner[o].cache; cache != nil {
					sum += cache.warm(c.reqs[j].h)
				}
			}
			rp.warmed += sum
			for j := b; j < bend; j++ {
				rp.request(&c.reqs[j], rp.owner[owners[j-i]])
				if rp.err != nil {
					return
				}
			}
		}
		i = end
	}
	if m := rp.cfg.MaxItems; m > 0 && rp.counts.items > m {
		rp.err = fmt.Errorf("simulate: %s: the caches hold %d items after the request at %v, more than the %d the memory budget allows a replay (about %d bytes each): give a larger budget, less memory per node or fewer placements",
			rp.label, rp.counts.items, c.reqs[len(c.reqs)-1].t, m, ItemBytes)
	}
}

// apply applies every step due at or before t.
func (rp *replay) apply(t time.Duration) error {
	for rp.next < len(rp.steps) && rp.steps[rp.next].at <= t {
		s := rp.steps[rp.next]
		rp.next++
		rp.advance(s.at)
		rp.cut(s.at)
		if err := rp.change(s); err != nil {
			return err
		}
	}
	return nil
}

// change applies one step to the membership and the caches.
func (rp *replay) change(s step) error {
	e := rp.cfg.Events[s.event]
	if s.down {
		nd := rp.byID[e.Node.ID]
		rp.discard(nd)
		nd.down = true
		return nil
	}
	switch s.kind {
	case Join:
		c := e.Capacity
		if c == 0 {
			c = rp.cfg.Capacity.of(e.Node)
		}
		rp.members = append(rp.members, e.Node)
		if nd, ok := rp.byID[e.Node.ID]; ok { // a node that left comes back, empty
			nd.n, nd.capacity, nd.cache, nd.member, nd.down, nd.inRow = e.Node, c, newLRU(c, &rp.counts), true, false, true
			nd.fromWeight = e.Capacity == 0
		} else {
			rp.addNode(e.Node, c, e.Capacity == 0)
		}
	case Leave, Fail:
		i := algorithms.IndexOf(rp.members, e.Node.ID)
		rp.members = slices.Delete(rp.members, i, i+1)
		nd := rp.byID[e.Node.ID]
		rp.discard(nd)
		nd.member, nd.down = false, false
	case Reweight:
		i := algorithms.IndexOf(rp.members, e.Node.ID)
		rp.members[i].Weight = e.Node.Weight
		nd := rp.byID[e.Node.ID]
		nd.n.Weight = e.Node.Weight
		if nd.fromWeight {
			nd.capacity = rp.cfg.Capacity.of(nd.n)
			if nd.cache != nil {
				nd.cache.resize(nd.capacity)
			}
		}
	}
	next, err := rp.loc.Rebalance(slices.Clone(rp.members))
	if err != nil {
		return fmt.Errorf("simulate: %s: event %d (%v): %w", rp.label, s.event, e, err)
	}
	rp.loc = next
	return rp.route()
}

// discard drops nd's cache (a leave or a failure), releasing its items.
func (rp *replay) discard(nd *node) {
	if nd.cache != nil {
		rp.counts.items -= nd.cache.items()
		nd.cache = nil
	}
}

// request replays one request on its owner nd.
func (rp *replay) request(q *creq, nd *node) {
	rp.advance(q.t)
	t := &rp.res.Totals
	r := &rp.row
	r.Requests += q.count
	if q.valueSize > 0 {
		rp.sizeSum += q.valueSize * q.count
		rp.sizeN += q.count
	}
	c := nd.cache
	var expires time.Duration
	if q.ttl > 0 {
		expires = q.t + q.ttl
	}
	switch {
	case q.op.IsRead():
		r.Gets += q.count
		nd.gets += q.count
		if c == nil { // failed, not yet detected: the read goes to the database
			r.DBReads += q.count
			t.DownReads += q.count
			return
		}
		if _, ok := c.get(q.h, q.t); ok {
			r.Hits += q.count
			nd.hits += q.count
			return
		}
		r.DBReads++
		if rp.cfg.NoFill {
			r.DBReads += q.count - 1
			return
		}
		size := q.valueSize
		if size == 0 {
			size = int64(rp.cfg.DefaultValueSize)
			if rp.sizeN > 0 {
				size = rp.sizeSum / rp.sizeN
			}
			t.ZeroSizeFills++
		}
		rp.store(c, q.h, q.keySize+size, 0)
		if q.count > 1 {
			if _, ok := c.get(q.h, q.t); ok { // the rest of the record's reads hit
				r.Hits += q.count - 1
				nd.hits += q.count - 1
			} else {
				r.DBReads += q.count - 1
			}
		}
	case q.op == trace.OpDelete:
		r.Deletes += q.count
		if c != nil {
			c.remove(q.h)
		}
	default:
		r.Writes += q.count
		if c == nil {
			return
		}
		size := q.keySize + q.valueSize
		switch q.op {
		case trace.OpSet:
			rp.store(c, q.h, size, expires)
		case trace.OpAdd:
			if _, ok := c.get(q.h, q.t); !ok {
				rp.store(c, q.h, size, expires)
			}
		case trace.OpReplace, trace.OpCas:
			if _, ok := c.get(q.h, q.t); ok {
				rp.store(c, q.h, size, expires)
			}
		case trace.OpAppend, trace.OpPrepend:
			if it, ok := c.get(q.h, q.t); ok { // it.size holds the overhead already
				rp.store(c, q.h, it.size-rp.cfg.ItemOverhead+q.valueSize, it.expires)
			}
		default: // incr, decr: the value changes in place
			c.get(q.h, q.t)
		}
	}
}

// store sets the item of key hash h, of size bytes plus the overhead.
func (rp *replay) store(c *lru, h uint64, size int64, expires time.Duration) {
	c.set(h, size+rp.cfg.ItemOverhead, expires)
}

// advance emits the rows that end at or before t.
func (rp *replay) advance(t time.Duration) {
	for t >= rp.rowEnd && rp.err == nil {
		rp.emit(rp.rowEnd, false)
		rp.rowStart, rp.rowEnd = rp.rowEnd, rp.rowEnd+rp.cfg.Window
	}
}

// cut ends the current row at t (an event's time) when it has begun.
func (rp *replay) cut(t time.Duration) {
	if t > rp.rowStart {
		rp.emit(t, false)
		rp.rowStart = t
	}
}

// emit closes the current row at end.
func (rp *replay) emit(end time.Duration, partial bool) {
	r := rp.row
	r.Placement, r.Index, r.Start, r.End, r.Partial = rp.label, len(rp.res.Windows), rp.rowStart, end, partial
	if r.Gets > 0 {
		r.HitRatio = float64(r.Hits) / float64(r.Gets)
	}
	if d := (end - rp.rowStart).Seconds(); d > 0 {
		if partial {
			d = rp.cfg.Window.Seconds()
		}
		r.DBReadsPerSec = float64(r.DBReads) / d
	}
	nodes0 := len(rp.res.Nodes)
	for _, nd := range rp.order {
		if !nd.inRow {
			continue
		}
		nw := NodeWindow{Placement: rp.label, Window: r.Index, Node: nd.n.ID, Member: nd.member, Down: nd.down,
			Capacity: nd.capacity, Gets: nd.gets, Hits: nd.hits}
		if nd.cache != nil {
			nw.Bytes, nw.Items = nd.cache.bytes, nd.cache.items()
		}
		if nd.gets > 0 {
			nw.HitRatio = float64(nd.hits) / float64(nd.gets)
		}
		r.Bytes += nw.Bytes
		r.Items += nw.Items
		rp.res.Totals.PeakBytes = max(rp.res.Totals.PeakBytes, nw.Bytes)
		rp.res.Nodes = append(rp.res.Nodes, nw)
		nd.gets, nd.hits = 0, 0
		nd.inRow = nd.member || nd.down
	}
	r.Members = len(rp.members)
	r.Evictions, r.Expired = rp.counts.evictions-rp.rowCounts.evictions, rp.counts.expired-rp.rowCounts.expired
	rp.rowCounts = rp.counts
	t := &rp.res.Totals
	t.Evictions, t.TooLarge = rp.counts.evictions, rp.counts.tooLarge
	t.Requests += r.Requests
	t.Gets += r.Gets
	t.Hits += r.Hits
	t.DBReads += r.DBReads
	t.Writes += r.Writes
	t.Deletes += r.Deletes
	t.Expired += r.Expired
	rp.res.Windows = append(rp.res.Windows, r)
	rp.row = Window{}
	n := RowBytes + int64(len(rp.res.Nodes)-nodes0)*NodeRowBytes
	what := fmt.Sprintf("the time series of %s up to %v in windows of %v", rp.label, end, rp.cfg.Window)
	if err := rp.cfg.Memory.Reserve(what, n); err != nil {
		rp.err = fmt.Errorf("simulate: %w; or make the window longer", err)
		return
	}
	if len(rp.res.Nodes) > rp.maxRows {
		rp.err = fmt.Errorf("simulate: %s: more than %d node rows by %v: make the window longer", rp.label, rp.maxRows, end)
	}
}

// finish closes the last row at the trace's end (at time last) and reads
// the events' storms off the rows.
func (rp *replay) finish(last time.Duration) {
	if rp.err != nil {
		return
	}
	if rp.row.Requests > 0 || len(rp.res.Windows) == 0 {
		rp.emit(rp.rowEnd, true)
	}
	rp.res.Events = events(rp.cfg, rp.label, rp.res.Windows)
	_ = last
}
