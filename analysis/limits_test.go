package analysis

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// A long scenario's chain is streamed in windows that fit the memory
// budget: with a budget far below the whole chain, the results are the
// same as with the chain held at once, in several passes over the keys.
func TestStreamedChainMatchesHeldChain(t *testing.T) {
	for _, c := range []struct {
		algo, op string
		n        int
	}{{"modulo", schema.OpShrinkLIFO, 300}, {"ring", schema.OpChurn, 40}, {"slots", schema.OpShrinkRandom, 60}, {"jump", schema.OpChurn, 30}, {"bounded", schema.OpRestore, 20}} {
		// Per-set placement gives ring and bounded one chain per key set:
		// those are streamed a group of sets at a time.
		for _, mode := range schema.PlacementModes() {
			sc, err := NewScenario(c.op, c.n, 3)
			if err != nil {
				t.Fatal(err)
			}
			o := Options{Algo: c.algo, Config: catalog.DefaultConfig(), Keys: genKeys(3000, 2, 5), Seed: 5, Workers: 2, Placement: mode}
			o.Config.VNodes = 8
			whole, err := Movement(o, sc)
			if err != nil {
				t.Fatal(err)
			}
			// The same counts with every chain held at once.
			layouts, err := o.layouts(o.sets())
			if err != nil {
				t.Fatal(err)
			}
			chains := make([][]algorithms.Locator, layouts)
			for l := range chains {
				if chains[l], err = Placements(o, layoutScenario(sc, l)); err != nil {
					t.Fatal(err)
				}
			}
			src, _, _ := o.prepare()
			held, err := CountMovesPerSet(src, chains, 2)
			if err != nil {
				t.Fatal(err)
			}
			// A budget of the largest step's three placements of one
			// layout: every window holds little more than one step of one
			// layout's chain.
			pl, err := planChain(o, sc, 1<<40, layouts)
			if err != nil {
				t.Fatal(err)
			}
			counts := make([]MoveCount, 2)
			for s := range counts { // per-step counts too, summed across windows below
				counts[s].Steps = make([]StepCount, len(sc.Steps))
			}
			passes, err := streamChains(o, sc, pl, minWindow(pl), src, counts)
			if err != nil {
				t.Fatal(err)
			}
			if steps := len(sc.Steps); steps > 2 && passes < 2 {
				t.Errorf("%s %s %s: %d steps in %d pass with the smallest window", c.algo, c.op, mode, steps, passes)
			}
			if layouts > 1 && passes < layouts {
				t.Errorf("%s %s %s: %d layouts in %d passes with the smallest window", c.algo, c.op, mode, layouts, passes)
			}
			for s, mc := range counts {
				var stepMoves, stepColl int64
				for _, st := range mc.Steps {
					stepMoves, stepColl = stepMoves+st.Moves, stepColl+st.Collateral
				}
				if stepMoves != mc.Moves || stepColl != mc.Collateral {
					t.Errorf("%s %s %s set %d: steps sum to %d moves, %d collateral; the whole %d, %d", c.algo, c.op, mode, s, stepMoves, stepColl, mc.Moves, mc.Collateral)
				}
				if h := held[s]; mc.Keys != h.Keys || mc.Moves != h.Moves || mc.Collateral != h.Collateral || mc.Net != h.Net {
					t.Errorf("%s %s %s set %d: streamed %+v, held %+v", c.algo, c.op, mode, s, mc, held[s])
				}
				k := float64(mc.Keys)
				got := schema.MoveSample{Moved: float64(mc.Moves) / k, Collateral: float64(mc.Collateral) / k, Net: float64(mc.Net) / k}
				if got != whole.Samples[s] {
					t.Errorf("%s %s %s set %d: streamed %+v, Movement %+v", c.algo, c.op, mode, s, got, whole.Samples[s])
				}
			}
		}
	}
}

// The same through Movement with a small budget: Placements, which holds
// the chain, is refused naming the budget; Movement streams and agrees
// with the default budget byte for byte.
func TestShrinkWithinBudget(t *testing.T) {
	sc, err := NewScenario(schema.OpShrinkLIFO, 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Algo: "modulo", Config: catalog.DefaultConfig(), Keys: genKeys(200, 1, 1), Seed: 1}
	want, err := Movement(o, sc)
	if err != nil {
		t.Fatal(err)
	}
	o.Config.MemoryBudget = 4 << 20 // the chain held at once is ~100 MiB
	if _, err := Placements(o, sc); err == nil || !strings.Contains(err.Error(), "4 MiB") {
		t.Errorf("Placements of 901 modulo placements in 4 MiB: error %v, want one naming the budget", err)
	}
	got, err := Movement(o, sc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Movement in 4 MiB = %+v, want %+v", got, want)
	}
	// A budget that cannot hold one step is refused before any key, naming
	// the step, the bytes and the budget.
	o.Config.MemoryBudget = 300 << 10
	_, err = Movement(o, sc)
	wantErr(t, "shrink-lifo in 300 KiB", err, "step 1", "KiB", "memory budget")
	o.Config.MemoryBudget = 100 << 10
	_, err = Movement(o, sc)
	wantErr(t, "shrink-lifo in 100 KiB", err, "modulo on 1000 nodes", "157 KiB", "memory budget of 100 KiB")
}

// countKeys returns options that count the keys streamed, and the counter.
func countKeys(o Options) (Options, *atomic.Int64) {
	var n atomic.Int64
	o.Progress = func(k int64) { n.Add(k) }
	return o, &n
}

// A configuration that fails fails before the first key of any
// configuration is streamed: slots refusing 18,974 nodes of an add-many
// over the grid, jump refusing weights after rendezvous, ring over the
// budget after modulo.
func TestSweepsCheckEveryConfigurationFirst(t *testing.T) {
	o, streamed := countKeys(Options{Algo: "modulo", Config: catalog.DefaultConfig(), Keys: genKeys(1000, 2, 1), Seed: 1})
	_, _, err := SweepMove(o, Sweep{Algos: catalog.Names(), Nodes: DefaultNodeGrid(), Ops: []string{schema.OpAddMany}})
	wantErr(t, "add-many over the grid", err, "slots", "18974 nodes exceed the 16384 hash slots")
	nodes, err := WeightedNodes([]float64{1, 1, 2, 4})
	if err != nil {
		t.Fatal(err)
	}
	_, err = SweepSpread(o, Sweep{Algos: []string{"rendezvous", "jump"}, Members: nodes})
	wantErr(t, "rendezvous,jump with weights", err, "jump", "weights are not supported")
	sc, _ := Resize(3, 20000)
	_, _, err = SweepMove(o, Sweep{Algos: []string{"ring", "slots"}, Scenarios: []Scenario{sc}})
	wantErr(t, "ring,slots 3 -> 20000", err, "slots", "20000 nodes exceed")
	o.Config.MemoryBudget = 64 << 20
	_, err = SweepSpread(o, Sweep{Algos: []string{"modulo", "ring"}, Nodes: []int{10, 100000}})
	wantErr(t, "modulo,ring up to 10^5 nodes in 64 MiB", err, "ring on 100000 nodes", "memory budget of 64 MiB")
	if n := streamed.Load(); n != 0 {
		t.Errorf("%d keys streamed before the errors", n)
	}
}

// From AnalyticNoiseNodes on the noise floor is computed, not simulated:
// exactly n/K x E[max count], which for K = 1 is n and for K = 2 is
// (n+1)/2 (two keys share a node with probability 1/n).
func TestAnalyticNoiseFloorExactCases(t *testing.T) {
	const n = 1 << 20
	for _, c := range []struct {
		keys int
		want float64
	}{{1, n}, {2, (n + 1) / 2.0}, {10, n / 10.0 * (1 + 45.0/n)}} {
		if got := analyticPeakToMean(c.keys, n); math.Abs(got/c.want-1) > 1e-6 {
			t.Errorf("K=%d on 2^20 nodes: peak/mean %v, want %v", c.keys, got, c.want)
		}
	}
	nodes, _ := algorithms.DefaultNodes(AnalyticNoiseNodes)
	if m := NoiseMethod(nodes); m != NoiseAnalytic {
		t.Errorf("NoiseMethod(%d equal nodes) = %s", len(nodes), m)
	}
	p2m, cv, err := NoiseFloor(1, nodes, 1)
	if err != nil || p2m != AnalyticNoiseNodes || cv != math.Sqrt(AnalyticNoiseNodes-1) {
		t.Errorf("NoiseFloor(1 key, %d nodes) = %v, %v, %v; want %d, sqrt(n-1), nil", len(nodes), p2m, cv, err, AnalyticNoiseNodes)
	}
	if m := NoiseMethod(nodes[:AnalyticNoiseNodes-1]); m != NoiseSimulated {
		t.Errorf("NoiseMethod(%d nodes) = %s", AnalyticNoiseNodes-1, m)
	}
	nodes[0].Weight = 2
	if m := NoiseMethod(nodes); m != NoiseSimulated {
		t.Errorf("NoiseMethod(unequal weights) = %s", m)
	}
}

// Where the computed value replaces the simulation, the two agree within
// the simulation's Monte Carlo error: 4 standard errors of the mean of R
// maxima, whose standard deviation is about 0.4 sqrt((n-1)/K) in load
// units (the spread of the maximum of n normal counts), plus the O(1/n)
// relative error of treating the counts as independent.
func TestAnalyticNoiseFloorMatchesSimulation(t *testing.T) {
	n := AnalyticNoiseNodes
	nodes, _ := algorithms.DefaultNodes(n)
	for _, k := range []int{100_000} {
		sim, _, err := simulateNoise(k, nodes, 7)
		if err != nil {
			t.Fatal(err)
		}
		got, _, _ := NoiseFloor(k, nodes, 7)
		se := 0.4 * math.Sqrt(float64(n-1)/float64(k)) / math.Sqrt(float64(NoiseReplicates(n)))
		if tol := 4*se + (sim-1)/float64(n); math.Abs(got-sim) > tol {
			t.Errorf("K=%d, n=%d: computed %v, simulated %v, |diff| > %v", k, n, got, sim, tol)
		}
	}
}

// A sweep keeps every result (with its per-node shares) until it writes
// them: three spreads of 10^5 nodes fit one at a time in 64 MiB but not
// together, and the sweep is refused before the first key, naming the
// bytes and the budget.
func TestSweepKeptResultsInsideBudget(t *testing.T) {
	o, streamed := countKeys(Options{Algo: "modulo", Config: catalog.DefaultConfig(), Keys: genKeys(10, 1, 1), Seed: 1, Workers: 1})
	o.Config.MemoryBudget = 64 << 20
	_, err := SweepSpread(o, Sweep{Algos: []string{"modulo", "jump", "rendezvous"}, Nodes: []int{100000}})
	wantErr(t, "3 spreads of 10^5 nodes in 64 MiB", err, "per-node shares", "64 MiB")
	if n := streamed.Load(); n != 0 {
		t.Errorf("%d keys streamed before the error", n)
	}
	if _, err := SweepSpread(o, Sweep{Algos: []string{"modulo"}, Nodes: []int{100000}}); err != nil {
		t.Errorf("one spread of 10^5 nodes in 64 MiB: %v", err)
	}
}

// The request-load analyses hold every request of a stream and every key
// of the Zipf law (2*10^9 requests would be 8 GB at once): they, the
// three rings of the bounded-loads sweep and a storm timeline are checked
// against the budget or a limit that the message states, before
// allocating.
func TestLoadAndStormInsideLimits(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(3)
	o := LoadOptions{Options: Options{Config: catalog.DefaultConfig(), Keys: genKeys(10, 1, 1), Seed: 1}, Requests: 2_000_000_000, Zipfs: []float64{1}}
	_, err := SweepBoundedLoads(o, []float64{0.25}, nodes)
	wantErr(t, "2*10^9 requests", err, "2000000000 requests", "memory budget of 2 GiB")
	o.Requests = 10
	o.Config.MemoryBudget = 16 << 20
	many, _ := algorithms.DefaultNodes(20000)
	_, err = SweepBoundedLoads(o, []float64{0.25}, many)
	wantErr(t, "bounded loads on 20000 nodes in 16 MiB", err, "ring on 20001 nodes", "16 MiB")
	few, _ := algorithms.DefaultNodes(200) // one ring and one bounded placement fit, three rings and two bounded do not
	_, err = SweepBoundedLoads(o, []float64{0.25}, few)
	wantErr(t, "bounded loads on 200 nodes in 16 MiB", err, "three rings", "16 MiB")
	_, err = StormTimes(StormModel{}, 1_000_000_000, 1)
	wantErr(t, "a 10^9-point timeline", err, "1000000000", strconv.Itoa(MaxTimelinePoints))
}

// Per-set placement holds one placement per key set (and, with layout
// draws, one per worker beside them): the spread's budget check counts
// them, so a run that fits with -placement fixed is refused per set, naming
// the layouts, before any key; and a per-set movement whose chains do not
// fit at once is streamed a group of sets at a time with the same counts.
func TestPerSetLayoutsCountAgainstBudget(t *testing.T) {
	nodes, err := algorithms.DefaultNodes(2000)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Algo: "ring", Config: catalog.DefaultConfig(), Keys: genKeys(100, 20, 1), Seed: 1, Workers: 1, Placement: schema.PlacementFixed}
	c, err := catalog.Estimate("ring", nodes, o.Config)
	if err != nil {
		t.Fatal(err)
	}
	o.Config.MemoryBudget = 4 * c.Bytes // one placement fits, twenty do not
	if err := CheckSpread(o, nodes); err != nil {
		t.Fatalf("fixed placement in %d B: %v", o.Config.MemoryBudget, err)
	}
	o.Placement = schema.PlacementPerSet
	wantErr(t, "per-set ring spread, 20 sets", CheckSpread(o, nodes), "20 layouts", "memory budget")
	o.Keys = genKeys(100, 2, 1)
	if err := CheckSpread(o, nodes); err != nil {
		t.Errorf("per-set ring spread, 2 sets: %v", err)
	}
	o.Draws = 200
	o.Workers = 4
	wantErr(t, "per-set ring spread, 2 sets, 4 workers drawing layouts", CheckSpread(o, nodes), "6 placements", "memory budget")

	// Movement: 4 sets of ring 60 -> 61 in a budget of about two layouts'
	// windows run as two groups and agree with the default budget.
	sc, err := Resize(60, 61)
	if err != nil {
		t.Fatal(err)
	}
	m := Options{Algo: "ring", Config: catalog.DefaultConfig(), Keys: genKeys(2000, 4, 2), Seed: 2, Workers: 2, Placement: schema.PlacementPerSet}
	want, err := Movement(m, sc)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := planChain(m, sc, 1<<40, 4)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]MoveCount, 4)
	src, _, _ := m.prepare()
	passes, err := streamChains(m, sc, pl, 2*minWindow(pl), src, counts)
	if err != nil {
		t.Fatal(err)
	}
	if passes != 2 {
		t.Errorf("4 layouts in a budget of 2: %d passes, want 2 groups of one pass", passes)
	}
	for s, mc := range counts {
		k := float64(mc.Keys)
		if got := (schema.MoveSample{Moved: float64(mc.Moves) / k, Collateral: float64(mc.Collateral) / k, Net: float64(mc.Net) / k}); got != want.Samples[s] {
			t.Errorf("set %d: grouped %+v, Movement %+v", s, got, want.Samples[s])
		}
	}
}
