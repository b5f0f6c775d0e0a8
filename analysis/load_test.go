package analysis

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

func loadOpts(keys, requests, sets int, zipfs ...float64) LoadOptions {
	return LoadOptions{Options: Options{Config: catalog.DefaultConfig(), Keys: genKeys(keys, sets, 20260101), Seed: 20260101}, Requests: requests, Zipfs: zipfs}
}

// TestLoadHotKeyFloor: under Zipf s = 1.2 over 10,000 keys the hottest key
// carries 1/H(10^4, 1.2) = 19.2% of requests, so on 50 nodes no placement
// of whole keys can have peak-to-mean below 50 * 0.192 = 9.6; the
// measured values sit at or above it (less 5 binomial standard errors of
// the hot key's count), while bounded-request stays under its Little's-law
// limit n*C/K + n*K/R (see TestRequestLevelBounds).
func TestLoadHotKeyFloor(t *testing.T) {
	const n, keys, R = 50, 10000, 100_000
	nodes, _ := algorithms.DefaultNodes(n)
	rs, err := Load(loadOpts(keys, R, 2, 1.2), schema.LoadPlacements(), nodes)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := HarmonicNumber(keys, 1.2)
	floor := n / h
	se := n * math.Sqrt((1/h)*(1-1/h)/R)
	if len(rs) != len(schema.LoadPlacements()) {
		t.Fatalf("%d results, want %d", len(rs), len(schema.LoadPlacements()))
	}
	for _, r := range rs {
		if math.Abs(r.Floor-floor) > 1e-9 || math.Abs(r.HotShare-1/h) > 1e-12 {
			t.Errorf("%s: floor %v hot share %v, want %v and %v", r.Algo, r.Floor, r.HotShare, floor, 1/h)
		}
		switch r.Algo {
		case schema.VariantRequest:
			K := bounded.DefaultInFlightPerNode * n
			C := float64(firstCap(n, K, 0.25))
			if limit := n*C/float64(K) + n*float64(K)/R; *r.PeakToMeanHi > limit {
				t.Errorf("bounded-request: peak-to-mean %v above %v", r.PeakToMean, limit)
			}
			if r.InFlight != K || r.MaxLoadOverCap == nil || *r.MaxLoadOverCap > 1 {
				t.Errorf("bounded-request: in flight %d, max load/cap %v", r.InFlight, r.MaxLoadOverCap)
			}
		default:
			for _, s := range r.Samples {
				if s.PeakToMean < floor-5*se {
					t.Errorf("%s: peak-to-mean %.3f below the hot-key floor %.3f", r.Algo, s.PeakToMean, floor)
				}
				if !s.HotBusiest {
					t.Errorf("%s: the hot key's node is not the busiest at s = 1.2", r.Algo)
				}
			}
			if r.AwayFrac != 0 && r.MaxLoadOverCap == nil {
				t.Errorf("%s: no bound, yet %v away", r.Algo, r.AwayFrac)
			}
		}
	}
	// The catalog's bounded (partition form) is the one result labelled
	// bounded-partition, and no result carries the ambiguous "bounded".
	var labels []string
	for _, r := range rs {
		labels = append(labels, r.Algo)
	}
	if i := slices.Index(catalog.Names(), "bounded"); i < 0 || labels[i] != schema.VariantPartition ||
		slices.Contains(labels, "bounded") || len(slices.Compact(slices.Sorted(slices.Values(labels)))) != len(labels) {
		t.Errorf("placement labels %v: want the catalog's bounded as %q, every label distinct", labels, schema.VariantPartition)
	}
}

// firstCap is the capacity of each of n equal nodes for m units at load
// factor 1 + eps.
func firstCap(n, m int, eps float64) int {
	return bounded.Capacity(eps, m, 1, float64(n))
}

// TestLoadRequestLog runs a log with a known hottest key: "a" 6 times,
// "b" 3, "c" 1, one stream, on one node and on modulo.
func TestLoadRequestLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.txt")
	os.WriteFile(path, []byte("a\nb\na\n\nc\na\nb\na\na\nb\r\na\n"), 0o644)
	o := loadOpts(1, 1, 1)
	f, err := keyset.NewFile(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	o.RequestLog = f
	nodes, _ := algorithms.DefaultNodes(3)
	rs, err := Load(o, []string{"modulo", schema.VariantKey}, nodes)
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if r.HotShare != 0.6 || r.Requests != 10 || r.Zipf != nil {
		t.Errorf("hot share %v, requests %d, zipf %v; want 0.6, 10, NaN", r.HotShare, r.Requests, r.Zipf)
	}
	if math.Abs(r.Floor-1.8) > 1e-12 { // 3 nodes x 0.6
		t.Errorf("floor %v, want 1.8", r.Floor)
	}
	p, _ := catalog.New("modulo", nodes, o.Config)
	if want := p.Locate("a"); r.HotKeyNode != want {
		t.Errorf("hot key node %s, want %s (modulo owner of \"a\")", r.HotKeyNode, want)
	}
	if r.MaxShare < 0.6 {
		t.Errorf("busiest node serves %v < the hot key's 0.6", r.MaxShare)
	}
}

// Load rows write as CSV (one row per result, the schema's columns), JSON
// and the benchmark format (one line per stream), and as a table naming
// bounded-partition.
func TestLoadWriters(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(5)
	rs, err := Load(loadOpts(500, 2000, 2, 0, 0.99), []string{"ring", "bounded", schema.VariantRequest}, nodes)
	if err != nil {
		t.Fatal(err)
	}
	rows := rs
	var buf bytes.Buffer
	if err := schema.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(recs) != 1+len(rs) {
		t.Fatalf("csv: %d records, %v", len(recs), err)
	}
	if recs[2][0] != schema.VariantPartition || recs[1][4] != "0" || recs[4][4] != "0.99" {
		t.Errorf("csv rows: %v / %v", recs[1][:5], recs[4][:5])
	}
	buf.Reset()
	if err := schema.WriteJSON(&buf, rows); err != nil {
		t.Fatal(err)
	}
	var js []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil || len(js) != len(rs) {
		t.Fatalf("json: %v", err)
	}
	configOnly := []string{"eps", "partitions", "key_kind", "key_file", "go_version", "commit", "table_size", "probes", "capacity"}
	for _, col := range schema.Columns[schema.Load]() {
		if _, ok := js[0][col]; !ok && !slices.Contains(configOnly, col) {
			t.Errorf("json lacks CSV column %q", col)
		}
	}
	back, err := schema.ReadJSON[schema.Load](bytes.NewReader(buf.Bytes()))
	if err != nil || !reflect.DeepEqual(back, rows) {
		t.Errorf("JSON does not read back: %v", err)
	}
	buf.Reset()
	if err := schema.WriteBench(&buf, rows); err != nil {
		t.Fatal(err)
	}
	br := benchfmt.NewReader(&buf, "load.txt")
	n := 0
	for br.Scan() {
		if res, ok := br.Result().(*benchfmt.Result); ok {
			n++
			if !strings.HasPrefix(string(res.Name), "Load/algo=") {
				t.Errorf("bench name %s", res.Name)
			}
		}
	}
	if n != 2*len(rs) { // one line per stream
		t.Errorf("%d bench results, want %d", n, 2*len(rs))
	}
	buf.Reset()
	if err := WriteLoadTable(&buf, rs); err != nil || !strings.Contains(buf.String(), "bounded-partition") {
		t.Errorf("table: %v\n%s", err, buf.String())
	}
}

// Bad load options (no requests, a negative or NaN exponent, none, no key
// source, an unknown placement, in-flight < 0) are errors.
func TestLoadBadInput(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(5)
	for name, o := range map[string]LoadOptions{
		"requests 0":  loadOpts(100, 0, 1, 1),
		"zipf -1":     loadOpts(100, 100, 1, -1),
		"zipf NaN":    loadOpts(100, 100, 1, math.NaN()),
		"no exponent": loadOpts(100, 100, 1),
		"no keys":     {Options: Options{Config: catalog.DefaultConfig()}, Requests: 100, Zipfs: []float64{1}},
	} {
		if _, err := Load(o, []string{"ring"}, nodes); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if _, err := Load(loadOpts(100, 100, 1, 1), []string{"bounded-everything"}, nodes); err == nil || !strings.Contains(err.Error(), "bounded-everything") {
		t.Errorf("unknown placement: %v", err)
	}
	o := loadOpts(100, 100, 1, 1)
	o.InFlight = -1
	if _, err := Load(o, []string{schema.VariantRequest}, nodes); err == nil {
		t.Error("in flight -1 accepted")
	}
}

// oneOverEpsSquared is exact where 1/eps^2 is representable and the
// nearest float otherwise (1/0.09 = 11.11...).
func TestOneOverEpsSquared(t *testing.T) {
	for _, c := range []struct{ eps, want float64 }{
		{0.05, 400}, {0.1, 100}, {0.01, 10000}, {0.2, 25}, {0.3, 100.0 / 9}, {0.001, 1e6}, {2, 0.25},
	} {
		if got := oneOverEpsSquared(c.eps); got != c.want {
			t.Errorf("oneOverEpsSquared(%v) = %v, want %v", c.eps, got, c.want)
		}
	}
}

// The bounded-loads sweep's invariants: max load / cap <= 1 for the three
// forms, the plain ring's moved fractions do not depend on eps, and the
// key form's moves per capacity stay far below the 1/eps^2 shape.
func TestBoundedSweep(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(10)
	rs, err := SweepBoundedLoads(loadOpts(5000, 20000, 2, 0), DefaultEpsGrid(), nodes)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(DefaultEpsGrid())*len(schema.BoundedVariants()) {
		t.Fatalf("%d results", len(rs))
	}
	for _, r := range rs {
		if r.Algo == "ring" {
			if r.MaxLoadOverCap != nil || r.MovedJoinFrac != rs[0].MovedJoinFrac {
				t.Errorf("ring at eps %v: max load/cap %v, moved %v vs %v", r.Config.Eps, r.MaxLoadOverCap, r.MovedJoinFrac, rs[0].MovedJoinFrac)
			}
			continue
		}
		if r.MaxLoadOverCap == nil || !(*r.MaxLoadOverCap <= 1) {
			t.Errorf("%s eps %v: max load/cap %v", r.Algo, r.Config.Eps, r.MaxLoadOverCap)
		}
		if r.MovesPerCapJoin != nil && *r.MovesPerCapJoin > r.BoundOneOverEpsSq {
			t.Errorf("%s eps %v: %v moves per capacity > 1/eps^2 = %v", r.Algo, r.Config.Eps, *r.MovesPerCapJoin, r.BoundOneOverEpsSq)
		}
		if math.Abs(r.IdealJoinFrac-1.0/11) > 1e-15 || math.Abs(r.IdealLeaveFrac-0.1) > 1e-15 {
			t.Errorf("ideal fractions %v, %v", r.IdealJoinFrac, r.IdealLeaveFrac)
		}
	}
	rows := rs
	var buf bytes.Buffer
	if err := schema.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(recs) != 1+len(rs) || len(recs[1]) != len(schema.Columns[schema.Bounded]()) {
		t.Fatalf("csv: %v", err)
	}
	if i := slices.Index(schema.Columns[schema.Bounded](), "max_load_over_cap"); recs[1][0] != "ring" || recs[1][i] != "" || recs[2][i] == "" {
		t.Errorf("max_load_over_cap cells %q (ring) and %q (%s): want empty and a number", recs[1][i], recs[2][i], recs[2][0])
	}
	// 1/eps^2 is a whole number for every eps of the default grid and
	// must print as one: 1/(0.05*0.05) in floats is 399.99999999999994.
	wantBound := map[string]string{"0.05": "400", "0.1": "100", "0.25": "16", "0.5": "4", "1": "1"}
	ie, ib := slices.Index(schema.Columns[schema.Bounded](), "eps"), slices.Index(schema.Columns[schema.Bounded](), "bound_1_over_eps2")
	for _, rec := range recs[1:] {
		if want := wantBound[rec[ie]]; rec[ib] != want {
			t.Errorf("%s eps %s: bound_1_over_eps2 %q, want %q", rec[0], rec[ie], rec[ib], want)
		}
	}
	buf.Reset()
	if err := schema.WriteJSON(&buf, rows); err != nil {
		t.Fatal(err)
	}
	back, err := schema.ReadJSON[schema.Bounded](bytes.NewReader(buf.Bytes()))
	if err != nil || !reflect.DeepEqual(back, rows) {
		t.Errorf("JSON does not read back: %v", err)
	}
	for _, w := range []func() error{
		func() error { return schema.WriteBench(&buf, rows) },
		func() error { return WriteBoundedTable(&buf, rs) },
	} {
		if err := w(); err != nil {
			t.Error(err)
		}
	}
	if _, err := SweepBoundedLoads(loadOpts(100, 100, 1, 0), []float64{0.25, 0}, nodes); err == nil {
		t.Error("eps 0 accepted")
	}
}

// On a fleet of unequal weights the hot-key floor depends on where the
// hottest key lands: floor assumes the largest node (W / w_max = 8 / 4 on
// weights 1, 1, 2, 4), floor_min_node the smallest (8 / 1), and
// floor_hot_node the node that served it, by that node's weight. At
// Zipf s = 2 over 1,000 keys the hottest key is 1/H(1000, 2) = 60.8% of
// requests, so every floor is above 1 (1.22, 2.43 or 4.87) and each is
// an exact product of that share.
func TestLoadFloorsOfAWeightedFleet(t *testing.T) {
	nodes := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 1}, {ID: "c", Weight: 2}, {ID: "d", Weight: 4}}
	rs, err := Load(loadOpts(1000, 20000, 2, 2), []string{"ring", "rendezvous", "slots"}, nodes)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := HarmonicNumber(1000, 2)
	if 8/h/4 <= 1 {
		t.Fatalf("best-case floor %v: the test needs every floor above 1", 8/h/4)
	}
	for _, r := range rs {
		i := algorithms.IndexOf(nodes, r.HotKeyNode)
		if i < 0 {
			t.Fatalf("%s: hot key node %q is not a member", r.Algo, r.HotKeyNode)
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"floor", r.Floor, 8 / h / 4}, {"floor_min_node", r.FloorMinNode, 8 / h}, {"floor_hot_node", r.FloorHotNode, 8 / h / nodes[i].Weight}} {
			if math.Abs(c.got-c.want) > 1e-12 {
				t.Errorf("%s: %s %v, want %v (hot key on %s)", r.Algo, c.name, c.got, c.want, r.HotKeyNode)
			}
		}
	}
}
