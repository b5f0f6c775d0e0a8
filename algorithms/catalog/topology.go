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
	in, err := checkInTopology(name, t, level, cfg)
	if err != nil {
		return nil, err
	}
	h := algorithms.MustHash(cfg.Hash)
	if in.inTopology != nil {
		_, l, err := in.inTopology(t, level, h)
		return l, err
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

// NewPlacerInTopology returns the placement of t's nodes whose owners a
// topology decides: for an algorithm whose map is the hierarchy
// ([Info.TopologyMap], crush) the map built from t with level as its
// failure domain, and for any other the placement [New] builds on t's
// nodes (a topology changes only its replicas: [NewInTopology]). For
// measures of owners alone (spread, movement). The errors are those of
// [NewInTopology].
func NewPlacerInTopology(name string, t *topology.Topology, level string, cfg Config) (algorithms.Placer, error) {
	in, err := checkInTopology(name, t, level, cfg)
	if err != nil {
		return nil, err
	}
	if in.inTopology == nil {
		return New(name, t.Nodes(), cfg)
	}
	p, _, err := in.inTopology(t, level, algorithms.MustHash(cfg.Hash))
	return p, err
}

// checkInTopology returns the Info of name after checking cfg, the
// memory budget of t's nodes and the level.
func checkInTopology(name string, t *topology.Topology, level string, cfg Config) (Info, error) {
	in, err := Describe(name)
	if err != nil {
		return Info{}, err
	}
	if _, err := t.Level(level); err != nil {
		return Info{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := cfg.Validate(); err != nil {
		return Info{}, err
	}
	if err := budgetFirst(name, t.Nodes(), cfg); err != nil {
		return Info{}, err
	}
	return in, nil
}

// NewFailureLocator is [NewLocator] for measures of failures: the
// algorithm's own Locator where it models a failure as its real system
// handles one (crush marks failed devices out, as Ceph does, keeping its
// map and bucket weights: analysis/domains.Failer), else NewLocator's.
// The errors are New's.
func NewFailureLocator(name string, nodes []algorithms.Node, cfg Config) (algorithms.Locator, error) {
	in, err := Describe(name)
	if err != nil {
		return nil, err
	}
	if in.own == nil {
		return NewLocator(name, nodes, cfg)
	}
	p, err := New(name, nodes, cfg)
	if err != nil {
		return nil, err
	}
	return in.own(p, algorithms.MustHash(cfg.Hash).Bits()), nil
}
