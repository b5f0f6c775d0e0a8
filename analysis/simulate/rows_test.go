package simulate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/memory"
)

// The rows of a run are reserved from its budget as they are emitted: a
// window of 1 µs over a 19 s trace would need about 19 million windows,
// and with a 1 MiB budget the run ends with the budget's error naming the
// window, instead of growing the rows until the machine runs out.
func TestRowsReservedFromBudget(t *testing.T) {
	ns := nodes(t, 2)
	mem := memory.New(1 << 20)
	cfg := simulate.Config{Nodes: ns, Capacity: simulate.Capacity{PerWeight: 1 << 20}, Window: time.Microsecond, Memory: mem}
	_, err := simulate.Run(twitter(t, "0,a,1,9,1,get,0", "19,a,1,9,1,get,0"), []simulate.Placement{placement(t, "ring", ns)}, cfg)
	if err == nil || !strings.Contains(err.Error(), "in windows of 1µs needs about") || !strings.Contains(err.Error(), "over the memory budget of 1 MiB") ||
		!strings.Contains(err.Error(), "make the window longer") {
		t.Fatalf("err = %v, want the budget's refusal naming the window", err)
	}
	if held := mem.Held(); held > 1<<20 || held < 1<<20-simulate.RowBytes-2*simulate.NodeRowBytes {
		t.Errorf("%d bytes held at the refusal, want the budget less at most one window's rows", held)
	}
	// A window of 1 s holds 20 windows of 2 node rows, all reserved.
	mem = memory.New(1 << 20)
	cfg.Window, cfg.Memory = time.Second, mem
	out, err := simulate.Run(twitter(t, "0,a,1,9,1,get,0", "19,a,1,9,1,get,0"), []simulate.Placement{placement(t, "ring", ns)}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res := out.Results[0]
	if want := int64(len(res.Windows))*simulate.RowBytes + int64(len(res.Nodes))*simulate.NodeRowBytes; len(res.Windows) != 20 || mem.Held() != want {
		t.Errorf("%d windows, %d bytes held; want 20 windows and %d bytes", len(res.Windows), mem.Held(), want)
	}
}

// CheckRows refuses before any work the rows of a span too long for the
// window: 2 s in windows of 1 ns on 4 nodes is (2e9 + 2) windows of a
// window row and 4 node rows.
func TestCheckRows(t *testing.T) {
	cfg := simulate.Config{Nodes: nodes(t, 4), Window: time.Nanosecond}
	want := (2e9 + 2) * (simulate.RowBytes + 4*simulate.NodeRowBytes)
	if got := cfg.RowsNeed(2*time.Second, 1); got != want {
		t.Errorf("RowsNeed = %d, want %d", got, want)
	}
	err := cfg.CheckRows(2*time.Second, 1)
	if err == nil || !strings.Contains(err.Error(), "the time series of 1 placement(s) over 2s in windows of 1ns needs about") || !strings.Contains(err.Error(), "over the memory budget of 2 GiB") {
		t.Errorf("err = %v, want the refusal", err)
	}
	cfg.Window = 10 * time.Second
	if err := cfg.CheckRows(2*time.Second, 1); err != nil {
		t.Errorf("window 10 s: %v", err)
	}
}

// The events' rebuilds are bounded before any work: k joins at one time
// from 4 nodes rebuild 4k + k(k+1)/2 nodes, within MaxRebuiltNodes (2^19)
// for k = 1019 (523,766) and not for k = 1020 (524,790); a million joins
// did not end.
func TestRebuildBound(t *testing.T) {
	ns := nodes(t, 4)
	joins := func(k int) simulate.Config {
		cfg := simulate.Config{Nodes: ns, Capacity: simulate.Capacity{PerWeight: 1 << 20}, Window: time.Second}
		for i := range k {
			cfg.Events = append(cfg.Events, simulate.Event{At: time.Second, Kind: simulate.Join, Node: algorithms.Node{ID: algorithms.NodeID(4 + i), Weight: 1}})
		}
		return cfg
	}
	if err := joins(1019).Validate(); err != nil {
		t.Errorf("1019 joins: %v", err)
	}
	err := joins(1020).Validate()
	if err == nil || !strings.Contains(err.Error(), "1020 membership events from 4 nodes rebuild every placement on more than 524288 nodes in all (the members after each event, summed; 524790 by event 1019)") {
		t.Errorf("1020 joins: err = %v, want the bound's refusal", err)
	}
}
