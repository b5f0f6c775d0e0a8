package catalog

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/domainaware"
	"github.com/chbench/chbench/topology"
)

// TopologyMap reports whether the algorithm builds its placement from a
// topology's hierarchy (crush: buckets per domain and a rule that chooses
// one leaf per failure domain), so that a topology changes its owners and
// not only its replicas. For every other algorithm a topology changes the
// replicas only ([NewInTopology]).
func (in Info) TopologyMap() bool { return in.inTopology != nil }

// NewInTopology returns the named algorithm's placement of the nodes of
// t, in t's order, as an [algorithms.Locator] whose ReplicateKeys puts at
// most one replica per domain at level (one of t.Levels()) while domains
// remain, and which follows topology changes (RebalanceTopology: a node
// joining with its domains, a domain added or lost):
//
//   - an algorithm whose map is the hierarchy ([Info.TopologyMap], crush)
//     is built from t with level as its failure domain;
//   - any other is built on t's nodes with cfg, as [New] builds it, and
//     given its domain scheme by algorithms/domainaware ([Info.Domains]):
//     its owners are its own, only the replicas after the first change.
//
// It returns the errors of [New] (an unknown name, a bad cfg, over the
// memory budget) and an error naming a level t does not have.
func NewInTopology(name string, t *topology.Topology, level string, cfg Config) (algorithms.Locator, error) {
	in, err := Describe(name)
	if err != nil {
		return nil, err
	}
	if _, err := t.Level(level); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	h, err := algorithms.LookupHash(cfg.Hash)
	if err != nil {
		return nil, err
	}
	if in.inTopology != nil {
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
		if err := budgetFirst(name, t.Nodes(), cfg); err != nil {
			return nil, err
		}
		return in.inTopology(t, level, h)
	}
	p, err := New(name, t.Nodes(), cfg)
	if err != nil {
		return nil, err
	}
	l, err := domainaware.New(p, h.Bits(), t, level)
	if err != nil {
		return nil, err
	}
	return l, nil
}
