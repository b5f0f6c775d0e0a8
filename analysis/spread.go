package analysis

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/simulate"

	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// CountOwners streams src through placement l and returns, per key set,
// the number of keys each node owns, indexed like l.Nodes():
// counts[set][node]. The counts do not depend on workers.
func CountOwners(src keyset.Source, l algorithms.Locator, workers int) ([][]int64, error) {
	return CountOwnersPerSet(src, []algorithms.Locator{l}, workers)
}

// CountOwnersPerSet is CountOwners with one placement per key set (ls[s]
// for set s, all with the same number of nodes), or a single placement for
// every set; counts[set] is indexed like the Nodes() of that set's
// placement. It returns an error when len(ls) is neither 1 nor the number
// of sets, the placements differ in size, or one fails.
func CountOwnersPerSet(src keyset.Source, ls []algorithms.Locator, workers int) ([][]int64, error) {
	n, sets := len(ls[0].Nodes()), src.Sets()
	if len(ls) != 1 && len(ls) != sets {
		return nil, fmt.Errorf("%d placements for %d key sets: want 1 or one per set", len(ls), sets)
	}
	for _, l := range ls {
		if len(l.Nodes()) != n {
			return nil, fmt.Errorf("placements of %d and %d nodes: want one membership size", n, len(l.Nodes()))
		}
	}
	workers = keyset.Workers(workers)
	per := make([][]int64, workers) // per[w][set*n+node]
	owners := make([][]int, workers)
	for w := range per {
		per[w] = make([]int64, sets*n)
	}
	var failed errOnce
	err := src.Each(workers, func(w, set int, keys []string) {
		if len(owners[w]) < len(keys) {
			owners[w] = make([]int, len(keys))
		}
		os := owners[w][:len(keys)]
		if err := forSet(ls, set).LocateKeys(keys, os); err != nil {
			failed.set(err)
			return
		}
		c := per[w][set*n : (set+1)*n]
		for _, o := range os {
			c[o]++
		}
	})
	if err == nil {
		err = failed.get()
	}
	if err != nil {
		return nil, err
	}
	out := make([][]int64, sets)
	for s := range out {
		out[s] = make([]int64, n)
		for w := range per { // fixed order; integer sums are exact anyway
			for i, c := range per[w][s*n : (s+1)*n] {
				out[s][i] += c
			}
		}
	}
	return out, nil
}

// Balance summarises one distribution of keys over weighted nodes. With
// share_i the fraction (0..1) of keys node i owns and q_i = w_i/W its weight
// share, the normalised load is l_i = share_i / q_i (1 for a perfect
// placement):
//   - MinShare, MaxShare: the smallest and largest share_i;
//   - PeakToMean: max_i l_i, the peak-to-mean ratio (for equal weights, the
//     largest count over the mean count);
//   - CV: the coefficient of variation of the l_i, population standard
//     deviation over mean (for equal weights, of the per-node counts).
type Balance struct {
	MinShare, MaxShare, PeakToMean, CV float64
}

// BalanceOf returns the Balance of shares (one per node, summing to 1)
// over nodes, which give the weights. It returns an error when the lengths
// differ, nodes is invalid, or a share is negative or not finite.
func BalanceOf(shares []float64, nodes []algorithms.Node) (Balance, error) {
	if len(shares) != len(nodes) {
		return Balance{}, fmt.Errorf("%d shares for %d nodes", len(shares), len(nodes))
	}
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return Balance{}, err
	}
	return balanceOf(shares, nodes)
}

// balanceOf is BalanceOf for a membership already validated (a placer's
// nodes): validating a million IDs per key set would cost more than the
// count.
func balanceOf(shares []float64, nodes []algorithms.Node) (Balance, error) {
	for i, s := range shares {
		if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
			return Balance{}, fmt.Errorf("share %v of node %q: must be a finite number >= 0", s, nodes[i].ID)
		}
	}
	w := algorithms.TotalWeight(nodes)
	loads := make([]float64, len(shares))
	for i, s := range shares {
		loads[i] = s / (nodes[i].Weight / w)
	}
	mean, std := stat.PopMeanStdDev(loads, nil)
	b := Balance{MinShare: slices.Min(shares), MaxShare: slices.Max(shares), PeakToMean: slices.Max(loads)}
	if mean > 0 {
		b.CV = std / mean
	}
	return b, nil
}

// NoiseReplicates returns the number of simulated placements behind the
// simulated noise-floor peak-to-mean ratio on n nodes: 10^6/n, clamped to
// [200, 2000], so that the simulation costs about 10^6 binomial draws
// below 5,000 nodes. The Monte Carlo standard error of the result is the
// standard deviation of the maximum load over sqrt(replicates).
func NoiseReplicates(n int) int {
	return min(2000, max(200, 1_000_000/n))
}

// How a noise floor was obtained (the noise_method of spread results).
const (
	NoiseAnalytic  = "analytic"
	NoiseSimulated = "simulated"
)

// AnalyticNoiseNodes is the node count from which the noise-floor
// peak-to-mean ratio of equal weights is computed rather than simulated
// (see [NoiseFloor]): the computation treats the n counts as independent,
// which they are up to a correlation of -1/(n-1), so its relative error in
// the excess over 1 is O(1/n), at most about 0.1% here, below the Monte
// Carlo error of the simulation it replaces; the simulation's cost grows
// like 200n draws above 5,000 nodes (43 s at 2^20 nodes).
const AnalyticNoiseNodes = 1000

// NoiseMethod returns how [NoiseFloor] obtains the peak-to-mean ratio for
// nodes: NoiseAnalytic for equal weights on at least AnalyticNoiseNodes
// nodes, else NoiseSimulated.
func NoiseMethod(nodes []algorithms.Node) string {
	if len(nodes) >= AnalyticNoiseNodes && algorithms.Uniform(nodes) {
		return NoiseAnalytic
	}
	return NoiseSimulated
}

// NoiseFloor returns the spread that a perfect algorithm shows with keys
// keys over nodes by sampling noise alone: each key lands on node i
// independently with probability q_i = w_i/W, so the counts are
// Multinomial(keys; q) and each is Binomial(keys, q_i).
//
// The peak-to-mean ratio (the mean of max_i l_i, see [Balance]) is, as
// [NoiseMethod] says, either computed or simulated. Computed (equal weights,
// n >= AnalyticNoiseNodes): with the counts taken as independent
// Binomial(K, 1/n) with CDF F, E[max] = sum over m >= 0 of 1 - F(m)^n, over
// the mean K/n; F's tail comes from the regularized incomplete beta
// function (gonum mathext.RegIncBeta). Simulated: the mean over
// NoiseReplicates multinomial draws (sequential conditional binomials from
// distuv.Binomial) with math/rand/v2's PCG seeded with (seed, 1). The cv
// is sqrt((n-1)/keys), the root-mean-square cv of Binomial(keys, 1/n)
// counts, for equal weights, and the simulated root-mean-square cv for
// unequal weights (the mean cv of a perfect algorithm is slightly lower, by
// about 1/(4(n-1)) relative). It returns an error for keys < 1 or an
// invalid membership.
func NoiseFloor(keys int, nodes []algorithms.Node, seed uint64) (peakToMean, cv float64, err error) {
	if keys < 1 {
		return 0, 0, fmt.Errorf("keys %d: need at least 1 key", keys)
	}
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return 0, 0, err
	}
	return noiseFloor(keys, nodes, seed)
}

// noiseFloor is NoiseFloor for keys >= 1 and a validated membership.
func noiseFloor(keys int, nodes []algorithms.Node, seed uint64) (peakToMean, cv float64, err error) {
	n := len(nodes)
	if NoiseMethod(nodes) == NoiseAnalytic {
		return analyticPeakToMean(keys, n), math.Sqrt(float64(n-1) / float64(keys)), nil
	}
	return simulateNoise(keys, nodes, seed)
}

// analyticPeakToMean returns E[max_i X_i] / (K/n) for n independent
// Binomial(K, 1/n) counts X_i: sum over m of P(max > m) = 1 - (1 -
// P(X > m))^n, with P(X > m) = I_{1/n}(m+1, K-m), starting where the terms
// are 1 (below ceil(K/n), where they are 1 exactly, or 10 standard
// deviations below the mean) and stopping where they fall below 1e-16 of
// the mean.
func analyticPeakToMean(keys, n int) float64 {
	K, p := float64(keys), 1/float64(n)
	mean := K * p
	sd := math.Sqrt(mean * (1 - p))
	// P(max > m) = 1 for every m < lo: 10 standard deviations below the
	// mean, and exactly below ceil(K/n) (some node holds at least that
	// many, which the independent counts would miss for K << n).
	lo := math.Max(math.Ceil(mean), math.Floor(mean-10*sd-10))
	e := lo
	for m := lo; m < K; m++ {
		s := mathext.RegIncBeta(m+1, K-m, p) // P(X > m)
		term := -math.Expm1(float64(n) * math.Log1p(-s))
		e += term
		if m > mean && term < 1e-16*math.Max(1, mean) {
			break
		}
	}
	return e / mean
}

// simulateNoise is NoiseFloor's simulation (see there).
func simulateNoise(keys int, nodes []algorithms.Node, seed uint64) (peakToMean, cv float64, err error) {
	n := len(nodes)
	src := rand.NewPCG(seed, 1)
	w := algorithms.TotalWeight(nodes)
	shares := make([]float64, n)
	var sumP, sumCV float64
	reps := NoiseReplicates(n)
	for range reps {
		left, wLeft := float64(keys), w
		for i, nd := range nodes {
			var c float64
			switch {
			case i == n-1:
				c = left
			case left > 0:
				p := math.Min(1, nd.Weight/wLeft)
				c = distuv.Binomial{N: left, P: p, Src: src}.Rand()
			}
			shares[i] = c / float64(keys)
			left -= c
			wLeft -= nd.Weight
		}
		b, err := balanceOf(shares, nodes)
		if err != nil {
			return 0, 0, err
		}
		sumP += b.PeakToMean
		sumCV += b.CV * b.CV
	}
	peakToMean = sumP / float64(reps)
	if algorithms.Uniform(nodes) {
		cv = math.Sqrt(float64(n-1) / float64(keys))
	} else {
		cv = math.Sqrt(sumCV / float64(reps))
	}
	return peakToMean, cv, nil
}

// quantileSummary summarises a statistic over independent layouts: its mean
// and its 5th and 95th percentiles (gonum stat.Quantile, empirical).
type quantileSummary struct {
	mean, p5, p95 float64
}

// layoutSummary is the exact spread (no key sampling) over draws
// independent layouts LayoutNodes(nodes, r), r = 0..draws-1, of an
// algorithm with a random layout: what a reader's own ring will show.
type layoutSummary struct {
	draws      int
	peakToMean quantileSummary
	cv         quantileSummary
}

// capacityPlacer is a placement with a load bound on its partitions (package
// bounded).
type capacityPlacer interface {
	algorithms.Placer
	Eps() float64
	Load(i int) int
	Cap(i int) int
}

// Spread places the keys of o on nodes with the algorithm of o and returns
// their spread, a row of spread results ([schema.Spread]).
//
// MinShare, MaxShare, PeakToMean and CV are the per-set [Balance] values,
// as means over the key sets with 95% intervals; in the per-set placement
// mode an algorithm with a random layout places key set s on
// LayoutNodes(nodes, s), so the intervals cover layouts and keys
// together, and shares are reported per node of nodes whatever its salted
// ID. NoisePeakToMean and NoiseCV are the floor a perfect algorithm shows
// by sampling noise with the same keys per set and nodes ([NoiseFloor];
// for a key file with floor(L/S) keys). The exact values are the Balance
// of the exact shares of the placement on the given node IDs (this exact
// fleet), when the placer implements [algorithms.ExactSharer]; the
// placements values the exact spread over Options.Draws independent
// layouts (when Draws > 0 and the algorithm has a random layout and exact
// shares); the theory values [RingTheory] for algorithms whose shares are
// arcs of virtual nodes (catalog Info.VNodeArcs) with equal weights; the
// load bound values are set for placements with a load bound (bounded
// loads: keys over ceil(c*K*w/W) per set, partitions over their capacity).
// It returns an error for invalid options or a membership the algorithm
// rejects.
func Spread(o Options, nodes []algorithms.Node) (schema.Spread, error) {
	src, rc, err := o.prepare()
	if err != nil {
		return schema.Spread{}, err
	}
	if err := checkSpreadMemory(o, src.Sets(), nodes); err != nil {
		return schema.Spread{}, err
	}
	info, _ := o.info() // checked by prepare
	layouts, err := o.layouts(src.Sets())
	if err != nil {
		return schema.Spread{}, err
	}
	cfg := o.Config
	cfg.Partitions = cfg.PartitionsFor(len(nodes))
	rc.Partitions = usedPartitions(o.Algo, cfg.Partitions)
	sp, err := newSpreadPlacements(o, cfg, nodes, layouts)
	if err != nil {
		return schema.Spread{}, err
	}
	defer release(sp.ls...)
	counts, err := CountOwnersPerSet(src, sp.ls, o.Workers)
	if err != nil {
		return schema.Spread{}, err
	}
	o.recordTopology(&rc, false)
	r := schema.Spread{Config: rc, Label: info.Label(false), Nodes: len(nodes)}
	st, err := sp.stats(counts, nodes)
	if err != nil {
		return schema.Spread{}, err
	}
	var ci cis
	st.estimates(&ci, &r, maxPeakToMean(nodes))
	sp.bounds(&ci, st.keyRatios, &r)
	keys := int(st.minKeys)
	if g := o.generated(); g != nil {
		keys = g.Keys()
	}
	r.NoiseMethod = NoiseMethod(nodes)
	if r.NoisePeakToMean, r.NoiseCV, err = noiseFloorCached(keys, nodes, o.Seed); err != nil {
		return schema.Spread{}, err
	}
	exact, err := sp.exact(o, cfg, info, nodes, &r)
	if err != nil {
		return schema.Spread{}, err
	}
	if info.VNodeArcs && algorithms.Uniform(nodes) {
		p, cv, err := RingTheory(len(nodes), cfg.VNodes)
		if err != nil {
			return schema.Spread{}, err
		}
		r.TheoryPeakToMean, r.TheoryCV = &p, &cv
	}
	w := algorithms.TotalWeight(nodes)
	for i, nd := range nodes {
		share := ci.fraction("share of "+nd.ID, st.perNode[i])
		ns := schema.Share{ID: nd.ID, Weight: nd.Weight, WeightShare: nd.Weight / w, Share: share.Mean, ShareLo: share.Lo, ShareHi: share.Hi}
		ns.Error = ns.Share - ns.WeightShare
		if exact != nil {
			x := exact[i]
			ns.Exact = &x
		}
		r.Shares = append(r.Shares, ns)
	}
	if ci.err != nil {
		return schema.Spread{}, fmt.Errorf("%s spread: %w", o.Algo, ci.err)
	}
	if rq, ok := o.Keys.(RequestSource); ok {
		if err := spreadBytes(rq, sp.ls[0], o.ItemOverhead, &r); err != nil {
			return schema.Spread{}, fmt.Errorf("%s spread by bytes: %w", o.Algo, err)
		}
	}
	return r, nil
}

// spreadBytes sets r's bytes columns: [simulate.SpreadBytes] of the
// requests of rq placed with l (the placement on the given node IDs,
// layout 0), each object at its key size, last non-zero value size and
// overhead bytes. A trace whose objects take no bytes leaves them nil.
func spreadBytes(rq RequestSource, l algorithms.Locator, overhead int64, r *schema.Spread) error {
	tr, err := rq.Requests()
	if err != nil {
		return err
	}
	if c, ok := tr.(io.Closer); ok {
		defer c.Close()
	}
	b, err := simulate.SpreadBytes(tr, l, simulate.SpreadOptions{ItemOverhead: overhead})
	if err != nil || b.TotalBytes <= 0 {
		return err
	}
	total, peak, ptm, cv, rate := b.TotalBytes, b.PeakBytes, b.PeakToMean, b.CV, b.SampleRate
	r.ObjectBytes, r.BusiestNode, r.BusiestBytes, r.BytesPeakToMean, r.BytesCV, r.BytesSampleRate = &total, b.Busiest, &peak, &ptm, &cv, &rate
	return nil
}

// spreadPlacements are the placements of a spread, one per layout, as the
// Locators the count streams through and the Placers behind them (for
// exact shares and bounds). Placers index nodes their own way; order[l][i]
// is the position in the spread's nodes of placement l's node i.
type spreadPlacements struct {
	ls    []algorithms.Locator
	ps    []algorithms.Placer
	order [][]int
}

// newSpreadPlacements builds the algorithm of o with cfg on each of
// layouts layouts of nodes (LayoutNodes); an algorithm whose map is the
// hierarchy from the topology of o, when it has one (spreadLocator). A
// placement outside the process has no Placer behind its Locator (ps[l] is
// nil). On an error it closes the placements it built.
func newSpreadPlacements(o Options, cfg catalog.Config, nodes []algorithms.Node, layouts int) (*spreadPlacements, error) {
	sp := &spreadPlacements{ls: make([]algorithms.Locator, 0, layouts), ps: make([]algorithms.Placer, layouts), order: make([][]int, layouts)}
	for l := range layouts {
		ln := LayoutNodes(nodes, l)
		loc, err := o.spreadLocator(ln, cfg)
		if err != nil {
			release(sp.ls...)
			return nil, err
		}
		sp.ls = append(sp.ls, loc)
		sp.ps[l], _ = algorithms.PlacerOf(loc)
		index := make(map[string]int, len(ln)) // IndexOf per node would be O(n^2)
		for i, nd := range ln {
			index[nd.ID] = i
		}
		sp.order[l] = make([]int, len(ln))
		for i, nd := range loc.Nodes() {
			sp.order[l][i] = index[nd.ID]
		}
	}
	return sp, nil
}

// spreadStats are the per-set statistics of a spread's counts: every
// node's share in each set (in the order of the spread's nodes), each
// set's balance, the keys of the smallest set and, for a placement with a
// load bound, each set's largest key count over its bound.
type spreadStats struct {
	perNode               [][]float64
	mins, maxs, p2ms, cvs []float64
	keyRatios             []float64
	minKeys               int64
	samples               []schema.SpreadSample
}

// stats returns the statistics of counts (per key set, per node of the
// set's placement); an empty key set is an error.
func (sp *spreadPlacements) stats(counts [][]int64, nodes []algorithms.Node) (*spreadStats, error) {
	st := &spreadStats{perNode: make([][]float64, len(nodes)), minKeys: math.MaxInt64}
	w := algorithms.TotalWeight(nodes)
	for s, c := range counts {
		var k int64
		for _, x := range c {
			k += x
		}
		if k == 0 {
			return nil, fmt.Errorf("key set %d is empty", s)
		}
		st.minKeys = min(st.minKeys, k)
		shares := make([]float64, len(c))
		ord := forSet(sp.order, s)
		for i, x := range c {
			shares[ord[i]] = float64(x) / float64(k)
		}
		for i := range shares {
			st.perNode[i] = append(st.perNode[i], shares[i])
		}
		b, err := balanceOf(shares, nodes)
		if err != nil {
			return nil, err
		}
		st.samples = append(st.samples, schema.SpreadSample(b))
		st.mins, st.maxs, st.p2ms, st.cvs = append(st.mins, b.MinShare), append(st.maxs, b.MaxShare), append(st.p2ms, b.PeakToMean), append(st.cvs, b.CV)
		if cp, ok := forSet(sp.ps, s).(capacityPlacer); ok {
			c := 1 + cp.Eps()
			var worst float64
			for i, x := range counts[s] {
				worst = max(worst, float64(x)/math.Ceil(c*float64(k)*nodes[ord[i]].Weight/w))
			}
			st.keyRatios = append(st.keyRatios, worst)
		}
	}
	return st, nil
}

// estimates stores the samples and the estimates over key sets into r;
// top is the largest peak-to-mean ratio the nodes allow.
func (st *spreadStats) estimates(ci *cis, r *schema.Spread, top float64) {
	r.Samples = st.samples
	setEstimate(&r.MinShare, &r.MinShareLo, &r.MinShareHi, ci.fraction("min share", st.mins))
	setEstimate(&r.MaxShare, &r.MaxShareLo, &r.MaxShareHi, ci.fraction("max share", st.maxs))
	setEstimate(&r.PeakToMean, &r.PeakToMeanLo, &r.PeakToMeanHi, ci.peakToMean("peak-to-mean", st.p2ms, top))
	setEstimate(&r.CV, &r.CVLo, &r.CVHi, ci.cv("cv", st.cvs, r.Nodes))
}

// bounds stores, for a placement with a load bound (bounded loads), the
// load factor, the largest partition load over its capacity and the key
// load over its bound (keyRatios, one per set) into r.
func (sp *spreadPlacements) bounds(ci *cis, keyRatios []float64, r *schema.Spread) {
	if len(keyRatios) == 0 {
		return
	}
	kr := ci.of("key load over bound", keyRatios)
	var lf, pr float64
	for _, p := range sp.ps {
		cp := p.(capacityPlacer)
		lf = 1 + cp.Eps()
		for i := range cp.Nodes() {
			pr = max(pr, float64(cp.Load(i))/float64(cp.Cap(i)))
		}
	}
	r.LoadFactor, r.PartitionLoadOverBound = &lf, &pr
	setOptional(&r.KeyLoadOverBound, &r.KeyLoadOverBoundLo, &r.KeyLoadOverBoundHi, kr)
}

// exact stores the exact balance of the first layout (the given node IDs)
// into r, for a placement with exact shares, and the spread over
// o.Draws layouts for one with a random layout; it returns the exact
// shares in the order of nodes (nil without).
func (sp *spreadPlacements) exact(o Options, cfg catalog.Config, info catalog.Info, nodes []algorithms.Node, r *schema.Spread) ([]float64, error) {
	es, ok := sp.ps[0].(algorithms.ExactSharer)
	if !ok {
		return nil, nil
	}
	exact := make([]float64, len(nodes))
	for i, x := range es.ExactShares() {
		exact[sp.order[0][i]] = x
	}
	b, err := balanceOf(exact, nodes)
	if err != nil {
		return nil, fmt.Errorf("%s exact shares: %w", o.Algo, err)
	}
	r.ExactPeakToMean, r.ExactCV, r.ExactMinShare, r.ExactMaxShare = &b.PeakToMean, &b.CV, &b.MinShare, &b.MaxShare
	if info.RandomLayout && o.Draws > 0 {
		l, err := layoutSpread(o, cfg, nodes)
		if err != nil {
			return nil, err
		}
		r.Placements = &l.draws
		r.PlacementsPeakToMean, r.PlacementsPeakToMeanP5, r.PlacementsPeakToMeanP95 = &l.peakToMean.mean, &l.peakToMean.p5, &l.peakToMean.p95
		r.PlacementsCV, r.PlacementsCVP5, r.PlacementsCVP95 = &l.cv.mean, &l.cv.p5, &l.cv.p95
	}
	return exact, nil
}

// setEstimate stores e into the mean, lo and hi fields of a row (lo and
// hi nil when e has no interval).
func setEstimate(mean *float64, lo, hi **float64, e Estimate) { *mean, *lo, *hi = e.Mean, e.Lo, e.Hi }

// setOptional stores e into the optional mean, lo and hi fields of a row.
func setOptional(mean, lo, hi **float64, e Estimate) {
	m := e.Mean
	*mean, *lo, *hi = &m, e.Lo, e.Hi
}

// CheckSpread returns the error Spread(o, nodes) would return before
// streaming its first key: an unknown algorithm or key source, a bad
// config, too many workers, a
// membership the algorithm rejects, or a placement or counters over the
// memory budget. It builds no placement of a ring or bounded loads. Sweeps
// call it for every configuration before running any.
func CheckSpread(o Options, nodes []algorithms.Node) error {
	if err := o.checkConfig(); err != nil {
		return err
	}
	if err := o.checkNodes(nodes, o.Config); err != nil {
		return err
	}
	if err := o.checkTopology(Scenario{Initial: nodes}, false); err != nil {
		return err
	}
	return checkSpreadMemory(o, o.sets(), nodes)
}

// spreadLocator builds o.Algo with cfg on nodes (newLocator); an
// algorithm whose map is the hierarchy from the topology of o, when it has
// one (inTopology), as catalog.NewPlacerInTopology builds it.
func (o Options) spreadLocator(nodes []algorithms.Node, cfg catalog.Config) (algorithms.Locator, error) {
	if !o.inTopology(false) {
		return o.newLocator(nodes, cfg)
	}
	t, err := scenarioTopology(o.Domains, Scenario{Initial: nodes})
	if err != nil {
		return nil, err
	}
	p, err := catalog.NewPlacerInTopology(o.Algo, t, o.Domains.Level, cfg)
	if err != nil {
		return nil, err
	}
	return algorithms.AsLocator(p, algorithms.MustHash(cfg.Hash).Bits()), nil
}

// spreadNodeBytes is what a spread keeps per node beyond its counters: the
// shares of a set, the exact shares, the NodeShare row and the ID index.
const spreadNodeBytes = 160

// checkSpreadMemory returns an error naming the sets, nodes, workers, bytes
// and budget when a spread of o over nodes with sets key sets would
// allocate more than o.Config.Budget(): the placement (catalog.Estimate),
// one 8-byte counter per set and node for each worker, the merged counts
// and the per-node shares of every set, and spreadNodeBytes per node.
func checkSpreadMemory(o Options, sets int, nodes []algorithms.Node) error {
	if err := o.checkBudget(nodes, o.Config); err != nil {
		return err
	}
	c, err := o.estimate(nodes, o.Config)
	if err != nil {
		return err
	}
	layouts, err := o.layouts(sets)
	if err != nil {
		return err
	}
	w, n := keyset.Workers(o.Workers), int64(len(nodes))
	// Every layout's placement is held with its node order (8 B per node)
	// while the keys stream; the layout draws ([Options.Draws]) then build
	// up to one placement per worker at a time beside them.
	held := int64(layouts)
	if info, _ := o.info(); info.RandomLayout && o.Draws > 0 {
		held += int64(min(w, o.Draws))
	}
	counters := int64(sets) * n * int64(w+2)
	total := held*c.Bytes + int64(layouts)*8*n + 8*counters + n*spreadNodeBytes
	if b := o.Config.Budget(); total > b {
		return fmt.Errorf("%s spread: %d sets x %d nodes x (%d workers + 2) = %d counters x 8 B, plus %d placements of %s (%d layouts, layout draws), need about %s, over the memory budget of %s: use fewer sets, nodes, workers or draws, -placement fixed, or raise the budget (-mem)",
			o.Algo, sets, n, w, counters, held, catalog.HumanBytes(c.Bytes), layouts, catalog.HumanBytes(total), catalog.HumanBytes(b))
	}
	return nil
}

// layoutSpread builds o.Draws layouts LayoutNodes(nodes, r) of the
// algorithm of o with cfg, on up to o.Workers goroutines, and summarises
// the Balance of their exact shares.
func layoutSpread(o Options, cfg catalog.Config, nodes []algorithms.Node) (*layoutSummary, error) {
	p2m := make([]float64, o.Draws)
	cvs := make([]float64, o.Draws)
	errs := make([]error, o.Draws)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(keyset.Workers(o.Workers), o.Draws) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				r := int(next.Add(1) - 1)
				if r >= o.Draws {
					return
				}
				ln := LayoutNodes(nodes, r)
				p, err := catalog.New(o.Algo, ln, cfg)
				if err != nil {
					errs[r] = fmt.Errorf("layout %d: %w", r, err)
					continue
				}
				b, err := BalanceOf(p.(algorithms.ExactSharer).ExactShares(), p.Nodes())
				if err != nil {
					errs[r] = fmt.Errorf("layout %d: %w", r, err)
					continue
				}
				p2m[r], cvs[r] = b.PeakToMean, b.CV
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &layoutSummary{draws: o.Draws, peakToMean: quantiles(p2m), cv: quantiles(cvs)}, nil
}

// quantiles returns the mean and the empirical 5th and 95th percentiles of
// xs (not empty); xs is sorted in place.
func quantiles(xs []float64) quantileSummary {
	slices.Sort(xs)
	return quantileSummary{
		mean: stat.Mean(xs, nil),
		p5:   stat.Quantile(0.05, stat.Empirical, xs, nil),
		p95:  stat.Quantile(0.95, stat.Empirical, xs, nil),
	}
}

type noiseKey struct {
	keys, nodes int
	seed        uint64
}

var noiseCache struct {
	sync.Mutex
	m map[noiseKey][2]float64
}

// noiseFloorCached is NoiseFloor for keys >= 1 and a validated membership
// (a placer's nodes), remembered for equal-weight memberships
// (where it depends only on keys, the node count and seed), so that a
// sweep over algorithms simulates each noise floor once.
func noiseFloorCached(keys int, nodes []algorithms.Node, seed uint64) (float64, float64, error) {
	if !algorithms.Uniform(nodes) {
		return noiseFloor(keys, nodes, seed)
	}
	k := noiseKey{keys, len(nodes), seed}
	noiseCache.Lock()
	v, ok := noiseCache.m[k]
	noiseCache.Unlock()
	if ok {
		return v[0], v[1], nil
	}
	p, cv, err := noiseFloor(keys, nodes, seed)
	if err != nil {
		return 0, 0, err
	}
	noiseCache.Lock()
	if noiseCache.m == nil {
		noiseCache.m = map[noiseKey][2]float64{}
	}
	noiseCache.m[k] = [2]float64{p, cv}
	noiseCache.Unlock()
	return p, cv, nil
}
