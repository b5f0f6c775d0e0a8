package domains

import (
	"fmt"
	"math"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/keyset"
)

// RankCount is one key set's count of replicas by rank and node:
// Count[k][i] keys whose rank-k replica (0 = primary) is node i.
type RankCount struct {
	Keys  int64
	Count [][]int64
}

// RankLoad is [CountRankLoad]'s result: how each replica rank (primary,
// second, third, ...) loads the nodes. With unequal weights a placement
// that picks R distinct nodes one after another by weight (rendezvous,
// straw2) loads the light nodes more at the later ranks: the heavy ones
// are already taken. Theory holds the exact shares of that successive
// sampling when it could be computed (see [SuccessiveSampling]).
type RankLoad struct {
	Algorithm string
	R         int
	Nodes     []algorithms.Node
	// Share[k][i] is the fraction of keys whose rank-k replica is node i.
	Share [][]Estimate
	// Relative[k][i] is Share[k][i] / (w_i / W): 1 for a share equal to the
	// weight share; PeakToMean[k] the largest of them at rank k.
	Relative   [][]Estimate
	PeakToMean []Estimate
	// Load[i] is node i's share of all R*keys replicas, and LoadRelative[i]
	// that over its weight share: the unevenness of the whole replica load.
	Load, LoadRelative []Estimate
	// Theory[k][i] is the successive-sampling share (nil when not
	// computed: more than MaxTheoryTuples ordered draws).
	Theory [][]float64
	Sets   []RankCount
}

// CountRankLoad streams src through loc with R replicas per key and
// counts, per key set, each node's replicas at each rank. It returns an
// error for R outside 1..min(MaxReplicas, nodes), a failing source or
// locator, or an empty key set.
func CountRankLoad(src keyset.Source, loc algorithms.Locator, r, workers int) (RankLoad, error) {
	return CountRankLoadPerSet(src, []algorithms.Locator{loc}, r, workers)
}

// CountRankLoadPerSet is [CountRankLoad] with one placement for every key
// set or one per set (key set s through locs[s]: its own random layout of
// the same fleet, node i of every layout of the same weight), so that the
// intervals cover layouts as well as keys; nodes are counted by index
// and reported as locs[0] names them. It returns CountRankLoad's errors
// and one for a number of placements other than 1 or the sets, or
// placements of different algorithms, node counts or weights.
func CountRankLoadPerSet(src keyset.Source, locs []algorithms.Locator, r, workers int) (RankLoad, error) {
	if len(locs) == 0 {
		return RankLoad{}, fmt.Errorf("no placement")
	}
	nodes := locs[0].Nodes()
	if err := checkR(r, len(nodes)); err != nil {
		return RankLoad{}, err
	}
	n, sets := len(nodes), src.Sets()
	if err := checkLayouts(sets, locs); err != nil {
		return RankLoad{}, err
	}
	for s, l := range locs[1:] {
		for i, nd := range l.Nodes() {
			if nd.Weight != nodes[i].Weight {
				return RankLoad{}, fmt.Errorf("key set %d: node %d %q has weight %v, set 0's %q %v", s+1, i, nd.ID, nd.Weight, nodes[i].ID, nodes[i].Weight)
			}
		}
	}
	counts := perWorker(keyset.Workers(workers), sets, func() RankCount {
		c := RankCount{Count: make([][]int64, r)}
		for k := range c.Count {
			c.Count[k] = make([]int64, n)
		}
		return c
	})
	err := replicate(src, locs, r, workers, func(w, set int, keys []string, reps []int) {
		c := &counts[w][set]
		c.Keys += int64(len(keys))
		for i := range keys {
			for k, node := range reps[i*r : (i+1)*r] {
				c.Count[k][node]++
			}
		}
	})
	if err != nil {
		return RankLoad{}, err
	}
	W := algorithms.TotalWeight(nodes)
	res := RankLoad{Algorithm: locs[0].Algorithm(), R: r, Nodes: nodes, Sets: make([]RankCount, sets)}
	share := make([][][]float64, r) // [k][i][set]
	for k := range share {
		share[k] = make([][]float64, n)
		for i := range share[k] {
			share[k][i] = make([]float64, sets)
		}
	}
	peak := make([][]float64, r)
	for k := range peak {
		peak[k] = make([]float64, sets)
	}
	load := make([][]float64, n)
	for i := range load {
		load[i] = make([]float64, sets)
	}
	for s := range sets {
		m := RankCount{Count: make([][]int64, r)}
		for k := range r {
			m.Count[k] = make([]int64, n)
		}
		for w := range counts {
			m.Keys += counts[w][s].Keys
			for k := range r {
				for i, v := range counts[w][s].Count[k] {
					m.Count[k][i] += v
				}
			}
		}
		if m.Keys == 0 {
			return RankLoad{}, fmt.Errorf("key set %d is empty", s)
		}
		res.Sets[s] = m
		for k := range r {
			for i := range n {
				f := float64(m.Count[k][i]) / float64(m.Keys)
				share[k][i][s] = f
				peak[k][s] = math.Max(peak[k][s], f/(nodes[i].Weight/W))
				load[i][s] += f / float64(r)
			}
		}
	}
	res.Share, res.Relative = make([][]Estimate, r), make([][]Estimate, r)
	res.PeakToMean = make([]Estimate, r)
	for k := range r {
		res.Share[k], res.Relative[k] = make([]Estimate, n), make([]Estimate, n)
		for i := range n {
			res.Share[k][i] = fraction(share[k][i])
			rel := make([]float64, sets)
			for s, f := range share[k][i] {
				rel[s] = f / (nodes[i].Weight / W)
			}
			res.Relative[k][i] = nonNegative(rel)
		}
		res.PeakToMean[k] = nonNegative(peak[k])
	}
	res.Load, res.LoadRelative = make([]Estimate, n), make([]Estimate, n)
	for i := range n {
		res.Load[i] = fraction(load[i])
		rel := make([]float64, sets)
		for s, f := range load[i] {
			rel[s] = f / (nodes[i].Weight / W)
		}
		res.LoadRelative[i] = nonNegative(rel)
	}
	weights := make([]float64, n)
	for i, nd := range nodes {
		weights[i] = nd.Weight
	}
	if th, err := SuccessiveSampling(weights, r); err == nil {
		res.Theory = th
	}
	return res, nil
}

// MaxTheoryTuples bounds the ordered draws [SuccessiveSampling]
// enumerates (n(n-1)...(n-R+1)): 10^7, a fraction of a second.
const MaxTheoryTuples = 10_000_000

// SuccessiveSampling returns the exact rank shares of drawing r distinct
// nodes one after another, each draw picking node i with probability
// proportional to its weight among the nodes not yet drawn: out[k][i] is
// the probability that draw k (0-based) is node i. This is the law of
// weighted rendezvous's top r (the logarithmic method's scores are
// exponential races, and the order of the races is successive sampling)
// and of straw2 with collision retries (each retry is an independent
// straw2 draw, rejected when it collides). It enumerates the ordered
// draws, and returns an error for weights that are not all > 0 and
// finite, r outside 1..n, or more than MaxTheoryTuples draws.
func SuccessiveSampling(weights []float64, r int) ([][]float64, error) {
	n := len(weights)
	if r < 1 || r > n {
		return nil, fmt.Errorf("replicas %d: need 1 to %d (the nodes)", r, n)
	}
	tuples := 1.0
	for k := range r {
		tuples *= float64(n - k)
	}
	if tuples > MaxTheoryTuples {
		return nil, fmt.Errorf("%d nodes, %d draws: %.3g ordered draws, more than %d", n, r, tuples, MaxTheoryTuples)
	}
	W := 0.0
	for i, w := range weights {
		if math.IsNaN(w) || math.IsInf(w, 0) || w <= 0 {
			return nil, fmt.Errorf("weight %v of node %d must be a finite number > 0", w, i)
		}
		W += w
	}
	out := make([][]float64, r)
	for k := range out {
		out[k] = make([]float64, n)
	}
	used := make([]bool, n)
	var walk func(k int, p, left float64)
	walk = func(k int, p, left float64) {
		for i, w := range weights {
			if used[i] {
				continue
			}
			q := p * w / left
			out[k][i] += q
			if k+1 < r {
				used[i] = true
				walk(k+1, q, left-w)
				used[i] = false
			}
		}
	}
	walk(0, 1, W)
	return out, nil
}
