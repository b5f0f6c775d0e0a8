package rendezvous

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, nodes []algorithms.Node, hash string) *Rendezvous {
	t.Helper()
	r, err := New(nodes, algorithms.MustHash(hash))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Under every hash a join moves keys only to the new node, a leave only
// the leaving nodes' keys, and the order nodes are listed in changes no
// owner.
func TestJoinLeaveAndOrder(t *testing.T) {
	keys := placertest.Keys(20000, 21)
	for _, hash := range algorithms.HashNames() {
		nodes, _ := algorithms.DefaultNodes(12)
		before := mustNew(t, nodes, hash)
		after, err := algorithms.Join(before, algorithms.Node{ID: "node-12", Weight: 1})
		if err != nil {
			t.Fatal(err)
		}
		placertest.CheckJoin(t, before, after, keys, "node-12")
		gone, err := algorithms.Leave(before, "node-0", "node-7")
		if err != nil {
			t.Fatal(err)
		}
		placertest.CheckLeave(t, before, gone, keys, "node-0", "node-7")
		placertest.CheckOrderIndependent(t, before, mustNew(t, placertest.Reversed(nodes), hash), keys)
	}
}

// Equal weights take the integer fast path; weights that are equal but not
// 1 take it too, and must agree with the logarithmic scores.
func TestFastPathMatchesScores(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(9)
	fast := mustNew(t, nodes, "xxhash")
	for _, k := range placertest.Keys(5000, 22) {
		h := fast.HashKey(k)
		best, bestScore := -1, math.Inf(-1)
		for i, s := range fast.seeds {
			if sc := Score(1, algorithms.Mix64(s^h)); sc > bestScore {
				best, bestScore = i, sc
			}
		}
		if got := fast.LocateHash(h); got != best {
			t.Fatalf("key %q: fast path %d, scores %d", k, got, best)
		}
	}
}

// Logarithmic method: shares converge to w_i / sum(w). With K keys each
// share is Binomial(K, w_i/W)/K, bounded at 5 standard errors.
func TestWeightedShares(t *testing.T) {
	nodes := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 1}, {ID: "c", Weight: 2}, {ID: "d", Weight: 4}}
	r := mustNew(t, nodes, "xxhash")
	keys := placertest.Keys(100000, 23)
	counts := placertest.Counts(r, keys)
	for i, c := range counts {
		p := nodes[i].Weight / 8
		got := float64(c) / float64(len(keys))
		if se := math.Sqrt(p * (1 - p) / float64(len(keys))); math.Abs(got-p) > 5*se {
			t.Errorf("node %s: share %.4f, want %.4f +- %.4f", nodes[i].ID, got, p, 5*se)
		}
	}
}

// Weighted membership changes keep HRW's minimal disruption.
func TestWeightedLeave(t *testing.T) {
	nodes := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 3}, {ID: "c", Weight: 2}}
	before := mustNew(t, nodes, "murmur3-64")
	after, err := algorithms.Leave(before, "b")
	if err != nil {
		t.Fatal(err)
	}
	placertest.CheckLeave(t, before, after, placertest.Keys(10000, 24), "b")
}

// Score is finite and positive at the extreme mixes 0, 1, 2^63 and
// 2^64-1, and increases with u.
func TestScoreFiniteAtExtremes(t *testing.T) {
	for _, x := range []uint64{0, 1, 1 << 63, math.MaxUint64} {
		if s := Score(1, x); math.IsNaN(s) || math.IsInf(s, 0) || s <= 0 {
			t.Errorf("Score(1, %#x) = %v", x, s)
		}
	}
	if Score(1, 1<<62) >= Score(1, 1<<63) {
		t.Error("score not increasing in u")
	}
}

// Lookups allocate nothing, weighted or not, and give every goroutine the
// same owners (run under -race).
func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(50)
	r := mustNew(t, nodes, "xxhash")
	placertest.CheckNoAllocs(t, r)
	placertest.CheckConcurrent(t, r, placertest.Keys(2000, 4))
	w := mustNew(t, []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}}, "xxhash")
	placertest.CheckNoAllocs(t, w)
}

// An empty membership and a negative weight are refused.
func TestErrors(t *testing.T) {
	h := algorithms.MustHash("xxhash")
	if _, err := New(nil, h); err == nil {
		t.Error("empty membership accepted")
	}
	if _, err := New([]algorithms.Node{{ID: "a", Weight: -1}}, h); err == nil {
		t.Error("negative weight accepted")
	}
}

// The eight-lane kernel (AVX-512 where the CPU has it, else the portable
// loop) must find the same maximum as the plain definition, first index on
// ties, for every length around the lane and kernel boundaries.
func TestMaxUniformMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 1; n <= 70; n++ {
		seeds := make([]uint64, n)
		for trial := 0; trial < 200; trial++ {
			for i := range seeds {
				seeds[i] = rng.Uint64()
			}
			if trial%50 == 0 && n > 9 {
				seeds[9] = seeds[3] // duplicate scores: the first index must win
			}
			h := rng.Uint64()
			want, wantScore := 0, algorithms.Mix64(seeds[0]^h)
			for i, s := range seeds {
				if sc := algorithms.Mix64(s ^ h); sc > wantScore {
					want, wantScore = i, sc
				}
			}
			if got := maxUniform(seeds, h); got != want {
				t.Fatalf("n=%d (kernel %v): maxUniform = %d, definition %d", n, useMaxMix8, got, want)
			}
		}
	}
}
