package catalog

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
)

// allocated returns the bytes fn allocates (runtime.MemStats.TotalAlloc,
// garbage included).
func allocated(fn func()) int64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return int64(b.TotalAlloc - a.TotalAlloc)
}

// Estimate is what the budget checks trust, so it must bound what a build
// and a rebalance really allocate, and not by so much that honest runs are
// refused: measured <= estimate <= 3 x measured + 64 KiB.
func TestCostBoundsAllocation(t *testing.T) {
	for _, name := range builtAndStaged() {
		for _, n := range []int{40, 3000} {
			nodes, _ := algorithms.DefaultNodes(n)
			cfg := DefaultConfig()
			if n > 1000 {
				cfg.VNodes = 20 // keeps the ring build fast
			}
			c, err := Estimate(name, nodes, cfg)
			if err != nil {
				t.Fatalf("%s n=%d: %v", name, n, err)
			}
			var p algorithms.Placer
			built := allocated(func() { p, err = New(name, nodes, cfg) })
			if err != nil {
				t.Fatalf("%s n=%d: %v", name, n, err)
			}
			fewer := nodes[1:]
			moved := allocated(func() { _, err = p.Rebalance(fewer) })
			if err != nil {
				t.Fatalf("%s n=%d rebalance: %v", name, n, err)
			}
			for what, got := range map[string]int64{"New": built, "Rebalance": moved} {
				if got > c.Bytes {
					t.Errorf("%s n=%d: %s allocated %d B, above the estimate %d B (%s)", name, n, what, got, c.Bytes, c.How)
				}
			}
			if lim := 3*max(built, moved) + 64<<10; c.Bytes > lim {
				t.Errorf("%s n=%d: estimate %d B is more than 3x the %d B allocated", name, n, c.Bytes, max(built, moved))
			}
		}
	}
}

// A ring of 10^6 nodes (160 virtual nodes each) or of one node with 2^28
// virtual nodes is within the point limit but not the memory budget: New
// refuses it from the estimate, naming the bytes, the points and the
// budget, before allocating the ring.
func TestNewRefusesOverBudget(t *testing.T) {
	one, _ := algorithms.DefaultNodes(1)
	cfg := DefaultConfig()
	cfg.VNodes = 1 << 28
	var err error
	got := allocated(func() { _, err = New("ring", one, cfg) })
	if err == nil || !strings.Contains(err.Error(), "268435456 virtual nodes") || !strings.Contains(err.Error(), "2 GiB") {
		t.Errorf("ring, 1 node x 2^28 vnodes: error %v, want one naming the points and the 2 GiB budget", err)
	}
	if got > 1<<20 {
		t.Errorf("the refusal allocated %d B", got)
	}
	// A raised budget is obeyed the other way too: a small budget refuses a
	// small ring, and the message states that budget.
	nodes, _ := algorithms.DefaultNodes(100)
	cfg = DefaultConfig()
	cfg.MemoryBudget = 100 << 10
	_, err = New("ring", nodes, cfg)
	if err == nil || !strings.Contains(err.Error(), "100 KiB") || !strings.Contains(err.Error(), "16000 virtual nodes") {
		t.Errorf("ring of 16000 points in 100 KiB: error %v", err)
	}
	cfg.MemoryBudget = -1
	if _, err = New("modulo", nodes, cfg); err == nil || !strings.Contains(err.Error(), "-1") {
		t.Errorf("negative budget: error %v", err)
	}
}

// Check agrees with New on every refusal, without building rings.
func TestCheckAgreesWithNew(t *testing.T) {
	ten, _ := algorithms.DefaultNodes(10)
	many, _ := algorithms.DefaultNodes(17000) // more than slots and the default partitions hold
	weighted := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}}
	tiny := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 0.001}}
	def := DefaultConfig()
	smallEps, bigP, fewP, few := def, def, def, def
	few.VNodes = 2
	smallEps.Eps = 1e-17
	bigP.Partitions = 1 << 27
	fewP.Partitions = 5
	for _, name := range builtAndStaged() {
		for i, c := range []struct {
			nodes []algorithms.Node
			cfg   Config
		}{{ten, def}, {many, few}, {weighted, def}, {tiny, def}, {ten, smallEps}, {ten, bigP}, {ten, fewP}} {
			if len(c.nodes) > 1000 && name != "slots" && name != "bounded" {
				continue // the two with a 16,384 limit; others would only be slow
			}
			errCheck := Check(name, c.nodes, c.cfg)
			_, errNew := New(name, c.nodes, c.cfg)
			if (errCheck == nil) != (errNew == nil) || (errNew != nil && errCheck.Error() != errNew.Error()) {
				t.Errorf("%s case %d: Check = %v, New = %v", name, i, errCheck, errNew)
			}
		}
	}
}

// The dialects' estimates bound what their builds and rebalances
// allocate too, on fleets of 40 and 300 host:port servers (at most as
// many as the system takes; 300 is 48,000 points of a ketama continuum):
// measured <= estimate <= 3 x measured + 64 KiB.
func TestDialectCostBoundsAllocation(t *testing.T) {
	for _, name := range Dialects() {
		in, _ := Describe(name)
		for _, n := range []int{40, 300} {
			if m := in.Dialect.MaxNodes; m > 0 {
				n = min(n, m)
			}
			nodes := make([]algorithms.Node, n)
			for i := range nodes {
				nodes[i] = algorithms.Node{ID: fmt.Sprintf("10.%d.%d.%d:%d", i>>16, i>>8&255, i&255, 11211+i%7), Weight: 1}
			}
			c, err := Estimate(name, nodes, DefaultConfig())
			if err != nil {
				t.Fatalf("%s n=%d: %v", name, n, err)
			}
			var p algorithms.Placer
			built := allocated(func() { p, err = New(name, nodes, DefaultConfig()) })
			if err != nil {
				t.Fatalf("%s n=%d: %v", name, n, err)
			}
			moved := allocated(func() { _, err = p.Rebalance(nodes[1:]) })
			if err != nil {
				t.Fatalf("%s n=%d rebalance: %v", name, n, err)
			}
			for what, got := range map[string]int64{"New": built, "Rebalance": moved} {
				if got > c.Bytes {
					t.Errorf("%s n=%d: %s allocated %d B, above the estimate %d B (%s)", name, n, what, got, c.Bytes, c.How)
				}
			}
			if lim := 3*max(built, moved) + 64<<10; c.Bytes > lim {
				t.Errorf("%s n=%d: estimate %d B is more than 3x the %d B allocated", name, n, c.Bytes, max(built, moved))
			}
		}
	}
}
