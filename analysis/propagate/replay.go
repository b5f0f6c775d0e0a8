package propagate

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/keyset"
)

// chunkRequests is the number of requests read, located (one LocateKeys
// call per membership version and algorithm) and counted at a time.
const chunkRequests = 4096

// propagationSalt keeps the propagation draws apart from request streams.
const propagationSalt = 0x6c6561726e // "learn"

// tally is one algorithm's counts in one window of one replay.
type tally struct {
	stale, misrouted         int64
	notYet, anyMore          int64
	misses, splitMisses      int64
	doubleCached, staleReads int64
}

// replayCounts is everything one replay counted.
type replayCounts struct {
	requests, reads []int64   // per window; the same for every algorithm
	tallies         [][]tally // [algorithm][window]
	// moved[a][j*V+k] (j < k) counts the requests (movedReads: the reads)
	// whose key algorithm a places on different servers under versions j
	// and k, over the whole replay.
	moved, movedReads [][]int64
}

// learnEvent is client c learning change v (version v) at time at.
type learnEvent struct {
	at     float64
	client int
	v      int8
}

// chunk is a batch of requests with what every algorithm needs of them.
type chunk struct {
	n     int
	keys  []string
	t     []float64
	win   []int32
	op    []Op
	view  []int8   // the version the request's client routes with
	cur   []int8   // J: the newest version issued
	auth  []int8   // A: the version whose owners hold the data (store)
	inUse []uint32 // bit v set: some client routes with version v
	id    []int32  // key number (cache workload)
	db    []uint32 // the key's database version after the request (cache workload)
}

func newChunk() *chunk {
	const n = chunkRequests
	return &chunk{keys: make([]string, n), t: make([]float64, n), win: make([]int32, n), op: make([]Op, n),
		view: make([]int8, n), cur: make([]int8, n), auth: make([]int8, n), inUse: make([]uint32, n),
		id: make([]int32, n), db: make([]uint32, n)}
}

// copyOf is one cached copy of a key on one cache server.
type copyOf struct {
	server int32
	view   int8    // the version the client that filled it routed with
	ver    uint32  // the database version it holds
	at     float64 // when it was filled (-Inf: cached before the replay)
}

// keyCache is one algorithm's cached copies of one key.
type keyCache struct {
	touched bool
	copies  []copyOf
}

// replayer runs one replay: the shared state (clients' views, the
// database) advances request by request in prepare; every algorithm then
// counts the chunk on its own placements in parallel.
type replayer struct {
	cfg    *Config
	fleets []fleet
	sched  *schedule
	counts *replayCounts
	width  float64 // window width, seconds

	events []learnEvent
	next   int
	view   []int8 // per client
	users  []int  // clients per version
	mask   uint32 // versions with users > 0

	lastT float64
	seen  int64
	ids   map[string]int32
	db    []uint32
	cache [][]keyCache // [algorithm][key number]

	owners [][][]int   // [algorithm][version][i]
	server [][][]int32 // [algorithm][version][i]
}

func newReplayer(cfg *Config, fleets []fleet, sched *schedule, rep int) *replayer {
	v := len(sched.at)
	r := &replayer{cfg: cfg, fleets: fleets, sched: sched, width: (cfg.End - cfg.Start) / float64(cfg.Windows),
		view: make([]int8, cfg.Clients), users: make([]int, v), mask: 1, lastT: math.Inf(-1)}
	r.users[0] = cfg.Clients
	r.counts = &replayCounts{requests: make([]int64, cfg.Windows), reads: make([]int64, cfg.Windows)}
	for range fleets {
		r.counts.tallies = append(r.counts.tallies, make([]tally, cfg.Windows))
		r.counts.moved = append(r.counts.moved, make([]int64, v*v))
		r.counts.movedReads = append(r.counts.movedReads, make([]int64, v*v))
		owners, server := make([][]int, v), make([][]int32, v)
		for j := range v {
			owners[j], server[j] = make([]int, chunkRequests), make([]int32, chunkRequests)
		}
		r.owners, r.server = append(r.owners, owners), append(r.server, server)
	}
	if cfg.Cache {
		r.ids = map[string]int32{}
		r.cache = make([][]keyCache, len(fleets))
	}
	r.drawLearning(rep)
	return r
}

// drawLearning draws every client's learn delay for every change and
// sorts the learn events by time (then change, then client).
func (r *replayer) drawLearning(rep int) {
	c := r.cfg
	learn := make([]float64, c.Clients)
	for j := 1; j < len(r.sched.at); j++ {
		rng := rand.New(rand.NewPCG(algorithms.Mix64(c.Seed^propagationSalt), algorithms.Mix64(uint64(rep)<<32|uint64(j))))
		c.Model.Draw(learn, rng)
		for client, d := range learn {
			if !math.IsInf(d, 1) {
				r.events = append(r.events, learnEvent{at: r.sched.at[j] + d, client: client, v: int8(j)})
			}
		}
	}
	slices.SortFunc(r.events, func(a, b learnEvent) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.v, b.v), cmp.Compare(a.client, b.client))
	})
}

// run replays the stream of replay rep through every algorithm.
func (r *replayer) run(src Source, rep int) error {
	st, err := src.Open(rep)
	if err != nil {
		return fmt.Errorf("propagate: replay %d: %w", rep, err)
	}
	ch := newChunk()
	for {
		ch.n = 0
		for ch.n < chunkRequests && st.Scan() {
			if err := r.prepare(ch, st.Request()); err != nil {
				return fmt.Errorf("propagate: replay %d: %w", rep, err)
			}
		}
		if ch.n > 0 {
			if err := r.dispatch(ch); err != nil {
				return fmt.Errorf("propagate: replay %d: %w", rep, err)
			}
		}
		if ch.n < chunkRequests {
			break
		}
	}
	if err := st.Err(); err != nil {
		return fmt.Errorf("propagate: replay %d: requests: %w", rep, err)
	}
	return nil
}

// prepare checks one request, advances the clients' views and the
// database to its time, and appends it to the chunk.
func (r *replayer) prepare(ch *chunk, q Request) error {
	c := r.cfg
	switch {
	case !(q.Time >= c.Start && q.Time < c.End):
		return fmt.Errorf("request %d at %v s: outside the replay span [%v, %v) s", r.seen, q.Time, c.Start, c.End)
	case q.Time < r.lastT:
		return fmt.Errorf("request %d at %v s: before the previous request at %v s (requests must be in time order)", r.seen, q.Time, r.lastT)
	case q.Client < 0 || q.Client >= c.Clients:
		return fmt.Errorf("request %d: client %d: need 0..%d (%d clients)", r.seen, q.Client, c.Clients-1, c.Clients)
	case q.Op != Read && q.Op != Write:
		return fmt.Errorf("request %d: unknown op %d", r.seen, q.Op)
	case q.Key == "":
		return fmt.Errorf("request %d: empty key", r.seen)
	}
	r.seen++
	r.lastT = q.Time
	for r.next < len(r.events) && r.events[r.next].at <= q.Time {
		r.learn(r.events[r.next])
		r.next++
	}
	i := ch.n
	ch.n++
	ch.keys[i], ch.t[i], ch.op[i] = q.Key, q.Time, q.Op
	w := min(int32((q.Time-c.Start)/r.width), int32(c.Windows-1))
	ch.win[i] = w
	ch.view[i] = r.view[q.Client]
	ch.cur[i] = int8(r.sched.current(q.Time))
	ch.auth[i] = int8(r.sched.authority(q.Time))
	ch.inUse[i] = r.mask
	r.counts.requests[w]++
	if q.Op == Read {
		r.counts.reads[w]++
	}
	if c.Cache {
		id, ok := r.ids[q.Key]
		if !ok {
			id = int32(len(r.ids))
			r.ids[q.Key] = id
			r.db = append(r.db, 0)
		}
		if q.Op == Write {
			r.db[id]++
		}
		ch.id[i], ch.db[i] = id, r.db[id]
	}
	return nil
}

// learn moves a client to the version it learned, unless it already
// routes with a newer one.
func (r *replayer) learn(e learnEvent) {
	old := r.view[e.client]
	if e.v <= old {
		return
	}
	r.view[e.client] = e.v
	if r.users[old]--; r.users[old] == 0 {
		r.mask &^= 1 << old
	}
	if r.users[e.v]++; r.users[e.v] == 1 {
		r.mask |= 1 << e.v
	}
}

// dispatch counts the chunk for every algorithm, spread over the workers;
// each algorithm's counts depend only on its own placements and the chunk,
// so the result is the same for any number of workers.
func (r *replayer) dispatch(ch *chunk) error {
	errs := make([]error, len(r.fleets))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(keyset.Workers(r.cfg.Workers), len(r.fleets)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for a := int(next.Add(1) - 1); a < len(r.fleets); a = int(next.Add(1) - 1) {
				errs[a] = r.count(a, ch)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// count locates the chunk's keys under every version of algorithm a and
// counts each request.
func (r *replayer) count(a int, ch *chunk) error {
	f := &r.fleets[a]
	n := ch.n
	owners, server := r.owners[a], r.server[a]
	for v, loc := range f.versions {
		if err := loc.LocateKeys(ch.keys[:n], owners[v][:n]); err != nil {
			return fmt.Errorf("%s: %w", f.algorithm, err)
		}
		ids := f.server[v]
		for i, o := range owners[v][:n] {
			server[v][i] = ids[o]
		}
	}
	nv := len(f.versions)
	tallies, moved, movedReads := r.counts.tallies[a], r.counts.moved[a], r.counts.movedReads[a]
	if r.cfg.Cache {
		if need := len(r.db); len(r.cache[a]) < need {
			r.cache[a] = slices.Grow(r.cache[a], need-len(r.cache[a]))[:need]
		}
	}
	for i := range n {
		tl := &tallies[ch.win[i]]
		view, cur := ch.view[i], ch.cur[i]
		x := server[view][i]
		if view < cur {
			tl.stale++
			if x != server[cur][i] {
				tl.misrouted++
			}
		}
		read := ch.op[i] == Read
		for j := range nv {
			for k := j + 1; k < nv; k++ {
				if server[j][i] != server[k][i] {
					moved[j*nv+k]++
					if read {
						movedReads[j*nv+k]++
					}
				}
			}
		}
		if read {
			if auth := ch.auth[i]; x != server[auth][i] {
				if view > auth {
					tl.notYet++
				} else {
					tl.anyMore++
				}
			}
		}
		if r.cfg.Cache {
			r.cacheStep(&r.cache[a][ch.id[i]], server, ch, i, tl)
		}
	}
	return nil
}

// cacheStep applies request i of the chunk to the cache-aside fleet of
// one algorithm (see [Run] for the rules).
func (r *replayer) cacheStep(kc *keyCache, server [][]int32, ch *chunk, i int, tl *tally) {
	if !kc.touched {
		// Warm: cached on its owner under the first membership.
		kc.touched = true
		kc.copies = append(make([]copyOf, 0, 2), copyOf{server: server[0][i], ver: 0, at: math.Inf(-1)})
	}
	view := ch.view[i]
	x := server[view][i]
	at := -1
	for c := range kc.copies {
		if kc.copies[c].server == x {
			at = c
			break
		}
	}
	if ch.op[i] == Write {
		if at >= 0 {
			kc.copies = slices.Delete(kc.copies, at, at+1)
		}
		return
	}
	if at >= 0 {
		if kc.copies[at].ver < ch.db[i] {
			tl.staleReads++
		}
		return
	}
	tl.misses++
	t := ch.t[i]
	split, double := false, false
	for _, c := range kc.copies {
		// The key is there, current, on the server another view names,
		// filled through that view while both were issued: had the reader
		// routed like the filler, it would have hit.
		if c.ver == ch.db[i] && c.view != view && c.at >= r.sched.at[max(c.view, view)] {
			split = true
		}
		for u := range len(server) {
			if ch.inUse[i]&(1<<u) != 0 && server[u][i] == c.server {
				double = true
			}
		}
	}
	if split {
		tl.splitMisses++
	}
	if double {
		tl.doubleCached++
	}
	kc.copies = append(kc.copies, copyOf{server: x, view: view, ver: ch.db[i], at: t})
}
