package fliphash

import (
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n int) *FlipHash {
	t.Helper()
	return placertest.Build(t, n, New)
}

// Outputs of Datadog's fliphash_64 (testdata/fliphash.txt says how they
// were produced).
func TestReferenceVectors(t *testing.T) {
	placertest.CheckVectors(t, "testdata/fliphash.txt", "fliphash_64", 150,
		func(h, n uint64) uint64 { return bucket(h, n-1) })
}

// The largest range: every 64-bit value is a bucket; the result is the
// power-of-two hash itself and needs no redraw.
func TestFullRange(t *testing.T) {
	for _, h := range placertest.Hashes(1000, 9) {
		if got, want := bucket(h, ^uint64(0)), flip(h, mix(h, 0, 0), ^uint64(0)); got != want {
			t.Fatalf("key %#x: %d, want the flip %d", h, got, want)
		}
	}
}

func bucketInt(h uint64, n int) int { return int(bucket(h, uint64(n-1))) }

// For 2,000 key hashes, growing the bucket count one at a time moves a key
// only to the newest bucket, the defining property of a consistent range
// hash (placertest.CheckMonotone).
func TestMonotone(t *testing.T) {
	placertest.CheckMonotone(t, bucketInt, placertest.Hashes(2000, 1), 1000)
}

// A join moves keys only to the new node, a fraction within 5 binomial
// standard errors of the ideal 1/(n+1) (placertest.CheckGrowth).
func TestJoinMovesOnlyToNewBucket(t *testing.T) {
	placertest.CheckGrowth(t, func(n int) algorithms.Placer { return mustNew(t, n) },
		placertest.Keys(50000, 2), []int{1, 3, 9, 99, 999})
}

// Keys spread over the buckets as independent uniform draws would:
// Pearson's chi-square stays below its 1 - 10^-4 quantile
// (placertest.CheckUniform), which an exact hash fails one seed in
// 10,000.
func TestUniform(t *testing.T) {
	keys := placertest.Keys(200000, 3)
	for _, n := range []int{2, 10, 100, 1000} {
		placertest.CheckUniform(t, mustNew(t, n), keys, 1e-4)
	}
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
	f := mustNew(t, 100)
	placertest.CheckNoAllocs(t, f)
	placertest.CheckConcurrent(t, f, placertest.Keys(2000, 8))
}

// An empty membership, unequal weights and a duplicate ID on Rebalance
// are errors naming the problem (placertest.CheckEqualWeightErrors).
func TestErrors(t *testing.T) {
	placertest.CheckEqualWeightErrors(t, New, Name)
}
