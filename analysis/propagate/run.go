package propagate

import (
	"fmt"
	"math"

	"github.com/chbench/chbench/analysis"
)

// Row is one algorithm's counts in one time window of a scenario, or over
// the whole replay span (Window = -1). Counts are requests per replay: the
// mean over the replays with its 95% Student-t interval
// ([analysis.MeanCI]); each *Expected field is the analytic expectation
// of the count beside it (see [Run]).
type Row struct {
	Algorithm string  // catalog name
	Label     string  // catalog label, e.g. "jump (swap-last)" when a change removes nodes
	Window    int     // 0-based window, -1 for the whole span
	Start     float64 // seconds
	End       float64 // seconds
	Requests  float64 // requests in the window (mean per replay)
	Reads     float64 // of them reads

	// Moved is the moved fraction (0..1) between the first and the last
	// membership, weighted by requests: the share of all requests of the
	// replay whose key the two place on different servers (mean over
	// replays; the same in every window of an algorithm).
	Moved float64

	// Stale counts requests routed by a stale view: their client had not
	// yet learned the newest change issued.
	Stale         analysis.Estimate
	StaleExpected float64
	// Misrouted counts the stale requests that reach a different server
	// than the newest view names: the requests that go astray.
	Misrouted         analysis.Estimate
	MisroutedExpected float64

	// The store workload: NotYet counts reads sent to a server that does
	// not own the key yet (its client routes with a newer version than
	// the one whose owners hold the data); AnyMore reads sent to one that
	// does not own it any more (an older version's owner).
	NotYet          analysis.Estimate
	NotYetExpected  float64
	AnyMore         analysis.Estimate
	AnyMoreExpected float64

	// The cache-aside workload (zero unless Config.Cache): Misses counts
	// reads that miss; SplitMisses the misses while the key's current
	// value is cached on another server, filled through another view
	// after both views were issued (the writer used the other view: had
	// the reader routed like it, the read would have hit); DoubleCached the
	// fills that leave a key cached on two servers that views in use
	// both name; StaleReads the hits that return a version older than the
	// database's: a value an invalidation should have removed.
	Misses       analysis.Estimate
	SplitMisses  analysis.Estimate
	DoubleCached analysis.Estimate
	StaleReads   analysis.Estimate
}

// Result is the outcome of [Run].
type Result struct {
	Model   string  // the model's spec
	Clients int     // C
	Replays int     // replays behind every interval
	Seed    uint64  // seed of the propagation draws
	Handoff float64 // store hand-off, seconds
	Cache   bool    // whether the cache-aside counts were made
	Totals  []Row   // one per algorithm, in Config.Algorithms order
	Windows []Row   // algorithm-major: Windows[a*W + w]
}

// Run replays the requests of src from C clients through every algorithm
// while the memberships of cfg.Changes propagate to the clients by
// cfg.Model, and counts, per window and in total:
//
//   - Routing. Client c routes with the newest membership version it has
//     learned: version j once t >= At_j + L_cj, L_cj its learn delay for
//     change j (one draw of the model per change and replay; the same
//     draws for every algorithm, so algorithms are compared on the same
//     rollouts). A request is stale when that version is older than J(t),
//     the newest change issued, and misrouted when its key's server under
//     the client's version differs from the one under J(t).
//   - Store: a read goes to its client's server; the data of change j is
//     on the new owners from At_j + Handoff (version A(t)); a read to a
//     server other than A(t)'s owner is "not yet" (newer view) or "any
//     more" (older view).
//   - Cache-aside (cfg.Cache): every key starts cached on its owner under
//     the first membership and caches never evict. A read gets the key
//     from its client's server: a hit returns the cached version; a miss
//     reads the database and fills that server with the current version.
//     A write updates the database and deletes the key on the writer's
//     server only.
//
// Each count is a mean over cfg.Replays replays with a 95% interval. The
// expectations beside them are analytic: with N_w requests in window w of
// width |w| at a constant rate, m(j, k) the moved fraction between
// versions j and k over the replay's requests, and P_j(t) the probability
// that a client routes with version j at t (from the model's curves:
// P_j = F_j prod_{i>j} (1 - F_i), delays independent across changes),
//
//	E[stale_w]     = N_w/|w| integral_w sum_{j<J(t)} P_j(t) dt
//	E[misrouted_w] = N_w/|w| integral_w sum_{j<J(t)} P_j(t) m(j, J(t)) dt
//
// and the store's with reads, A(t) in place of J(t) and j > A (not yet) or
// j < A (any more). For one change propagating fully inside the span this
// is the moved fraction times the request rate times the mean learn
// delay (T/2 for a linear rollout over T). The cache-aside counts have no
// closed form and are simulated only.
//
// The requests are read once per replay, in chunks; the algorithms count
// each chunk in parallel on cfg.Workers goroutines, each on its own state,
// so the result is byte-identical for any number of workers. Memory is
// flat in the number of requests, except for the cache-aside workload,
// which keeps the copies of every distinct key per algorithm. It returns
// an error naming the first bad value of cfg or request (out of time
// order, outside [Start, End), client out of range), or a Locator's error.
func Run(cfg Config, src Source) (*Result, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if src == nil {
		return nil, fmt.Errorf("propagate: no request source")
	}
	curve, err := cfg.Model.Curve(cfg.Clients)
	if err != nil {
		return nil, fmt.Errorf("propagate: %w", err)
	}
	fleets, err := buildFleets(&cfg)
	if err != nil {
		return nil, err
	}
	sched := &schedule{at: []float64{math.Inf(-1)}, curves: []Curve{{}}, handoff: cfg.Handoff}
	for _, ch := range cfg.Changes {
		sched.at = append(sched.at, ch.At)
		sched.curves = append(sched.curves, curve)
	}
	counts := make([]*replayCounts, cfg.Replays)
	for rep := range cfg.Replays {
		r := newReplayer(&cfg, fleets, sched, rep)
		if err := r.run(src, rep); err != nil {
			return nil, err
		}
		counts[rep] = r.counts
	}
	return summarize(&cfg, fleets, sched, counts)
}

// summarize turns the replays' counts into rows with intervals and
// expectations.
func summarize(cfg *Config, fleets []fleet, sched *schedule, counts []*replayCounts) (*Result, error) {
	res := &Result{Model: cfg.Model.Spec(), Clients: cfg.Clients, Replays: cfg.Replays, Seed: cfg.Seed, Handoff: cfg.Handoff, Cache: cfg.Cache}
	width := (cfg.End - cfg.Start) / float64(cfg.Windows)
	shares := make([]windowShares, cfg.Windows)
	for w := range shares {
		a := cfg.Start + float64(w)*width
		shares[w] = sched.shares(a, a+width)
	}
	ci := &intervals{}
	nrep := len(counts)
	for a, f := range fleets {
		rows := make([]Row, cfg.Windows)
		// Per replay, per window: the samples of every count, and the
		// totals over the windows.
		samples := make([][]sampleSet, cfg.Windows+1)
		for w := range samples {
			samples[w] = make([]sampleSet, nrep)
		}
		var movedSum float64
		for rep, rc := range counts {
			nv := len(f.versions)
			m, mr := movedFractions(rc, a, nv)
			movedSum += m[0*nv+nv-1]
			for w := range cfg.Windows {
				s := sampleOf(rc, a, w)
				s.expect(shares[w], width, m, mr, float64(rc.requests[w]), float64(rc.reads[w]))
				samples[w][rep] = s
				samples[cfg.Windows][rep].add(s)
			}
		}
		for w := range cfg.Windows {
			rows[w] = ci.row(f, w, cfg.Start+float64(w)*width, cfg.Start+float64(w+1)*width, samples[w])
		}
		for i := range rows {
			rows[i].Moved = movedSum / float64(nrep)
		}
		total := ci.row(f, -1, cfg.Start, cfg.End, samples[cfg.Windows])
		total.Moved = movedSum / float64(nrep)
		res.Windows = append(res.Windows, rows...)
		res.Totals = append(res.Totals, total)
	}
	if ci.err != nil {
		return nil, fmt.Errorf("propagate: %w", ci.err)
	}
	return res, nil
}

// movedFractions returns algorithm a's moved fractions m[j*V+k] over all
// requests and mr over the reads of one replay, symmetric, 0 on the
// diagonal (and 0 when the replay had no requests or reads).
func movedFractions(rc *replayCounts, a, nv int) (m, mr []float64) {
	var n, nr int64
	for w := range rc.requests {
		n += rc.requests[w]
		nr += rc.reads[w]
	}
	m, mr = make([]float64, nv*nv), make([]float64, nv*nv)
	for j := range nv {
		for k := j + 1; k < nv; k++ {
			if n > 0 {
				m[j*nv+k] = float64(rc.moved[a][j*nv+k]) / float64(n)
				m[k*nv+j] = m[j*nv+k]
			}
			if nr > 0 {
				mr[j*nv+k] = float64(rc.movedReads[a][j*nv+k]) / float64(nr)
				mr[k*nv+j] = mr[j*nv+k]
			}
		}
	}
	return m, mr
}

// sampleSet is one replay's counts of one algorithm in one window (or
// summed over all), with their expectations.
type sampleSet struct {
	requests, reads                             float64
	stale, misrouted, notYet, anyMore           float64
	misses, splitMisses, doubleCached, staleRds float64
	eStale, eMisrouted, eNotYet, eAnyMore       float64
}

func sampleOf(rc *replayCounts, a, w int) sampleSet {
	t := rc.tallies[a][w]
	return sampleSet{requests: float64(rc.requests[w]), reads: float64(rc.reads[w]),
		stale: float64(t.stale), misrouted: float64(t.misrouted), notYet: float64(t.notYet), anyMore: float64(t.anyMore),
		misses: float64(t.misses), splitMisses: float64(t.splitMisses), doubleCached: float64(t.doubleCached), staleRds: float64(t.staleReads)}
}

// expect sets the window's expectations from its view-probability
// integrals, its request and read counts and the moved fractions.
func (s *sampleSet) expect(sh windowShares, width float64, m, mr []float64, n, nr float64) {
	v := sh.v
	for j := range v {
		for k := range v {
			route, store := sh.route[j*v+k], sh.store[j*v+k]
			if j < k {
				s.eStale += n / width * route
				s.eMisrouted += n / width * route * m[j*v+k]
				s.eAnyMore += nr / width * store * mr[j*v+k]
			} else if j > k {
				s.eNotYet += nr / width * store * mr[j*v+k]
			}
		}
	}
}

func (s *sampleSet) add(o sampleSet) {
	s.requests += o.requests
	s.reads += o.reads
	s.stale += o.stale
	s.misrouted += o.misrouted
	s.notYet += o.notYet
	s.anyMore += o.anyMore
	s.misses += o.misses
	s.splitMisses += o.splitMisses
	s.doubleCached += o.doubleCached
	s.staleRds += o.staleRds
	s.eStale += o.eStale
	s.eMisrouted += o.eMisrouted
	s.eNotYet += o.eNotYet
	s.eAnyMore += o.eAnyMore
}

// intervals builds rows, keeping the first interval error (a NaN or
// infinite sample, which these counts never are).
type intervals struct{ err error }

func (c *intervals) of(what string, ss []sampleSet, get func(sampleSet) float64) analysis.Estimate {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = get(s)
	}
	e, err := analysis.MeanCI(xs)
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("%s: %w", what, err)
	}
	return e
}

func (c *intervals) mean(ss []sampleSet, get func(sampleSet) float64) float64 {
	var sum float64
	for _, s := range ss {
		sum += get(s)
	}
	return sum / float64(len(ss))
}

func (c *intervals) row(f fleet, w int, start, end float64, ss []sampleSet) Row {
	return Row{
		Algorithm: f.algorithm, Label: f.label, Window: w, Start: start, End: end,
		Requests:          c.mean(ss, func(s sampleSet) float64 { return s.requests }),
		Reads:             c.mean(ss, func(s sampleSet) float64 { return s.reads }),
		Stale:             c.of("stale", ss, func(s sampleSet) float64 { return s.stale }),
		StaleExpected:     c.mean(ss, func(s sampleSet) float64 { return s.eStale }),
		Misrouted:         c.of("misrouted", ss, func(s sampleSet) float64 { return s.misrouted }),
		MisroutedExpected: c.mean(ss, func(s sampleSet) float64 { return s.eMisrouted }),
		NotYet:            c.of("not yet", ss, func(s sampleSet) float64 { return s.notYet }),
		NotYetExpected:    c.mean(ss, func(s sampleSet) float64 { return s.eNotYet }),
		AnyMore:           c.of("any more", ss, func(s sampleSet) float64 { return s.anyMore }),
		AnyMoreExpected:   c.mean(ss, func(s sampleSet) float64 { return s.eAnyMore }),
		Misses:            c.of("misses", ss, func(s sampleSet) float64 { return s.misses }),
		SplitMisses:       c.of("split misses", ss, func(s sampleSet) float64 { return s.splitMisses }),
		DoubleCached:      c.of("double-cached", ss, func(s sampleSet) float64 { return s.doubleCached }),
		StaleReads:        c.of("stale reads", ss, func(s sampleSet) float64 { return s.staleRds }),
	}
}
