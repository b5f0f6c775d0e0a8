// Package dx places keys with DxHash (Dong & Wang, "DxHash: A Scalable
// Consistent Hash Based on the Pseudo-Random Sequence", arXiv 2107.07930,
// 2021): an array of a buckets (the capacity), each active (held by a node)
// or inactive, and for every key a pseudo-random sequence of bucket numbers
// seeded by its hash; the key belongs to the first active bucket of its
// sequence.
//
//   - Lookup: a/w expected steps with w active buckets of a (2 at the
//     default capacity a = 2n), each one splitmix64 step, a multiply and one
//     array read. After 1,024 steps without an active bucket (probability
//     (1-w/a)^1024, below 10^-22 while w >= a/20) the sequence continues as
//     a scan upward from its last bucket, wrapping, so every lookup ends.
//   - Memory: 4 bytes per bucket of the array (bucket-to-node table), plus
//     the stack of inactive buckets: O(a).
//   - Capacity: a is fixed when the placement is built (catalog default:
//     twice the initial membership, at least 16). The paper doubles the
//     array when it is full, which remaps keys; this package instead refuses
//     a membership of more than a nodes with an error naming a.
//   - Removal: any node may leave; its bucket becomes inactive and is pushed
//     on the stack of removed buckets. A key's sequence does not depend on
//     the membership, so only the leaving node's keys move, each to the next
//     active bucket of its sequence.
//   - Joins: a joining node takes the most recently removed bucket (top of
//     the stack), or, with an empty stack, the lowest never-used bucket;
//     initially node i holds bucket i. Keys move only to the joining node,
//     and a node that left and rejoins, with no change in between, gets its
//     bucket back and exactly its old keys (net movement 0).
//   - Weights: not supported; unequal weights are rejected.
//   - Order: stateful: which node holds which bucket depends on the initial
//     order and the history of removals and joins. [Dx.Rebalance] removes
//     departed nodes in the order of Nodes(), then adds joining nodes in the
//     order given.
//   - Hash: the sequence is splitmix64 seeded with the configured key hash
//     (state += 0x9E3779B97F4A7C15, output = mix(state)), reduced to [0, a)
//     by multiply-shift, so any capacity works; the paper seeds a
//     pseudo-random generator with the key and doubles its array when it
//     grows, and the SUPSI Java suite seeds java.util.Random with the key
//     hash. Any generator gives the same guarantees; the outputs differ.
//   - Replicas: no general scheme in the paper; chbench uses
//     [algorithms.SaltedReplicas]. (Version 1 of the paper, 2021, proposed
//     an "Asymmetric Replica Strategy" tied to doubling the array on
//     scale-up, which this package does not do; version 2, 2023, drops it
//     from its abstract. Not implemented here.)
//   - Reference outputs: neither the paper nor the SUPSI suite publishes
//     key-to-bucket vectors; the tests check the consistency and balance
//     properties the paper proves.
package dx

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/internal/assignment"
)

// Name is the registry name of the algorithm.
const Name = "dx"

// MaxCapacity bounds the bucket array (2^22 buckets).
const MaxCapacity = 1 << 22

// MaxRandomSteps is the number of pseudo-random steps before a lookup
// falls back to scanning upward.
const MaxRandomSteps = 1024

const seqStep = 0x9E3779B97F4A7C15

// Dx is an immutable DxHash placement. It is safe for concurrent use.
type Dx struct {
	nodes   []algorithms.Node
	hash    algorithms.Hash
	owner   []int32 // owner[b] = index in nodes of the node holding bucket b, or -1 (inactive)
	bucket  []int32 // bucket[i] = bucket held by nodes[i]
	removed []int32 // stack of inactive buckets that were held before, top last
	fresh   int     // lowest bucket never held; buckets fresh..a-1 are inactive
	a       uint64  // capacity
}

var _ algorithms.Placer = (*Dx)(nil)

// ValidateCapacity checks an array size for n nodes: n <= a <= MaxCapacity.
// The error names a and n.
func ValidateCapacity(a, n int) error {
	return assignment.ValidateCapacity(a, n, MaxCapacity)
}

// New returns the DxHash placement of nodes on an array of a buckets under
// hash h: node i holds bucket i, buckets len(nodes)..a-1 are inactive. It
// returns an error for an invalid membership (see
// [algorithms.ValidateNodes]), unequal weights, or a outside
// len(nodes)..MaxCapacity.
func New(nodes []algorithms.Node, a int, h algorithms.Hash) (*Dx, error) {
	if err := assignment.Validate(Name, nodes); err != nil {
		return nil, err
	}
	if err := ValidateCapacity(a, len(nodes)); err != nil {
		return nil, fmt.Errorf("dx: %w", err)
	}
	p := &Dx{nodes: slices.Clone(nodes), hash: h, a: uint64(a), fresh: len(nodes), bucket: assignment.Identity[int32](len(nodes))}
	p.owner = assignment.Owners(p.bucket, a)
	return p, nil
}

// Algorithm returns "dx".
func (p *Dx) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New or Rebalance.
func (p *Dx) Nodes() []algorithms.Node { return p.nodes }

// Capacity returns the array size a.
func (p *Dx) Capacity() int { return int(p.a) }

// Bucket returns the bucket held by node i (an index into Nodes()).
func (p *Dx) Bucket(i int) int { return int(p.bucket[i]) }

// HashKey returns the configured hash of key.
func (p *Dx) HashKey(key string) uint64 { return p.hash.Sum(key) }

// Sequence returns step i (0-based) of the pseudo-random bucket sequence of
// a key with hash h in an array of a buckets, for i < MaxRandomSteps.
func Sequence(h uint64, i int, a int) int {
	b, _ := bits.Mul64(algorithms.Mix64(h+uint64(i+1)*seqStep), uint64(a))
	return int(b)
}

// LocateHash returns the index into Nodes() of the node holding the first
// active bucket in the sequence of a key with hash h.
func (p *Dx) LocateHash(h uint64) int {
	s := h
	var b uint64
	for range MaxRandomSteps {
		s += seqStep
		b, _ = bits.Mul64(algorithms.Mix64(s), p.a)
		if o := p.owner[b]; o >= 0 {
			return int(o)
		}
	}
	for {
		if b++; b == p.a {
			b = 0
		}
		if o := p.owner[b]; o >= 0 {
			return int(o)
		}
	}
}

// Locate returns the ID of the node that owns key.
func (p *Dx) Locate(key string) string { return p.nodes[p.LocateHash(p.hash.Sum(key))].ID }

// Rebalance returns the placement for a new membership, matching nodes by
// ID: the buckets of departed nodes become inactive and are pushed on the
// removed stack in the order of Nodes(), then each joining node, in the
// order given, takes the most recently removed bucket, or the lowest
// never-used one when the stack is empty. Surviving nodes keep their
// buckets. Nodes() of the result is in the order of nodes. It returns an
// error for an invalid membership, unequal weights, or more nodes than the
// capacity; the receiver is unchanged.
func (p *Dx) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := assignment.Validate(Name, nodes); err != nil {
		return nil, err
	}
	if uint64(len(nodes)) > p.a {
		return nil, fmt.Errorf("dx: %d nodes exceed the capacity of %d buckets (capacity is fixed when the placement is built)", len(nodes), p.a)
	}
	next := &Dx{nodes: slices.Clone(nodes), hash: p.hash, a: p.a, fresh: p.fresh, removed: slices.Clone(p.removed)}
	next.bucket = assignment.Reassign(p.nodes, p.bucket, nodes, next.remove, next.add)
	next.owner = assignment.Owners(next.bucket, int(next.a))
	return next, nil
}

// remove makes bucket b inactive and pushes it on the removed stack.
func (p *Dx) remove(b int32) { p.removed = append(p.removed, b) }

// add takes the most recently removed bucket, or the lowest never-used one
// when the removed stack is empty, and returns it.
func (p *Dx) add() int32 {
	if n := len(p.removed); n > 0 {
		b := p.removed[n-1]
		p.removed = p.removed[:n-1]
		return b
	}
	b := int32(p.fresh)
	p.fresh++
	return b
}
