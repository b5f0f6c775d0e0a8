package domains

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/topology"
)

// Scenario is one failure-domain change, as data: the topology before
// and after, and what it is. [NodeLoss], [DomainLoss] and [DomainAdded]
// build the standard ones; [Apply] derives a placement's next state.
type Scenario struct {
	Name          string // "node node-3", "rack rack-1", "zone zone-0", "added rack rack-4"
	Kind          string // "node", "domain" (lost) or "added"
	Level, Domain string // the domain lost or added (Kind domain, added)
	Before, After *topology.Topology
}

// Union returns the topology that places the nodes of both sides: After
// for an addition, Before otherwise ([CountChange] takes it).
func (s Scenario) Union() *topology.Topology {
	if s.Kind == "added" {
		return s.After
	}
	return s.Before
}

// NodeLoss is the failure of node id. It returns an error naming an ID
// that is not a member, or when no node would remain.
func NodeLoss(t *topology.Topology, id string) (Scenario, error) {
	var keep []string
	for _, n := range t.Nodes() {
		if n.ID != id {
			keep = append(keep, n.ID)
		}
	}
	if len(keep) == len(t.Nodes()) {
		return Scenario{}, fmt.Errorf("node %q is not a member", id)
	}
	after, err := t.Restrict(keep)
	if err != nil {
		return Scenario{}, err
	}
	return Scenario{Name: "node " + id, Kind: "node", Before: t, After: after}, nil
}

// DomainLoss is the failure of every node of one domain (a whole rack or
// zone), with the errors of [topology.Topology.WithoutDomain].
func DomainLoss(t *topology.Topology, level, domain string) (Scenario, error) {
	after, _, err := t.WithoutDomain(level, domain)
	if err != nil {
		return Scenario{}, err
	}
	return Scenario{Name: level + " " + domain, Kind: "domain", Level: level, Domain: domain, Before: t, After: after}, nil
}

// DomainAdded is a new domain at level joining with its members (each
// must name the new domain at level; the outer levels place it). It
// returns an error for a domain that already exists, a member elsewhere,
// and the errors of [topology.Topology.With].
func DomainAdded(t *topology.Topology, level, domain string, members []topology.Member) (Scenario, error) {
	l, err := t.Level(level)
	if err != nil {
		return Scenario{}, err
	}
	for _, d := range t.Domains(l) {
		if d == domain {
			return Scenario{}, fmt.Errorf("%s %q already exists", level, domain)
		}
	}
	for _, m := range members {
		if len(m.Domains) != len(t.Levels()) || m.Domains[l] != domain {
			return Scenario{}, fmt.Errorf("node %q joins %s %v, not the new %s %q", m.Node.ID, level, m.Domains, level, domain)
		}
	}
	after, err := t.With(members...)
	if err != nil {
		return Scenario{}, err
	}
	return Scenario{Name: "added " + level + " " + domain, Kind: "added", Level: level, Domain: domain, Before: t, After: after}, nil
}

// TopologyRebalancer is a locator that follows a topology change, nodes
// joining with their domains (algorithms/domainaware and algorithms/crush
// locators implement it); Rebalance alone cannot place a joining node in
// a domain.
type TopologyRebalancer interface {
	RebalanceTopology(t *topology.Topology) (algorithms.Locator, error)
}

// A Failer is a locator with its own model of a failure: CRUSH marks
// failed devices out, as Ceph does (its map and bucket weights unchanged,
// so only the failed devices' data moves), where removing them from the
// map would change the weights of their buckets and move data between
// devices that stay.
type Failer interface {
	Fail(ids ...string) (algorithms.Locator, error)
}

// Apply returns loc after scenario s: for a loss, the failure of the
// nodes that leave ([Failer]) or else Rebalance to the surviving nodes;
// for an addition, RebalanceTopology (an error when loc cannot follow a
// topology).
func Apply(loc algorithms.Locator, s Scenario) (algorithms.Locator, error) {
	if s.Kind == "added" {
		tr, ok := loc.(TopologyRebalancer)
		if !ok {
			return nil, fmt.Errorf("%s cannot place joining nodes in domains (no RebalanceTopology)", loc.Algorithm())
		}
		return tr.RebalanceTopology(s.After)
	}
	if f, ok := loc.(Failer); ok {
		stay := make(map[string]bool, len(s.After.Nodes()))
		for _, n := range s.After.Nodes() {
			stay[n.ID] = true
		}
		var gone []string
		for _, n := range s.Before.Nodes() {
			if !stay[n.ID] {
				gone = append(gone, n.ID)
			}
		}
		return f.Fail(gone...)
	}
	return loc.Rebalance(s.After.Nodes())
}
