package simulate_test

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// twitterTrace writes a generated workload in Twitter's format, so the
// replay goes through the trace reader as a user's file would.
func twitterTrace(t testing.TB, cfg workload.Config) []byte {
	t.Helper()
	w, err := workload.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	tw, err := trace.NewWriter(&buf, trace.Twitter)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.Copy(tw, w); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func reader(t testing.TB, b []byte) trace.Reader {
	t.Helper()
	r, err := trace.NewReader(bytes.NewReader(b), trace.Options{Format: trace.Twitter})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fleetWorkload is the scenario at test size: Twitter-format
// traffic with Zipf popularity, log-normal values, TTLs and writes.
var fleetWorkload = workload.Config{Keys: 50000, Zipf: 0.9, Requests: 80000, Rate: 800, Seed: 1,
	Values: workload.Sizes{Kind: workload.LogNormal, Median: 230, Sigma: 1, Min: 1, Max: 1 << 16},
	Ops:    []workload.OpShare{{Op: trace.OpGet, Share: 0.9}, {Op: trace.OpSet, Share: 0.08}, {Op: trace.OpDelete, Share: 0.02}},
	TTLs:   []workload.TTLShare{{TTL: 0, Share: 0.7}, {TTL: 30 * time.Second, Share: 0.3}}, Clients: 20}

// fleetConfig is 40 nodes, 8 of them with twice the memory, joined by 20
// more halfway through the trace.
func fleetConfig(t testing.TB) simulate.Config {
	members := nodes(t, 40)
	per := map[string]int64{}
	for i := 0; i < 40; i += 5 {
		per[members[i].ID] = 256 << 10
	}
	cfg := simulate.Config{Nodes: members, Capacity: simulate.Capacity{PerWeight: 128 << 10, PerNode: per}, Window: 5 * time.Second, ItemOverhead: 50}
	for i := 40; i < 60; i++ {
		cfg.Events = append(cfg.Events, simulate.Event{At: 50 * time.Second, Kind: simulate.Join, Node: algorithms.Node{ID: algorithms.NodeID(i), Weight: 1}})
	}
	return cfg
}

// Every algorithm of the catalog replays the scenario; in every window of
// every replay each node holds at most its capacity, the nodes' gets and
// hits add up to the fleet's, the membership is 40 nodes before the join
// and 60 after, and the join's storm is read off the rows.
func TestFleetScenario(t *testing.T) {
	cfg := fleetConfig(t)
	var ps []simulate.Placement
	for _, name := range catalog.Names() {
		ps = append(ps, placement(t, name, cfg.Nodes))
	}
	out, err := simulate.Run(reader(t, twitterTrace(t, fleetWorkload)), ps, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != len(catalog.Names()) || out.Stats.Requests != fleetWorkload.Requests {
		t.Fatalf("%d results over %d requests", len(out.Results), out.Stats.Requests)
	}
	for _, res := range out.Results {
		var gets, hits = map[int]int64{}, map[int]int64{}
		for _, nw := range res.Nodes {
			if nw.Bytes > nw.Capacity {
				t.Fatalf("%s window %d: node %s holds %d bytes, over its %d", res.Placement, nw.Window, nw.Node, nw.Bytes, nw.Capacity)
			}
			gets[nw.Window] += nw.Gets
			hits[nw.Window] += nw.Hits
		}
		for _, w := range res.Windows {
			if gets[w.Index] != w.Gets || hits[w.Index] != w.Hits {
				t.Fatalf("%s window %d: nodes' gets %d and hits %d, fleet's %d and %d", res.Placement, w.Index, gets[w.Index], hits[w.Index], w.Gets, w.Hits)
			}
			if want := map[bool]int{true: 60, false: 40}[w.End > 50*time.Second]; w.Members != want {
				t.Fatalf("%s window %d (%v..%v): %d members, want %d", res.Placement, w.Index, w.Start, w.End, w.Members, want)
			}
		}
		if res.Totals.Evictions == 0 || res.Totals.Expired == 0 {
			t.Errorf("%s: %d evictions, %d expired: the scenario should exercise both", res.Placement, res.Totals.Evictions, res.Totals.Expired)
		}
		ev := res.Events[len(res.Events)-1]
		if !ev.Reached || !ev.BaselineKnown {
			t.Errorf("%s: join not reached or no baseline", res.Placement)
		}
		t.Logf("%-10s hit %.3f  peak %6.0f db/s (%.2fx)  extra %7.0f  refilled %v in %v  peak node %d B",
			res.Placement, float64(res.Totals.Hits)/float64(res.Totals.Gets), ev.PeakDBReadsPerSec, ev.PeakMultiple, ev.ExtraDBReads, ev.Refilled, ev.RefillTime, res.Totals.PeakBytes)
	}
	// Modulo remaps about 2/3 of the keys (40 -> 60 nodes), a ring a
	// third: its storm costs more database reads.
	byName := map[string]*simulate.Result{}
	for _, r := range out.Results {
		byName[r.Placement] = r
	}
	if m, r := byName["modulo"].Events[19].ExtraDBReads, byName["ring"].Events[19].ExtraDBReads; m <= 1.5*r {
		t.Errorf("modulo's join costs %.0f extra database reads, ring's %.0f: want modulo's well above", m, r)
	}
}

// The results are the same, field by field, for 1, 2 and 5 workers, with
// every kind of event (stateful placements included).
func TestWorkersDoNotChangeResults(t *testing.T) {
	cfg := fleetConfig(t)
	cfg.Events = []simulate.Event{
		{At: 20 * time.Second, Kind: simulate.Join, Node: algorithms.Node{ID: "new", Weight: 1}, Capacity: 3 << 20},
		{At: 40 * time.Second, Kind: simulate.Fail, Node: algorithms.Node{ID: "node-7"}, Detect: 3 * time.Second},
		{At: 60 * time.Second, Kind: simulate.Leave, Node: algorithms.Node{ID: "node-12"}},
		{At: 80 * time.Second, Kind: simulate.Join, Node: algorithms.Node{ID: "node-7", Weight: 1}},
	}
	small := fleetWorkload
	small.Requests = 30000
	small.Rate = 300
	b := twitterTrace(t, small)
	algos := []string{"ring", "jump", "slots", "bounded", "anchor", "maglev"}
	var first *simulate.Outcome
	for _, workers := range []int{1, 2, 5} {
		var ps []simulate.Placement
		for _, a := range algos {
			ps = append(ps, placement(t, a, cfg.Nodes))
		}
		cfg.Workers = workers
		out, err := simulate.Run(reader(t, b), ps, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out.Stats = nil
		if first == nil {
			first = out
			continue
		}
		if !reflect.DeepEqual(first, out) {
			t.Errorf("%d workers give other results than 1", workers)
		}
	}
	if s := fmt.Sprint(first.Results[0].Events[1].Event); s != "40s fail node-7 detect=3s" {
		t.Errorf("event %s", s)
	}
}

// Reweighting a node whose capacity follows its weight changes both its
// share of keys (for a weighted placement) and its memory.
func TestReweight(t *testing.T) {
	cfg := simulate.Config{Nodes: nodes(t, 4), Capacity: simulate.Capacity{PerWeight: 1 << 20}, Window: 5 * time.Second,
		Events: []simulate.Event{{At: 30 * time.Second, Kind: simulate.Reweight, Node: algorithms.Node{ID: "node-0", Weight: 0.25}}}}
	small := fleetWorkload
	small.Requests = 40000
	small.Rate = 700
	out, err := simulate.Run(reader(t, twitterTrace(t, small)), []simulate.Placement{placement(t, "rendezvous", cfg.Nodes)}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var before, after int64
	for _, nw := range out.Results[0].Nodes {
		if nw.Node != "node-0" {
			continue
		}
		switch {
		case nw.Window == 4: // 20..25 s
			before = nw.Gets
			if nw.Capacity != 1<<20 {
				t.Errorf("capacity %d before, want 1 MiB", nw.Capacity)
			}
		case nw.Window == 9: // 45..50 s
			after = nw.Gets
			if nw.Capacity != 1<<18 || nw.Bytes > 1<<18 {
				t.Errorf("capacity %d, bytes %d after the reweight to 0.25: want 256 KiB", nw.Capacity, nw.Bytes)
			}
		}
	}
	// Its share of gets falls from 1/4 to 0.25/3.25; allow 25% for Zipf
	// noise of 5-second windows.
	if ratio := float64(after) / float64(before); ratio < 0.75*(0.25/3.25)/0.25 || ratio > 1.25*(0.25/3.25)/0.25 {
		t.Errorf("node-0's gets went from %d to %d (x%.2f), want about x%.2f", before, after, ratio, (0.25/3.25)/0.25)
	}
}

// MaxItems bounds what a replay's caches hold: the fleet scenario's
// caches hold tens of thousands of items at once, so a bound of 1,000
// fails, naming the bound, at the same request for 1 and 3 workers; a
// bound above the trace's distinct keys times its memberships (every item
// a distinct key on one node of one membership) never fails, and the
// results are those of an unbounded run.
func TestMaxItems(t *testing.T) {
	cfg := fleetConfig(t)
	small := fleetWorkload
	small.Requests = 30000
	b := twitterTrace(t, small)
	var msgs []string
	for _, workers := range []int{1, 3} {
		c := cfg
		c.Workers, c.MaxItems = workers, 1000
		_, err := simulate.Run(reader(t, b), []simulate.Placement{placement(t, "ring", c.Nodes), placement(t, "jump", c.Nodes)}, c)
		if err == nil || !strings.Contains(err.Error(), "more than the 1000 the memory budget allows") {
			t.Fatalf("%d workers: error %v, want the item bound", workers, err)
		}
		msgs = append(msgs, err.Error())
	}
	if msgs[0] != msgs[1] {
		t.Errorf("the bound fails differently with 1 and 3 workers:\n%s\n%s", msgs[0], msgs[1])
	}
	unbounded, err := simulate.Run(reader(t, b), []simulate.Placement{placement(t, "ring", cfg.Nodes)}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxItems = int64(small.Keys) * int64(1+len(cfg.Events))
	bounded, err := simulate.Run(reader(t, b), []simulate.Placement{placement(t, "ring", cfg.Nodes)}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	bounded.Stats, unbounded.Stats = nil, nil
	if !reflect.DeepEqual(bounded, unbounded) {
		t.Error("a bound that is never reached changes the results")
	}
}
