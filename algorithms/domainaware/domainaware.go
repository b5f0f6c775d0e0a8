// Package domainaware places replicas in distinct failure domains: it
// turns any in-process placement and a [topology.Topology] into an
// [algorithms.Locator] whose ReplicateKeys puts at most one replica per
// domain at a chosen level (rack, zone) whenever the replication factor R
// is at most the number of domains there, and it provides the
// hierarchical placement ([NewHierarchy]: choose the domain, then the node
// inside it).
//
// The schemes are the field's, one per algorithm ([algorithms.DomainReplicator]):
//
//   - ring: walk clockwise skipping nodes of a domain already used
//     (Cassandra's NetworkTopologyStrategy);
//   - rendezvous: the top R scores over distinct domains;
//   - slots: replicas on other nodes, preferring other domains (Redis
//     Cluster's anti-affinity);
//   - crush: its own rule (algorithms/crush: chooseleaf firstn over the
//     failure-domain type), used as it is through [algorithms.AsLocator];
//   - any other placer: salted probes that skip used domains
//     ([algorithms.SaltedDomainReplicas]).
//
// The first replica is always the placement's own owner, so LocateKeys
// and the primary are those of the placement without domains: only the
// other replicas change. Measures compare a placement with and without
// this wrapper to count the replicas that share a domain.
package domainaware

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/topology"
)

// Locator is a placement with domain-aware replicas. It is immutable and
// safe for concurrent use; its batch methods do not allocate.
type Locator struct {
	p      algorithms.Placer
	bits   int
	topo   *topology.Topology
	level  string
	domain []int32 // domain index at level of each node of p.Nodes()
}

var _ algorithms.Locator = (*Locator)(nil)

// New returns p with replicas spread over the domains at level of t:
// every node of p must be in t (matched by ID). hashBits is the width (32
// or 64) of p's key hashes, used by the salted scheme. It returns an
// error naming an unknown level or a node that t does not place.
func New(p algorithms.Placer, hashBits int, t *topology.Topology, level string) (*Locator, error) {
	l, err := t.Level(level)
	if err != nil {
		return nil, err
	}
	dom, err := t.DomainsOf(l, p.Nodes())
	if err != nil {
		return nil, fmt.Errorf("domainaware: %s: %w", p.Algorithm(), err)
	}
	return &Locator{p: p, bits: hashBits, topo: t, level: level, domain: dom}, nil
}

// Algorithm returns the placement's name.
func (l *Locator) Algorithm() string { return l.p.Algorithm() }

// Nodes returns the placement's membership.
func (l *Locator) Nodes() []algorithms.Node { return l.p.Nodes() }

// Placer returns the placement behind the locator.
func (l *Locator) Placer() algorithms.Placer { return l.p }

// Level returns the failure-domain level replicas are spread over.
func (l *Locator) Level() string { return l.level }

// Domains returns the domain index (at Level) of each node of Nodes().
// Callers must not modify it.
func (l *Locator) Domains() []int32 { return l.domain }

// LocateKeys writes the owner of each key, the placement's own.
func (l *Locator) LocateKeys(keys []string, owners []int) error {
	if len(owners) < len(keys) {
		return fmt.Errorf("owners holds %d entries for %d keys", len(owners), len(keys))
	}
	for i, k := range keys {
		owners[i] = l.p.LocateHash(l.p.HashKey(k))
	}
	return nil
}

// ReplicateKeys writes the r replicas of each key, at most one per domain
// while domains remain ([algorithms.DomainReplicas]); the errors of
// [algorithms.Locator].
func (l *Locator) ReplicateKeys(keys []string, r int, owners []int) error {
	if err := algorithms.CheckReplicas(r, len(l.p.Nodes())); err != nil {
		return err
	}
	if len(owners) < r*len(keys) {
		return fmt.Errorf("owners holds %d entries for %d keys x %d replicas", len(owners), len(keys), r)
	}
	for i, k := range keys {
		algorithms.DomainReplicas(l.p, l.p.HashKey(k), l.bits, l.domain, owners[i*r:(i+1)*r:(i+1)*r])
	}
	return nil
}

// Rebalance returns the locator for nodes: the placement's Rebalance,
// with the domains of the topology restricted to nodes. A node that the
// topology does not place is an error; a topology that gains nodes or
// domains is [Locator.WithTopology].
func (l *Locator) Rebalance(nodes []algorithms.Node) (algorithms.Locator, error) {
	ids := make([]string, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID
	}
	t, err := l.topo.Restrict(ids)
	if err != nil {
		return nil, fmt.Errorf("domainaware: %w", err)
	}
	next, err := l.p.Rebalance(nodes)
	if err != nil {
		return nil, err
	}
	return New(next, l.bits, t, l.level)
}

// WithTopology returns the locator for topology t: the placement
// rebalanced to t's nodes, replicas spread over t's domains at the same
// level.
func (l *Locator) WithTopology(t *topology.Topology) (*Locator, error) {
	next, err := l.p.Rebalance(t.Nodes())
	if err != nil {
		return nil, err
	}
	return New(next, l.bits, t, l.level)
}

// RebalanceTopology is WithTopology as an [algorithms.Locator], for
// measures that follow topology changes (analysis/domains.Apply).
func (l *Locator) RebalanceTopology(t *topology.Topology) (algorithms.Locator, error) {
	return l.WithTopology(t)
}
