package analysis

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/slots"
)

// TestModuloVsRing reproduces the published modulo-vs-ring figures at
// their own size (10,000 keys x 5 sets). Modulo: our mean and the
// published one are each a mean over 50,000 keys of Bernoulli(p) moves with
// p = 1 - min/lcm, so each has standard error se = sqrt(p(1-p)/50000); we
// accept 5 se against the law and 5*sqrt(2) se against the published
// figure. Ring: the moved fraction is the new node's share of the ring,
// whose relative standard deviation with V virtual nodes is about
// 1/sqrt(V); we accept 4/sqrt(V) relative to the ideal (a different
// vnode count explains the published ring figures' own deviation).
func TestModuloVsRing(t *testing.T) {
	o := opts("ring", 10000, 5)
	rs, err := ModuloVsRing(o)
	if err != nil {
		t.Fatal(err)
	}
	pub := PublishedModuloVsRing()
	if len(rs) != 2*len(pub) {
		t.Fatalf("%d results, want %d", len(rs), 2*len(pub))
	}
	for i, p := range pub {
		mod, rg := rs[2*i], rs[2*i+1]
		if mod.Config.Algo != "modulo" || rg.Config.Algo != "ring" || mod.From != p.From || mod.To != p.To {
			t.Fatalf("result order: %s %d->%d, %s", mod.Config.Algo, mod.From, mod.To, rg.Config.Algo)
		}
		law := 1 - float64(p.From)/float64(p.From*p.To/gcd(p.From, p.To))
		se := math.Sqrt(law * (1 - law) / 50000)
		if math.Abs(mod.Moved.Mean-law) > 5*se {
			t.Errorf("modulo %d->%d: %.4f, law %.4f ± %.4f", p.From, p.To, mod.Moved.Mean, law, 5*se)
		}
		if math.Abs(mod.Moved.Mean-p.Modulo) > 5*math.Sqrt2*se {
			t.Errorf("modulo %d->%d: %.4f, published %.4f ± %.4f", p.From, p.To, mod.Moved.Mean, p.Modulo, 5*math.Sqrt2*se)
		}
		if math.Abs(rg.Ideal-p.Ideal) > 1e-12 || math.Abs(mod.Ideal-p.Ideal) > 1e-12 {
			t.Errorf("%d->%d: ideal %v, published %v", p.From, p.To, rg.Ideal, p.Ideal)
		}
		if tol := 4 / math.Sqrt(float64(o.Config.VNodes)); math.Abs(rg.MovedOverIdeal-1) > tol {
			t.Errorf("ring %d->%d: moved/ideal %.3f, want 1 ± %.3f", p.From, p.To, rg.MovedOverIdeal, tol)
		}
		if math.Abs(p.Ring/p.Ideal-1) > 4/math.Sqrt(float64(o.Config.VNodes)) {
			t.Errorf("published ring %d->%d outside the same band", p.From, p.To)
		}
	}
}

// TestRingShares checks the ring's per-node share spread against Karger et
// al.'s 1/sqrt(k) as tabled by Lamping & Veach (REFERENCES.md).
//   - The Gamma(k, k) 99% intervals we compute must match the tabled ones
//     to the table's two decimals, ±0.02 (the table rounds and may use a
//     slightly different approximation at the upper tail).
//   - The exact cv over n nodes estimates 1/sqrt(k); the sample sd of n
//     near-normal values has relative standard error 1/sqrt(2(n-1)); we
//     accept 5 of them.
//   - The fraction of nodes inside the interval is Binomial(n, 0.99)/n,
//     sd sqrt(0.99*0.01/n); we accept 5 sd.
func TestRingShares(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 300
	}
	for _, c := range []struct {
		k          int
		cv, lo, hi float64
	}{{10, 0.315, 0.37, 1.98}, {100, 0.0997, 0.76, 1.28}, {1000, 0.0316, 0.92, 1.09}} {
		st, err := RingShares(n, c.k, "")
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(st.Lo99-c.lo) > 0.02 || math.Abs(st.Hi99-c.hi) > 0.02 {
			t.Errorf("k=%d: 99%% interval (%.3f, %.3f), tabled (%.2f, %.2f)", c.k, st.Lo99, st.Hi99, c.lo, c.hi)
		}
		if rel := math.Abs(st.CV-c.cv) / c.cv; rel > 5/math.Sqrt(2*float64(n-1)) {
			t.Errorf("k=%d: cv %.4f, tabled %.4f (relative error %.3f)", c.k, st.CV, c.cv, rel)
		}
		if sd := math.Sqrt(0.99 * 0.01 / float64(n)); math.Abs(st.Inside99-0.99) > 5*sd {
			t.Errorf("k=%d: %.3f of nodes inside the 99%% interval, want 0.99 ± %.3f", c.k, st.Inside99, 5*sd)
		}
	}
}

// TestBoundedLoads: no bounded-loads placement ever exceeds ceil(c*P/n)
// partitions per node, along a churn of joins and leaves and a shrink.
func TestBoundedLoads(t *testing.T) {
	o := opts("bounded", 1, 1)
	o.Config.Partitions = 4096
	for _, op := range []string{OpChurn, OpShrinkRandom, OpAddMany} {
		sc, err := NewScenario(op, 20, 3)
		if err != nil {
			t.Fatal(err)
		}
		steps, err := BoundedLoads(o, sc)
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range steps {
			want := int(math.Ceil((1 + o.Config.Eps) * float64(o.Config.Partitions) / float64(st.Nodes)))
			if st.Capacity != want {
				t.Errorf("%s step %d: capacity %d, want ceil(c*P/n) = %d", op, i, st.Capacity, want)
			}
			if st.MaxLoad > st.Capacity {
				t.Errorf("%s step %d: %d nodes, max load %d > capacity %d", op, i, st.Nodes, st.MaxLoad, st.Capacity)
			}
			if st.MaxLoad*st.Nodes < o.Config.Partitions {
				t.Errorf("%s step %d: max load %d on %d nodes cannot hold %d partitions", op, i, st.MaxLoad, st.Nodes, o.Config.Partitions)
			}
		}
	}
}

// TestSlotsPeakToMean: with S = 16384 slots on n equal nodes the exact
// peak/mean is ceil(S/n)/(S/n) (REFERENCES.md: 1.0004, 1.0376, 1.22).
func TestSlotsPeakToMean(t *testing.T) {
	for _, c := range []struct {
		n, decimals int
		pub         float64 // published, rounded to decimals
	}{{10, 4, 1.0004}, {1000, 4, 1.0376}, {10000, 2, 1.22}} {
		b, err := ExactBalance(slots.Name, mustNodes(t, c.n), catalog.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		mean := float64(slots.NumSlots) / float64(c.n)
		want := math.Ceil(mean) / mean
		if math.Abs(b.PeakToMean-want) > 1e-12 {
			t.Errorf("n=%d: exact peak/mean %v, want %v", c.n, b.PeakToMean, want)
		}
		if math.Abs(want-c.pub) > 0.5*math.Pow(10, -float64(c.decimals)) {
			t.Errorf("n=%d: %v does not round to the published %v", c.n, want, c.pub)
		}
	}
	if b, err := ExactBalance("rendezvous", mustNodes(t, 3), catalog.DefaultConfig()); err != nil || b != nil {
		t.Errorf("rendezvous: %v, %v; want no exact balance", b, err)
	}
}

func TestNodeGrid(t *testing.T) {
	g := DefaultNodeGrid()
	if g[0] != 3 || g[len(g)-1] != 10000 {
		t.Errorf("default grid %v: want 3 .. 10000", g)
	}
	for i := 1; i < len(g); i++ {
		if r := float64(g[i]) / float64(g[i-1]); g[i] <= g[i-1] || (i < len(g)-1 && math.Abs(r-math.Pow(10, 0.25)) > 0.2) {
			t.Errorf("grid %v: step %d -> %d is not 10^(1/4)", g, g[i-1], g[i])
		}
	}
	if g, _ := NodeGrid(1, 100, 1); len(g) != 3 || g[0] != 1 || g[1] != 10 || g[2] != 100 {
		t.Errorf("NodeGrid(1, 100, 1) = %v, want [1 10 100]", g)
	}
	for _, bad := range [][3]int{{0, 10, 1}, {10, 5, 1}, {1, 10, 0}} {
		if _, err := NodeGrid(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("NodeGrid%v: no error", bad)
		}
	}
	if _, err := WeightedNodes([]float64{1, -2}); err == nil {
		t.Error("WeightedNodes(1, -2): no error")
	}
}

// TestSweep runs a small sweep and checks its shape and order: vnodes vary
// for ring only, and the weighted helper gives shares close to the weights.
func TestSweep(t *testing.T) {
	o := opts("ring", 1000, 2)
	ss, err := SweepSpread(o, Sweep{Algos: []string{"ring", "jump"}, VNodes: []int{1, 10}, Nodes: []int{3, 5}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ring/1/3", "ring/1/5", "ring/10/3", "ring/10/5", "jump/160/3", "jump/160/5"}
	if len(ss) != len(want) {
		t.Fatalf("%d results, want %d", len(ss), len(want))
	}
	for i, r := range ss {
		if got := r.Config.Algo + "/" + itoa(r.Config.VNodes) + "/" + itoa(r.Nodes); got != want[i] {
			t.Errorf("result %d: %s, want %s", i, got, want[i])
		}
	}
	ms, _, err := SweepMove(o, Sweep{Hashes: []string{"fnv1a32", "fnv1a64"}, Ops: []string{OpAdd, OpRestore}, Nodes: []int{4}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4 || ms[0].Config.Hash != "fnv1a32" || ms[1].Op != OpRestore || ms[3].Config.Hash != "fnv1a64" {
		t.Errorf("move sweep order wrong: %d results", len(ms))
	}
	if _, err := SweepSpread(o, Sweep{Algos: []string{"modulo"}, Nodes: []int{0}}); err == nil {
		t.Error("sweep with 0 nodes: no error")
	}
	nodes, err := WeightedNodes([]float64{1, 1, 2, 4})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ExactBalance("ring", nodes, catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// 160 virtual nodes per unit of weight: the lightest node's share has
	// relative sd about 1/sqrt(160) = 0.08, so peak/mean stays within 4 sd.
	if b.PeakToMean > 1+4/math.Sqrt(160) {
		t.Errorf("ring weighted 1,1,2,4: peak/mean %v", b.PeakToMean)
	}
}

func TestEachConfig(t *testing.T) {
	o := opts("ring", 10, 1)
	var got []string
	err := Sweep{Algos: []string{"jump", "ring"}, Hashes: []string{"xxhash", "fnv1a64"}, VNodes: []int{1, 7}, Nodes: []int{99}}.EachConfig(o, func(c Options) error {
		got = append(got, c.Algo+"/"+c.Config.Hash+"/"+itoa(c.Config.VNodes))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "jump/xxhash/160 jump/fnv1a64/160 ring/xxhash/1 ring/xxhash/7 ring/fnv1a64/1 ring/fnv1a64/7"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("EachConfig order:\n got %s\nwant %s", s, want)
	}
	err = Sweep{}.EachConfig(o, func(c Options) error { return fmt.Errorf("boom") })
	if err == nil || !strings.Contains(err.Error(), "ring hash=xxhash vnodes=160") {
		t.Errorf("error %v does not name the configuration", err)
	}
}
