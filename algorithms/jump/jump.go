// Package jump places keys with jump consistent hash (Lamping & Veach, "A
// Fast, Minimal Memory, Consistent Hash Algorithm", 2014), through
// github.com/dgryski/go-jump.
//
//   - Lookup: O(ln n) expected: the loop runs H_n = 1 + 1/2 + ... + 1/n
//     times on average (7.5 at n = 1024), with no memory access beyond the
//     membership.
//   - Memory: O(n) for the bucket order; the algorithm itself keeps none.
//   - Removal: only the last bucket can leave without disturbing the
//     others. Growing from n to n+1 buckets moves exactly the keys that land
//     on bucket n, about 1/(n+1) of them.
//   - Removal policy for any other node (swap-last): when the node in bucket
//     k leaves, the node in the last bucket n-1 takes over bucket k and the
//     bucket count drops to n-1. The leaving node's keys all move (to the
//     former last node), and the former last bucket's keys are spread over
//     the rest: about 2/n of the keys move instead of the ideal 1/n, and the
//     second 1/n are collateral moves between surviving nodes. Removing the
//     last node costs only the ideal 1/n.
//   - Weights: not supported; unequal weights are rejected.
//   - Order: owners depend on bucket order, i.e. on the order the nodes
//     were listed in and on the history of removals.
package jump

import (
	"fmt"

	gojump "github.com/dgryski/go-jump"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "jump"

// Jump is an immutable jump-hash placement; node i owns bucket i. It is safe
// for concurrent use.
type Jump struct {
	nodes []algorithms.Node // bucket order
	n     int
	hash  algorithms.Hash
}

// New returns the jump placement of nodes (bucket i = nodes[i]) under hash
// h. It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]) or unequal weights.
func New(nodes []algorithms.Node, h algorithms.Hash) (*Jump, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("jump: %w", err)
	}
	return build(nodes, h)
}

// build is New for a validated membership.
func build(nodes []algorithms.Node, h algorithms.Hash) (*Jump, error) {
	if err := algorithms.CheckUniform(Name, nodes); err != nil {
		return nil, err
	}
	if len(nodes) > 1<<31-1 {
		return nil, fmt.Errorf("jump: %d nodes exceed the 2^31-1 buckets jump hash supports", len(nodes))
	}
	return &Jump{nodes: append([]algorithms.Node(nil), nodes...), n: len(nodes), hash: h}, nil
}

// Algorithm returns "jump".
func (j *Jump) Algorithm() string { return Name }

// Nodes returns the membership in bucket order.
func (j *Jump) Nodes() []algorithms.Node { return j.nodes }

// HashKey returns the configured hash of key, the 64-bit key jump hash takes.
func (j *Jump) HashKey(key string) uint64 { return j.hash.Sum(key) }

// LocateHash returns the jump hash bucket of h among n buckets.
func (j *Jump) LocateHash(h uint64) int { return int(gojump.Hash(h, j.n)) }

// Locate returns the ID of the node that owns key.
func (j *Jump) Locate(key string) string { return j.nodes[j.LocateHash(j.hash.Sum(key))].ID }

// Rebalance returns the placement for a new membership, in the bucket order
// of [algorithms.SwapLast]: surviving nodes keep their buckets; each vacated
// bucket below the new count is filled by the node in the highest surviving
// bucket (see the package doc); joining nodes are appended in the order
// given.
func (j *Jump) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("jump: %w", err)
	}
	next, err := build(algorithms.SwapLast(j.nodes, nodes), j.hash)
	if err != nil {
		return nil, err // not a typed nil *Jump inside the interface
	}
	return next, nil
}
