package live

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/chbench/chbench/algorithms"
)

// StormConfig is one live miss storm (see [RunStorm]): a cache-aside
// client in front of one memcached per node of Before and After.
type StormConfig struct {
	Before, After algorithms.Locator // placements before and after the membership change
	Keys          []string           // the working set, K >= 1 distinct ValidKey keys
	Expire        float64            // probability that a read expires its key first (emulated steady miss), 0 <= e < 1
	Reads         int                // reads replayed after the change, >= Windows
	Windows       int                // equal windows the reads after the change are counted in, >= 1; the steady window before the change has Reads/Windows reads
	MemMB         int                // memcached item memory per instance, megabytes, >= 1
	ValueBytes    int                // bytes of every cached value, >= 1
	Rate          float64            // most reads per second sent (wall clock), > 0
	Seed          uint64             // seed of the read sequence (keys and expiries)
	// Popularity, if not nil, draws the index into Keys of every read
	// from the replay's seeded generator (for example an analysis.Zipf
	// over len(Keys) keys, Keys[i] being rank i); nil reads the keys
	// uniformly. It must return an index in [0, len(Keys)).
	Popularity Sampler
	Timeout    time.Duration // bound of every network exchange, > 0
	// Started, if not nil, is called with the address of every server
	// once it listens (to watch that each is stopped again).
	Started func(addr string)
}

// Sampler draws one index of a popularity law from r.
type Sampler interface {
	Sample(r *rand.Rand) int
}

// Validate returns an error naming the first bad field of c.
func (c StormConfig) Validate() error {
	switch {
	case c.Before == nil || c.After == nil:
		return errors.New("live storm: need the placements before and after the change")
	case len(c.Keys) < 1:
		return errors.New("live storm: working set is empty")
	case math.IsNaN(c.Expire) || c.Expire < 0 || c.Expire >= 1:
		return fmt.Errorf("live storm: expiry probability %v: need 0 <= e < 1", c.Expire)
	case c.Windows < 1:
		return fmt.Errorf("live storm: windows %d: need at least 1", c.Windows)
	case c.Reads < c.Windows:
		return fmt.Errorf("live storm: reads %d: need at least one per window (%d windows)", c.Reads, c.Windows)
	case c.MemMB < 1:
		return fmt.Errorf("live storm: memory %d MB: need at least 1", c.MemMB)
	case c.ValueBytes < 1:
		return fmt.Errorf("live storm: value size %d bytes: need at least 1", c.ValueBytes)
	case math.IsNaN(c.Rate) || math.IsInf(c.Rate, 0) || c.Rate <= 0:
		return fmt.Errorf("live storm: rate %v: need a finite number of reads per second > 0", c.Rate)
	case c.Timeout <= 0:
		return fmt.Errorf("live storm: timeout %v: need > 0", c.Timeout)
	}
	for _, k := range c.Keys {
		if !ValidKey(k) {
			return fmt.Errorf("live storm: key %q is not a memcached key (1-250 bytes, no whitespace)", k)
		}
	}
	return nil
}

// StormWindow counts the reads of one window of a live storm. Reads
// [First, End) are numbered from the change (the steady window before it
// has negative numbers).
type StormWindow struct {
	First, End int
	Reads      int // End - First
	Hits       int // reads the cache answered
	Expired    int // reads whose key the client deleted first (emulated expiry)
}

// StormRun is the outcome of [RunStorm].
type StormRun struct {
	Servers int         // memcached instances started (nodes of Before and After)
	Moved   int         // keys of the working set whose owner differs between Before and After
	Steady  StormWindow // the window before the change
	Windows []StormWindow
}

// RunStorm measures a miss storm against real memcached servers on
// 127.0.0.1, one per node of c.Before, and one more per node that joins in
// c.After, each with c.MemMB megabytes, as a cache-aside client sees it:
//
//  1. Warm: every key of the working set is set on its owner under Before.
//  2. Steady window: Reads/Windows reads under Before.
//  3. The change: the joining nodes' servers start (empty); every later
//     read follows After. A departed node's server is no longer asked.
//  4. Reads reads under After, counted in Windows equal windows.
//
// A read names a key of the working set uniformly at random, or by
// c.Popularity when set (seeded either way); with
// probability Expire it is a steady miss, emulated as an expiry: the
// client deletes the key from its owner first. (With Expire = 0, steady
// misses come only from memcached's own eviction when MemMB cannot hold
// a node's keys.) The read is a get on the
// owner; on a miss the client reads the database (a miss counts one
// database read) and sets the key on that owner. Reads go in batches of
// distinct keys (a get per server, then the sets of the misses), so the
// outcome is that of the reads one after another; batches are paced to at
// most Rate reads per second. Every server started is stopped before
// RunStorm returns, also on error and when ctx is cancelled (its error is
// then ctx's).
func RunStorm(ctx context.Context, c StormConfig) (run *StormRun, err error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	f := &fleet{timeout: c.Timeout, started: c.Started, conns: map[string]*Memcache{}}
	defer func() {
		if serr := f.stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	before, err := ownerIDs(c.Before, c.Keys)
	if err != nil {
		return nil, err
	}
	after, err := ownerIDs(c.After, c.Keys)
	if err != nil {
		return nil, err
	}
	run = &StormRun{}
	for i := range c.Keys {
		if before[i] != after[i] {
			run.Moved++
		}
	}
	if err := f.start(ctx, c.Before.Nodes(), c.MemMB); err != nil {
		return nil, err
	}
	value := strings.Repeat("v", c.ValueBytes)
	owned := map[string][]string{}
	for i, k := range c.Keys {
		owned[before[i]] = append(owned[before[i]], k)
	}
	for _, n := range c.Before.Nodes() {
		if err := f.conns[n.ID].SetAll(owned[n.ID], value); err != nil {
			return nil, err
		}
	}
	r := &replayer{c: c, f: f, value: value, rng: rand.New(rand.NewPCG(c.Seed, 0x73746f726d)), began: time.Now()}
	per := c.Reads / c.Windows
	if run.Steady, err = r.window(ctx, before, -per, 0); err != nil {
		return nil, err
	}
	if err := f.start(ctx, c.After.Nodes(), c.MemMB); err != nil {
		return nil, err
	}
	r.began, r.sent = time.Now(), 0 // pace from here: starting a server took time
	for w := range c.Windows {
		first, end := w*c.Reads/c.Windows, (w+1)*c.Reads/c.Windows
		sw, err := r.window(ctx, after, first, end)
		if err != nil {
			return nil, err
		}
		run.Windows = append(run.Windows, sw)
	}
	run.Servers = len(f.procs)
	return run, nil
}

// ownerIDs returns the node ID of the owner of every key under l, located
// once per run (the replay then reads them per request).
func ownerIDs(l algorithms.Locator, keys []string) ([]string, error) {
	idx := make([]int, len(keys))
	if err := l.LocateKeys(keys, idx); err != nil {
		return nil, fmt.Errorf("live storm: %s: %w", l.Algorithm(), err)
	}
	nodes := l.Nodes()
	ids := make([]string, len(keys))
	for i, o := range idx {
		ids[i] = nodes[o].ID
	}
	return ids, nil
}

// fleet is the memcached servers of a live storm, one per node ID.
type fleet struct {
	timeout time.Duration
	started func(addr string)
	procs   []*Process
	conns   map[string]*Memcache
}

// start starts a server for every node without one.
func (f *fleet) start(ctx context.Context, nodes []algorithms.Node, memMB int) error {
	for _, n := range nodes {
		if _, ok := f.conns[n.ID]; ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		port, err := FreePort()
		if err != nil {
			return err
		}
		p, err := StartMemcached(port, memMB)
		if err != nil {
			return fmt.Errorf("node %s: %w", n.ID, err)
		}
		f.procs = append(f.procs, p)
		if f.started != nil {
			f.started(p.Addr)
		}
		c, err := DialMemcache(p.Addr, f.timeout)
		if err != nil {
			return fmt.Errorf("node %s: %w", n.ID, err)
		}
		f.conns[n.ID] = c
	}
	return nil
}

// stop closes the connections and stops every server started, returning
// the first error.
func (f *fleet) stop() error {
	var first error
	for _, c := range f.conns {
		c.Close()
	}
	for _, p := range f.procs {
		if err := p.Stop(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// replayer draws the read sequence and sends it.
type replayer struct {
	c     StormConfig
	f     *fleet
	value string
	rng   *rand.Rand
	began time.Time
	sent  int
	// the read drawn but not yet sent (it repeated a key of the batch)
	pending       bool
	pendKey       int
	pendExpired   bool
	batchKeys     []int
	batchExpired  []bool
	batchPosition map[int]bool
}

// readBatch is the most distinct keys in one batch of reads.
const readBatch = 200

// window replays reads numbered [first, end) on the placement whose owner
// of Keys[i] is owners[i], and counts them.
func (r *replayer) window(ctx context.Context, owners []string, first, end int) (StormWindow, error) {
	w := StormWindow{First: first, End: end, Reads: end - first}
	for done := 0; done < w.Reads; {
		if err := ctx.Err(); err != nil {
			return w, err
		}
		r.draw(min(readBatch, w.Reads-done))
		hits, expired, err := r.send(owners)
		if err != nil {
			return w, err
		}
		w.Hits += hits
		w.Expired += expired
		done += len(r.batchKeys)
		r.sent += len(r.batchKeys)
		if err := r.pace(ctx); err != nil {
			return w, err
		}
	}
	return w, nil
}

// draw fills the batch with up to n reads of distinct keys, in order: a
// read whose key is already in the batch waits for the next one.
func (r *replayer) draw(n int) {
	r.batchKeys, r.batchExpired = r.batchKeys[:0], r.batchExpired[:0]
	if r.batchPosition == nil {
		r.batchPosition = map[int]bool{}
	}
	clear(r.batchPosition)
	for len(r.batchKeys) < n {
		if !r.pending {
			if r.c.Popularity != nil {
				r.pendKey = r.c.Popularity.Sample(r.rng)
			} else {
				r.pendKey = r.rng.IntN(len(r.c.Keys))
			}
			r.pendExpired = r.rng.Float64() < r.c.Expire
			r.pending = true
		}
		if r.batchPosition[r.pendKey] {
			return
		}
		r.batchPosition[r.pendKey] = true
		r.batchKeys = append(r.batchKeys, r.pendKey)
		r.batchExpired = append(r.batchExpired, r.pendExpired)
		r.pending = false
	}
}

// send runs the batch on the placement of owners (see window): per owner,
// the deletes of the expired reads, one multi-key get, and the sets of the
// misses. It returns the hits and the expired reads.
func (r *replayer) send(owners []string) (hits, expired int, err error) {
	byOwner := map[string][]string{}
	var del map[string][]string
	for i, ki := range r.batchKeys {
		if ki < 0 || ki >= len(r.c.Keys) {
			return 0, 0, fmt.Errorf("live storm: popularity drew key index %d of a working set of %d", ki, len(r.c.Keys))
		}
		k, id := r.c.Keys[ki], owners[ki]
		byOwner[id] = append(byOwner[id], k)
		if r.batchExpired[i] {
			if del == nil {
				del = map[string][]string{}
			}
			del[id] = append(del[id], k)
			expired++
		}
	}
	ids := make([]string, 0, len(byOwner))
	for id := range byOwner {
		ids = append(ids, id)
	}
	slices.Sort(ids) // a fixed order of requests
	for _, id := range ids {
		c := r.f.conns[id]
		if c == nil {
			return 0, 0, fmt.Errorf("live storm: node %s has no server", id)
		}
		if d := del[id]; len(d) > 0 {
			if err := c.DeleteAll(d); err != nil {
				return 0, 0, err
			}
		}
		keys := byOwner[id]
		found, err := c.Has(keys)
		if err != nil {
			return 0, 0, err
		}
		var miss []string
		for i, ok := range found {
			if ok {
				hits++
			} else {
				miss = append(miss, keys[i])
			}
		}
		if len(miss) > 0 {
			if err := c.SetAll(miss, r.value); err != nil {
				return 0, 0, err
			}
		}
	}
	return hits, expired, nil
}

// pace sleeps until the reads sent so far are within Rate per second of
// the start.
func (r *replayer) pace(ctx context.Context) error {
	due := r.began.Add(time.Duration(float64(r.sent) / r.c.Rate * float64(time.Second)))
	d := time.Until(due)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
