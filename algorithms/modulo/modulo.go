// Package modulo places a key on node hash(key) mod n: the one-line baseline
// every other algorithm is measured against.
//
//   - Lookup: O(1), one hash and one division.
//   - Memory: O(n) for the membership.
//   - Removal: any node may leave, but every change of n remaps almost every
//     key: going from n to m nodes moves 1 - min(n,m)/lcm(n,m) of them
//     (75% for 3 -> 4, 80% for 4 -> 5; [MovedFraction]).
//   - Weights: not supported; every node owns 1/n of the hash space. A
//     membership with unequal weights is rejected.
//   - Order: node i of the membership owns the keys with hash mod n == i, so
//     the owner depends on the order the nodes are listed in.
package modulo

import (
	"fmt"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "modulo"

// MovedFraction returns the fraction of uniformly hashed keys that change
// owner when modulo placement goes from n to m nodes: a key stays iff
// h mod n == h mod m, which holds for min(n,m) of every lcm(n,m)
// consecutive hash values, so the fraction is 1 - min(n,m)/lcm(n,m)
// (0.75 for 3 -> 4, 0.8 for 4 -> 5, 0 for n == m). It returns an error
// naming the bad count when n < 1 or m < 1.
func MovedFraction(n, m int) (float64, error) {
	if n < 1 || m < 1 {
		return 0, fmt.Errorf("modulo: moved fraction %d -> %d: node counts must be at least 1", n, m)
	}
	a, b := n, m
	for b != 0 {
		a, b = b, a%b
	}
	lcm := n / a * m
	return 1 - float64(min(n, m))/float64(lcm), nil
}

// Modulo is an immutable modulo placement. It is safe for concurrent use.
type Modulo struct {
	nodes []algorithms.Node
	n     uint64
	hash  algorithms.Hash
}

// New returns the modulo placement of nodes under hash h. It returns an
// error for an invalid membership (see [algorithms.ValidateNodes]) or unequal
// weights.
func New(nodes []algorithms.Node, h algorithms.Hash) (*Modulo, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("modulo: %w", err)
	}
	if err := algorithms.CheckUniform(Name, nodes); err != nil {
		return nil, err
	}
	return &Modulo{nodes: append([]algorithms.Node(nil), nodes...), n: uint64(len(nodes)), hash: h}, nil
}

// Algorithm returns "modulo".
func (m *Modulo) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New.
func (m *Modulo) Nodes() []algorithms.Node { return m.nodes }

// HashKey returns the configured hash of key.
func (m *Modulo) HashKey(key string) uint64 { return m.hash.Sum(key) }

// LocateHash returns h mod n.
func (m *Modulo) LocateHash(h uint64) int { return int(h % m.n) }

// Locate returns the ID of the node that owns key.
func (m *Modulo) Locate(key string) string { return m.nodes[m.LocateHash(m.hash.Sum(key))].ID }

// Rebalance rebuilds the placement for nodes; it has no state to keep.
func (m *Modulo) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	return New(nodes, m.hash)
}

// ExactShares returns each node's exact share of the hash space
// [0, 2^bits): node i owns the values v with v mod n == i.
func (m *Modulo) ExactShares() []float64 {
	shares := make([]float64, m.n)
	// The space has 2^bits values; node i gets floor((2^bits-1-i)/n)+1 of them.
	if m.hash.Bits() == 32 {
		const space = uint64(1) << 32
		for i := range shares {
			shares[i] = float64((space-1-uint64(i))/m.n+1) / float64(space)
		}
		return shares
	}
	// Node i gets floor((2^64-1-i)/n)+1 values: 2^64 on one node, a
	// count that wraps a uint64 to 0, so it is the whole space.
	const max = ^uint64(0)
	for i := range shares {
		if c := (max-uint64(i))/m.n + 1; c == 0 {
			shares[i] = 1
		} else {
			shares[i] = float64(c) / 18446744073709551616.0
		}
	}
	return shares
}
