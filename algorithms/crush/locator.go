package crush

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/topology"
)

// Locator is p as an [algorithms.Locator] ([algorithms.AsLocator]: the
// rule's replicas) that also follows topology changes: Rebalance keeps
// device and bucket ids like [Placer.Rebalance], RebalanceTopology is
// [Placer.WithTopology]. hashBits is the width of the configured key hash.
func (p *Placer) Locator(hashBits int) *Locator {
	return &Locator{Locator: algorithms.AsLocator(p, hashBits), p: p, bits: hashBits}
}

// Locator is the [algorithms.Locator] of a CRUSH placement; see
// [Placer.Locator].
type Locator struct {
	algorithms.Locator
	p    *Placer
	bits int
}

// Placer returns the placement behind the locator.
func (l *Locator) Placer() *Placer { return l.p }

// Rebalance returns the locator of p.Rebalance(nodes).
func (l *Locator) Rebalance(nodes []algorithms.Node) (algorithms.Locator, error) {
	q, err := l.p.Rebalance(nodes)
	if err != nil {
		return nil, err
	}
	return q.(*Placer).Locator(l.bits), nil
}

// RebalanceTopology returns the locator of p.WithTopology(t).
func (l *Locator) RebalanceTopology(t *topology.Topology) (algorithms.Locator, error) {
	q, err := l.p.WithTopology(t)
	if err != nil {
		return nil, err
	}
	return q.Locator(l.bits), nil
}

// Fail returns the locator after the nodes with the given IDs fail, as
// Ceph handles a failed OSD: marked out ([Placer.MarkOut]), the map and
// every bucket weight unchanged, the mapper rejecting the failed devices
// and retrying that replica rank, so that only the failed nodes' replicas
// move. Its Nodes() are the nodes still in, in order; Rebalance and
// RebalanceTopology rebuild the map for the nodes they are given, as a
// decommission does (the map loses the devices). It returns the errors of
// MarkOut.
func (l *Locator) Fail(ids ...string) (algorithms.Locator, error) {
	q, err := l.p.MarkOut(ids...)
	if err != nil {
		return nil, err
	}
	out := &outLocator{Locator: l, q: q, view: make([]int, len(q.nodes))}
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	for i, n := range q.nodes {
		out.view[i] = -1
		if !gone[n.ID] {
			out.view[i] = len(out.nodes)
			out.nodes = append(out.nodes, n)
		}
	}
	return out, nil
}

// outLocator is a CRUSH placement with failed devices marked out, its
// owners reported among the nodes still in (view maps the placement's
// node indexes to theirs; -1 for a failed node, which the mapper never
// returns while a node is in).
type outLocator struct {
	*Locator
	q     *Placer
	nodes []algorithms.Node
	view  []int
}

// Nodes returns the nodes still in.
func (o *outLocator) Nodes() []algorithms.Node { return o.nodes }

// LocateKeys writes the primary of each key among the nodes still in.
func (o *outLocator) LocateKeys(keys []string, owners []int) error {
	if len(owners) < len(keys) {
		return fmt.Errorf("owners holds %d entries for %d keys", len(owners), len(keys))
	}
	for i, k := range keys {
		owners[i] = o.view[o.q.LocateHash(o.q.HashKey(k))]
	}
	return nil
}

// ReplicateKeys writes the r replicas of each key among the nodes still
// in, with the errors of [algorithms.Locator].
func (o *outLocator) ReplicateKeys(keys []string, r int, owners []int) error {
	if err := algorithms.CheckReplicas(r, len(o.nodes)); err != nil {
		return err
	}
	if len(owners) < r*len(keys) {
		return fmt.Errorf("owners holds %d entries for %d keys x %d replicas", len(owners), len(keys), r)
	}
	for i, k := range keys {
		dst := owners[i*r : (i+1)*r : (i+1)*r]
		for j, x := range o.q.Replicas(o.q.HashKey(k), dst) {
			dst[j] = o.view[x]
		}
	}
	return nil
}
