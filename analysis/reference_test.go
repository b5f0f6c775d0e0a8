package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/slots"
	"github.com/chbench/chbench/schema"
)

// TestBoundedLoads: no bounded-loads placement ever exceeds ceil(c*P/n)
// partitions per node, along a churn of joins and leaves and a shrink.
func TestBoundedLoads(t *testing.T) {
	o := opts("bounded", 1, 1)
	o.Config.Partitions = 4096
	for _, op := range []string{schema.OpChurn, schema.OpShrinkRandom, schema.OpAddMany} {
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

// The default node grid runs from 3 to 10,000 in steps of about 10^(1/4),
// NodeGrid's decades are exact, and bad bounds are errors.
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
		if got := r.Config.Algo + "/" + strconv.Itoa(r.Config.VNodes) + "/" + strconv.Itoa(r.Nodes); got != want[i] {
			t.Errorf("result %d: %s, want %s", i, got, want[i])
		}
	}
	ms, _, err := SweepMove(o, Sweep{Hashes: []string{"fnv1a32", "fnv1a64"}, Ops: []string{schema.OpAdd, schema.OpRestore}, Nodes: []int{4}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4 || ms[0].Config.Hash != "fnv1a32" || ms[1].Op != schema.OpRestore || ms[3].Config.Hash != "fnv1a64" {
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

// EachConfig visits algorithms, then hashes, then vnodes (only for the
// algorithms that read them), and names the configuration in an error.
func TestEachConfig(t *testing.T) {
	o := opts("ring", 10, 1)
	var got []string
	err := Sweep{Algos: []string{"jump", "ring"}, Hashes: []string{"xxhash", "fnv1a64"}, VNodes: []int{1, 7}, Nodes: []int{99}}.EachConfig(o, func(c Options) error {
		got = append(got, c.Algo+"/"+c.Config.Hash+"/"+strconv.Itoa(c.Config.VNodes))
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
