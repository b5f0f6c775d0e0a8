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

func TestMonotone(t *testing.T) {
	placertest.CheckMonotone(t, bucketInt, placertest.Hashes(2000, 1), 1000)
}

func TestJoinMovesOnlyToNewBucket(t *testing.T) {
	placertest.CheckGrowth(t, func(n int) algorithms.Placer { return mustNew(t, n) },
		placertest.Keys(50000, 2), []int{1, 3, 9, 99, 999})
}

func TestUniform(t *testing.T) {
	keys := placertest.Keys(200000, 3)
	for _, n := range []int{2, 10, 100, 1000} {
		placertest.CheckUniform(t, mustNew(t, n), keys, 1e-4)
	}
}

func TestDeterministic(t *testing.T) {
	placertest.CheckDeterministic(t, func() algorithms.Placer { return mustNew(t, 37) }, placertest.Keys(5000, 5))
}

func TestRemoveLastMovesOnlyItsKeys(t *testing.T) {
	before := mustNew(t, 10)
	placertest.CheckLeave(t, before, placertest.Leave(t, before, "node-9"), placertest.Keys(20000, 6), "node-9")
}

func TestRemoveMiddleSwapLast(t *testing.T) {
	placertest.CheckSwapLast(t, mustNew(t, 10), placertest.Keys(20000, 7), "node-3")
}

func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	f := mustNew(t, 100)
	placertest.CheckNoAllocs(t, f)
	placertest.CheckConcurrent(t, f, placertest.Keys(2000, 8))
}

func TestErrors(t *testing.T) {
	placertest.CheckEqualWeightErrors(t, New, Name)
}
