package analysis

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"

	"github.com/chbench/chbench/keyset"
)

func wantErr(t *testing.T, what string, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one naming %q", what, parts)
		return
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %q does not name %q", what, err, p)
		}
	}
}

// A binary file is not a list of keys: its NUL bytes must be an error
// naming the file and line, not keys silently counted.
func TestKeyFileRejectsNUL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.bin")
	if err := os.WriteFile(path, []byte("a\nb\n\x1f\x8b\x00\x00z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := keyset.NewFile(path, 1)
	wantErr(t, "NUL key file", err, path, "line 3", "NUL")
}

// Huge node counts fail before any node list is built.
func TestResizeRejectsHugeCounts(t *testing.T) {
	_, err := Resize(1, 2_000_000_000)
	wantErr(t, "Resize(1, 2e9)", err, "2000000000")
	_, err = Resize(algorithms.MaxNodes+1, 1)
	wantErr(t, "Resize(MaxNodes+1, 1)", err, strconv.Itoa(algorithms.MaxNodes+1))
	_, err = NewScenario(schema.OpAdd, 100_000_000, 1)
	wantErr(t, "NewScenario(add, 1e8)", err, "100000000")
}

// A shrink holds one placement per step: on 20,000 nodes that is ~2*10^8
// nodes (3*10^10 ring points), far beyond memory. It must be refused up
// front, naming the bound.
func TestShrinkTooLargeRefused(t *testing.T) {
	for _, op := range []string{schema.OpShrinkLIFO, schema.OpShrinkRandom} {
		_, err := NewScenario(op, 20000, 1)
		wantErr(t, op+" on 20000 nodes", err, "20000", strconv.Itoa(MaxChainCost))
	}
	// The largest shrink under the bound is still built: 10,000 nodes hold
	// sum(1000..10000) ~ 5*10^7 node entries.
	if _, err := NewScenario(schema.OpShrinkLIFO, 10000, 1); err != nil {
		t.Errorf("shrink-lifo on 10000 nodes: %v", err)
	}
}

// The chain bound counts virtual nodes: 101 rings of 2,000 nodes with
// 1,000 virtual nodes each are 2*10^8 points.
func TestMovementChainBound(t *testing.T) {
	initial, _ := algorithms.DefaultNodes(2000)
	sc := Scenario{Op: "joins", Initial: initial}
	for i := range 100 {
		sc.Steps = append(sc.Steps, Step{Join: []algorithms.Node{{ID: "new-" + strconv.Itoa(i), Weight: 1}}})
	}
	cfg := catalog.DefaultConfig()
	cfg.VNodes = 1000
	o := Options{Algo: "ring", Config: cfg, Keys: genKeys(10, 1, 1), Seed: 1}
	_, err := Movement(o, sc)
	wantErr(t, "ring chain of 101 placements x 2e6 points", err, "joins", strconv.Itoa(MaxChainCost))
	_, err = Placements(o, sc)
	wantErr(t, "Placements", err, strconv.Itoa(MaxChainCost))
	// The same history on modulo is 2*10^5 node entries: allowed.
	o.Algo = "modulo"
	if _, err := Placements(o, sc); err != nil {
		t.Errorf("modulo chain: %v", err)
	}
}

// Per-worker counters are sets x nodes each: a million sets on a thousand
// nodes would need 16 GB. The error names the sets and nodes.
func TestSpreadCounterBound(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(1000)
	o := Options{Algo: "modulo", Config: catalog.DefaultConfig(), Keys: genKeys(1, keyset.MaxSets, 1), Seed: 1, Workers: 2}
	_, err := Spread(o, nodes)
	wantErr(t, "spread 2^20 sets x 1000 nodes", err, strconv.Itoa(keyset.MaxSets), "1000 nodes")
}

// A worker count above MaxWorkers is refused by spread and movement,
// naming it, before any counter is allocated.
func TestWorkersBound(t *testing.T) {
	o := Options{Algo: "modulo", Config: catalog.DefaultConfig(), Keys: genKeys(10, 1, 1), Seed: 1, Workers: 1_000_000}
	nodes, _ := algorithms.DefaultNodes(3)
	_, err := Spread(o, nodes)
	wantErr(t, "spread with 10^6 workers", err, "1000000")
	sc, _ := Resize(3, 4)
	_, err = Movement(o, sc)
	wantErr(t, "movement with 10^6 workers", err, "1000000")
}

// Leaves and ideal fractions match by ID whatever the order: a many-node
// leave (the set lookup) and a reordered membership (the map) keep their
// values.
func TestIdealFractionByID(t *testing.T) {
	before, _ := algorithms.DefaultNodes(4)
	after := []algorithms.Node{before[3], before[1], {ID: "x", Weight: 1}}
	// node-0 and node-2 leave (1/4 each), node-1 and node-3 go 1/4 -> 1/3.
	if got, want := IdealFraction(before, after), 0.5; got != want {
		t.Errorf("IdealFraction = %v, want %v", got, want)
	}
	sc := Scenario{Op: "x", Initial: before, Steps: []Step{{Leave: []string{"node-0", "node-2", "node-0"}}}}
	ms, err := sc.Memberships()
	if err != nil || len(ms[1]) != 2 || ms[1][0].ID != "node-1" || ms[1][1].ID != "node-3" {
		t.Errorf("Memberships after leaving node-0, node-2 = %v, %v", ms, err)
	}
	sc.Steps[0].Leave = []string{"node-0", "ghost"}
	_, err = sc.Memberships()
	wantErr(t, "leave of a non-member", err, `"ghost"`)
}

// A read rate so small that tau = K/Q overflows (or the steady database
// load Q (1-h) underflows to 0) is refused by the model's validation, and
// a span whose end span x tau overflows by the timeline's, so no storm
// output holds +Inf or NaN.
func TestStormModelRejectsOverflow(t *testing.T) {
	for _, q := range []float64{1e-308, 5e-324} {
		m := StormModel{Reads: q, HitRatio: 0.95, WorkingSet: 1000000}
		wantErr(t, "tiny reads", m.Validate(), "reads "+strconv.FormatFloat(q, 'g', -1, 64))
	}
	m := StormModel{Reads: 1e-300, HitRatio: 0, WorkingSet: 1}
	if err := m.Validate(); err != nil {
		t.Errorf("reads 1e-300, K 1: %v, want no error (tau 1e300 is finite)", err)
	}
	_, err := StormTimes(DefaultStormModel(), 3, 1e308)
	wantErr(t, "huge span", err, "span 1e+308")
	ts, err := StormTimes(DefaultStormModel(), 3, 6)
	if err != nil || ts[3] != 120 {
		t.Errorf("span 6 of tau 20 s: %v, %v; want last time 120", ts, err)
	}
}
