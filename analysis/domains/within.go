package domains

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/topology"
)

// Within returns loc following membership changes inside the topology
// union, which places every node any membership of a run may hold (the
// nodes of every step of a scenario): its Rebalance(nodes) is loc's
// RebalanceTopology of union.Place(nodes), so a node that joins takes
// the domains union gives it and the weights of nodes are the
// membership's. Plain Rebalance of a domain-aware locator cannot place a
// node its current topology lacks. loc must follow topology changes
// ([TopologyRebalancer]: the locators of algorithms/domainaware, crush and
// catalog.NewInTopology); otherwise Within returns an error naming it.
func Within(loc algorithms.Locator, union *topology.Topology) (algorithms.Locator, error) {
	tr, ok := loc.(TopologyRebalancer)
	if !ok {
		return nil, fmt.Errorf("%s cannot place joining nodes in domains (no RebalanceTopology)", loc.Algorithm())
	}
	return within{Locator: loc, tr: tr, union: union}, nil
}

type within struct {
	algorithms.Locator
	tr    TopologyRebalancer
	union *topology.Topology
}

// Rebalance places nodes in the union's domains and follows that topology.
func (w within) Rebalance(nodes []algorithms.Node) (algorithms.Locator, error) {
	t, err := w.union.Place(nodes)
	if err != nil {
		return nil, err
	}
	return w.RebalanceTopology(t)
}

// RebalanceTopology follows t, which becomes the topology of later
// changes when it places nodes the union does not.
func (w within) RebalanceTopology(t *topology.Topology) (algorithms.Locator, error) {
	next, err := w.tr.RebalanceTopology(t)
	if err != nil {
		return nil, err
	}
	union := w.union
	if _, err := union.Place(t.Nodes()); err != nil {
		union = t
	}
	return Within(next, union)
}
