package crush

import (
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
