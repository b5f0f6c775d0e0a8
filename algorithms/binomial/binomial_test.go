package binomial

import (
	"math"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n int) *Binomial {
	t.Helper()
	return placertest.Build(t, n, New)
}

func bucketInt(h uint64, n int) int {
	e, m := masks(uint32(n))
	return int(bucket(h, uint32(n), e, m))
}

// Outputs of the authors' BinomialEngine (testdata/supsi.txt says how they
// were produced).
func TestReferenceVectors(t *testing.T) {
	placertest.CheckVectors(t, "testdata/supsi.txt", "BinomialEngine", 200,
		func(h, n uint64) uint64 { return uint64(bucketInt(h, int(n))) })
}

// The masks of the enclosing and the minor power-of-two tree at the edges:
// one bucket, powers of two, one past them, and MaxBuckets.
func TestMasks(t *testing.T) {
	for _, c := range []struct{ n, enc, minor uint32 }{
		{1, 0, 0}, {2, 1, 0}, {3, 3, 1}, {4, 3, 1}, {5, 7, 3}, {1024, 1023, 511}, {1025, 2047, 1023}, {1 << 30, 1<<30 - 1, 1<<29 - 1}, {1<<30 + 1, MaxBuckets, 1<<30 - 1}, {MaxBuckets, MaxBuckets, 1<<30 - 1},
	} {
		if e, m := masks(c.n); e != c.enc || m != c.minor {
			t.Errorf("masks(%d) = %d, %d, want %d, %d", c.n, e, m, c.enc, c.minor)
		}
	}
}

// idealShares returns each bucket's share when every rehash is an ideal
// uniform draw: with M = 2^r >= n > M/2, a first position in the enclosing
// tree falls at or beyond n with probability q = (M-n)/M; each of the
// Redraws redraws then lands on one top-level bucket [M/2, n) with
// probability 1/M; a key that misses every time falls back to the lower
// M/2 buckets. So a top-level bucket gets (1 + q(1-q^R)/(1-q))/M and the
// lower ones share the rest: uniform up to q^(R+1) < 2^-5.
func idealShares(n int) []float64 {
	s := make([]float64, n)
	if n == 1 {
		s[0] = 1
		return s
	}
	e, _ := masks(uint32(n))
	M := float64(e) + 1
	half := int(e+1) / 2
	q := (M - float64(n)) / M
	top := (1 + q*(1-math.Pow(q, Redraws))/(1-q)) / M
	low := (1 - float64(n-half)*top) / float64(half)
	for i := range s {
		s[i] = low
		if i >= half {
			s[i] = top
		}
	}
	return s
}

// Every bucket's exact share is within 2^-(Redraws+1) of 1/n (the bias
// the bounded redraws leave), and the shares sum to 1 within rounding.
func TestIdealSharesNearUniform(t *testing.T) {
	for _, n := range []int{2, 3, 5, 10, 100, 1000, 1025, 1 << 20} {
		var sum float64
		for _, s := range idealShares(n) {
			sum += s
			if dev := math.Abs(s*float64(n) - 1); dev > math.Pow(0.5, Redraws+1) {
				t.Errorf("n=%d: share %.6f is %.4f off 1/n, more than 2^-%d", n, s, dev, Redraws+1)
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("n=%d: shares sum to %v", n, sum)
		}
	}
}

// Balance: per-bucket counts of 400,000 keys against the ideal shares, by
// chi-square. (The authors' LCG rehash is not ideal: at n = 10 and 11 the
// statistic runs at 1.5-2 times its degrees of freedom over several seeds,
// still inside the p = 1e-4 bound.)
func TestBalance(t *testing.T) {
	keys := placertest.Keys(400000, 3)
	for _, n := range []int{2, 3, 10, 11, 100, 1000, 1025} {
		placertest.CheckShares(t, mustNew(t, n), keys, idealShares(n), 1e-4)
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
	b := mustNew(t, 100)
	placertest.CheckNoAllocs(t, b)
	placertest.CheckConcurrent(t, b, placertest.Keys(2000, 8))
}

// An empty membership, unequal weights and a duplicate ID on Rebalance
// are errors naming the problem (placertest.CheckEqualWeightErrors).
func TestErrors(t *testing.T) {
	placertest.CheckEqualWeightErrors(t, New, Name)
}
