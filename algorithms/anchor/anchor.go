// Package anchor places keys with AnchorHash (Mendelson, Vargaftik,
// Barabash, Lorenz, Keslassy, Orda, "AnchorHash: A Scalable Consistent
// Hash", IEEE/ACM ToN 2021, arXiv 1812.09674): a fixed anchor of a buckets,
// of which the working ones are held by nodes. A key hashes to one of the a
// buckets; if that bucket was removed, it rehashes into the buckets that
// were still working when it was removed, following each removed bucket's
// recorded replacement, until it reaches a working bucket.
//
//   - Lookup: at most 1 + ln(a/w) expected hash steps with w working
//     buckets (the paper's bound; 1.7 at a = 2w, the default capacity),
//     each one splitmix64 mix and a few array reads.
//   - Memory: four 4-byte arrays over the anchor (A, W, L, K of the paper),
//     the removed-bucket stack and a bucket-to-node table: about 24 bytes
//     per anchor bucket, O(a).
//   - Capacity: a is fixed when the placement is built (catalog default:
//     twice the initial membership, at least 16). A membership of more than
//     a nodes is an error naming a; the paper does not grow the anchor.
//   - Removal: any node may leave; its bucket is pushed on the removed
//     stack and only its keys move (the paper's minimal disruption).
//   - Joins: a joining node takes the most recently removed bucket (the
//     paper's AddBucket pops the removed stack; initially the stack holds
//     the buckets n..a-1, n on top). Keys move only to the joining node, and
//     a node that left and rejoins, with no change in between, gets its
//     bucket back and exactly its old keys: net movement 0.
//   - Weights: not supported; unequal weights are rejected.
//   - Order: stateful. Node i of the initial membership holds bucket i, and
//     later buckets depend on the order of removals and joins:
//     [Anchor.Rebalance] removes departed nodes in the order of Nodes(),
//     then adds joining nodes in the order given.
//   - Hash: the first bucket is the key hash, mixed with splitmix64 and
//     reduced by multiply-shift to [0, a); the per-bucket rehash h_b(k) is
//     the splitmix64 mix of h + (b+1) * 0x9E3779B97F4A7C15, a function of
//     the key and the bucket only (the paper's h_b(k)). The authors' C++
//     code (anchorhash/cpp-anchorhash) chains CRC-32C over the key and the
//     previous hash, and the SUPSI Java suite its own seeded hashes, so
//     outputs differ between implementations; the bucket bookkeeping (A, W,
//     L, K and the removed stack, initially a-1 ... n with n on top) is the
//     same as the authors'.
//   - Replicas: no scheme in the paper; chbench uses
//     [algorithms.SaltedReplicas].
//   - Reference outputs: neither the paper, the authors' code (its tests
//     check balance and consistency statistically) nor the SUPSI Java suite
//     publishes key-to-bucket vectors; the tests check the bucket
//     bookkeeping against the SUPSI suite's removal and restore cases and
//     the paper's consistency and balance properties.
package anchor

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/internal/assignment"
)

// Name is the registry name of the algorithm.
const Name = "anchor"

// MaxCapacity bounds the anchor size (2^22 buckets).
const MaxCapacity = 1 << 22

// rehashStep separates the per-bucket rehashes (2^64 / golden ratio).
const rehashStep = 0x9E3779B97F4A7C15

// engine is the paper's bucket bookkeeping (Algorithm 3 of the paper):
// A[b] = 0 for a working bucket, else the number of working buckets right
// after b was removed; W the working buckets in positions 0..n-1; L[b] the
// position of b in W; K[b] the replacement of a removed bucket b; R the
// stack of removed buckets, top last.
type engine struct {
	A, W, L, K []uint32
	R          []uint32
	n          uint32 // working buckets
}

func newEngine(a, n int) engine {
	e := engine{A: make([]uint32, a), W: make([]uint32, a), L: make([]uint32, a), K: make([]uint32, a), n: uint32(n)}
	for b := range a {
		e.W[b], e.L[b], e.K[b] = uint32(b), uint32(b), uint32(b)
	}
	// The buckets n..a-1 count as removed in decreasing order, so that
	// bucket n is on top of the stack.
	for b := a - 1; b >= n; b-- {
		e.A[b] = uint32(b)
		e.R = append(e.R, uint32(b))
	}
	return e
}

func (e *engine) clone() engine {
	return engine{A: slices.Clone(e.A), W: slices.Clone(e.W), L: slices.Clone(e.L), K: slices.Clone(e.K), R: slices.Clone(e.R), n: e.n}
}

// remove takes working bucket b out (the paper's RemoveBucket).
func (e *engine) remove(b uint32) {
	e.R = append(e.R, b)
	e.n--
	last := e.W[e.n]
	e.A[b] = e.n
	e.W[e.L[b]] = last
	e.L[last] = e.L[b]
	e.K[b] = last
}

// add restores the most recently removed bucket and returns it (the
// paper's AddBucket). The stack must not be empty.
func (e *engine) add() uint32 {
	b := e.R[len(e.R)-1]
	e.R = e.R[:len(e.R)-1]
	e.A[b] = 0
	e.L[e.W[e.n]] = e.n
	e.W[e.L[b]] = b
	e.K[b] = b
	e.n++
	return b
}

// bucket returns the working bucket of a key with hash h (the paper's
// GetBucket).
func (e *engine) bucket(h uint64) uint32 {
	a := uint64(len(e.A))
	b, _ := bits.Mul64(algorithms.Mix64(h), a)
	for e.A[b] > 0 {
		ab := e.A[b]
		c, _ := bits.Mul64(algorithms.Mix64(h+(b+1)*rehashStep), uint64(ab))
		for e.A[c] >= ab {
			c = uint64(e.K[c])
		}
		b = c
	}
	return uint32(b)
}

// Anchor is an immutable AnchorHash placement. It is safe for concurrent
// use.
type Anchor struct {
	nodes  []algorithms.Node
	hash   algorithms.Hash
	e      engine
	owner  []int32  // owner[b] = index in nodes of the node holding bucket b, or -1
	bucket []uint32 // bucket[i] = bucket held by nodes[i]
}

var _ algorithms.Placer = (*Anchor)(nil)

// ValidateCapacity checks an anchor size for n nodes: n <= a <=
// MaxCapacity. The error names a and n.
func ValidateCapacity(a, n int) error {
	return assignment.ValidateCapacity(a, n, MaxCapacity)
}

// New returns the AnchorHash placement of nodes on an anchor of a buckets
// under hash h: node i holds bucket i, and buckets len(nodes)..a-1 start
// out removed. It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]), unequal weights, or a outside
// len(nodes)..MaxCapacity.
func New(nodes []algorithms.Node, a int, h algorithms.Hash) (*Anchor, error) {
	if err := assignment.Validate(Name, nodes); err != nil {
		return nil, err
	}
	if err := ValidateCapacity(a, len(nodes)); err != nil {
		return nil, fmt.Errorf("anchor: %w", err)
	}
	p := &Anchor{nodes: slices.Clone(nodes), hash: h, e: newEngine(a, len(nodes)), bucket: assignment.Identity[uint32](len(nodes))}
	p.owner = assignment.Owners(p.bucket, len(p.e.A))
	return p, nil
}

// Algorithm returns "anchor".
func (p *Anchor) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New or Rebalance.
func (p *Anchor) Nodes() []algorithms.Node { return p.nodes }

// Capacity returns the anchor size a.
func (p *Anchor) Capacity() int { return len(p.e.A) }

// Bucket returns the anchor bucket held by node i (an index into Nodes()).
func (p *Anchor) Bucket(i int) int { return int(p.bucket[i]) }

// HashKey returns the configured hash of key.
func (p *Anchor) HashKey(key string) uint64 { return p.hash.Sum(key) }

// LocateHash returns the index into Nodes() of the node holding the working
// bucket of a key with hash h.
func (p *Anchor) LocateHash(h uint64) int { return int(p.owner[p.e.bucket(h)]) }

// Locate returns the ID of the node that owns key.
func (p *Anchor) Locate(key string) string { return p.nodes[p.LocateHash(p.hash.Sum(key))].ID }

// Rebalance returns the placement for a new membership by the paper's
// rules, matching nodes by ID: the buckets of departed nodes are removed
// (pushed on the removed stack) in the order of Nodes(), then each joining
// node, in the order given, takes the most recently removed bucket.
// Surviving nodes keep their buckets. Nodes() of the result is in the order
// of nodes. It returns an error for an invalid membership, unequal weights,
// or more nodes than the capacity; the receiver is unchanged.
func (p *Anchor) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := assignment.Validate(Name, nodes); err != nil {
		return nil, err
	}
	if len(nodes) > len(p.e.A) {
		return nil, fmt.Errorf("anchor: %d nodes exceed the capacity of %d buckets (capacity is fixed when the placement is built)", len(nodes), len(p.e.A))
	}
	next := &Anchor{nodes: slices.Clone(nodes), hash: p.hash, e: p.e.clone()}
	next.bucket = assignment.Reassign(p.nodes, p.bucket, nodes, next.e.remove, next.e.add)
	next.owner = assignment.Owners(next.bucket, len(next.e.A))
	return next, nil
}
