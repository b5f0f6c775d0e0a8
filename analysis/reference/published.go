package reference

import (
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/analysis"
)

// ModuloRingFigure is a moved-fraction figure from the field's write-ups
// (REFERENCES.md): modulo and ring moved fractions for From -> To nodes,
// measured on 10,000 keys averaged over five random key sets, and the
// ideal fraction.
type ModuloRingFigure struct {
	From, To            int
	Modulo, Ring, Ideal float64
}

// PublishedModuloVsRing returns the published modulo-vs-ring figures:
// 3->4 74.8% / 26.7% (ideal 25%), 4->5 80.1% / 19.6% (20%), 9->10 89.9% /
// 10.4% (10%).
func PublishedModuloVsRing() []ModuloRingFigure {
	return []ModuloRingFigure{
		{3, 4, 0.748, 0.267, 0.25},
		{4, 5, 0.801, 0.196, 0.20},
		{9, 10, 0.899, 0.104, 0.10},
	}
}

// ModuloVsRing measures the moved fraction of modulo and ring (with the
// options' configuration) for each resize of PublishedModuloVsRing, and
// returns the results in that order, modulo before ring. The published
// experiment used o.Keys = 10,000 and o.Sets = 5.
func ModuloVsRing(o analysis.Options) ([]*analysis.MoveResult, error) {
	var out []*analysis.MoveResult
	for _, p := range PublishedModuloVsRing() {
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
	// & Veach's table: 0.315 for k=10, 0.0997 for 100, 0.0316 for 1000).
	CV float64
	// Lo99, Hi99 bound the central 99% of load/mean for a node owning k
	// independent exponential arcs: the 0.5% and 99.5% quantiles of
	// Gamma(shape k, rate k) from distuv.Gamma.
	Lo99, Hi99 float64
	// Inside99 is the fraction (0..1) of nodes whose share/mean lies in
	// [Lo99, Hi99]; about 0.99.
	Inside99 float64
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
	st := RingShareStat{VNodes: vnodes, Nodes: nodes, CV: b.CV, Lo99: g.Quantile(0.005), Hi99: g.Quantile(0.995)}
	in := 0
	for _, s := range r.ExactShares() {
		if l := s * float64(nodes); st.Lo99 <= l && l <= st.Hi99 {
			in++
		}
	}
	st.Inside99 = float64(in) / float64(nodes)
	return st, nil
}
