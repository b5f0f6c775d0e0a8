package schema

import (
	"bytes"
	"strings"
	"testing"
)

// A load row written as CSV reads back through Table by column name: a
// request log's zipf and a placement without capacity are empty cells,
// estimates read as intervals, and key_kind is recorded.
func TestLoadCSVReadsBack(t *testing.T) {
	one, s := 1.0, 0.99
	rows := []Load{
		{Algo: "ring", Nodes: 10, Zipf: &s, Keys: 100, Requests: 1000, Sets: 2, PeakToMean: 1.5, PeakToMeanLo: 1.25, PeakToMeanHi: 1.75,
			Floor: 1.2, Config: Config{KeyKind: "uuid", Commit: "c"}},
		{Algo: "bounded-request", Nodes: 10, Keys: 7, Requests: 7, Sets: 2, PeakToMean: 1.25, PeakToMeanLo: 1.25, PeakToMeanHi: 1.25,
			MaxLoadOverCap: &one, InFlight: 320},
	}
	var buf bytes.Buffer
	if err := WriteLoadCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	tb, err := ParseTable(&buf, "load.csv", LoadColumns)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Len() != 2 || tb.Str(0, ColZipf) != "0.99" || tb.Str(1, ColZipf) != "" || tb.Str(0, ColKeyKind) != "uuid" {
		t.Errorf("zipf %q, %q; key_kind %q", tb.Str(0, ColZipf), tb.Str(1, ColZipf), tb.Str(0, ColKeyKind))
	}
	if iv, err := tb.Interval(0, ColPeakToMean); err != nil || iv != (Interval{1.5, 1.25, 1.75, true}) {
		t.Errorf("peak_to_mean %+v, %v", iv, err)
	}
	if _, ok, _ := tb.OptNum(0, ColMaxLoadOverCap); ok {
		t.Error("ring has a max_load_over_cap")
	}
	if v, err := tb.Num(1, ColMaxLoadOverCap); err != nil || v != 1 {
		t.Errorf("bounded-request max_load_over_cap %v, %v", v, err)
	}
}

// Bounded rows: the ring's empty cells, and the bench lines carry
// max-load/cap only where there is a capacity.
func TestBoundedWriters(t *testing.T) {
	one := 1.0
	rows := []Bounded{
		{Algo: "ring", Nodes: 4, Eps: 0.25, Samples: []BoundedSample{{Away: 0}}},
		{Algo: "bounded-key", Nodes: 4, Eps: 0.25, MaxLoadOverCap: &one, MovesPerCapJoin: &one, MovesPerCapJoinLo: &one, MovesPerCapJoinHi: &one,
			Samples: []BoundedSample{{MaxLoadOverCap: &one}}},
	}
	var buf bytes.Buffer
	if err := WriteBoundedCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	tb, err := ParseTable(&buf, "boundedloads.csv", BoundedColumns)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Str(0, ColMaxLoadOverCap) != "" || tb.Str(0, ColMovesPerCapJoin) != "" || tb.Str(1, ColMovesPerCapJoin) != "1" {
		t.Errorf("cells %q %q %q", tb.Str(0, ColMaxLoadOverCap), tb.Str(0, ColMovesPerCapJoin), tb.Str(1, ColMovesPerCapJoin))
	}
	buf.Reset()
	if err := WriteBoundedBench(&buf, rows); err != nil {
		t.Fatal(err)
	}
	var ring, key string
	for _, l := range strings.Split(buf.String(), "\n") {
		switch {
		case strings.HasPrefix(l, "BenchmarkBounded/algo=ring/"):
			ring = l
		case strings.HasPrefix(l, "BenchmarkBounded/algo=bounded-key/"):
			key = l
		}
	}
	if strings.Contains(ring, "max-load/cap") || !strings.Contains(key, "1 max-load/cap") {
		t.Errorf("bench lines:\n%s\n%s", ring, key)
	}
}
