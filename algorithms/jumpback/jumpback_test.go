package jumpback

import (
	"math"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n int) *JumpBack {
	t.Helper()
	return placertest.Build(t, n, New)
}

// The example of hash4j's ConsistentHashingDemo.demoJumpBackHash: three key
// hashes on 2 and 3 buckets; the third moves from bucket 0 to the new
// bucket 2.
func TestHash4jDemo(t *testing.T) {
	for _, c := range []struct {
		h          uint64
		two, three uint32
	}{
		{0x7f7487ee708c8a96, 1, 1},
		{0x6265648fbc797f25, 0, 0},
		{0x85ef23a0b545d53b, 0, 2},
	} {
		if got := bucket(c.h, 2); got != c.two {
			t.Errorf("hash %#x, 2 buckets: %d, want %d", c.h, got, c.two)
		}
		if got := bucket(c.h, 3); got != c.three {
			t.Errorf("hash %#x, 3 buckets: %d, want %d", c.h, got, c.three)
		}
	}
}

// Outputs of hash4j itself, bucket counts 1..2^31-1 (testdata/hash4j.txt
// says how they were produced).
func TestHash4jVectors(t *testing.T) {
	placertest.CheckVectors(t, "testdata/hash4j.txt", "hash4j", 100,
		func(h, n uint64) uint64 { return uint64(bucket(h, uint32(n))) })
}

func bucketInt(h uint64, n int) int { return int(bucket(h, uint32(n))) }

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

// JumpBackHash must follow jump's law, not only be monotone and uniform:
// as n grows 1..N, a key moves at step n-1 -> n with probability 1/n
// independently of its history, so its number of moves is a sum of
// independent Bernoulli(1/n). Their mean and variance over K keys must match
// that sum's (a monotone uniform hash with dependent moves has the same
// mean but another variance).
func TestJumpLaw(t *testing.T) {
	const maxN = 1000
	hashes := placertest.Hashes(10000, 4)
	mean, variance := placertest.MoveStats(bucketInt, hashes, maxN)
	mu, v, k4 := placertest.JumpLaw(maxN)
	K := float64(len(hashes))
	if se := math.Sqrt(v / K); math.Abs(mean-mu) > placertest.Z*se {
		t.Errorf("mean moves %.4f, jump's law %.4f +- %.4f", mean, mu, placertest.Z*se)
	}
	// The sample variance's standard error: sqrt((mu4 - v^2)/K), mu4 = k4 + 3v^2.
	if se := math.Sqrt((k4 + 2*v*v) / K); math.Abs(variance-v) > placertest.Z*se {
		t.Errorf("variance of moves %.4f, jump's law %.4f +- %.4f", variance, v, placertest.Z*se)
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

// Swap-last: the leaving node's keys go to the former last node; only the
// former last bucket's keys move between survivors.
func TestRemoveMiddleSwapLast(t *testing.T) {
	placertest.CheckSwapLast(t, mustNew(t, 10), placertest.Keys(20000, 7), "node-3")
}

// Lookups allocate nothing and give every goroutine the same owners (run
// under -race).
func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	j := mustNew(t, 100)
	placertest.CheckNoAllocs(t, j)
	placertest.CheckConcurrent(t, j, placertest.Keys(2000, 8))
}

// An empty membership, unequal weights and a duplicate ID on Rebalance
// are errors naming the problem (placertest.CheckEqualWeightErrors).
func TestErrors(t *testing.T) {
	placertest.CheckEqualWeightErrors(t, New, "jumpback")
}
