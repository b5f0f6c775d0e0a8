// Package powerch places keys with power consistent hashing, PowerCH (Eric
// Leu, "Fast Consistent Hashing in Constant Time", arXiv 2307.12448, 2023).
//
// With m the smallest power of two >= n, PowerCH first hashes the key onto
// 0..m-1 with f: the key hash masked to m-1 picks a power-of-two range
// [2^i, 2^(i+1)) by its highest set bit, and an auxiliary hash picks a
// uniform position inside it. A position below n is the answer. Otherwise
// g walks jump hash's sequence of bucket jumps (Lamping & Veach) upwards
// from m/2-1 with a second, independent auxiliary hash and stops at the
// last jump below n; if that lies in the top half [m/2, n) it is the
// answer, else f over 0..m/2-1 is. Each bucket then gets exactly 1/n of
// the keys: 1/m directly from f, the rest through g, which as in jump
// leaves a key at m/2-1 with probability (m/2)/n and puts it on each of
// m/2..n-1 with probability 1/n.
//
//   - Lookup: O(1) expected: f is one SplitMix64 finalizer; g runs only
//     when f lands at or beyond n (probability below 1/2) and then takes
//     O(1) expected steps (at most ln 2 + 1 on average, since it walks from
//     m/2-1 to below n <= m), each a floating-point division, as in jump.
//   - Memory: O(n) for the bucket order; the algorithm itself keeps three
//     integers.
//   - Removal: only the last bucket can leave without disturbing the
//     others; chbench removes any other node by swap-last
//     ([algorithms.SwapLast], as for jump), which moves about 2/n of the
//     keys instead of 1/n.
//   - Weights: not supported; unequal weights are rejected.
//   - Order: owners depend on bucket order.
//   - Auxiliary hashes: the paper leaves them open; chbench uses
//     SplitMix64 for both (f: one finalizer of the key hash salted with
//     the range; g: a SplitMix64 stream seeded with the key hash).
//   - Reference outputs: none exist for these hashes. The paper publishes no
//     output values and its author's code was not found. SUPSI's Java
//     suite (java-consistent-hashing-algorithms) has a PowerEngine whose
//     December 2024 version (commit cf4dadb) uses an integer rehash for f
//     and Guava's linear congruential generator for g; the tests reproduce
//     236 of its outputs with that variant, and show it is not uniform:
//     its f and g start from the same generator state, and its chi-square
//     at 10 buckets is in the thousands where chance gives about 9. The
//     suite's later versions replace f's rehash with their byte hash
//     function, which ties outputs to that hash (and its first version
//     seeded g with n, which breaks consistency). So chbench's outputs are
//     its own, and the tests check the properties: consistency on growth,
//     balance by chi-square, determinism.
package powerch

import (
	"math/bits"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "powerch"

// MaxBuckets is the largest bucket count (the reference's 32-bit signed
// arithmetic: m = 2^31 would overflow).
const MaxBuckets = 1 << 30

// PowerCH is an immutable PowerCH placement; node i owns bucket i. It is
// safe for concurrent use.
type PowerCH struct {
	algorithms.Buckets
	n, m1, m2 int32 // n, m-1 and m/2-1 (-1 when m = 1)
}

// New returns the PowerCH placement of nodes (bucket i = nodes[i]) under
// hash h. It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]) or unequal weights.
func New(nodes []algorithms.Node, h algorithms.Hash) (*PowerCH, error) {
	b, err := algorithms.NewBuckets(Name, nodes, h, MaxBuckets)
	if err != nil {
		return nil, err
	}
	return newPowerCH(b), nil
}

func newPowerCH(b algorithms.Buckets) *PowerCH {
	n := int32(len(b.Nodes()))
	m1, m2 := masks(n)
	return &PowerCH{Buckets: b, n: n, m1: m1, m2: m2}
}

// masks returns m-1 and m/2-1 for the smallest power of two m >= n.
func masks(n int32) (m1, m2 int32) {
	m := int32(1) << bits.Len32(uint32(n-1))
	return m - 1, m>>1 - 1
}

// Algorithm returns "powerch".
func (p *PowerCH) Algorithm() string { return Name }

// LocateHash returns the PowerCH bucket of the key hash h among the
// placement's n buckets.
func (p *PowerCH) LocateHash(h uint64) int { return int(bucket(h, p.n, p.m1, p.m2)) }

// Locate returns the ID of the node that owns key.
func (p *PowerCH) Locate(key string) string {
	return p.ID(int(bucket(p.HashKey(key), p.n, p.m1, p.m2)))
}

// Rebalance returns the placement for a new membership, in the bucket order
// of [algorithms.SwapLast] (see the package doc).
func (p *PowerCH) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	b, err := p.Buckets.Swapped(Name, nodes, MaxBuckets)
	if err != nil {
		return nil, err
	}
	return newPowerCH(b), nil
}

// SplitMix64 (Steele, Lea & Flood 2014): golden-gamma increments, each
// output the state through its 64-bit finalizer, [algorithms.Mix64]. Both
// auxiliary hashes draw from it, from different starting states, so that
// f's position and g's jumps are independent.
const splitMixGamma = 0x9e3779b97f4a7c15

// levelSalt separates f's hash of (key, range) from g's stream.
const levelSalt = 0x6a09e667f3bcc909

// f hashes h onto 0..mask (mask = 2^j-1, or -1 for the empty range of
// m = 1): the masked hash's highest set bit picks the range [2^i, 2^(i+1)),
// the first auxiliary hash of (h, 2^i) a uniform position inside.
func f(h uint64, mask int32) int32 {
	k := uint32(h) & uint32(mask)
	if k == 0 {
		return 0
	}
	top := uint32(1) << (bits.Len32(k) - 1)
	r := algorithms.Mix64(h ^ levelSalt*uint64(top))
	return int32(top + uint32(r)&(top-1))
}

// g returns the last bucket below n of jump hash's sequence of jumps
// started at from (Lamping & Veach: from bucket b the next jump is
// floor((b+1)/u) for u uniform in (0, 1]), with u drawn from the second
// auxiliary hash, a SplitMix64 stream seeded with h.
func g(h uint64, n, from int32) int32 {
	state := h
	cand := from
	for {
		state += splitMixGamma
		u := float64(algorithms.Mix64(state)>>11+1) / (1 << 53)
		next := float64(cand+1) / u
		if next >= float64(n) {
			return cand
		}
		cand = int32(next)
	}
}

// bucket returns the PowerCH bucket (0..n-1) of key hash h; m1 and m2 are
// masks(n).
func bucket(h uint64, n, m1, m2 int32) int32 {
	if r := f(h, m1); r < n {
		return r
	}
	if r := g(h, n, m2); r > m2 {
		return r
	}
	return f(h, m2)
}
