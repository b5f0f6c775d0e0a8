// Package binomial places keys with BinomialHash (Massimo Coluzzi, Amos
// Brocco, Alessandro Antonucci, "BinomialHash: A Constant Time, Minimal
// Memory Consistent Hash Algorithm", arXiv 2406.19836, 2024), following the
// authors' own implementation (BinomialEngine in SUPSI's
// java-consistent-hashing-algorithms, commit 68803f8, May 2025).
//
// The buckets are the nodes of a binary tree whose levels are the
// power-of-two ranges [2^i, 2^(i+1)). A key hash masked to the smallest
// tree that holds all n buckets (the enclosing tree, 2^r >= n) picks a
// level, and a rehash picks a uniform position inside it; a position at or
// beyond n is redrawn up to four times in the enclosing tree, and then falls
// back to the tree one level smaller (the minor tree, all of whose buckets
// exist). Rehashes are a 64-bit linear congruential step squared
// (multiply, add, multiply, shift).
//
//   - Lookup: O(1): at most ten rehashes (one for the first position, two
//     per redraw, one for the fallback), no division, no floating point.
//   - Memory: O(n) for the bucket order; the algorithm itself keeps two
//     masks.
//   - Removal: only the last bucket can leave without disturbing the
//     others; chbench removes any other node by swap-last
//     ([algorithms.SwapLast], as for jump), which moves about 2/n of the
//     keys instead of 1/n.
//   - Weights: not supported; unequal weights are rejected.
//   - Order: owners depend on bucket order.
//   - Balance: uniform when n is a power of two. Otherwise, even with
//     ideal rehashes, the buckets of the top level [2^(r-1), n) get
//     slightly fewer keys than the rest, because a key that misses five
//     times falls back to the minor tree: every share is within a factor
//     1 +- 2^-5 of 1/n, and the tests check counts against these shares.
//   - Reference outputs: the paper and the repository publish no output
//     values; the table in testdata was produced by running the authors'
//     BinomialEngine on 64-bit key hashes (see the file's header), and the
//     tests compare every entry.
package binomial

import (
	"math/bits"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "binomial"

// MaxBuckets is the largest bucket count (the reference's int range).
const MaxBuckets = 1<<31 - 1

// Redraws is how many times a position at or beyond n is redrawn in the
// enclosing tree before falling back to the minor tree.
const Redraws = 4

// Binomial is an immutable BinomialHash placement; node i owns bucket i. It
// is safe for concurrent use.
type Binomial struct {
	algorithms.Buckets
	n                   uint32
	enclosing, minorTop uint32 // masks of the enclosing tree (2^r-1) and the minor tree (2^(r-1)-1)
}

// New returns the BinomialHash placement of nodes (bucket i = nodes[i])
// under hash h. It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]) or unequal weights.
func New(nodes []algorithms.Node, h algorithms.Hash) (*Binomial, error) {
	b, err := algorithms.NewBuckets(Name, nodes, h, MaxBuckets)
	if err != nil {
		return nil, err
	}
	return newBinomial(b), nil
}

func newBinomial(b algorithms.Buckets) *Binomial {
	n := uint32(len(b.Nodes()))
	enc, minor := masks(n)
	return &Binomial{Buckets: b, n: n, enclosing: enc, minorTop: minor}
}

// masks returns the masks of the enclosing tree, the smallest 2^r >= n
// (2^r-1), and of the minor tree (2^(r-1)-1).
func masks(n uint32) (enclosing, minor uint32) {
	enclosing = 1<<bits.Len32(n-1) - 1
	return enclosing, enclosing >> 1
}

// Algorithm returns "binomial".
func (b *Binomial) Algorithm() string { return Name }

// LocateHash returns the BinomialHash bucket of the key hash h among the
// placement's n buckets.
func (b *Binomial) LocateHash(h uint64) int { return int(bucket(h, b.n, b.enclosing, b.minorTop)) }

// Locate returns the ID of the node that owns key.
func (b *Binomial) Locate(key string) string {
	return b.ID(int(bucket(b.HashKey(key), b.n, b.enclosing, b.minorTop)))
}

// Rebalance returns the placement for a new membership, in the bucket order
// of [algorithms.SwapLast] (see the package doc).
func (b *Binomial) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	next, err := b.Buckets.Swapped(Name, nodes, MaxBuckets)
	if err != nil {
		return nil, err
	}
	return newBinomial(next), nil
}

// rehash is the reference's rehash of v with a seed: one step of the
// 64-bit LCG x -> 2862933555777941757 x + 1, squared, times the seed, top
// 32 bits.
func rehash(v uint64, seed uint32) uint64 {
	x := 2862933555777941757*v + 1
	return x * x * uint64(seed) >> 32
}

// relocate moves position p of the tree to a uniform position of its own
// level [2^i, 2^(i+1)), chosen by h; positions 0 and 1 stay.
func relocate(p uint32, h uint64) uint32 {
	if p < 2 {
		return p
	}
	base := uint32(1) << (bits.Len32(p) - 1)
	return base + uint32(rehash(h, base-1))&(base-1)
}

// bucket returns the BinomialHash bucket (0..n-1) of key hash h; enclosing
// and minor are masks(n).
func bucket(h uint64, n, enclosing, minor uint32) uint32 {
	if n < 2 {
		return 0
	}
	if b := relocate(uint32(h)&enclosing, h); b < n {
		return b
	}
	r := h
	for range Redraws {
		r = rehash(r, enclosing)
		b := relocate(uint32(r)&enclosing, r)
		if b <= minor {
			break
		}
		if b < n {
			return b
		}
	}
	return relocate(uint32(h)&minor, h)
}
