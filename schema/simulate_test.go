package schema

import (
	"bytes"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// simRows are one row of each simulation row type, as a replay of 40
// nodes joined by 20 writes them.
func simRows() (SimWindow, SimNode, SimEvent, SimSummary, TraceStats) {
	cfg := Config{Algo: "ring", Hash: "xxhash", VNodes: 160, Seed: 1, KeyFile: "t.csv.zst", GoVersion: "go1.26", Commit: "c"}
	w := SimWindow{Window: 3, StartS: 15, EndS: 20, Requests: 4000, Gets: 3600, Hits: 3000, DBReads: 600, Writes: 320, Deletes: 80,
		HitRatio: ptr(3000.0 / 3600), DBReadsPerS: 120, Bytes: 5 << 20, Items: 20000, Evictions: 30, Expired: 4, Members: 40, CapacityBytes: 6 << 20, Config: cfg}
	n := SimNode{Window: 3, Node: "node-5", Member: true, CapacityBytes: 256 << 10, Bytes: 250 << 10, Items: 900, Gets: 90, Hits: 80, HitRatio: ptr(80.0 / 90), Config: cfg}
	e := SimEvent{Event: 19, AtS: 50, Kind: "join", Node: "node-59", Weight: ptr(1.0), Reached: true,
		BaselineMissRatio: ptr(0.16), BaselineDBReadsS: ptr(120.0), PeakDBReadsS: ptr(400.0), PeakWindow: ptr(10), PeakMultiple: ptr(400.0 / 120),
		MinHitRatio: ptr(0.55), ExtraDBReads: ptr(-12.5), ExtraToRefill: ptr(310.0), Refilled: true, RefillS: ptr(25.0), RefillWindow: ptr(14), Config: cfg}
	s := SimSummary{Nodes: 40, Events: 20, Requests: 80000, Gets: 72000, Hits: 60000, HitRatio: ptr(60000.0 / 72000), DBReads: 12000, Writes: 6400, Deletes: 1600,
		Evictions: 900, Expired: 40, PeakNodeBytes: 256 << 10, WindowS: 5, ItemOverhead: 50, Fill: true, Config: cfg}
	ts := TraceStats{Format: "twitter", Compressed: true, InputBytes: 900000, Records: 80000, Requests: 80000, DistinctKeys: 31000, DistinctExact: true,
		Bytes: 30 << 20, HasTime: true, FirstS: 1.5e9, LastS: 1.5e9 + 100, OpGet: 72000, OpSet: 6400, OpDelete: 1600, Clients: 20,
		Warnings: "first" + WarningSep + "second", Config: Config{KeyFile: "t.csv.zst", Seed: 1}}
	return w, n, e, s, ts
}

// Every simulation row type writes its columns and reads back, in CSV
// and JSON, with booleans, missing values and a negative extra database
// reads (an event that adds memory) kept as they were.
func TestSimRowsRoundTrip(t *testing.T) {
	w, n, e, s, ts := simRows()
	roundTrip(t, w)
	roundTrip(t, n)
	roundTrip(t, e)
	e.Weight, e.Refilled, e.RefillS, e.RefillWindow, e.PeakMultiple = nil, false, nil, nil, nil
	roundTrip(t, e)
	roundTrip(t, s)
	roundTrip(t, ts)
	if got := ts.WarningList(); len(got) != 2 || got[1] != "second" {
		t.Errorf("warnings %q", got)
	}
}

// A simulation row that breaks what a replay guarantees is refused,
// naming the column: more hits than gets, a node over its capacity, a
// hit ratio without gets, a refill without a time, an unknown event kind,
// a storm on an event the trace never reached.
func TestSimRowsChecked(t *testing.T) {
	w, n, e, s, _ := simRows()
	bad := func(err error, col string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "column "+col) {
			t.Errorf("error %v, want one naming column %s", err, col)
		}
	}
	w2 := w
	w2.Hits = w.Gets
	bad(Check(w2), "hits")
	w2 = w
	w2.Gets, w2.Hits, w2.DBReads = 0, 0, 0
	bad(Check(w2), "hit_ratio")
	n2 := n
	n2.Bytes = n.CapacityBytes + 1
	bad(Check(n2), "bytes")
	n2 = n
	n2.HitRatio = ptr(1.5)
	bad(Check(n2), "hit_ratio")
	e2 := e
	e2.RefillS = nil
	bad(Check(e2), "refill_s")
	e2 = e
	e2.Kind = "explode"
	bad(Check(e2), "kind")
	e2 = e
	e2.Reached = false
	bad(Check(e2), "reached")
	s2 := s
	s2.DBReads = s.Gets
	bad(Check(s2), "hits")
	var b bytes.Buffer
	if err := WriteCSV(&b, []SimNode{n}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCSV[SimNode](strings.NewReader(strings.Replace(b.String(), ",true,false,", ",yes,false,", 1)), "n.csv"); err == nil || !strings.Contains(err.Error(), `"yes" is neither true nor false`) {
		t.Errorf("a boolean cell that is neither: %v", err)
	}
}
