package reference

import (
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/reference/published"
	"github.com/chbench/chbench/schema"
)

// ModuloVsRing measures the moved fraction of modulo and ring (with the
// options' configuration) for each resize of figs, and returns the results
// in that order, modulo before ring. The published experiment
// (published.Values.ModuloVsRing) used o.Keys = 10,000 and o.Sets = 5.
func ModuloVsRing(o analysis.Options, figs []published.ModuloVsRing) ([]schema.Move, error) {
	var out []schema.Move
	for _, p := range figs {
		sc, err := analysis.Resize(p.From, p.To)
		if err != nil {
			return nil, err
		}
		for _, algo := range []string{"modulo", ring.Name} {
			c := o
			c.Algo = algo
			r, err := analysis.Movement(c, sc)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// RingShareStat describes the exact per-node shares of one ring.
type RingShareStat struct {
	VNodes, Nodes int
	// CV is the coefficient of variation of the nodes' exact shares; with k
	// virtual nodes per node it is about 1/sqrt(k) (Karger et al.; Lamping
	// & Veach's table, published.Values.RingCV).
	CV float64
	// Lo99, Hi99 bound the central 99% of load/mean for a node owning k
	// independent exponential arcs: the 0.5% and 99.5% quantiles of
	// Gamma(shape k, rate k) from distuv.Gamma.
	Lo99, Hi99 float64
	// Inside99 is the fraction (0..1) of nodes whose share/mean lies in
	// [Lo99, Hi99]; about 0.99.
	Inside99 float64
	// Shares are the nodes' exact shares (fractions summing to 1).
	Shares []float64
}

// Inside returns the fraction (0..1) of nodes whose load/mean (share
// times Nodes) lies in [lo, hi].
func (st RingShareStat) Inside(lo, hi float64) float64 {
	in := 0
	for _, s := range st.Shares {
		if l := s * float64(st.Nodes); lo <= l && l <= hi {
			in++
		}
	}
	return float64(in) / float64(st.Nodes)
}

// RingShares builds a ring of nodes equal-weight nodes with vnodes virtual
// nodes each under the named hash and returns the statistics of its exact
// shares. It returns the ring's construction error (vnodes < 1, unknown
// hash, too many points).
func RingShares(nodes, vnodes int, hash string) (RingShareStat, error) {
	ns, err := algorithms.DefaultNodes(nodes)
	if err != nil {
		return RingShareStat{}, err
	}
	h, err := algorithms.LookupHash(hash)
	if err != nil {
		return RingShareStat{}, err
	}
	r, err := ring.New(ns, vnodes, h)
	if err != nil {
		return RingShareStat{}, err
	}
	b, err := analysis.BalanceOf(r.ExactShares(), ns)
	if err != nil {
		return RingShareStat{}, err
	}
	g := distuv.Gamma{Alpha: float64(vnodes), Beta: float64(vnodes)}
	st := RingShareStat{VNodes: vnodes, Nodes: nodes, CV: b.CV, Lo99: g.Quantile(0.005), Hi99: g.Quantile(0.995), Shares: r.ExactShares()}
	st.Inside99 = st.Inside(st.Lo99, st.Hi99)
	return st, nil
}
