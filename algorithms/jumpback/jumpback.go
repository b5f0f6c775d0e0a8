// Package jumpback places keys with JumpBackHash (Otmar Ertl,
// "JumpBackHash: Say Goodbye to the Modulo Operation to Distribute Keys
// Uniformly to Buckets", arXiv 2403.18682, 2024; Software: Practice and
// Experience 2025).
//
// JumpBackHash assigns every key the same bucket distribution as jump
// consistent hash (uniform over 0..n-1, and growing n to n+1 moves exactly
// the keys that land on bucket n) but walks the sequence of bucket changes
// backwards from the largest bucket below n, so the expected work is
// constant instead of O(ln n), with integer arithmetic only (no division,
// no floating point). Its random numbers come from SplitMix64 seeded with
// the 64-bit key hash, so its outputs are not jump's outputs, only jump's
// distribution.
//
//   - Lookup: O(1) expected: one SplitMix64 draw usually decides; over
//     n = 2 to 2^20+1 the mean is at most about 1.7 draws (measured on
//     100,000 keys).
//   - Memory: O(n) for the bucket order; the algorithm itself keeps none.
//   - Removal: only the last bucket can leave without disturbing the
//     others; chbench removes any other node by swap-last
//     ([algorithms.SwapLast], as for jump): its bucket is taken over by the
//     node in the last bucket, so about 2/n of the keys move instead of 1/n.
//   - Weights: not supported; unequal weights are rejected.
//   - Order: owners depend on bucket order.
//   - Reference outputs: Dynatrace's hash4j
//     (com.dynatrace.hash4j.consistent, ConsistentHashing.jumpBackHash with
//     PseudoRandomGeneratorProvider.splitMix64_V1) seeds SplitMix64 with the
//     key hash exactly as here, so the outputs match it bit for bit; the
//     tests check the example in hash4j's ConsistentHashingDemo and a table
//     of outputs produced by running hash4j (see testdata).
package jumpback

import (
	"math/bits"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "jumpback"

// MaxBuckets is the largest bucket count JumpBackHash supports (hash4j's
// int range, 2^31-1).
const MaxBuckets = 1<<31 - 1

// JumpBack is an immutable JumpBackHash placement; node i owns bucket i. It
// is safe for concurrent use.
type JumpBack struct {
	algorithms.Buckets
	n uint32
}

// New returns the JumpBackHash placement of nodes (bucket i = nodes[i])
// under hash h. It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]) or unequal weights.
func New(nodes []algorithms.Node, h algorithms.Hash) (*JumpBack, error) {
	b, err := algorithms.NewBuckets(Name, nodes, h, MaxBuckets)
	if err != nil {
		return nil, err
	}
	return newJumpBack(b), nil
}

func newJumpBack(b algorithms.Buckets) *JumpBack {
	return &JumpBack{Buckets: b, n: uint32(len(b.Nodes()))}
}

// Algorithm returns "jumpback".
func (j *JumpBack) Algorithm() string { return Name }

// LocateHash returns the JumpBackHash bucket of the key hash h among the
// placement's n buckets.
func (j *JumpBack) LocateHash(h uint64) int { return int(bucket(h, j.n)) }

// Locate returns the ID of the node that owns key.
func (j *JumpBack) Locate(key string) string { return j.ID(int(bucket(j.HashKey(key), j.n))) }

// Rebalance returns the placement for a new membership, in the bucket order
// of [algorithms.SwapLast] (see the package doc).
func (j *JumpBack) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	b, err := j.Buckets.Swapped(Name, nodes, MaxBuckets)
	if err != nil {
		return nil, err
	}
	return newJumpBack(b), nil
}

// SplitMix64 (Steele, Lea & Flood 2014): the state advances by the golden
// gamma and each output is the state through its 64-bit finalizer,
// [algorithms.Mix64].
const splitMixGamma = 0x9e3779b97f4a7c15

// bucket returns the JumpBackHash bucket (0..n-1) of key hash h; n must be
// in 1..MaxBuckets.
//
// Jump hash's bucket of a key is the last of an increasing sequence of
// jump positions below n; exactly one position falls in each power-of-two
// range [2^i, 2^(i+1)) with probability 1/2, uniformly inside it. The first
// draw r0 decides, for every range below n at once, whether it holds a
// position (the bits of x) and where (32 bits of r0). Walking the ranges
// from the top: a position below n is the answer; one at or beyond n (only
// possible in the top range) is resolved by drawing further positions of
// that range until one lands below n (the answer) or below the range start
// (the range holds no position below n; go down a range).
func bucket(h uint64, n uint32) uint32 {
	if n <= 1 {
		return 0
	}
	state := h + splitMixGamma
	r0 := algorithms.Mix64(state)
	// Bit i of x: does range [2^i, 2^(i+1)) hold a jump position? Only the
	// ranges that start below n matter.
	x := uint32(r0^r0>>32) & (0xFFFFFFFF >> bits.LeadingZeros32(n-1))
	for x != 0 {
		lo := uint32(1) << (bits.Len32(x) - 1) // start of the highest range left
		// Its position: 32 bits of r0 chosen by the parity of the ranges
		// left (the high half when odd, the low half when even).
		shift := (uint(bits.OnesCount32(x)) << 5) & 63
		b := lo + uint32(r0>>shift)&(lo-1)
		if b < n {
			return b
		}
		mask := lo<<1 - 1
		for {
			state += splitMixGamma
			r1 := algorithms.Mix64(state)
			if b = uint32(r1) & mask; b < lo {
				break
			} else if b < n {
				return b
			}
			if b = uint32(r1>>32) & mask; b < lo {
				break
			} else if b < n {
				return b
			}
		}
		x ^= lo
	}
	return 0
}
