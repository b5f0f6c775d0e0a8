package simulate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/trace"
)

// placement builds the named algorithm on nodes as a Locator.
func placement(t testing.TB, algo string, nodes []algorithms.Node) simulate.Placement {
	t.Helper()
	p, err := catalog.New(algo, nodes, catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return simulate.Placement{Locator: algorithms.AsLocator(p, 64)}
}

func nodes(t testing.TB, n int) []algorithms.Node {
	t.Helper()
	ns, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

func twitter(t testing.TB, lines ...string) trace.Reader {
	t.Helper()
	r, err := trace.NewReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), trace.Options{Format: trace.Twitter})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// One node, a trace that exercises every operation's cache semantics:
// each line's outcome (hit, miss, stored or not) is fixed by memcached's
// rules, so the totals are exact.
func TestOperations(t *testing.T) {
	r := twitter(t,
		"0,a,1,9,1,get,0",     // miss, fills a (1 + 9 = 10 B)
		"0,a,1,9,1,get,0",     // hit
		"1,b,1,9,1,replace,0", // b absent: not stored
		"1,b,1,9,1,get,0",     // miss, fills b (10 B)
		"2,c,1,9,1,add,0",     // stored (10 B)
		"2,c,1,19,1,add,0",    // present: not replaced, only touched
		"2,c,1,0,1,get,0",     // hit
		"3,a,1,0,1,delete,0",  // a gone
		"3,a,1,0,1,get,0",     // miss of size 0: fills with the mean value size so far, 64/6 = 10 (11 B)
		"4,d,1,9,1,set,2",     // stored, expires at 6 s
		"5,d,1,0,1,get,0",     // hit
		"6,d,1,0,1,get,0",     // expired: miss, fills with 73/7 = 10 (11 B)
		"7,e,1,95,1,set,0",    // 96 B on top of 42 > 110: evicts b, c, a (least recently used first), keeps d
	)
	cfg := simulate.Config{Nodes: nodes(t, 1), Capacity: simulate.Capacity{PerWeight: 110}, Window: time.Second}
	out, err := simulate.Run(r, []simulate.Placement{placement(t, "modulo", cfg.Nodes)}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tot := out.Results[0].Totals
	want := simulate.Totals{Requests: 13, Gets: 7, Hits: 3, DBReads: 4, Writes: 5, Deletes: 1, Evictions: 3, Expired: 1, ZeroSizeFills: 2, PeakBytes: 107}
	if tot != want {
		t.Errorf("totals %+v\nwant   %+v", tot, want)
	}
	if n := len(out.Results[0].Windows); n != 8 {
		t.Errorf("%d windows, want 8 (seconds 0..7)", n)
	}
	w := out.Results[0].Windows[7]
	if !w.Partial || w.Bytes != 107 || w.Items != 2 || w.Evictions != 3 {
		t.Errorf("last window %+v: want partial, 3 evictions, 107 bytes in 2 items (e and the refilled d)", w)
	}
}

// A failed node loses its cache at once and its reads go to the database
// until the failure is detected; then the placement drops it. Rows are
// cut at both times.
func TestFailDetect(t *testing.T) {
	var lines []string
	for s := 0; s < 6; s++ {
		for _, k := range []string{"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"} {
			lines = append(lines, strings.Join([]string{itoa(s), k, "2", "8", "1", "get", "0"}, ","))
		}
	}
	cfg := simulate.Config{Nodes: nodes(t, 2), Capacity: simulate.Capacity{PerWeight: 1000}, Window: 2 * time.Second, Baseline: 1,
		Events: []simulate.Event{{At: 3 * time.Second, Kind: simulate.Fail, Node: algorithms.Node{ID: "node-1"}, Detect: 1500 * time.Millisecond}}}
	out, err := simulate.Run(twitter(t, lines...), []simulate.Placement{placement(t, "rendezvous", cfg.Nodes)}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res := out.Results[0]
	var starts []time.Duration
	for _, w := range res.Windows {
		starts = append(starts, w.Start)
	}
	if want := []time.Duration{0, 2 * time.Second, 3 * time.Second, 4 * time.Second, 4500 * time.Millisecond}; !equal(starts, want) {
		t.Fatalf("rows start at %v, want %v", starts, want)
	}
	on1 := 0 // keys rendezvous puts on node-1
	p := placement(t, "rendezvous", cfg.Nodes).Locator
	owners := make([]int, 8)
	p.LocateKeys([]string{"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"}, owners)
	for _, o := range owners {
		if p.Nodes()[o].ID == "node-1" {
			on1++
		}
	}
	if on1 == 0 || on1 == 8 {
		t.Fatalf("rendezvous puts %d of 8 keys on node-1: the test needs both nodes used", on1)
	}
	// second 3 (row 2): node-1's keys are read from the database; second 4
	// (row 3): the same; from 4.5 s on node-1 is gone and its keys refill
	// on node-0 at second 5 (row 4).
	if got := res.Totals.DownReads; got != int64(2*on1) {
		t.Errorf("%d reads went to the dead node, want %d (its %d keys, seconds 3 and 4)", got, 2*on1, on1)
	}
	if w := res.Windows[4]; w.DBReads != int64(on1) || w.Members != 1 {
		t.Errorf("after detection: %d database reads and %d members, want %d and 1", w.DBReads, w.Members, on1)
	}
	ev := res.Events[0]
	if !ev.Reached || !ev.BaselineKnown || ev.BaselineMissRatio != 0 {
		t.Errorf("event %+v: want reached with a baseline miss ratio of 0 (the row of second 2, after the cold start)", ev)
	}
}

func equal(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func itoa(i int) string { return string(rune('0' + i)) }

// Bad configurations are refused before any request is read, naming the
// bad value.
func TestValidate(t *testing.T) {
	good := simulate.Config{Nodes: nodes(t, 2), Capacity: simulate.Capacity{PerWeight: 100}, Window: time.Second}
	for _, c := range []struct {
		edit func(*simulate.Config)
		want string
	}{
		{func(c *simulate.Config) { c.Window = 0 }, "window 0s"},
		{func(c *simulate.Config) { c.Policy = "lfu" }, `policy "lfu"`},
		{func(c *simulate.Config) { c.Capacity.PerWeight = 0 }, "capacity 0 bytes"},
		{func(c *simulate.Config) { c.Rate = -1 }, "rate -1"},
		{func(c *simulate.Config) { c.Capacity.PerNode = map[string]int64{"node-7": 10} }, `capacity given for node "node-7"`},
		{func(c *simulate.Config) {
			c.Events = []simulate.Event{{At: time.Second, Kind: simulate.Leave, Node: algorithms.Node{ID: "node-9"}}}
		}, `leave of "node-9", not a member`},
		{func(c *simulate.Config) {
			c.Events = []simulate.Event{{At: 2 * time.Second, Kind: simulate.Join, Node: algorithms.Node{ID: "x", Weight: 1}},
				{At: time.Second, Kind: simulate.Leave, Node: algorithms.Node{ID: "x"}}}
		}, "comes before event 0"},
		{func(c *simulate.Config) {
			c.Events = []simulate.Event{{Kind: simulate.Leave, Node: algorithms.Node{ID: "node-0"}}, {Kind: simulate.Leave, Node: algorithms.Node{ID: "node-1"}}}
		}, "leaves no node"},
	} {
		bad := good
		c.edit(&bad)
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
	r, _ := trace.NewReader(strings.NewReader("a\n"), trace.Options{Format: trace.Keys})
	if _, err := simulate.Run(r, []simulate.Placement{placement(t, "modulo", good.Nodes)}, good); err == nil || !strings.Contains(err.Error(), "no clock") {
		t.Errorf("a key list without a rate: err = %v", err)
	}
	if _, err := simulate.Run(twitter(t, "0,a,1,1,1,get,0"), []simulate.Placement{placement(t, "modulo", nodes(t, 3))}, good); err == nil || !strings.Contains(err.Error(), "built on nodes") {
		t.Errorf("a placement on other nodes: err = %v", err)
	}
}

// The script syntax of ParseEvents, and its errors.
func TestParseEvents(t *testing.T) {
	evs, err := simulate.ParseEvents("# the plan\n30s join node-40 weight=2 capacity=64MiB\n\n1m leave node-3\n90s fail node-7 detect=5s\n2m reweight node-1 weight=0.5\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"30s join node-40 weight=2 capacity=67108864", "1m0s leave node-3", "1m30s fail node-7 detect=5s", "2m0s reweight node-1 weight=0.5"}
	for i, e := range evs {
		if e.String() != want[i] {
			t.Errorf("event %d = %q, want %q", i, e, want[i])
		}
	}
	for _, c := range []struct{ script, want string }{
		{"soon join a", `time "soon"`},
		{"1s explode a", `action "explode"`},
		{"1s join a weight=0", `weight "0"`},
		{"1s leave a weight=2", `option "weight=2" does not apply to leave`},
		{"1s reweight a", "needs weight=W"},
		{"1s join a capacity=lots", `capacity "lots"`},
		{"1s join", "want <time>"},
	} {
		if _, err := simulate.ParseEvents(c.script); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.script, err, c.want)
		}
	}
}
