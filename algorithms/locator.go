package algorithms

import "fmt"

// Locator is the narrowest view of a placement that a measure needs: a
// membership, and batches of keys mapped to their owners. Every [Placer]
// is a Locator through [AsLocator]; a placement that does not run inside
// chbench's process (another program speaking a line protocol, which sees
// keys but never chbench's key hashes) implements Locator directly, so
// every measure written against Locator applies to it unchanged.
//
// Like a Placer, a Locator describes one membership and is not changed by
// Rebalance; its methods are safe for concurrent use unless the
// implementation documents otherwise. A Locator that holds something
// outside chbench's process (an external program's membership) also
// implements io.Closer; whoever built it closes it when done, and closing
// twice does nothing. A Placer's Locator holds nothing to close.
type Locator interface {
	// Algorithm returns the placement's name, as Placer.Algorithm does.
	Algorithm() string
	// Nodes returns the membership, indexed as owners are reported.
	// Callers must not modify the returned slice.
	Nodes() []Node
	// LocateKeys writes into owners[i] the index into Nodes() of the
	// owner of keys[i], for every i < len(keys). It returns an error when
	// len(owners) < len(keys) or when the placement cannot answer (an
	// external process that failed); owners is then unspecified.
	LocateKeys(keys []string, owners []int) error
	// ReplicateKeys writes into owners[i*r : (i+1)*r] the indexes into
	// Nodes() of the r replicas of keys[i], in preference order, the first
	// being the owner LocateKeys reports. r must be 1..min(MaxReplicas,
	// len(Nodes())) and len(owners) >= r*len(keys); otherwise it returns
	// an error naming r or the length.
	ReplicateKeys(keys []string, r int, owners []int) error
	// Rebalance returns the placement for a new membership derived from
	// this one, with the errors of Placer.Rebalance.
	Rebalance(nodes []Node) (Locator, error)
}

// AsLocator returns p as a [Locator]: LocateKeys is HashKey then
// LocateHash per key, ReplicateKeys is [Replicas] with p's own scheme (or
// [SaltedReplicas] at hashBits, the width 32 or 64 of p's key hashes).
// Neither allocates.
func AsLocator(p Placer, hashBits int) Locator {
	return placerLocator{p: p, bits: hashBits}
}

// PlacerOf returns the Placer behind a Locator made by [AsLocator], and
// false for any other Locator (for measures that need more than owners,
// such as exact shares).
func PlacerOf(l Locator) (Placer, bool) {
	pl, ok := l.(placerLocator)
	return pl.p, ok
}

type placerLocator struct {
	p    Placer
	bits int
}

func (l placerLocator) Algorithm() string { return l.p.Algorithm() }
func (l placerLocator) Nodes() []Node     { return l.p.Nodes() }

func (l placerLocator) LocateKeys(keys []string, owners []int) error {
	if len(owners) < len(keys) {
		return fmt.Errorf("owners holds %d entries for %d keys", len(owners), len(keys))
	}
	for i, k := range keys {
		owners[i] = l.p.LocateHash(l.p.HashKey(k))
	}
	return nil
}

func (l placerLocator) ReplicateKeys(keys []string, r int, owners []int) error {
	if err := CheckReplicas(r, len(l.p.Nodes())); err != nil {
		return err
	}
	if len(owners) < r*len(keys) {
		return fmt.Errorf("owners holds %d entries for %d keys x %d replicas", len(owners), len(keys), r)
	}
	for i, k := range keys {
		// Replicas fills dst[:0] within its length and capacity r, so owners is
		// written in place and nothing is allocated.
		Replicas(l.p, l.p.HashKey(k), l.bits, owners[i*r:(i+1)*r:(i+1)*r])
	}
	return nil
}

func (l placerLocator) Rebalance(nodes []Node) (Locator, error) {
	next, err := l.p.Rebalance(nodes)
	if err != nil {
		return nil, err
	}
	return placerLocator{p: next, bits: l.bits}, nil
}

// CheckReplicas returns an error naming r unless 1 <= r <= min(MaxReplicas,
// n), n being the number of nodes.
func CheckReplicas(r, n int) error {
	if r < 1 || r > MaxReplicas || r > n {
		return fmt.Errorf("replicas %d: need 1 to %d (the smaller of %d nodes and %d)", r, min(MaxReplicas, n), n, MaxReplicas)
	}
	return nil
}
