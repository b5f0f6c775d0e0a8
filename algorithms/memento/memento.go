// Package memento places keys with MementoHash (Coluzzi, Brocco, Antonucci,
// Leidi, "MementoHash: A Stateful, Minimal Memory, Best Performing
// Consistent Hash Algorithm", arXiv 2306.09783, 2023): jump consistent hash
// over a b-array of buckets, plus a replacement set that remembers each
// removed bucket, its replacer and the bucket removed before it. A key that
// jump hash sends to a removed bucket rehashes into the buckets that were
// working when that bucket was removed, following replacements, until it
// reaches a working bucket.
//
//   - Lookup: jump hash, O(ln n), plus O(1 + ln(b/w)) expected rehash steps
//     with w working buckets out of a b-array of b; with no removals it is
//     exactly jump hash (the tests check the Lamping & Veach vectors).
//   - Memory: the paper keeps the replacement set in a hash table of the
//     removed buckets (O(r) for r removals); this package keeps it in two
//     dense 4-byte arrays over the b-array, so a lookup never hashes a
//     bucket number: 12 bytes per bucket of the b-array with the
//     bucket-to-node table, O(b).
//   - Removal: any node may leave; only its keys move. Removing the last
//     bucket while nothing else is removed just shrinks the b-array, as
//     jump hash would.
//   - Joins: a joining node takes the most recently removed bucket (the
//     paper's restore order), or, when none is removed, a new bucket at the
//     end of the b-array. Keys move only to the joining node; a node that
//     left and rejoins, with no change in between, gets its bucket back and
//     exactly its old keys (net movement 0). There is no capacity limit
//     beyond algorithms.MaxNodes.
//   - Weights: not supported; unequal weights are rejected.
//   - Order: stateful. Node i of the initial membership holds bucket i;
//     [Memento.Rebalance] removes departed nodes in the order of Nodes(),
//     then adds joining nodes in the order given.
//   - Hash: jump hash takes the configured key hash (as package jump does);
//     the rehash of a key with hash h at removed bucket b is the splitmix64
//     mix of h + (b+1) * 0x9E3779B97F4A7C15, reduced by multiply-shift to
//     the replacer's range. The paper's code hashes the key again with the
//     bucket as seed.
//   - Replicas: no scheme in the paper; chbench uses
//     [algorithms.SaltedReplicas].
//   - Reference outputs: with no removals MementoHash is jump hash, so the
//     tests match the published jump vectors; the bucket bookkeeping matches
//     the SUPSI Java suite's removal and restore cases (their test removes
//     buckets 0, 3, 1, 4, 5 of 6 and restores 5, 4, 1, 3, 0). No
//     key-to-bucket vectors with removals are published.
package memento

import (
	"math/bits"
	"slices"

	gojump "github.com/dgryski/go-jump"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/internal/assignment"
)

// Name is the registry name of the algorithm.
const Name = "memento"

const rehashStep = 0x9E3779B97F4A7C15

// none marks a working bucket in the replacement arrays.
const none = -1

// engine is the paper's state: the b-array size, the replacement set
// (repl[b] = replacer of removed bucket b, which is also the number of
// working buckets right after b was removed; prev[b] = the bucket removed
// before b), the last removed bucket and the number of removed buckets.
type engine struct {
	repl, prev  []int32
	size        int // b-array size
	lastRemoved int // size when nothing is removed
	removed     int
}

func newEngine(n int) engine {
	e := engine{repl: make([]int32, n), prev: make([]int32, n), size: n, lastRemoved: n}
	for b := range e.repl {
		e.repl[b], e.prev[b] = none, none
	}
	return e
}

func (e *engine) clone() engine {
	c := *e
	c.repl, c.prev = slices.Clone(e.repl), slices.Clone(e.prev)
	return c
}

// working returns the number of working buckets.
func (e *engine) working() int { return e.size - e.removed }

// remove removes working bucket b (the paper's removal).
func (e *engine) remove(b int) {
	if e.removed == 0 && b == e.size-1 {
		// Jump hash's own case: shrink the b-array.
		e.size--
		e.lastRemoved = e.size
		e.repl, e.prev = e.repl[:e.size], e.prev[:e.size]
		return
	}
	e.repl[b] = int32(e.working() - 1)
	e.prev[b] = int32(e.lastRemoved)
	e.lastRemoved = b
	e.removed++
}

// add restores the most recently removed bucket, or appends a bucket to
// the b-array when none is removed, and returns it (the paper's addition).
func (e *engine) add() int {
	b := e.lastRemoved
	if e.removed == 0 {
		// b == size: grow the b-array.
		e.size++
		e.repl, e.prev = append(e.repl, none), append(e.prev, none)
		e.lastRemoved = e.size
		return b
	}
	e.lastRemoved = int(e.prev[b])
	e.repl[b], e.prev[b] = none, none
	e.removed--
	return b
}

// bucket returns the working bucket of a key with hash h (the paper's
// lookup).
func (e *engine) bucket(h uint64) int {
	b := int(gojump.Hash(h, e.size))
	r := e.repl[b]
	for r >= 0 {
		x, _ := bits.Mul64(algorithms.Mix64(h+uint64(b+1)*rehashStep), uint64(r))
		b = int(x)
		next := e.repl[b]
		for next >= r {
			b = int(next)
			next = e.repl[b]
		}
		r = next
	}
	return b
}

// Memento is an immutable MementoHash placement. It is safe for concurrent
// use.
type Memento struct {
	nodes  []algorithms.Node
	hash   algorithms.Hash
	e      engine
	owner  []int32 // owner[b] = index in nodes of the node holding bucket b, or -1
	bucket []int32 // bucket[i] = bucket held by nodes[i]
}

var _ algorithms.Placer = (*Memento)(nil)

// New returns the MementoHash placement of nodes under hash h: node i holds
// bucket i and nothing is removed, so keys land as jump hash puts them. It
// returns an error for an invalid membership (see
// [algorithms.ValidateNodes]) or unequal weights.
func New(nodes []algorithms.Node, h algorithms.Hash) (*Memento, error) {
	if err := assignment.Validate(Name, nodes); err != nil {
		return nil, err
	}
	p := &Memento{nodes: slices.Clone(nodes), hash: h, e: newEngine(len(nodes)), bucket: assignment.Identity[int32](len(nodes))}
	p.owner = assignment.Owners(p.bucket, p.e.size)
	return p, nil
}

// Algorithm returns "memento".
func (p *Memento) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New or Rebalance.
func (p *Memento) Nodes() []algorithms.Node { return p.nodes }

// Bucket returns the bucket held by node i (an index into Nodes()).
func (p *Memento) Bucket(i int) int { return int(p.bucket[i]) }

// ArraySize returns the size of the b-array (working and removed buckets).
func (p *Memento) ArraySize() int { return p.e.size }

// HashKey returns the configured hash of key.
func (p *Memento) HashKey(key string) uint64 { return p.hash.Sum(key) }

// LocateHash returns the index into Nodes() of the node holding the working
// bucket of a key with hash h.
func (p *Memento) LocateHash(h uint64) int { return int(p.owner[p.e.bucket(h)]) }

// Locate returns the ID of the node that owns key.
func (p *Memento) Locate(key string) string { return p.nodes[p.LocateHash(p.hash.Sum(key))].ID }

// Rebalance returns the placement for a new membership by the paper's
// rules, matching nodes by ID: the buckets of departed nodes are removed in
// the order of Nodes(), then each joining node, in the order given, takes
// the most recently removed bucket (or a new one at the end of the
// b-array). Surviving nodes keep their buckets. Nodes() of the result is in
// the order of nodes. It returns an error for an invalid membership or
// unequal weights; the receiver is unchanged.
func (p *Memento) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := assignment.Validate(Name, nodes); err != nil {
		return nil, err
	}
	next := &Memento{nodes: slices.Clone(nodes), hash: p.hash, e: p.e.clone()}
	next.bucket = assignment.Reassign(p.nodes, p.bucket, nodes,
		func(b int32) { next.e.remove(int(b)) },
		func() int32 { return int32(next.e.add()) })
	next.owner = assignment.Owners(next.bucket, next.e.size)
	return next, nil
}
