package powerch

import (
	"math/bits"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n int) *PowerCH {
	t.Helper()
	return placertest.Build(t, n, New)
}

func bucketInt(h uint64, n int) int {
	m1, m2 := masks(int32(n))
	return int(bucket(h, int32(n), m1, m2))
}

// The masks of the enclosing and the minor power-of-two tree at the edges:
// one bucket, powers of two, one past them, and MaxBuckets.
func TestMasks(t *testing.T) {
	for _, c := range []struct{ n, m1, m2 int32 }{
		{1, 0, -1}, {2, 1, 0}, {3, 3, 1}, {4, 3, 1}, {5, 7, 3}, {1024, 1023, 511}, {1025, 2047, 1023}, {MaxBuckets, MaxBuckets - 1, MaxBuckets/2 - 1},
	} {
		if m1, m2 := masks(c.n); m1 != c.m1 || m2 != c.m2 {
			t.Errorf("masks(%d) = %d, %d, want %d, %d", c.n, m1, m2, c.m1, c.m2)
		}
	}
}

// For 2,000 key hashes, growing the bucket count one at a time moves a key
// only to the newest bucket, the defining property of a consistent range
// hash (placertest.CheckMonotone).
func TestMonotone(t *testing.T) {
	placertest.CheckMonotone(t, bucketInt, placertest.Hashes(2000, 1), 1100)
}

// A join moves keys only to the new node, a fraction within 5 binomial
// standard errors of the ideal 1/(n+1) (placertest.CheckGrowth).
func TestJoinMovesOnlyToNewBucket(t *testing.T) {
	placertest.CheckGrowth(t, func(n int) algorithms.Placer { return mustNew(t, n) },
		placertest.Keys(50000, 2), []int{1, 3, 4, 9, 99, 999, 1024})
}

// Keys spread over the buckets as independent uniform draws would, at
// bucket counts just above and below powers of two: Pearson's chi-square
// stays below its 1 - 10^-4 quantile (placertest.CheckUniform).
func TestUniform(t *testing.T) {
	keys := placertest.Keys(400000, 3)
	for _, n := range []int{2, 3, 10, 11, 100, 1000, 1025} {
		placertest.CheckUniform(t, mustNew(t, n), keys, 1e-4)
	}
}

// supsiBucket is SUPSI's PowerEngine at commit cf4dadb (see the package
// doc): f's position from the squared LCG rehash, g's jumps from Guava's
// LCG, both started from the key hash.
func supsiBucket(h uint64, n int32) int32 {
	const lcg = 2862933555777941757
	m1, m2 := masks(n)
	f := func(mask int32) int32 {
		k := uint32(h) & uint32(mask)
		if k == 0 {
			return 0
		}
		top := uint32(1) << (bits.Len32(k) - 1)
		x := lcg*h + 1
		return int32(top + uint32(x*x*uint64(top)>>32)&(top-1))
	}
	if r := f(m1); r < n {
		return r
	}
	state, cand := h, m2
	for {
		state = lcg*state + 1
		u := float64(int32(state>>33)+1) / (1 << 31) // Java int wraps to -1 with probability 2^-31
		next := float64(cand+1) / u
		if next < 0 || next >= float64(n) {
			break
		}
		cand = int32(next)
	}
	if cand > m2 {
		return cand
	}
	return f(m2)
}

// The package doc's account of SUPSI's PowerEngine: the variant above
// reproduces its outputs (testdata/supsi.txt says how they were produced),
// and it is not uniform, while chbench's PowerCH passes the same check on
// the same keys (TestUniform).
func TestSUPSIVariant(t *testing.T) {
	placertest.CheckVectors(t, "testdata/supsi.txt", "PowerEngine", 200,
		func(h, n uint64) uint64 { return uint64(supsiBucket(h, int32(n))) })
	const n = 10
	counts := make([]float64, n)
	for _, h := range placertest.Hashes(400000, 3) {
		counts[supsiBucket(h, n)]++
	}
	var x2 float64
	want := 400000.0 / n
	for _, c := range counts {
		x2 += (c - want) * (c - want) / want
	}
	// 100 is far past any chance value: P(chi-square(9) > 100) < 1e-16.
	if x2 < 100 {
		t.Errorf("SUPSI variant at %d buckets: chi-square %.1f, the package doc says it is not uniform", n, x2)
	}
	t.Logf("SUPSI variant, %d buckets, 400000 keys: chi-square %.0f (9 degrees of freedom), counts %v", n, x2, counts)
}

// Two placements built from the same membership give every key the same
// owner.
func TestDeterministic(t *testing.T) {
	placertest.CheckDeterministic(t, func() algorithms.Placer { return mustNew(t, 37) }, placertest.Keys(5000, 5))
}

// Removing the last node moves exactly its keys and no other.
func TestRemoveLastMovesOnlyItsKeys(t *testing.T) {
	before := mustNew(t, 10)
	placertest.CheckLeave(t, before, placertest.Leave(t, before, "node-9"), placertest.Keys(20000, 6), "node-9")
}

// Removing a middle node follows swap-last: the former last node takes
// its bucket and keys, and only the former last node's keys move between
// survivors (placertest.CheckSwapLast).
func TestRemoveMiddleSwapLast(t *testing.T) {
	placertest.CheckSwapLast(t, mustNew(t, 10), placertest.Keys(20000, 7), "node-3")
}

// Lookups allocate nothing and give every goroutine the same owners (run
// under -race).
func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	p := mustNew(t, 100)
	placertest.CheckNoAllocs(t, p)
	placertest.CheckConcurrent(t, p, placertest.Keys(2000, 8))
}

// An empty membership, unequal weights and a duplicate ID on Rebalance
// are errors naming the problem (placertest.CheckEqualWeightErrors).
func TestErrors(t *testing.T) {
	placertest.CheckEqualWeightErrors(t, New, Name)
}
