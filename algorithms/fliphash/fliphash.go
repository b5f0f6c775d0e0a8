// Package fliphash places keys with FlipHash (Charles Masson and Homin K.
// Lee, "FlipHash: A Constant-Time Consistent Range-Hash Algorithm", arXiv
// 2402.17549, 2024), the 64-bit integer-key variant of Datadog's reference
// implementation (the fliphash Rust crate's fliphash_64, seed 0).
//
// FlipHash first hashes the key onto a power-of-two range 0..2^r-1 by
// "flipping" the low bits of its highest set bit's range with a per-range
// hash, which is consistent across powers of two; for a range 0..n-1 that is
// not a power of two it redraws, with fresh per-draw hashes, values in the
// top half until one falls below n (or into the lower half, which falls back
// to the power-of-two hash one size down). It is uniform and monotone (n ->
// n+1 moves keys only to bucket n, about 1/(n+1) of them), like jump, with
// other outputs.
//
//   - Lookup: O(1) expected: at most 64 redraws, fewer than 2 expected;
//     integer multiply, xor and shift only.
//   - Memory: O(n) for the bucket order; the algorithm itself keeps none.
//   - Removal: only the last bucket can leave without disturbing the
//     others; chbench removes any other node by swap-last
//     ([algorithms.SwapLast], as for jump), which moves about 2/n of the
//     keys instead of 1/n.
//   - Weights: not supported; unequal weights are rejected.
//   - Order: owners depend on bucket order.
//   - Reference outputs: the crate publishes no output values (its tests
//     are statistical); the table in testdata was produced by compiling the
//     crate's own fliphash_64 and running it (see the file's header), and
//     the tests compare every entry.
package fliphash

import (
	"math/bits"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "fliphash"

// JumpLimit is the most redraws FlipHash makes before falling back to the
// power-of-two hash one size down (the reference's MAX_NUM_ITERATIONS). The
// chance of reaching it is below 2^-64.
const JumpLimit = 64

// FlipHash is an immutable FlipHash placement; node i owns bucket i. It is
// safe for concurrent use.
type FlipHash struct {
	algorithms.Buckets
	end uint64 // n-1, the last bucket
}

// New returns the FlipHash placement of nodes (bucket i = nodes[i]) under
// hash h. It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]) or unequal weights.
func New(nodes []algorithms.Node, h algorithms.Hash) (*FlipHash, error) {
	b, err := algorithms.NewBuckets(Name, nodes, h, algorithms.MaxNodes)
	if err != nil {
		return nil, err
	}
	return newFlipHash(b), nil
}

func newFlipHash(b algorithms.Buckets) *FlipHash {
	return &FlipHash{Buckets: b, end: uint64(len(b.Nodes()) - 1)}
}

// Algorithm returns "fliphash".
func (f *FlipHash) Algorithm() string { return Name }

// LocateHash returns the FlipHash bucket of the key hash h among the
// placement's n buckets.
func (f *FlipHash) LocateHash(h uint64) int { return int(bucket(h, f.end)) }

// Locate returns the ID of the node that owns key.
func (f *FlipHash) Locate(key string) string { return f.ID(int(bucket(f.HashKey(key), f.end))) }

// Rebalance returns the placement for a new membership, in the bucket order
// of [algorithms.SwapLast] (see the package doc).
func (f *FlipHash) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	b, err := f.Buckets.Swapped(Name, nodes, algorithms.MaxNodes)
	if err != nil {
		return nil, err
	}
	return newFlipHash(b), nil
}

// mix is the reference's keyed hash of key for the power-of-two range of
// bit length level+1 and redraw number draw (0 for the flip itself): a
// moremur-style multiply-xorshift finalizer with the level and draw folded
// in as odd multipliers.
func mix(key uint64, level, draw uint32) uint64 {
	k := key * (uint64(level)*2 + 1)
	k = (k ^ k>>27) * 0x3C79AC492BA7B653
	k *= uint64(draw)*2 + 1
	k = (k ^ k>>33) * 0x1C69B3F74AC4AE35
	return k ^ k>>27
}

// flip hashes key onto 0..mask (mask = 2^r-1) from its base hash: the
// masked hash keeps its highest set bit (its power-of-two range) and has the
// bits below flipped by that range's own hash.
func flip(key, hash, mask uint64) uint64 {
	m := hash & mask
	if m == 0 {
		return 0
	}
	level := uint32(bits.Len64(m) - 1)
	return m ^ mix(key, level, 0)&(1<<level-1)
}

// bucket returns the FlipHash bucket (0..end) of key hash key.
func bucket(key, end uint64) uint64 {
	if end == 0 {
		return 0
	}
	level := uint32(bits.Len64(end) - 1)
	mask := uint64(1)<<(level+1) - 1 // 2^r-1, the smallest such >= end
	hash := mix(key, 0, 0)
	if b := flip(key, hash, mask); b <= end {
		return b
	}
	for draw := uint32(1); draw <= JumpLimit; draw++ {
		b := mix(key, level, draw) & mask
		if b <= mask>>1 {
			break
		}
		if b <= end {
			return b
		}
	}
	return flip(key, hash, mask>>1)
}
