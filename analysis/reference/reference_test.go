package reference

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/jump"
	"github.com/chbench/chbench/analysis"
)

// refSmall is a reference run small enough for go test -race: the sampled
// rows widen their tolerances with the smaller samples, the published
// values stay the same.
var refSmall = Size{MoveKeys: 2000, MoveSets: 3, ShareKeys: 2000, Replicas: 40,
	LawKeys: 20000, LawSets: 3, RingNodes: 300, BoundedRuns: 1, BoundedNodes: 20}

func runRef(t *testing.T, pub Published) []Row {
	t.Helper()
	rows, err := Run(analysis.Options{Seed: 1}, refSmall, pub)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func rowIndex(t *testing.T, rows []Row, prefix string) int {
	t.Helper()
	for i, r := range rows {
		if strings.HasPrefix(r.Quantity, prefix) {
			return i
		}
	}
	t.Fatalf("no row %q", prefix)
	return -1
}

// Every published value chbench can measure passes at a small size, and
// the exact rows print the exact values.
func TestReferencePasses(t *testing.T) {
	rows := runRef(t, PublishedValues())
	if len(rows) != 51 {
		t.Errorf("%d rows, want 51", len(rows))
	}
	for _, r := range rows {
		if !r.Pass {
			t.Errorf("FAIL %s: published %s, ours %s, accepted %s", r.Quantity, r.Published, r.Ours, r.Accept)
		}
	}
	if err := Verdict(rows); err != nil {
		t.Error(err)
	}
	// Fixed slots: ceil(16384/n)/(16384/n) at the published precision.
	for n, want := range map[string]string{"10 ": "1.0004", "1000 ": "1.0376", "10000 ": "1.22"} {
		if r := rows[rowIndex(t, rows, "slots peak/mean, "+n)]; r.Ours != want {
			t.Errorf("slots %snodes: ours %q, want %q", n, r.Ours, want)
		}
	}
	// Bounded: churn (20 steps), shrink-random (20 -> 2 nodes) and
	// add-many (one step) from 20 nodes: 21 + 19 + 2 placements checked.
	if r := rows[rowIndex(t, rows, "bounded max load")]; !strings.HasSuffix(r.Quantity, " 42 placements") {
		t.Errorf("bounded row %q: want 42 placements", r.Quantity)
	}
}

// Verdicts come from the numbers: published values moved far from what
// chbench measures (or from the exact vectors) fail exactly those rows,
// and the run reports them by name.
func TestReferenceVerdicts(t *testing.T) {
	pub := PublishedValues()
	pub.ModuloVsRing[0].Modulo = 0.70   // modulo 3->4: 5 points off a binomial mean of 6,000 keys
	pub.ModuloVsRing[1].Ring = 0.60     // ring 4->5: no 160-vnode ring moves 60%
	pub.RingShares[0].Min = 0.30        // 5 nodes: the smallest share is at most 20%
	pub.RingCV[1].CV = 0.2              // k=100: twice 1/sqrt(k)
	pub.Slots[1].PeakToMean = 1.0377    // one unit in the last digit
	pub.ModuloLaw[3].Moved = 0.919      // 10->11: the law gives 0.909
	pub.Weights = []float64{1, 1, 2, 4} // unchanged: weights give the ideal
	pub.Cache.Factor = 30               // 16.2x measured
	pub.Slot[0].Slot = 12738            // off by one
	pub.Hashes[0].Sum = 0xE40C292D      // off by one
	pub.Jump100[1] = 54                 // off by one
	pub.Noise[0].Key = 0                // unchanged
	rows := runRef(t, pub)
	bad := map[int]bool{}
	for _, p := range []string{"modulo moved 3->4 (", "ring moved 4->5", "ring smallest share, 5 nodes, 1 vnodes",
		"ring share cv, k=100 ", "slots peak/mean, 1000 ", "modulo moved 10->11", "database load / its sizing",
		"Redis key slots", `fnv1a32("a")`, "jump bucket of keys 0..19"} {
		bad[rowIndex(t, rows, p)] = true
	}
	for i, r := range rows {
		if r.Pass == bad[i] {
			t.Errorf("%s: verdict %s (published %s, ours %s, accepted %s)", r.Quantity, verdict(r.Pass), r.Published, r.Ours, r.Accept)
		}
	}
	err := Verdict(rows)
	if err == nil || !strings.Contains(err.Error(), "10 of 51 reference checks failed") || !strings.Contains(err.Error(), "ring moved 4->5") {
		t.Errorf("verdict error %v", err)
	}
}

// The cache example follows from the moved fraction alone: 80% moved
// turns a 95% hit ratio into 19% and 2,500 qps into 40,500 (16.2x).
func TestCacheRows(t *testing.T) {
	c := PublishedValues().Cache
	rows := cacheRows(c, analysis.Estimate{Mean: 0.8, Lo: 0.8, Hi: 0.8})
	want := []string{"19.0% [19.0%, 19.0%]", "40,500 qps [40,500 qps, 40,500 qps]", "16.2x [16.2x, 16.2x]"}
	for i, r := range rows {
		if r.Ours != want[i] || !r.Pass {
			t.Errorf("row %d: ours %q pass %v, want %q PASS", i, r.Ours, r.Pass, want[i])
		}
	}
	// Had 90% moved, the hit ratio would be 9.5%: "about 20%" fails.
	if rows := cacheRows(c, analysis.Estimate{Mean: 0.9, Lo: 0.9, Hi: 0.9}); rows[0].Pass || rows[1].Pass || rows[2].Pass {
		t.Errorf("90%% moved passes: %+v", rows)
	}
}

// jumpCounting is jump consistent hash as described by Lamping & Veach
// (2014), with a count of its loop iterations: bucket b jumps forward to
// j = floor((b+1) / r), r uniform in (0, 1] from a 64-bit LCG step, while j
// stays below n.
func jumpCounting(key uint64, n int) (bucket, iterations int) {
	b, j := int64(-1), int64(0)
	for j < int64(n) {
		iterations++
		b = j
		key = key*2862933555777941757 + 1
		j = int64(float64(b+1) * (float64(int64(1)<<31) / float64((key>>33)+1)))
	}
	return int(b), iterations
}

// Jump's expected loop count is H_n (REFERENCES.md: H_1024 = 7.509).
// Iteration i (bucket i visited) happens with probability 1/(i+1),
// independently, so the count has mean H_n and variance H_n - H_n^(2); the
// mean over N random keys is accepted within 3.29 standard errors (99.9%).
// The counting version must place every key exactly where jump does.
func TestJumpIterations(t *testing.T) {
	const n = 1024
	keys := 200000
	if testing.Short() {
		keys = 50000
	}
	var h, h2 float64
	for i := 1; i <= n; i++ {
		h += 1 / float64(i)
		h2 += 1 / float64(i*i)
	}
	if math.Abs(h-7.509) > 0.0005 {
		t.Fatalf("H_1024 = %v does not round to the published 7.509", h)
	}
	nodes, _ := algorithms.DefaultNodes(n)
	j, err := jump.New(nodes, algorithms.MustHash(""))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	total := 0
	for range keys {
		k := rng.Uint64()
		b, it := jumpCounting(k, n)
		if want := j.LocateHash(k); b != want {
			t.Fatalf("key %#x: counting jump gives bucket %d, jump %d", k, b, want)
		}
		total += it
	}
	mean := float64(total) / float64(keys)
	tol := refZ * math.Sqrt((h-h2)/float64(keys))
	if math.Abs(mean-h) > tol {
		t.Errorf("mean iterations %.4f over %d keys, want H_1024 = %.4f ± %.4f", mean, keys, h, tol)
	}
}
