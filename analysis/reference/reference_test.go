package reference

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/jump"
	"github.com/chbench/chbench/algorithms/slots"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/reference/published"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// refSmall is a reference run small enough for go test -race: the sampled
// rows widen their tolerances with the smaller samples, the published
// values stay the same.
var refSmall = Size{MoveKeys: 2000, MoveSets: 3, ShareKeys: 2000, Replicas: 40,
	LawKeys: 20000, LawSets: 3, RingNodes: 300, BoundedRuns: 1, BoundedNodes: 20}

func runRef(t *testing.T, in Input) []Row {
	t.Helper()
	rows, err := Run(analysis.Options{Seed: 1}, refSmall, in)
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

// Every check passes at a small size, the informational rows carry no
// verdict, every row names its kind, and the exact rows print the exact
// values.
func TestReferencePasses(t *testing.T) {
	rows := runRef(t, DefaultInput())
	checks, infos := 0, 0
	for _, r := range rows {
		if r.Kind != KindPublished && r.Kind != KindFormula && r.Kind != KindVector {
			t.Errorf("%s: kind %q", r.Quantity, r.Kind)
		}
		if r.Info {
			infos++
			if r.Pass {
				t.Errorf("informational row %s has a verdict", r.Quantity)
			}
			continue
		}
		checks++
		if !r.Pass {
			t.Errorf("FAIL %s: reference %s, ours %s, accepted %s", r.Quantity, r.Published, r.Ours, r.Accept)
		}
	}
	// 45 checks before the ring joins over rings (3 added); 13 single-ring
	// figures (3 moves, 10 shares) are informational.
	if checks != 48 || infos != 13 {
		t.Errorf("%d checks and %d informational rows, want 48 and 13", checks, infos)
	}
	if err := Verdict(rows); err != nil {
		t.Error(err)
	}
	// Fixed slots: exactly ceil(16384/n)/(16384/n), a formula.
	for n, want := range map[string]string{"10 ": "1.000366", "1000 ": "1.037598", "10000 ": "1.220703"} {
		if r := rows[rowIndex(t, rows, "slots peak/mean, "+n)]; r.Ours != want || r.Kind != KindFormula {
			t.Errorf("slots %snodes: ours %q (%s), want %q (formula)", n, r.Ours, r.Kind, want)
		}
	}
	// Bounded: churn (20 steps), shrink-random (20 -> 2 nodes) and
	// add-many (one step) from 20 nodes: 21 + 19 + 2 placements checked.
	if r := rows[rowIndex(t, rows, "bounded max load")]; !strings.HasSuffix(r.Quantity, " 42 placements") {
		t.Errorf("bounded row %q: want 42 placements", r.Quantity)
	}
}

// Verdicts come from the numbers: reference values moved far from what
// chbench measures (or from the exact vectors) fail exactly those check
// rows, and the run reports them by name; a published single-ring figure
// moved anywhere stays informational.
func TestReferenceVerdicts(t *testing.T) {
	pub := DefaultInput()
	pub.ModuloVsRing[0].Modulo = 0.70 // modulo 3->4: 5 points off a binomial mean of 6,000 keys
	pub.ModuloVsRing[1].Ring = 0.60   // ring 4->5, one ring: informational whatever it says
	pub.RingShares[0].Min = 0.30      // informational too
	pub.RingCV[1].CV = 0.2            // k=100: twice 1/sqrt(k)
	pub.Slots[1].PeakToMean = 1.0377  // the formula prints 1.0376
	pub.ModuloLaw[3].Moved = 0.919    // 10->11: the law gives 0.909
	pub.Cache.Factor = 30             // 16.2x measured
	pub.KeySlots[0].Slot = 12738      // off by one
	pub.Hashes[0].Sum = 0xE40C292D    // off by one
	pub.Jump100[1] = 54               // off by one
	pub.Maglev[1].M = 65521           // prime < 100 n: grown to 131101, still within 1%
	pub.Maglev[0].Within = 0.0001     // 100 nodes: counts 655/656 of 65537 deviate 0.05%
	pub.MultiProbe.PeakToMean = 1.10  // 21 probes give 1.05
	rows := runRef(t, pub)
	bad := map[int]bool{}
	for _, p := range []string{"modulo moved 3->4 (2,000", "ring share cv, k=100 ", "slots peak/mean, 1000 ",
		"modulo moved 10->11", "database load / its sizing", "Redis key slots", `fnv1a32("a")`,
		"jump bucket of keys 0..19", "maglev largest share deviation, 100 ", "multiprobe peak/mean"} {
		bad[rowIndex(t, rows, p)] = true
	}
	for i, r := range rows {
		if !r.Info && r.Pass == bad[i] {
			t.Errorf("%s: verdict %s (reference %s, ours %s, accepted %s)", r.Quantity, verdict(r), r.Published, r.Ours, r.Accept)
		}
	}
	if r := rows[rowIndex(t, rows, "ring moved 4->5, one ring")]; !r.Info || !strings.Contains(r.Basis, "outside") {
		t.Errorf("published 60%% ring move: %+v, want an informational row saying it is outside the range", r)
	}
	err := Verdict(rows)
	if err == nil || !strings.Contains(err.Error(), "10 of 48 reference checks failed") || strings.Contains(err.Error(), "one ring") {
		t.Errorf("verdict error %v", err)
	}
}

// TestBrokenVariantsFail gives every kind of check row the measurement of
// a deliberately broken implementation and expects FAIL: the checks have
// the power to catch a wrong implementation, not only a wrong published
// value. (TestReferencePasses shows the right implementations pass.)
func TestBrokenVariantsFail(t *testing.T) {
	in := DefaultInput()
	base := analysis.Options{Config: catalog.DefaultConfig(), Seed: 3, Placement: schema.PlacementFixed}
	base.Config.Partitions = bounded.DefaultPartitions
	fail := func(what string, rows ...Row) {
		t.Helper()
		if len(rows) == 0 {
			t.Fatalf("%s: no rows", what)
		}
		for _, r := range rows {
			if r.Pass || r.Info {
				t.Errorf("%s: %s passes (reference %s, ours %s, accepted %s)", what, r.Quantity, r.Published, r.Ours, r.Accept)
			}
		}
	}
	must := func(r Row, err error) Row {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	move := func(algo string, from, to, keys, sets int) analysis.Estimate {
		t.Helper()
		o := base
		o.Algo, o.Keys = algo, generator(t, keys, sets, o.Seed)
		r, err := resizeMove(o, from, to)
		if err != nil {
			t.Fatal(err)
		}
		return moved(r)
	}

	// Exact vectors: slots without hash tags; jump with its LCG
	// increment off by one; FNV-1 (multiply, then xor) for FNV-1a.
	fail("slots without hash tags", keySlotCheck(in, func(k string) int { return int(slots.CRC16(k) & 0x3FFF) })...)
	jrows, err := jumpCheck(in, func(key uint64, n int) (int, error) {
		b, j := int64(-1), int64(0)
		for j < int64(n) {
			b = j
			key = key*2862933555777941757 + 2
			j = int64(float64(b+1) * (float64(int64(1)<<31) / float64((key>>33)+1)))
		}
		return int(b), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fail("jump with another LCG increment", jrows...)
	hrows, err := hashCheck(in, func(name, input string) (uint64, error) {
		if name != "fnv1a32" {
			return algorithms.MustHash(name).Sum(input), nil
		}
		h := uint32(0x811C9DC5)
		for i := 0; i < len(input); i++ {
			h = (h * 0x01000193) ^ uint32(input[i])
		}
		return uint64(h), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fail("FNV-1 instead of FNV-1a", hrows[rowIndex(t, hrows, "fnv1a32(")])

	// Modulo law, modulo figure, cache example: an algorithm that moves
	// only the minimum (jump) reported as modulo.
	var law published.ModuloLaw
	for _, c := range in.ModuloLaw {
		if c.From == 4 && c.To == 5 {
			law = c
		}
	}
	fail("modulo that moves like jump", must(moduloLawRow(law, move("jump", 4, 5, 20000, 2), 40000)))
	fail("modulo figure from jump", must(moduloFigureRow(in.ModuloVsRing[1], move("jump", 4, 5, 10000, 5), 10000, 5)))
	fail("cache example from jump's move", cacheExample(in.Cache, move("jump", in.Cache.From, in.Cache.To, 20000, 2))...)

	// Ring join over rings: a ring that gives the joining node 1.3 times
	// the virtual nodes of the others (a weight bug).
	reps := make([]float64, 40)
	for r := range reps {
		initial := make([]algorithms.Node, 5)
		for i := range initial {
			initial[i] = algorithms.Node{ID: analysis.LayoutID(algorithms.NodeID(i), r+1), Weight: 1}
		}
		sc := analysis.Scenario{Op: schema.OpAdd, Initial: initial[:4], Steps: []analysis.Step{{Join: []algorithms.Node{{ID: initial[4].ID, Weight: 1.3}}}}}
		o := base
		o.Algo, o.Keys, o.Seed = "ring", generator(t, 5000, 1, uint64(r)), uint64(r)
		res, err := analysis.Movement(o, sc)
		if err != nil {
			t.Fatal(err)
		}
		reps[r] = res.MovedFrac
	}
	fail("ring join with a heavier new node", ringJoinRow(4, 5, 160, reps, 5000))

	// Ring cv and nodes inside the tabled interval: a ring that builds
	// half the virtual nodes it is asked for.
	for _, cv := range in.RingCV[:2] {
		st, err := RingShares(2000, cv.K/2, "")
		if err != nil {
			t.Fatal(err)
		}
		fail(fmt.Sprintf("ring with k/2 vnodes, k=%d", cv.K), ringCVCheck(cv, st)...)
	}

	// Slots: the remainder of S/n all on the last node instead of one
	// extra slot each on the first nodes.
	sc := in.Slots[1]
	shares := make([]float64, sc.N)
	for i := range shares {
		shares[i] = float64(slots.NumSlots/sc.N) / slots.NumSlots
	}
	shares[sc.N-1] += float64(slots.NumSlots%sc.N) / slots.NumSlots
	fail("slots with the remainder on one node", must(slotsCheck(sc, shares)))

	// Maglev: a table whose largest share is 3% over 1/n (a table much
	// smaller than 100 n).
	ms := make([]float64, 100)
	for i := range ms {
		ms[i] = 0.01
	}
	ms[0], ms[1] = 0.0103, 0.0097
	mb, err := analysis.BalanceOf(ms, mustNodes(t, 100))
	if err != nil {
		t.Fatal(err)
	}
	fail("maglev 3% off", maglevCheck(in.Maglev[0], mb))

	// Multi-probe that makes 5 probes where 21 are asked for.
	mc := base.Config
	mc.Probes = 5
	ptms := make([]float64, 20)
	for r := range ptms {
		nodes := make([]algorithms.Node, in.MultiProbe.Nodes)
		for i := range nodes {
			nodes[i] = algorithms.Node{ID: fmt.Sprintf("m%d-node-%d", r, i), Weight: 1}
		}
		b, err := analysis.ExactBalance("multiprobe", nodes, mc)
		if err != nil {
			t.Fatal(err)
		}
		ptms[r] = b.PeakToMean
	}
	fail("multiprobe with 5 probes", multiProbeCheck(in.MultiProbe, ptms))

	// Bounded loads: capacities computed with c = 3 instead of 1.25.
	bo := base
	bo.Config.Partitions, bo.Config.Eps = 4096, 2
	steps, err := boundedSteps(bo, Size{BoundedRuns: 1, BoundedNodes: 20})
	if err != nil {
		t.Fatal(err)
	}
	fail("bounded with the wrong load factor", boundedCheck(steps, 0.25, 4096, 20))

	// Weighted rendezvous that ignores weights; the weight-2 node's 25%
	// is also an equal share, the other three rows catch it.
	wo := base
	wo.Algo, wo.Keys = "rendezvous", generator(t, 20000, 2, wo.Seed)
	wr, err := analysis.Spread(wo, mustNodes(t, len(in.Weights)))
	if err != nil {
		t.Fatal(err)
	}
	w := weightCheck(in.Weights, wr.Shares, 40000)
	fail("rendezvous without weights", w[0], w[1], w[3])

	// Noise floor: an algorithm with uneven shares (a 160-vnode ring) in
	// place of an even one.
	no := base
	no.Algo, no.Keys = "ring", generator(t, 20000, 3, no.Seed)
	nr, err := analysis.Spread(no, mustNodes(t, 10))
	if err != nil {
		t.Fatal(err)
	}
	fail("uneven algorithm as noise floor", noiseCheck("ring", 10, 20000, nr.Samples))
}

// generator returns the key source of sets sets of keys keys from seed.
func generator(t *testing.T, keys, sets int, seed uint64) *keyset.Generator {
	t.Helper()
	g, err := keyset.NewGenerator(keys, sets, seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustNodes(t *testing.T, n int) []algorithms.Node {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	return nodes
}

// The cache example follows from the moved fraction alone: 80% moved
// turns a 95% hit ratio into 19% and 2,500 qps into 40,500 (16.2x).
func TestCacheRows(t *testing.T) {
	c := published.All().Cache
	rows := cacheExample(c, analysis.Estimate{Mean: 0.8})
	want := []string{"19.0% [no interval]", "40,500 qps [no interval]", "16.2x [no interval]"}
	for i, r := range rows {
		if r.Ours != want[i] || !r.Pass {
			t.Errorf("row %d: ours %q pass %v, want %q PASS", i, r.Ours, r.Pass, want[i])
		}
	}
	// Had 90% moved, the hit ratio would be 9.5%: "about 20%" fails.
	if rows := cacheExample(c, analysis.Estimate{Mean: 0.9}); rows[0].Pass || rows[1].Pass || rows[2].Pass {
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

// Jump's expected loop count is H_n (published: H_1024 = 7.509).
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
	if pub := published.All().HarmonicJump1024; math.Abs(h-pub) > 0.0005 {
		t.Fatalf("H_1024 = %v does not round to the published %v", h, pub)
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

// The table is complete (every check names its source and tolerance) and
// its key count is the progress total: exactly the keys a run streams.
func TestChecksAndKeys(t *testing.T) {
	for _, c := range Checks() {
		if c.Name == "" || c.Source == "" || c.Tolerance == "" || c.Measure == nil {
			t.Errorf("check %q: name, source, tolerance and measure are all required", c.Name)
		}
	}
	var streamed atomic.Int64
	in := DefaultInput()
	if _, err := Run(analysis.Options{Seed: 1, Progress: func(n int64) { streamed.Add(n) }}, refSmall, in); err != nil {
		t.Fatal(err)
	}
	if got, want := streamed.Load(), Keys(refSmall, in); got != want {
		t.Errorf("a run streamed %d keys, Keys says %d", got, want)
	}
}
