package analysis

import (
	"fmt"
	"math"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
)

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
	for t, l := range chain {
		nodes := l.Nodes()
		p, _ := algorithms.PlacerOf(l)
		if !algorithms.Uniform(nodes) {
			return nil, fmt.Errorf("placement %d: BoundedLoads needs equal weights", t)
		}
		es, ok := p.(algorithms.ExactSharer)
		if !ok {
			return nil, fmt.Errorf("%s has no exact shares", l.Algorithm())
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
