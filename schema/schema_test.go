package schema

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// jsonNames returns the JSON field names of struct type t, in order.
func jsonNames(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		out = append(out, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	return out
}

// The JSON objects carry the CSV column names: the row types' JSON names
// are the columns, in the same order, plus config, shares and samples
// (JSON keeps eps, partitions, table_size, probes, capacity, key_file,
// key_kind, go_version and commit only in config; eps is a sweep
// dimension of the bounded-loads rows and stays there too).
func TestJSONNamesAreColumns(t *testing.T) {
	configOnly := []string{ColEps, ColPartitions, ColKeyFile, ColKeyKind, ColGoVersion, ColCommit, ColTableSize, ColProbes, ColCapacity}
	for _, c := range []struct {
		row   any
		cols  []string
		extra []string
	}{
		{Move{}, MoveColumns, []string{"config", "samples"}},
		{Spread{}, SpreadColumns, []string{"config", "shares", "samples"}},
		{Load{}, LoadColumns, []string{"config", "samples"}},
		{Bounded{}, BoundedColumns, []string{"config", "samples"}},
		{StormLive{}, StormLiveColumns, []string{"config"}},
	} {
		var want []string
		for _, col := range c.cols {
			if !slices.Contains(configOnly, col) || (col == ColEps && slices.Equal(c.cols, BoundedColumns)) {
				want = append(want, col)
			}
		}
		want = append(want, c.extra...)
		if got := jsonNames(reflect.TypeOf(c.row)); !slices.Equal(got, want) {
			t.Errorf("%T JSON names\n%v\nwant\n%v", c.row, got, want)
		}
	}
	for _, col := range jsonNames(reflect.TypeOf(Config{})) {
		// key_kind is recorded in JSON and benchfmt only for move and
		// spread (see the package documentation), and is a load column.
		if col == ColKeyKind {
			if !slices.Contains(LoadColumns, col) || slices.Contains(MoveColumns, col) {
				t.Errorf("key_kind: want a load column only")
			}
			continue
		}
		if !slices.Contains(MoveColumns, col) || !slices.Contains(SpreadColumns, col) {
			t.Errorf("config field %q is not a column of both files", col)
		}
	}
	// Share: the per-node columns after the run configuration.
	perNode := ShareColumns[slices.Index(ShareColumns, ColID):]
	got := jsonNames(reflect.TypeOf(Share{}))
	slices.Sort(got)
	slices.Sort(perNode)
	if !slices.Equal(got, perNode) {
		t.Errorf("Share JSON names %v, want the per-node columns %v", got, perNode)
	}
}

// A CSV file written here reads back through Table with the same values,
// by column name; the empty exact_* cells read as absent.
func TestCSVRoundTrip(t *testing.T) {
	x := 1.0004
	rows := []Spread{
		{Algo: "ring", Hash: "xxhash", VNodes: 160, Nodes: 10, Keys: 1000, Sets: 3, Seed: 7,
			PeakToMean: 1.2, PeakToMeanLo: 1.1, PeakToMeanHi: 1.3, CV: 0.1, CVLo: 0.05, CVHi: 0.15,
			ExactPeakToMean: &x, ExactCV: &x, ExactMinShare: &x, ExactMaxShare: &x,
			Config: Config{Eps: 0.25, Partitions: 16384, GoVersion: "go1", Commit: "abc"}},
		{Algo: "jump", Hash: "xxhash", VNodes: 160, Nodes: 10, Keys: 1000, Sets: 3, Seed: 7, PeakToMean: 1.25, CV: 0.2},
	}
	var b bytes.Buffer
	if err := WriteSpreadCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	tab, err := ParseTable(&b, "spread.csv", SpreadColumns)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 2 || tab.Line(1) != 3 || tab.Str(0, ColAlgo) != "ring" || tab.Str(0, ColCommit) != "abc" {
		t.Errorf("rows %d, line %d, algo %q, commit %q", tab.Len(), tab.Line(1), tab.Str(0, ColAlgo), tab.Str(0, ColCommit))
	}
	if iv, err := tab.Interval(0, ColPeakToMean); err != nil || iv != (Interval{Mean: 1.2, Lo: 1.1, Hi: 1.3, CI: true}) {
		t.Errorf("peak_to_mean %+v, %v", iv, err)
	}
	if v, ok, err := tab.OptNum(0, ColExactCV); err != nil || !ok || v != x {
		t.Errorf("exact_cv %v %v %v", v, ok, err)
	}
	if _, ok, err := tab.OptNum(1, ColExactCV); err != nil || ok {
		t.Errorf("jump exact_cv: present %v, %v; want absent", ok, err)
	}
	if n, err := tab.Count(1, ColNodes); err != nil || n != 10 {
		t.Errorf("nodes %v, %v", n, err)
	}
}

// Bad cells are errors naming the file, line, column and value.
func TestTableErrors(t *testing.T) {
	for _, c := range []struct{ csv, want string }{
		{"", "empty file"},
		{"algo,nodes\n", "no rows"},
		{"algo,algo\nx,y\n", `column "algo" appears twice`},
		{"algo\nring\n", `missing column "nodes"`},
		{"algo,nodes\nring,0\n", `f.csv:2: column nodes (2): "0" is not a node count`},
		{"algo,nodes\nring,NaN\n", `"NaN" is not a finite number`},
	} {
		tab, err := ParseTable(strings.NewReader(c.csv), "f.csv", []string{ColAlgo, ColNodes})
		if err == nil {
			_, err = tab.Count(0, ColNodes)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.csv, err, c.want)
		}
	}
}

// JSON written here reads back into equal rows.
func TestJSONRoundTrip(t *testing.T) {
	x := 0.5
	ms := []Move{{Algo: "ring", Op: "add", From: 3, To: 4, MovedFrac: 0.26, IdealFrac: 0.25, Steps: 1,
		Config: Config{Algo: "ring", Keys: 10}, Samples: []MoveSample{{Moved: 0.25}, {Moved: 0.27}}}}
	ss := []Spread{{Algo: "ring", Nodes: 2, ExactCV: &x, Shares: []Share{{ID: "a", Weight: 1, Exact: &x}},
		Samples: []SpreadSample{{CV: 0.1}}}}
	var mb, sb bytes.Buffer
	if err := WriteMoveJSON(&mb, ms); err != nil {
		t.Fatal(err)
	}
	if err := WriteSpreadJSON(&sb, ss); err != nil {
		t.Fatal(err)
	}
	gm, err := ReadMoveJSON(&mb)
	if err != nil || !reflect.DeepEqual(gm, ms) {
		t.Errorf("moves read back as %+v, %v", gm, err)
	}
	gs, err := ReadSpreadJSON(&sb)
	if err != nil || !reflect.DeepEqual(gs, ss) {
		t.Errorf("spreads read back as %+v, %v", gs, err)
	}
	if _, err := ReadMoveJSON(strings.NewReader(`[{"algo":"ring","movedfrac":1}]`)); err == nil {
		t.Error("unknown field accepted")
	}
}
