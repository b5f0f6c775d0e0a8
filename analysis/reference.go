package analysis

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/ring"
)

// Published is a moved-fraction figure from the field's write-ups
// (REFERENCES.md): modulo and ring moved fractions for From -> To nodes,
// measured on 10,000 keys averaged over five random key sets, and the
// ideal fraction.
type Published struct {
	From, To            int
	Modulo, Ring, Ideal float64
}

// PublishedModuloVsRing returns the published modulo-vs-ring figures:
// 3->4 74.8% / 26.7% (ideal 25%), 4->5 80.1% / 19.6% (20%), 9->10 89.9% /
// 10.4% (10%).
func PublishedModuloVsRing() []Published {
	return []Published{
		{3, 4, 0.748, 0.267, 0.25},
		{4, 5, 0.801, 0.196, 0.20},
		{9, 10, 0.899, 0.104, 0.10},
	}
}

// ModuloVsRing measures the moved fraction of modulo and ring (with the
// options' configuration) for each resize of PublishedModuloVsRing, and
// returns the results in that order, modulo before ring. The published
// experiment used o.Keys = 10,000 and o.Sets = 5.
func ModuloVsRing(o Options) ([]*MoveResult, error) {
	var out []*MoveResult
	for _, p := range PublishedModuloVsRing() {
		sc, err := Resize(p.From, p.To)
		if err != nil {
			return nil, err
		}
		for _, algo := range []string{"modulo", ring.Name} {
			c := o
			c.Algo = algo
			r, err := Movement(c, sc)
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
	b, err := BalanceOf(r.ExactShares(), ns)
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

// BoundedStep is the largest partition load of one bounded-loads placement
// and its capacity ceil(c*P/n) (equal weights).
type BoundedStep struct {
	Nodes    int
	MaxLoad  int // partitions on the busiest node
	Capacity int // bounded.Capacity for an equal-weight node
}

// BoundedLoads builds the chain of bounded-loads placements of sc with the
// configuration of o (o.Algo is ignored) and returns, for each placement,
// the busiest node's partition count, from its exact shares, beside the
// capacity ceil(c*P/n) that Mirrokni, Thorup and Zadimoghaddam (2018)
// guarantee it never exceeds. The scenario must have equal weights.
func BoundedLoads(o Options, sc Scenario) ([]BoundedStep, error) {
	o.Algo = bounded.Name
	chain, err := Placements(o, sc)
	if err != nil {
		return nil, err
	}
	P := scenarioConfig(o, sc).Partitions
	var out []BoundedStep
	for t, p := range chain {
		nodes := p.Nodes()
		if !algorithms.Uniform(nodes) {
			return nil, fmt.Errorf("placement %d: BoundedLoads needs equal weights", t)
		}
		es, ok := p.(algorithms.ExactSharer)
		if !ok {
			return nil, fmt.Errorf("%s has no exact shares", p.Algorithm())
		}
		st := BoundedStep{Nodes: len(nodes), Capacity: bounded.Capacity(o.Config.Eps, P, 1, float64(len(nodes)))}
		for _, s := range es.ExactShares() {
			st.MaxLoad = max(st.MaxLoad, int(math.Round(s*float64(P))))
		}
		out = append(out, st)
	}
	return out, nil
}

// ExactBalance returns the Balance of the named algorithm's exact shares on
// nodes with cfg, or nil when the algorithm does not implement
// [algorithms.ExactSharer]. It returns the algorithm's construction error.
func ExactBalance(algo string, nodes []algorithms.Node, cfg catalog.Config) (*Balance, error) {
	p, err := catalog.New(algo, nodes, cfg)
	if err != nil {
		return nil, err
	}
	es, ok := p.(algorithms.ExactSharer)
	if !ok {
		return nil, nil
	}
	b, err := BalanceOf(es.ExactShares(), p.Nodes())
	if err != nil {
		return nil, err
	}
	return &b, nil
}
