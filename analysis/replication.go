package analysis

import (
	"fmt"
	"math"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// This file measures replication: each key stored on R distinct nodes
// (replication factor R), placed by each algorithm's replica scheme
// ([algorithms.Replicas]). Not to be confused with replicas.go, whose
// "replicates" are independent placements for the reference checks.

// MaxReplicationFactor is the largest replication factor the analysis
// accepts.
const MaxReplicationFactor = 5

// ReplicaCount holds the counts of one key set for a replication analysis.
type ReplicaCount struct {
	Keys    int64   // keys in the set
	Pairs   int64   // key-replica pairs of the first placement: sum over keys of its replica count
	Moved   int64   // pairs of the first placement whose node holds no replica of the key in the last
	AllLost int64   // keys none of whose first-placement replicas holds a replica in the last
	Load    []int64 // replicas per node of the first placement, indexed like its Nodes()
	Sets    int     // distinct replica sets (as sets of nodes) among the keys, first placement
}

// CountReplicas streams src through the first and the last placement of
// chain and counts, per key set, the replicas (R per key, fewer only when
// fewer nodes exist: Locator.ReplicateKeys) that move between them, the
// keys that lose every replica, each node's replica load and the distinct
// replica sets in the first placement. Nodes are matched by ID. It returns
// an error for R outside 1..MaxReplicationFactor, a chain of fewer than
// two placements, or a failing source or placement. The counts do not
// depend on workers.
func CountReplicas(src keyset.Source, chain []algorithms.Locator, r, workers int) ([]ReplicaCount, error) {
	return CountReplicasPerSet(src, [][]algorithms.Locator{chain}, r, workers)
}

// replicaEnds is the first and last placement of one chain, with the last
// one's nodes numbered like the first's (newcomers after them), and the
// replicas per key each gives (R, or fewer nodes).
type replicaEnds struct {
	first, last   algorithms.Locator
	lastG         []int32 // last's node i is global node lastG[i]
	n0            int     // nodes of first
	rFirst, rLast int
}

func newReplicaEnds(chain []algorithms.Locator, r int) replicaEnds {
	first, last := chain[0], chain[len(chain)-1]
	e := replicaEnds{first: first, last: last, n0: len(first.Nodes()), lastG: make([]int32, len(last.Nodes())),
		rFirst: min(r, len(first.Nodes())), rLast: min(r, len(last.Nodes()))}
	ids := make(map[string]int32, e.n0)
	for i, nd := range first.Nodes() {
		ids[nd.ID] = int32(i)
	}
	for i, nd := range last.Nodes() {
		g, ok := ids[nd.ID]
		if !ok {
			g = int32(len(ids))
			ids[nd.ID] = g
		}
		e.lastG[i] = g
	}
	return e
}

// CountReplicasPerSet is CountReplicas with one chain per key set (key set
// s through chains[s]: its own layout or its own history), or a single
// chain that serves every set. It returns CountReplicas's errors and one
// for a number of chains other than 1 or the sets of src.
func CountReplicasPerSet(src keyset.Source, chains [][]algorithms.Locator, r, workers int) ([]ReplicaCount, error) {
	if r < 1 || r > MaxReplicationFactor {
		return nil, fmt.Errorf("replicas %d: the replication factor must be 1 to %d", r, MaxReplicationFactor)
	}
	sets := src.Sets()
	if len(chains) != 1 && len(chains) != sets {
		return nil, fmt.Errorf("%d chains for %d key sets: want 1 or one per set", len(chains), sets)
	}
	ends := make([]replicaEnds, len(chains))
	for i, chain := range chains {
		if len(chain) < 2 {
			return nil, fmt.Errorf("replication needs at least two placements, got %d", len(chain))
		}
		ends[i] = newReplicaEnds(chain, r)
	}
	workers = keyset.Workers(workers)
	counts := make([][]ReplicaCount, workers)
	seen := make([][]map[uint64]struct{}, workers)
	bufs := make([][2][]int, workers)
	for w := range counts {
		counts[w] = make([]ReplicaCount, sets)
		seen[w] = make([]map[uint64]struct{}, sets)
		for s := range sets {
			counts[w][s].Load = make([]int64, forSet(ends, s).n0)
			seen[w][s] = map[uint64]struct{}{}
		}
	}
	var failed errOnce
	err := src.Each(workers, func(w, set int, keys []string) {
		e := forSet(ends, set)
		b := &bufs[w]
		if need := MaxReplicationFactor * len(keys); len(b[0]) < need {
			b[0], b[1] = make([]int, need), make([]int, need)
		}
		a, z := b[0][:e.rFirst*len(keys)], b[1][:e.rLast*len(keys)]
		if err := e.first.ReplicateKeys(keys, e.rFirst, a); err != nil {
			failed.set(err)
			return
		}
		if err := e.last.ReplicateKeys(keys, e.rLast, z); err != nil {
			failed.set(err)
			return
		}
		countReplicaChunk(&counts[w][set], seen[w][set], e, a, z, len(keys))
	})
	if err == nil {
		err = failed.get()
	}
	if err != nil {
		return nil, err
	}
	out := make([]ReplicaCount, sets)
	for s := range sets {
		out[s].Load = make([]int64, forSet(ends, s).n0)
		union := map[uint64]struct{}{}
		for w := range counts {
			c := counts[w][s]
			out[s].Keys += c.Keys
			out[s].Pairs += c.Pairs
			out[s].Moved += c.Moved
			out[s].AllLost += c.AllLost
			for i, l := range c.Load {
				out[s].Load[i] += l
			}
			for f := range seen[w][s] {
				union[f] = struct{}{}
			}
		}
		out[s].Sets = len(union)
		if out[s].Keys == 0 {
			return nil, fmt.Errorf("key set %d is empty", s)
		}
	}
	return out, nil
}

// countReplicaChunk adds to c the replicas of n keys: a holds each key's
// e.rFirst replicas under the first placement, z its e.rLast under the
// last (node indexes of each), fp the fingerprints of the replica sets
// seen.
func countReplicaChunk(c *ReplicaCount, fp map[uint64]struct{}, e replicaEnds, a, z []int, n int) {
	var rb [MaxReplicationFactor]int
	for k := range n {
		ra := a[k*e.rFirst : (k+1)*e.rFirst]
		last := rb[:e.rLast]
		for i, x := range z[k*e.rLast : (k+1)*e.rLast] {
			last[i] = int(e.lastG[x])
		}
		kept := 0
		for _, x := range ra {
			c.Load[x]++
			if slices.Contains(last, x) {
				kept++
			}
		}
		c.Pairs += int64(len(ra))
		c.Moved += int64(len(ra) - kept)
		if kept == 0 {
			c.AllLost++
		}
		fp[setFingerprint(ra)] = struct{}{}
	}
	c.Keys += int64(n)
}

// setFingerprint returns a 64-bit fingerprint of the set of node numbers
// xs (order-free; at most MaxReplicationFactor entries): the sorted
// numbers chained through the splitmix64 finalizer. Distinct sets collide
// with probability about 2^-64 per pair.
func setFingerprint(xs []int) uint64 {
	var s [MaxReplicationFactor]int
	n := copy(s[:], xs)
	slices.Sort(s[:n])
	f := uint64(n)
	for _, x := range s[:n] {
		f = algorithms.Mix64(f ^ uint64(x)*algorithms.ReplicaSalt)
	}
	return f
}

// binomial returns C(n, k) as a float64.
func binomial(n, k int) float64 {
	k = min(k, n-k)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return math.Round(c)
}

// replicationPlan is what Replication checks before it builds a placement.
type replicationPlan struct {
	first, final []algorithms.Node // memberships before the first and after the last step (set 0)
	ideal        float64
	layouts      int // layouts: one per key set in per-set mode for a random layout, else 1
	chains       int // chains built: 1, or one per key set
}

// CheckReplication returns the error Replication(o, scs, r) would return
// before streaming any key (invalid options, scenarios or replication
// factor, chains or counters over the budget), without building a
// placement or reading a key; the source's sets are the key sets. The
// command line calls it for every configuration before running any.
func CheckReplication(o Options, scs []Scenario, r int) error {
	_, err := planReplication(o, scs, r)
	return err
}

func planReplication(o Options, scs []Scenario, r int) (*replicationPlan, error) {
	if r < 1 || r > MaxReplicationFactor {
		return nil, fmt.Errorf("replicas %d: the replication factor must be 1 to %d", r, MaxReplicationFactor)
	}
	if err := o.checkConfig(); err != nil {
		return nil, err
	}
	if b, ok := o.opened(); ok && b.Facts().Replicas < r {
		return nil, fmt.Errorf("replicas %d: %s serves at most %d replicas per key (its handshake declared replicas=%d)", r, o.Algo, b.Facts().Replicas, b.Facts().Replicas)
	}
	sets := o.sets()
	if len(scs) != 1 && len(scs) != sets {
		return nil, fmt.Errorf("%d scenarios for %d key sets: want 1 or one per set", len(scs), sets)
	}
	sc := scs[0]
	budget := o.Config.Budget()
	w := keyset.Workers(o.Workers)
	if cb := int64(sets) * int64(len(sc.Initial)+4) * int64(w+1) * 8; cb > budget/2 {
		return nil, fmt.Errorf("%d sets x %d nodes x %d workers need %s of replication counters, over half the memory budget of %s: use fewer sets, nodes or workers, or raise the budget (-mem)",
			sets, len(sc.Initial), w, catalog.HumanBytes(cb), catalog.HumanBytes(budget))
	}
	// The distinct replica sets seen are kept in a map, about
	// replicaSetBytes per key at most.
	if k := o.RunKeys(); k*replicaSetBytes > budget/2 {
		return nil, fmt.Errorf("%d keys: replication keeps the distinct replica sets seen, up to %s, over half the memory budget of %s: use fewer keys, or raise the budget (-mem)",
			k, catalog.HumanBytes(k*replicaSetBytes), catalog.HumanBytes(budget))
	}
	ms, err := sc.Memberships()
	if err != nil {
		return nil, err
	}
	if err := o.checkTopology(sc, true); err != nil {
		return nil, err
	}
	p := &replicationPlan{first: ms[0], final: ms[len(ms)-1]}
	p.ideal = IdealFraction(p.first, p.final)
	for s, other := range scs[1:] {
		oms, err := other.Memberships()
		if err != nil {
			return nil, fmt.Errorf("key set %d: %w", s+1, err)
		}
		if of, ol := oms[0], oms[len(oms)-1]; other.Op != sc.Op || len(of) != len(p.first) || len(ol) != len(p.final) || IdealFraction(of, ol) != p.ideal {
			return nil, fmt.Errorf("key set %d: scenario %s from %d to %d nodes (ideal %v) differs from set 0's %s from %d to %d (ideal %v)",
				s+1, other.Op, len(of), len(ol), IdealFraction(of, ol), sc.Op, len(p.first), len(p.final), p.ideal)
		}
	}
	if p.layouts, err = o.layouts(sets); err != nil {
		return nil, err
	}
	p.chains = max(len(scs), p.layouts)
	// planChain checks every membership with catalog.Check (weights,
	// capacity, partitions) and the chains against MaxChainCost, without
	// building a placement.
	cp, err := planChain(o, sc, budget, p.chains)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, c := range cp.costs {
		total += c
	}
	if total *= int64(p.chains); total > budget {
		hint := "use fewer key sets, or -placement fixed"
		if p.chains == 1 {
			hint = "use fewer nodes, or raise the budget (-mem)"
		}
		return nil, fmt.Errorf("scenario %s: %d chains of %d placements of %s held at once need about %s, over the memory budget of %s: %s",
			sc.Op, p.chains, len(cp.costs), o.Algo, catalog.HumanBytes(total), catalog.HumanBytes(budget), hint)
	}
	return p, nil
}

// Replication runs the scenarios scs for the algorithm and keys of o at
// replication factor r and returns its row of replication results
// ([schema.Replication]), between the first and the last placement.
//
// PairsMovedFrac is the fraction of the key-replica pairs of the first
// placement whose node no longer holds a replica of the key in the last
// (copies that must be made elsewhere); AllLostFrac the fraction of keys
// none of whose replicas survives (every copy made anew). IdealFrac is the
// scenario's ideal fraction (the minimum moved fraction of single owners;
// with even replica loads the minimum for pairs too). LoadPeakToMean and
// LoadCV describe the replicas per node of the first placement
// (peak-to-mean of share over weight share; coefficient of variation of
// the loads), DistinctSets the distinct replica sets among a key set's
// keys, and MaxSets C(n, R) of the first membership (at most the keys
// too). Estimates are means over key sets with 95% intervals, clipped to
// the estimate's domain (DistinctSets' to [1, MaxSets]).
// scs is one
// scenario for every key set, or one per key set (set s runs scs[s], its
// own history: see NewScenarioForSet), all with the same op, node counts
// and ideal fraction. In per-set placement mode an algorithm with a random
// layout runs key set s on the layout of LayoutNodes(.., s), as Movement
// does; so with per-set scenarios and layouts the intervals cover which
// node fails, the layout and the keys. It returns the errors of Movement
// (invalid options, scenario or membership) and an error for r outside
// 1..MaxReplicationFactor, a number of scenarios other than 1 or the key
// sets, scenarios that differ in op, node counts or ideal fraction, chains
// over the memory budget, or more than MaxCounters counters (key sets x
// nodes x workers, plus distinct-set tracking of up to every key of every
// set).
func Replication(o Options, scs []Scenario, r int) (schema.Replication, error) {
	pl, err := planReplication(o, scs, r)
	if err != nil {
		return schema.Replication{}, err
	}
	src, rc, err := o.prepare()
	if err != nil {
		return schema.Replication{}, err
	}
	chains := make([][]algorithms.Locator, pl.chains)
	defer func() {
		for _, c := range chains {
			release(c...)
		}
	}()
	for s := range chains {
		c := forSet(scs, s)
		if pl.layouts > 1 {
			c = layoutScenario(c, s)
		}
		if chains[s], err = placements(o, c, true); err != nil {
			return schema.Replication{}, err
		}
	}
	counts, err := CountReplicasPerSet(src, chains, r, o.Workers)
	if err != nil {
		return schema.Replication{}, err
	}
	n0 := len(pl.first)
	o.recordTopology(&rc, true)
	res := schema.Replication{Config: rc, Replicas: r, Op: scs[0].Op, From: n0, To: len(pl.final),
		IdealFrac: pl.ideal, MaxSets: binomial(n0, min(r, n0))}
	var moved, lost, ptm, cv, distinct []float64
	for s, c := range counts {
		shares := make([]float64, len(c.Load))
		for i, l := range c.Load {
			shares[i] = float64(l) / float64(c.Pairs)
		}
		b, err := BalanceOf(shares, forSet(chains, s)[0].Nodes())
		if err != nil {
			return schema.Replication{}, err
		}
		smp := schema.ReplicationSample{PairsMoved: float64(c.Moved) / float64(c.Pairs), AllLost: float64(c.AllLost) / float64(c.Keys),
			LoadPeakToMean: b.PeakToMean, LoadCV: b.CV, DistinctSets: c.Sets}
		res.Samples = append(res.Samples, smp)
		moved, lost = append(moved, smp.PairsMoved), append(lost, smp.AllLost)
		ptm, cv, distinct = append(ptm, smp.LoadPeakToMean), append(cv, smp.LoadCV), append(distinct, float64(smp.DistinctSets))
	}
	var ci cis
	setEstimate(&res.PairsMovedFrac, &res.PairsMovedFracLo, &res.PairsMovedFracHi, ci.fraction("pairs moved", moved))
	setEstimate(&res.AllLostFrac, &res.AllLostFracLo, &res.AllLostFracHi, ci.fraction("keys re-homed entirely", lost))
	setEstimate(&res.LoadPeakToMean, &res.LoadPeakToMeanLo, &res.LoadPeakToMeanHi, ci.peakToMean("load peak-to-mean", ptm, maxPeakToMean(pl.first)))
	setEstimate(&res.LoadCV, &res.LoadCVLo, &res.LoadCVHi, ci.cv("load cv", cv, n0))
	setEstimate(&res.DistinctSets, &res.DistinctSetsLo, &res.DistinctSetsHi, ci.within("distinct sets", distinct, 1, res.MaxSets))
	if ci.err != nil {
		return schema.Replication{}, ci.err
	}
	return res, nil
}

// replicaSetBytes bounds what one distinct replica set costs in the maps of
// CountReplicas (a uint64 key in a Go map, with its share of the table).
const replicaSetBytes = 48

// replicationGroups returns the scenarios of each result of a replication
// sweep of s: each of s.Scenarios alone, or for every node count and op of
// s one scenario for every key set or, for an op with random choices in
// per-set placement mode, one per key set (NewScenarioForSet), so that
// the intervals cover which node the op picks.
func replicationGroups(o Options, s Sweep) ([][]Scenario, error) {
	var out [][]Scenario
	for _, sc := range s.Scenarios {
		out = append(out, []Scenario{sc})
	}
	if len(out) > 0 {
		return out, nil
	}
	for _, n := range orOne(s.Nodes, 10) {
		for _, op := range orOne(s.Ops, schema.OpAdd) {
			per := 1
			if o.Placement == schema.PlacementPerSet && PerSetOp(op) {
				per = o.sets()
			}
			var one []Scenario
			for set := range per {
				sc, err := s.scenario(op, n, o.Seed, set)
				if err != nil {
					return nil, err
				}
				one = append(one, sc)
			}
			out = append(out, one)
		}
	}
	return out, nil
}

// eachReplication calls fn for every configuration of s, result scenarios
// (replicationGroups) and replication factor of rs, in that order; errors
// name the configuration, the change and R.
func (s Sweep) eachReplication(o Options, rs []int, fn func(c Options, scs []Scenario, r int) error) error {
	groups, err := replicationGroups(o, s)
	if err != nil {
		return err
	}
	return s.EachConfig(o, func(c Options) error {
		for _, scs := range groups {
			for _, r := range rs {
				if err := fn(c, scs, r); err != nil {
					return fmt.Errorf("%s from %d nodes, R=%d: %w", scs[0].Op, len(scs[0].Initial), r, err)
				}
			}
		}
		return nil
	})
}

// CheckReplication returns the first error SweepReplication(o, s, rs)
// would meet before streaming a key ([CheckReplication] of every
// configuration, change and R), naming them.
func (s Sweep) CheckReplication(o Options, rs []int) error {
	return s.eachReplication(o, rs, func(c Options, scs []Scenario, r int) error { return CheckReplication(c, scs, r) })
}

// SweepReplication runs Replication for every configuration of s, every
// change (s.Scenarios, or s.Nodes x s.Ops) and every replication factor of
// rs, in that order, after checking them all (Sweep.CheckReplication).
func SweepReplication(o Options, s Sweep, rs []int) ([]schema.Replication, error) {
	if err := s.CheckReplication(o, rs); err != nil {
		return nil, err
	}
	var out []schema.Replication
	err := s.eachReplication(o, rs, func(c Options, scs []Scenario, r int) error {
		res, err := Replication(c, scs, r)
		out = append(out, res)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
