package analysis

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/memory"
	"github.com/chbench/chbench/schema"
)

// DefaultEpsGrid returns the eps values of the bounded-loads sweep:
// 0.05, 0.1, 0.25, 0.5, 1.
func DefaultEpsGrid() []float64 { return []float64{0.05, 0.1, 0.25, 0.5, 1} }

// leaverRand returns the generator that picks the node leaving in
// stream s.
func leaverRand(seed uint64, s int) *rand.Rand {
	const leaveSalt = 0x6c65617665 // "leave"
	return rand.New(rand.NewPCG(algorithms.Mix64(seed^leaveSalt), algorithms.Mix64(uint64(s))))
}

// ownerIDs maps owner indexes into nodes to IDs, for comparing two
// placements by ID.
func ownerIDs(owner []int32, nodes []algorithms.Node) []string {
	ids := make([]string, len(owner))
	for k, o := range owner {
		ids[k] = nodes[o].ID
	}
	return ids
}

func movedFrac(a, b []string) (moved int, frac float64) {
	for k := range a {
		if a[k] != b[k] {
			moved++
		}
	}
	return moved, float64(moved) / float64(len(a))
}

// SweepBoundedLoads measures the three forms of bounded loads, and the
// plain ring, on nodes for every eps in epsList and every Zipf exponent of
// o (o.RequestLog is not supported here), over o.Sets streams: keys and
// requests as in [Load], the ring with o.Config's hash and vnodes, the
// partition form with o.Config.PartitionsFor(n) partitions. It returns one
// row of bounded-loads results ([schema.Bounded]) per exponent, eps and
// form ([schema.BoundedVariants]), in that order:
//   - MaxLoadOverCap: the largest load / capacity over every stream and
//     every placement measured (before, after the join, after the leave;
//     for bounded-request over every request): <= 1 exactly; nil for ring;
//   - AwayFrac: fraction of requests served away from their first-choice
//     node;
//   - PeakToMean: peak-to-mean request load on the n nodes;
//   - MovedJoinFrac, MovedLeaveFrac: moved fraction when node n joins, and
//     when one seeded random node leaves (a different one per stream): of
//     keys for ring, bounded-partition and bounded-key (owners compared by
//     ID), of requests for bounded-request (the same stream replayed on
//     both memberships); IdealJoinFrac = 1/(W+1) for total weight W
//     (1/(n+1) for equal weights; the joining node has weight 1) and
//     IdealLeaveFrac = the leaving node's weight share, the least any
//     placement moves (mean over streams);
//   - MovesPerCapJoin, MovesPerCapLeave: moved units (partitions for
//     bounded-partition, keys for bounded-key) divided by one node's
//     capacity C = ceil(c*m/n) before the change: the paper bounds the
//     expected moves of a node update by O(C/eps^2) (and of a key update
//     by O(1/eps^2)), so this ratio against BoundOneOverEpsSq = 1/eps^2
//     shows how far below the bound's shape the measured moves stay; nil
//     for the others.
//
// It returns an error naming a bad eps or option.
func SweepBoundedLoads(o LoadOptions, epsList []float64, nodes []algorithms.Node) ([]schema.Bounded, error) {
	need, what, err := checkBounded(o, epsList, nodes)
	if err != nil {
		return nil, err
	}
	mem := o.memory()
	if err := mem.Reserve(what, need); err != nil {
		return nil, err
	}
	defer mem.Release(need)
	bp, err := planBounded(o, epsList, nodes)
	if err != nil {
		return nil, err
	}
	variants := schema.BoundedVariants()
	// samples[z][e][v] over streams
	samples := make([][][][]schema.BoundedSample, len(o.Zipfs))
	for z := range o.Zipfs {
		samples[z] = make([][][]schema.BoundedSample, len(epsList))
		for e := range epsList {
			samples[z][e] = make([][]schema.BoundedSample, len(variants))
		}
	}
	for s := range bp.rc.Sets {
		st, err := bp.stream(s)
		if err != nil {
			return nil, err
		}
		for z, law := range bp.laws {
			reqs := zipfRequests(law, o.Requests, o.Seed, s)
			for e, eps := range epsList {
				for v, variant := range variants {
					smp, err := bp.measure(variant, st, eps, reqs)
					if err != nil {
						return nil, err
					}
					samples[z][e][v] = append(samples[z][e][v], smp)
				}
			}
		}
	}
	var out []schema.Bounded
	for z, zs := range o.Zipfs {
		for e, eps := range epsList {
			for v, variant := range variants {
				r, err := bp.row(variant, eps, zs, samples[z][e][v])
				if err != nil {
					return nil, err
				}
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// boundedPlan is what every stream of a bounded-loads sweep shares: the
// membership before and after node n joins, the rings of both, the Zipf
// laws and the run's configuration.
type boundedPlan struct {
	o             LoadOptions
	rc            schema.Config
	gen           *keyset.Generator
	h             algorithms.Hash
	nodes, joined []algorithms.Node
	total         float64 // total weight of nodes
	k             int     // requests in flight of the request form
	r0, rJoin     *ring.Ring
	laws          []*Zipf
}

// CheckBoundedLoads returns the error SweepBoundedLoads(o, epsList,
// nodes) would return before drawing a request or building a ring: a bad
// option, eps or membership, a joining node whose ID is taken, or memory
// over the budget (three rings and two bounded placements, by their cost
// estimates, and the request streams: [memory.Budget.Fits]). Commands call
// it before any work.
func CheckBoundedLoads(o LoadOptions, epsList []float64, nodes []algorithms.Node) error {
	need, what, err := checkBounded(o, epsList, nodes)
	if err != nil {
		return err
	}
	return o.memory().Fits(what, need)
}

// checkBounded checks the sweep's options and returns the bytes it holds
// at once, and what for the budget's message.
func checkBounded(o LoadOptions, epsList []float64, nodes []algorithms.Node) (int64, string, error) {
	if o.RequestLog != nil {
		return 0, "", fmt.Errorf("request log %q: the bounded-loads sweep draws its requests from a Zipf law; use load for a log", o.RequestLog.Path())
	}
	if _, err := o.validate(); err != nil {
		return 0, "", err
	}
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return 0, "", err
	}
	if len(epsList) == 0 {
		return 0, "", fmt.Errorf("no eps given")
	}
	for _, e := range epsList {
		if err := bounded.ValidateEps(e); err != nil {
			return 0, "", err
		}
	}
	n := len(nodes)
	joined := append(slices.Clone(nodes), algorithms.Node{ID: algorithms.NodeID(n), Weight: 1})
	if algorithms.IndexOf(nodes, joined[n].ID) >= 0 {
		return 0, "", fmt.Errorf("node ID %q is taken: the joining node needs a fresh ID", joined[n].ID)
	}
	for _, name := range []string{ring.Name, bounded.Name} {
		if err := catalog.Check(name, joined, o.Config); err != nil {
			return 0, "", err
		}
	}
	// Three rings (before, after the join, after a leave) and two bounded
	// placements are held at once.
	rcost, err := catalog.Estimate(ring.Name, joined, o.Config)
	if err != nil {
		return 0, "", err
	}
	bcost, err := catalog.Estimate(bounded.Name, joined, o.Config)
	if err != nil {
		return 0, "", err
	}
	streams, what := o.streamNeed(boundedRequestBytes, o.inFlightFor(n))
	need := 3*rcost.Bytes + 2*bcost.Bytes
	if streams < 0 || need > 1<<62-streams {
		need = -1
	} else {
		need += streams
	}
	return need, fmt.Sprintf("bounded loads on %d nodes: three rings (%s each: %s), two bounded placements (%s each) and %s",
		n, memory.Human(rcost.Bytes), rcost.How, memory.Human(bcost.Bytes), what), nil
}

// planBounded builds what the sweep's streams share (its options checked
// by checkBounded).
func planBounded(o LoadOptions, epsList []float64, nodes []algorithms.Node) (*boundedPlan, error) {
	rc, err := o.validate()
	if err != nil {
		return nil, err
	}
	n := len(nodes)
	bp := &boundedPlan{o: o, rc: rc, gen: o.generated(), h: algorithms.MustHash(o.Config.Hash), nodes: nodes,
		total: algorithms.TotalWeight(nodes), k: o.inFlightFor(n)}
	bp.joined = append(slices.Clone(nodes), algorithms.Node{ID: algorithms.NodeID(n), Weight: 1})
	for _, s := range o.Zipfs {
		z, err := NewZipf(bp.gen.Keys(), s)
		if err != nil {
			return nil, err
		}
		bp.laws = append(bp.laws, z)
	}
	if bp.r0, err = ring.New(nodes, o.Config.VNodes, bp.h); err != nil {
		return nil, err
	}
	if bp.rJoin, err = ring.New(bp.joined, o.Config.VNodes, bp.h); err != nil {
		return nil, err
	}
	return bp, nil
}

// boundedStream is one stream of the sweep: its keys' hashes, the node
// that leaves, the membership and ring after the leave (nil with one
// node), and the plain ring's owners of the keys before, after the join
// and after the leave.
type boundedStream struct {
	hashes                     []uint64
	left                       []algorithms.Node
	rLeave                     *ring.Ring
	idealLeave                 float64
	ring0, ringJoin, ringLeave []string
}

// stream builds stream s: key set s of the generator, and a seeded leaver
// (a different one per stream).
func (bp *boundedPlan) stream(s int) (*boundedStream, error) {
	keys := streamKeys(bp.gen, s)
	st := &boundedStream{hashes: make([]uint64, len(keys))}
	for i, key := range keys {
		st.hashes[i] = bp.h.Sum(key)
	}
	leaver := leaverRand(bp.o.Seed, s).IntN(len(bp.nodes))
	st.left = slices.Delete(slices.Clone(bp.nodes), leaver, leaver+1)
	st.idealLeave = bp.nodes[leaver].Weight / bp.total
	if len(st.left) > 0 {
		var err error
		if st.rLeave, err = ring.New(st.left, bp.o.Config.VNodes, bp.h); err != nil {
			return nil, err
		}
	}
	owners := func(r *ring.Ring) []string {
		ids := make([]string, len(st.hashes))
		for i, x := range st.hashes {
			ids[i] = r.Nodes()[r.LocateHash(x)].ID
		}
		return ids
	}
	st.ring0, st.ringJoin = owners(bp.r0), owners(bp.rJoin)
	if st.rLeave != nil {
		st.ringLeave = owners(st.rLeave)
	}
	return st, nil
}

// measure measures one form at eps on a stream's requests reqs (key
// indexes).
func (bp *boundedPlan) measure(variant string, st *boundedStream, eps float64, reqs []int32) (schema.BoundedSample, error) {
	switch variant {
	case schema.VariantPartition:
		return measurePartition(bp.nodes, bp.joined, st.left, bp.o, eps, bp.h, st.hashes, reqs, st.idealLeave)
	case schema.VariantKey:
		return measureKeyLevel(bp.r0, bp.rJoin, st.rLeave, eps, st.hashes, reqs, st.idealLeave)
	case schema.VariantRequest:
		return measureRequestLevel(bp.r0, bp.rJoin, st.rLeave, eps, bp.k, st.hashes, reqs, st.idealLeave)
	}
	smp := schema.BoundedSample{IdealLeave: st.idealLeave}
	_, smp.MovedJoin = movedFrac(st.ring0, st.ringJoin)
	if st.ringLeave != nil {
		_, smp.MovedLeave = movedFrac(st.ring0, st.ringLeave)
	}
	// The plain ring's request load: its owner of each key, by ID.
	idx := map[string]int{}
	for i, nd := range bp.nodes {
		idx[nd.ID] = i
	}
	counts := make([]float64, len(bp.nodes))
	for _, q := range reqs {
		counts[idx[st.ring0[q]]]++
	}
	for i := range counts {
		counts[i] /= float64(len(reqs))
	}
	b, err := balanceOf(counts, bp.nodes)
	smp.PeakToMean = b.PeakToMean
	return smp, err
}

// row summarises the samples of one form at eps and Zipf exponent zs.
func (bp *boundedPlan) row(variant string, eps, zs float64, ss []schema.BoundedSample) (schema.Bounded, error) {
	r := schema.Bounded{Config: bp.rc, Nodes: len(bp.nodes), Zipf: zs, Requests: bp.o.Requests,
		IdealJoinFrac: 1 / (bp.total + 1), BoundOneOverEpsSq: oneOverEpsSquared(eps), Samples: ss}
	r.Algo, r.Eps, r.GoVersion = variant, eps, runtime.Version()
	if variant == schema.VariantRequest {
		r.InFlight = bp.k
	}
	var away, p2m, mj, ml, il, cj, cl []float64
	var ratio *float64 // the largest load / capacity; none once a stream has no capacity
	noCap := false
	for _, x := range ss {
		away, p2m, mj, ml, il = append(away, x.Away), append(p2m, x.PeakToMean), append(mj, x.MovedJoin), append(ml, x.MovedLeave), append(il, x.IdealLeave)
		if x.MovesCapJoin != nil {
			cj, cl = append(cj, *x.MovesCapJoin), append(cl, *x.MovesCapLeave)
		}
		switch {
		case x.MaxLoadOverCap == nil:
			noCap = true
		case ratio == nil:
			v := *x.MaxLoadOverCap
			ratio = &v
		default:
			*ratio = max(*ratio, *x.MaxLoadOverCap)
		}
	}
	if !noCap {
		r.MaxLoadOverCap = ratio
	}
	var ci cis
	setEstimate(&r.AwayFrac, &r.AwayFracLo, &r.AwayFracHi, ci.fraction("away fraction", away))
	setEstimate(&r.PeakToMean, &r.PeakToMeanLo, &r.PeakToMeanHi, ci.peakToMean("peak-to-mean", p2m, maxPeakToMean(bp.nodes)))
	setEstimate(&r.MovedJoinFrac, &r.MovedJoinFracLo, &r.MovedJoinFracHi, ci.fraction("moved on join", mj))
	setEstimate(&r.MovedLeaveFrac, &r.MovedLeaveFracLo, &r.MovedLeaveFracHi, ci.fraction("moved on leave", ml))
	r.IdealLeaveFrac = ci.of("ideal on leave", il).Mean
	if len(cj) > 0 {
		a, b := ci.of("moves per capacity on join", cj), ci.of("moves per capacity on leave", cl)
		setOptional(&r.MovesPerCapJoin, &r.MovesPerCapJoinLo, &r.MovesPerCapJoinHi, a)
		setOptional(&r.MovesPerCapLeave, &r.MovesPerCapLeaveLo, &r.MovesPerCapLeaveHi, b)
	}
	return r, ci.err
}

// requestBalance returns the Balance of the requests reqs (key indexes)
// over nodes when key k is served by owner[k].
func requestBalance(owner []int32, nodes []algorithms.Node, reqs []int32) (Balance, error) {
	counts := make([]float64, len(nodes))
	for _, q := range reqs {
		counts[owner[q]]++
	}
	for i := range counts {
		counts[i] /= float64(len(reqs))
	}
	return balanceOf(counts, nodes)
}

// awayFrac returns the fraction of reqs whose key's owner is not its first
// choice.
func awayFrac(owner, first []int32, reqs []int32) float64 {
	away := 0
	for _, q := range reqs {
		if owner[q] != first[q] {
			away++
		}
	}
	return float64(away) / float64(len(reqs))
}

// measurePartition measures the catalog's partition form: built fresh on
// nodes, then rebalanced (its own rule) for the join and the leave.
func measurePartition(nodes, joined, left []algorithms.Node, o LoadOptions, eps float64, h algorithms.Hash, hashes []uint64, reqs []int32, idealLeave float64) (schema.BoundedSample, error) {
	b, err := bounded.New(nodes, o.Config.VNodes, eps, o.Config.PartitionsFor(len(nodes)), h)
	if err != nil {
		return schema.BoundedSample{}, err
	}
	r := b.Ring()
	owner := make([]int32, len(hashes))
	first := make([]int32, len(hashes))
	firstOf := make([]int32, b.Partitions())
	for q := range firstOf {
		firstOf[q] = int32(r.At(r.Search(b.PartitionPos(q))).Owner)
	}
	for i, x := range hashes {
		owner[i] = int32(b.LocateHash(x))
		first[i] = firstOf[b.Partition(x)]
	}
	ratio := func(b *bounded.Bounded) float64 {
		m := 0.0
		for i := range b.Nodes() {
			m = max(m, float64(b.Load(i))/float64(b.Cap(i)))
		}
		return m
	}
	bal, err := requestBalance(owner, b.Nodes(), reqs)
	if err != nil {
		return schema.BoundedSample{}, err
	}
	maxRatio := ratio(b)
	smp := schema.BoundedSample{Away: awayFrac(owner, first, reqs), PeakToMean: bal.PeakToMean, IdealLeave: idealLeave}
	capUnits := float64(bounded.Capacity(eps, b.Partitions(), 1, float64(len(nodes))))
	keysOf := func(p *bounded.Bounded) []string {
		ids := make([]string, len(hashes))
		for i, x := range hashes {
			ids[i] = p.Nodes()[p.LocateHash(x)].ID
		}
		return ids
	}
	partsOf := func(p *bounded.Bounded) []string {
		ids := make([]string, p.Partitions())
		for q := range ids {
			ids[q] = p.Nodes()[p.Owner(q)].ID
		}
		return ids
	}
	k0, p0 := keysOf(b), partsOf(b)
	var cj, cl float64
	pj, err := b.Rebalance(joined)
	if err != nil {
		return schema.BoundedSample{}, err
	}
	bj := pj.(*bounded.Bounded)
	maxRatio = max(maxRatio, ratio(bj))
	_, smp.MovedJoin = movedFrac(k0, keysOf(bj))
	mp, _ := movedFrac(p0, partsOf(bj))
	cj = float64(mp) / capUnits
	if len(left) > 0 {
		pl, err := b.Rebalance(left)
		if err != nil {
			return schema.BoundedSample{}, err
		}
		bl := pl.(*bounded.Bounded)
		maxRatio = max(maxRatio, ratio(bl))
		_, smp.MovedLeave = movedFrac(k0, keysOf(bl))
		mp, _ := movedFrac(p0, partsOf(bl))
		cl = float64(mp) / capUnits
	}
	smp.MovesCapJoin, smp.MovesCapLeave = &cj, &cl
	smp.MaxLoadOverCap = &maxRatio
	return smp, nil
}

// measureKeyLevel measures the paper's key-level form: the assignment is
// recomputed (same key order) on the joined and the left rings.
func measureKeyLevel(r0, rJoin, rLeave *ring.Ring, eps float64, hashes []uint64, reqs []int32, idealLeave float64) (schema.BoundedSample, error) {
	kp, err := bounded.PlaceKeys(r0, hashes, eps)
	if err != nil {
		return schema.BoundedSample{}, err
	}
	bal, err := requestBalance(kp.Owner, r0.Nodes(), reqs)
	if err != nil {
		return schema.BoundedSample{}, err
	}
	maxRatio := kp.MaxLoadOverCap()
	smp := schema.BoundedSample{Away: awayFrac(kp.Owner, kp.First, reqs), PeakToMean: bal.PeakToMean, IdealLeave: idealLeave}
	capUnits := float64(kp.Caps[0])
	for _, c := range kp.Caps {
		capUnits = max(capUnits, float64(c))
	}
	k0 := ownerIDs(kp.Owner, r0.Nodes())
	kj, err := bounded.PlaceKeys(rJoin, hashes, eps)
	if err != nil {
		return schema.BoundedSample{}, err
	}
	maxRatio = max(maxRatio, kj.MaxLoadOverCap())
	mj, fj := movedFrac(k0, ownerIDs(kj.Owner, rJoin.Nodes()))
	smp.MovedJoin = fj
	cj, cl := float64(mj)/capUnits, 0.0
	if rLeave != nil {
		kl, err := bounded.PlaceKeys(rLeave, hashes, eps)
		if err != nil {
			return schema.BoundedSample{}, err
		}
		maxRatio = max(maxRatio, kl.MaxLoadOverCap())
		ml, fl := movedFrac(k0, ownerIDs(kl.Owner, rLeave.Nodes()))
		smp.MovedLeave, cl = fl, float64(ml)/capUnits
	}
	smp.MovesCapJoin, smp.MovesCapLeave = &cj, &cl
	smp.MaxLoadOverCap = &maxRatio
	return smp, nil
}

// replay serves reqs with a fresh RequestBalancer on r and returns the
// serving node ID of every request, the away fraction, the request
// balance and the largest load / cap.
func replay(r *ring.Ring, eps float64, k int, hashes []uint64, reqs []int32) ([]string, float64, Balance, float64, error) {
	b, err := bounded.NewRequestBalancer(r, eps, k)
	if err != nil {
		return nil, 0, Balance{}, 0, err
	}
	points := make([]int32, len(hashes))
	for k, x := range hashes {
		points[k] = int32(r.Search(x))
	}
	ids := make([]string, len(reqs))
	counts := make([]float64, len(r.Nodes()))
	away := 0
	for i, q := range reqs {
		o, f := b.ServeFrom(int(points[q]))
		if o != f {
			away++
		}
		counts[o]++
		ids[i] = r.Nodes()[o].ID
	}
	for i := range counts {
		counts[i] /= float64(len(reqs))
	}
	bal, err := BalanceOf(counts, r.Nodes())
	return ids, float64(away) / float64(len(reqs)), bal, b.MaxLoadOverCap(), err
}

// measureRequestLevel measures the request-level form: the same requests
// replayed on each membership.
func measureRequestLevel(r0, rJoin, rLeave *ring.Ring, eps float64, k int, hashes []uint64, reqs []int32, idealLeave float64) (schema.BoundedSample, error) {
	ids0, away, bal, m0, err := replay(r0, eps, k, hashes, reqs)
	if err != nil {
		return schema.BoundedSample{}, err
	}
	maxRatio := m0
	smp := schema.BoundedSample{Away: away, PeakToMean: bal.PeakToMean, IdealLeave: idealLeave}
	idsJ, _, _, mj, err := replay(rJoin, eps, k, hashes, reqs)
	if err != nil {
		return schema.BoundedSample{}, err
	}
	maxRatio = max(maxRatio, mj)
	_, smp.MovedJoin = movedFrac(ids0, idsJ)
	if rLeave != nil {
		idsL, _, _, ml, err := replay(rLeave, eps, k, hashes, reqs)
		if err != nil {
			return schema.BoundedSample{}, err
		}
		maxRatio = max(maxRatio, ml)
		_, smp.MovedLeave = movedFrac(ids0, idsL)
	}
	smp.MaxLoadOverCap = &maxRatio
	return smp, nil
}

// oneOverEpsSquared returns 1/eps^2 for eps read as the decimal it was
// written as (its shortest representation, strconv.FormatFloat with
// precision -1), computed exactly in rationals and rounded once: 400 for
// eps = 0.05, where 1/(eps*eps) in floats gives 399.99999999999994.
func oneOverEpsSquared(eps float64) float64 {
	d, ok := new(big.Rat).SetString(strconv.FormatFloat(eps, 'g', -1, 64))
	if !ok || d.Sign() == 0 { // eps > 0 and finite is checked before any work
		return 1 / (eps * eps)
	}
	f, _ := new(big.Rat).Inv(new(big.Rat).Mul(d, d)).Float64()
	return f
}
