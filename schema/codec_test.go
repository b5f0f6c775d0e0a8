package schema

import (
	"bytes"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// filled returns a row of type R whose every column holds a distinct
// value (strings "s<i>", numbers i+1 and i+1.5, pointers set), with
// each X_lo, X, X_hi triple ordered so that it passes Check (fractions,
// shares and coefficients of variation divided by 1000 to lie in their
// domains), a ratio
// column equal to the quotient it names (a Move's moved_over_ideal), and
// one sample where the type has samples.
func filled[R Row]() R {
	var r R
	v := reflect.ValueOf(&r).Elem()
	l := layoutOf[R]()
	for i, c := range l.cols {
		// A bound takes its centre's value minus or plus 3.
		centre, off := c.name, 0.0
		for suffix, d := range map[string]float64{"_lo": -3, "_hi": 3, "_p5": -3, "_p95": 3} {
			if base, ok := strings.CutSuffix(c.name, suffix); ok {
				if _, ok := l.byName[base]; ok {
					centre, off = base, d
				}
			}
		}
		x := float64(10*(l.byName[centre]+1)) + off + 0.5
		if d := domains[centre]; d == fraction || d == share || d == cvOverNodes {
			x /= 1000
		}
		for _, p := range c.paths {
			f := v.FieldByIndex(p)
			if f.Kind() == reflect.Pointer {
				f.Set(reflect.New(f.Type().Elem()))
				f = f.Elem()
			}
			switch f.Kind() {
			case reflect.String:
				f.SetString("s" + strings.Repeat("x", i))
			case reflect.Int:
				f.SetInt(int64(x))
			case reflect.Uint64:
				f.SetUint(uint64(x))
			case reflect.Float64:
				f.SetFloat(x)
			case reflect.Bool:
				f.SetBool(true)
			}
		}
	}
	if m, ok := any(&r).(*Move); ok {
		m.MovedOverIdeal = m.MovedFrac / m.IdealFrac
	}
	return r
}

// Every row type writes the header its columns list and reads a row back
// with every column's value, by header name; JSON reads back the whole row.
func TestRoundTrip(t *testing.T) {
	roundTrip(t, filled[Move]())
	roundTrip(t, filled[Spread]())
	roundTrip(t, filled[ShareRow]())
	roundTrip(t, filled[Load]())
	roundTrip(t, filled[Bounded]())
	roundTrip(t, filledStorm())
	roundTrip(t, filledSwitch())
	roundTrip(t, filled[StormPoint]())
	roundTrip(t, filled[Replication]())
	roundTrip(t, filled[StormLive]())
	roundTrip(t, filledPropagate())
	roundTrip(t, filledRedirect())
	v := filled[DomainViolation]()
	v.Scheme, v.Domains = SchemeAware, v.Nodes
	roundTrip(t, v)
	r := filled[DomainRank]()
	ts := 0.25
	r.Scheme, r.Rank, r.TheoryShare = SchemePlain, 1, &ts
	roundTrip(t, r)
	c := filled[DomainChange]()
	c.Scheme, c.Event, c.NodesLeft, c.NodesJoined = SchemeAware, EventLoss, 3, 0
	c.CollateralFrac, c.CollateralFracLo, c.CollateralFracHi = 0.2, new(0.1), new(0.3) // a fraction in a DomainChange, not in a Move
	roundTrip(t, c)
}

// filledPropagate is filled[Propagate] with the columns its relations tie
// together set to values that satisfy them: reads <= requests, misrouted
// <= stale, fractions in 0..1.
func filledPropagate() Propagate {
	r := filled[Propagate]()
	r.Requests, r.Reads = r.Reads, r.Requests
	r.Stale, r.StaleLo, r.StaleHi, r.Misrouted, r.MisroutedLo, r.MisroutedHi = r.Misrouted, r.MisroutedLo, r.MisroutedHi, r.Stale, r.StaleLo, r.StaleHi
	r.MovedFrac, r.Writes = 0.25, 0.125
	return r
}

// warmUpOf returns the warm-up model's columns for a moved fraction
// 0.25 in [0.125, 0.375], 50,000 reads/s, hit ratio 0.9 and 1,000 keys,
// computed as analysis.StormModel does.
func warmUpOf() (q, h float64, k int, f, fLo, fHi float64, hit, db, mult, extra [3]float64, tau float64) {
	q, h, k, f, fLo, fHi = 50000, 0.9, 1000, 0.25, 0.125, 0.375
	for i, x := range []float64{f, fHi, fLo} { // hit ratio: decreasing in f
		hit[i] = h * (1 - x)
	}
	for i, x := range []float64{f, fLo, fHi} {
		db[i] = q * (1 - h*(1-x))
		mult[i] = db[i] / (q * (1 - h))
		extra[i] = h * x * float64(k)
	}
	return q, h, k, f, fLo, fHi, hit, db, mult, extra, float64(k) / q
}

// filledStorm is filled[Storm] with the warm-up model's columns tied to
// its moved fraction ([warmUpOf]).
func filledStorm() Storm {
	r := filled[Storm]()
	q, h, k, f, fLo, fHi, hit, db, mult, extra, tau := warmUpOf()
	r.Reads, r.HitRatio, r.WorkingSet, r.MovedFrac, r.MovedFracLo, r.MovedFracHi = q, h, k, f, new(fLo), new(fHi)
	r.HitAfter, r.HitAfterLo, r.HitAfterHi = hit[0], new(hit[1]), new(hit[2])
	r.DBReads, r.DBReadsLo, r.DBReadsHi, r.DBSteady = db[0], new(db[1]), new(db[2]), q*(1-h)
	r.DBMultiple, r.DBMultipleLo, r.DBMultipleHi = mult[0], new(mult[1]), new(mult[2])
	r.ExtraDBReads, r.ExtraDBReadsLo, r.ExtraDBReadsHi, r.TauS = extra[0], new(extra[1]), new(extra[2]), tau
	return r
}

// filledSwitch is filled[Switch] with the warm-up model's columns tied to
// its differ fraction ([warmUpOf]).
func filledSwitch() Switch {
	r := filled[Switch]()
	q, h, k, f, fLo, fHi, hit, db, mult, extra, tau := warmUpOf()
	r.Reads, r.HitRatio, r.WorkingSet, r.DifferFrac, r.DifferFracLo, r.DifferFracHi = q, h, k, f, new(fLo), new(fHi)
	r.HitAfter, r.HitAfterLo, r.HitAfterHi = hit[0], new(hit[1]), new(hit[2])
	r.DBReads, r.DBReadsLo, r.DBReadsHi, r.DBSteady = db[0], new(db[1]), new(db[2]), q*(1-h)
	r.DBMultiple, r.DBMultipleLo, r.DBMultipleHi = mult[0], new(mult[1]), new(mult[2])
	r.ExtraDBReads, r.ExtraDBReadsLo, r.ExtraDBReadsHi, r.TauS = extra[0], new(extra[1]), new(extra[2]), tau
	return r
}

// filledRedirect is filled[Redirect] with a write fraction in 0..1.
func filledRedirect() Redirect {
	r := filled[Redirect]()
	r.Writes = 0.2
	return r
}

func roundTrip[R Row](t *testing.T, row R) {
	t.Helper()
	name := reflect.TypeOf(row).Name()
	if err := Check(row); err != nil {
		t.Fatalf("%s: test row fails Check: %v", name, err)
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, []R{row, row}); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	header, _, _ := strings.Cut(b.String(), "\n")
	if want := strings.Join(Columns[R](), ","); header != want {
		t.Errorf("%s header\n%s\nwant\n%s", name, header, want)
	}
	got, err := ReadCSV[R](&b, name+".csv")
	if err != nil || len(got) != 2 {
		t.Fatalf("%s: read %d rows, %v", name, len(got), err)
	}
	l := layoutOf[R]()
	gv, wv := reflect.ValueOf(got[1]), reflect.ValueOf(row)
	for _, c := range l.cols {
		for _, p := range c.paths {
			if g, w := gv.FieldByIndex(p).Interface(), wv.FieldByIndex(p).Interface(); !reflect.DeepEqual(g, w) {
				t.Errorf("%s column %s read back as %v, want %v", name, c.name, g, w)
			}
		}
	}
	b.Reset()
	if err := WriteJSON(&b, []R{row}); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	js, err := ReadJSON[R](&b)
	if err != nil || len(js) != 1 || !reflect.DeepEqual(js[0], row) {
		t.Errorf("%s JSON read back as %+v, %v\nwant %+v", name, js, err, row)
	}
}

// The JSON objects are the CSV columns under the same names (less those
// kept only in "config"), in the same order, then "config" and the row's
// other fields, as encoding/json would write them.
func TestJSONShape(t *testing.T) {
	x := 0.5
	rows := []Spread{{Nodes: 2, PeakToMean: 1, PeakToMeanLo: new(1.0), PeakToMeanHi: new(1.0), ExactCV: &x, Shares: []Share{{ID: "a", Weight: 1, WeightShare: 1, Share: 1, ShareLo: new(1.0), ShareHi: new(1.0)}},
		Samples: []SpreadSample{{CV: 0.1}}, Config: Config{Algo: "ring", Eps: 0.25, Placement: PlacementFixed, Keys: 4, Sets: 2}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, rows); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{"[\n  {\n    \"algo\": \"ring\",\n    \"hash\": \"\",\n    \"vnodes\": 0,\n    \"nodes\": 2,",
		"\"exact_peak_to_mean\": null,\n    \"exact_cv\": 0.5,", "\"placement\": \"fixed\",\n    \"label\": \"\",",
		"\"config\": {\n      \"algo\": \"ring\",", "\"eps\": 0.25,", "\"shares\": [\n      {\n        \"id\": \"a\","} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON lacks %q:\n%s", want, s)
		}
	}
	if strings.Count(s, "\"eps\"") != 1 {
		t.Errorf("eps outside config:\n%s", s)
	}
	if b.Reset(); WriteJSON[Move](&b, nil) != nil || b.String() != "[]\n" {
		t.Errorf("no rows: %q", b.String())
	}
	if _, err := ReadJSON[Move](strings.NewReader(`[{"algo":"ring","movedfrac":1}]`)); err == nil || !strings.Contains(err.Error(), `unknown field "movedfrac"`) {
		t.Errorf("unknown field: %v", err)
	}
}

// Bad files and cells are errors naming the file, the line, the column
// and the value.
func TestReadCSVErrors(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, []ShareRow{filled[ShareRow]()}); err != nil {
		t.Fatal(err)
	}
	good := b.String()
	header, row, _ := strings.Cut(strings.TrimSuffix(good, "\n"), "\n")
	cols := strings.Split(header, ",")
	with := func(col, v string) string {
		cells := strings.Split(row, ",")
		cells[slices.Index(cols, col)] = v
		return header + "\n" + strings.Join(cells, ",") + "\n"
	}
	nodes := slices.Index(cols, "nodes") + 1
	for _, c := range []struct{ in, want string }{
		{"", "f.csv: empty file"},
		{header + "\n", "f.csv: header but no rows"},
		{"algo,algo\nx,y\n", `f.csv:1: column "algo" appears twice`},
		{strings.Replace(good, ",nodes,", ",n,", 1), `f.csv:1: missing column "nodes"`},
		{with("nodes", "0"), `f.csv:2: column nodes (` + strconv.Itoa(nodes) + `): "0" is not a whole number >= 1`},
		{with("nodes", "2.5"), `f.csv:2: column nodes (` + strconv.Itoa(nodes) + `): "2.5" is not a whole number`},
		{with("share", "NaN"), `"NaN" is not a finite number`},
		// Numbers only as chbench writes them: strconv alone reads these.
		{with("share_hi", "1_3"), `column share_hi (13): "1_3" is not a finite number written in plain decimal`},
		{with("share_hi", "0x1.4p0"), `column share_hi (13): "0x1.4p0" is not a finite number written in plain decimal`},
		{with("share", "+0.1"), `"+0.1" is not a finite number written in plain decimal`},
		{with("share", ".1"), `".1" is not a finite number written in plain decimal`},
		{with("share", "1."), `"1." is not a finite number written in plain decimal`},
		{with("share", "1e"), `"1e" is not a finite number written in plain decimal`},
		{with("nodes", "+40"), `column nodes (` + strconv.Itoa(nodes) + `): "+40" is not a whole number`},
		{with("share_lo", "1e-2"), ""},
		{with("share_hi", "0.5E+0"), ""},
		{"\uFEFF" + good, `f.csv:1: the file starts with a UTF-8 byte-order mark (BOM)`},
		{with("share", "1.5"), `column share (11): "1.5" is not a fraction in 0..1`},
		{with("share", "0.0001"), `column share (11): 0.0001 outside its interval`},
		{with("id", "a\tb"), `control characters are not allowed`},
		{"x,y," + header + "\n1,2," + row + "\n", ""}, // extra columns, in any order
	} {
		_, err := ReadCSV[ShareRow](strings.NewReader(c.in), "f.csv")
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

// A file written before an optional column existed reads it as absent
// (nil), while the same row read from a file that has the column keeps
// its value: the bytes columns of a spread are optional.
func TestReadCSVOptionalColumns(t *testing.T) {
	var b bytes.Buffer
	r := filled[Spread]()
	if err := WriteCSV(&b, []Spread{r}); err != nil {
		t.Fatal(err)
	}
	header, row, _ := strings.Cut(strings.TrimSuffix(b.String(), "\n"), "\n")
	cols, cells := strings.Split(header, ","), strings.Split(row, ",")
	var oldCols, oldCells []string
	for i, c := range cols {
		if c != "object_bytes" && c != "bytes_cv" {
			oldCols, oldCells = append(oldCols, c), append(oldCells, cells[i])
		}
	}
	old, err := ReadCSV[Spread](strings.NewReader(strings.Join(oldCols, ",")+"\n"+strings.Join(oldCells, ",")+"\n"), "old.csv")
	if err != nil {
		t.Fatal(err)
	}
	if old[0].ObjectBytes != nil || old[0].BytesCV != nil || old[0].BusiestBytes == nil || *old[0].BusiestBytes != *r.BusiestBytes {
		t.Errorf("read without object_bytes and bytes_cv: %v %v %v", old[0].ObjectBytes, old[0].BytesCV, old[0].BusiestBytes)
	}
	full, err := ReadCSV[Spread](strings.NewReader(b.String()), "new.csv")
	if err != nil || full[0].ObjectBytes == nil || *full[0].ObjectBytes != *r.ObjectBytes {
		t.Errorf("read with the columns: %v", err)
	}
	if _, err := ReadCSV[Spread](strings.NewReader(strings.Replace(b.String(), ",nodes,", ",n,", 1)), "f.csv"); err == nil {
		t.Error("a required column missing: no error")
	}
}

// A row that fails Check is not written: a NaN, a count of 0 or a mean
// outside its interval stops the writer with an error naming the row and
// the column.
func TestWritersCheckRows(t *testing.T) {
	bad := filled[Move]()
	bad.MovedFrac = *bad.MovedFracHi + 1
	var b bytes.Buffer
	if err := WriteCSV(&b, []Move{filled[Move](), bad}); err == nil || !strings.Contains(err.Error(), "row 2: column moved_frac") {
		t.Errorf("CSV: %v", err)
	}
	bad = filled[Move]()
	bad.From = 0
	if err := WriteJSON(&b, []Move{bad}); err == nil || !strings.Contains(err.Error(), "column from") {
		t.Errorf("JSON: %v", err)
	}
	bad = filled[Move]()
	bad.IdealFrac = math.NaN()
	if err := WriteBench(&b, []Move{bad}); err == nil || !strings.Contains(err.Error(), "column ideal_frac: NaN is not a finite number") {
		t.Errorf("bench: %v", err)
	}
	if err := WriteBench(&b, []Storm{filled[Storm]()}); err == nil || !strings.Contains(err.Error(), "no benchmark format") {
		t.Errorf("storm bench: %v", err)
	}
}

// The benchmark format: the exact units first, then one line per sample
// named by the scenario; a bounded-loads line carries max-load/cap only
// where the form has a capacity, and a configuration value with a control
// character is refused.
func TestWriteBench(t *testing.T) {
	one := 1.0
	ring, key := filled[Bounded](), filled[Bounded]()
	ring.Algo, key.Algo = "ring", "bounded-key"
	ring.Samples = []BoundedSample{{Away: 0}}
	key.Samples = []BoundedSample{{MaxLoadOverCap: &one}, {MaxLoadOverCap: &one}}
	var b bytes.Buffer
	if err := WriteBench(&b, []Bounded{ring, key}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if !strings.HasPrefix(s, "Unit ideal-join-frac assume=exact\n") {
		t.Errorf("no unit line first:\n%s", s)
	}
	var ringLines, keyLines []string
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(l, "BenchmarkBounded/algo=ring/"):
			ringLines = append(ringLines, l)
		case strings.HasPrefix(l, "BenchmarkBounded/algo=bounded-key/"):
			keyLines = append(keyLines, l)
		}
	}
	if len(ringLines) != 1 || len(keyLines) != 2 || strings.Contains(ringLines[0], "max-load/cap") || !strings.Contains(keyLines[0], " 1 max-load/cap") {
		t.Errorf("bench lines:\n%s", s)
	}
	key.Commit = "a\nBenchmarkX 1 1 ns/op"
	if err := WriteBench(&b, []Bounded{key}); err == nil || !strings.Contains(err.Error(), "control character") {
		t.Errorf("control character: %v", err)
	}
}

// An interval's bounds lie in the domain of its value: a hit ratio's low
// bound below 0, a share's high bound above 1 and a net moved fraction's
// high bound above 1 are refused by the writers, naming the bound's
// column, as are a negative recovery time and zipf exponent.
func TestCheckBoundsInTheirDomain(t *testing.T) {
	storm := filled[Storm]()
	storm.HitAfterLo = new(-0.77)
	spread := filled[Spread]()
	spread.MaxShareHi = new(1.55)
	move := filled[Move]()
	move.NetMovedFracHi = new(2.8)
	slow := filled[Storm]()
	slow.RecoverySLo = new(-2.0)
	zipf := filled[Storm]()
	zipf.Zipf = -1
	// A population cv of n loads is at most sqrt(n-1) (one node holds
	// everything), a peak-to-mean at least 1 (the busiest node carries
	// the mean): 2 nodes allow a cv_hi of 1, not 2.26.
	cv := filled[Spread]()
	cv.Nodes, cv.CVHi = 2, new(2.26)
	cvLoad := filled[Replication]()
	cvLoad.From, cvLoad.LoadCV, cvLoad.LoadCVLo, cvLoad.LoadCVHi = 3, 1.5, new(1.4), new(1.6)
	peak := filled[Load]()
	peak.PeakToMeanLo = new(0.9)
	for _, c := range []struct {
		err  error
		want string
	}{
		{WriteCSV(io.Discard, []Storm{storm}), "column hit_after_lo: \"-0.77\" is not a fraction in 0..1"},
		{WriteCSV(io.Discard, []Spread{spread}), "column max_share_hi: \"1.55\" is not a fraction in 0..1"},
		{WriteJSON(io.Discard, []Move{move}), "column net_moved_frac_hi: \"2.8\" is not a fraction in 0..1"},
		{WriteCSV(io.Discard, []Storm{slow}), "must be >= 0"},
		{WriteCSV(io.Discard, []Storm{zipf}), "column zipf: \"-1\" must be >= 0"},
		{WriteCSV(io.Discard, []Spread{cv}), "column cv_hi: \"2.26\" is not a coefficient of variation of 2 node loads, in [0, sqrt(2-1)] = [0, 1]"},
		{WriteCSV(io.Discard, []Replication{cvLoad}), "column load_cv: \"1.5\" is not a coefficient of variation of 3 node loads, in [0, sqrt(3-1)] = [0, 1.41421]"},
		{WriteCSV(io.Discard, []Load{peak}), "column peak_to_mean_lo: \"0.9\" is not a peak-to-mean ratio >= 1"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("got %v, want an error containing %s", c.err, c.want)
		}
	}
}

// moved_over_ideal must be moved_frac / ideal_frac: a row saying 77 where
// the quotient is 1 is refused when read, naming the line and both
// values; the quotient written with every digit, or rounded to six
// significant digits (1 part in 1e6, RatioTolerance), passes.
func TestCheckMovedOverIdeal(t *testing.T) {
	m := filled[Move]()
	m.MovedFrac, m.MovedFracLo, m.MovedFracHi, m.IdealFrac = 0.25, new(0.2), new(0.3), 0.25
	var b bytes.Buffer
	m.MovedOverIdeal = 1
	if err := WriteCSV(&b, []Move{m}); err != nil {
		t.Fatal(err)
	}
	csv := b.String()
	col := slices.Index(strings.Split(strings.SplitN(csv, "\n", 2)[0], ","), "moved_over_ideal")
	withRatio := func(v string) string {
		lines := strings.SplitN(csv, "\n", 2)
		f := strings.Split(lines[1], ",")
		f[col] = v
		return lines[0] + "\n" + strings.Join(f, ",")
	}
	_, err := ReadCSV[Move](strings.NewReader(withRatio("77")), "movement.csv")
	if err == nil || !strings.Contains(err.Error(), "movement.csv:2") || !strings.Contains(err.Error(), "column moved_over_ideal") || !strings.Contains(err.Error(), "77 is not moved_frac / ideal_frac = 0.25 / 0.25 = 1") {
		t.Errorf("moved_over_ideal 77 for 0.25/0.25: got %v", err)
	}
	if _, err := ReadCSV[Move](strings.NewReader(withRatio("1.000001")), "movement.csv"); err != nil {
		t.Errorf("moved_over_ideal rounded to 7 digits: %v", err)
	}
	if _, err := ReadCSV[Move](strings.NewReader(withRatio("1.00001")), "movement.csv"); err == nil {
		t.Error("moved_over_ideal 1.00001 for a quotient of 1 (10x the tolerance) accepted")
	}
}

// A file written before the topology and domain columns were added reads
// them as empty; every other column stays required.
func TestAddedColumnsOptional(t *testing.T) {
	r := filled[Replication]()
	var b bytes.Buffer
	if err := WriteCSV(&b, []Replication{r}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	cut := func(line string, n int) string { f := strings.Split(line, ","); return strings.Join(f[:len(f)-n], ",") }
	old := cut(lines[0], 2) + "\n" + cut(lines[1], 2) + "\n"
	if !strings.HasSuffix(lines[0], ",topology,domain") {
		t.Fatalf("header %q does not end in the added columns", lines[0])
	}
	got, err := ReadCSV[Replication](strings.NewReader(old), "old.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := r
	want.Topology, want.Domain = "", ""
	want.Samples = nil
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("old file read as %+v, want %+v", got[0], want)
	}
	older := cut(lines[0], 3) + "\n" + cut(lines[1], 3) + "\n"
	if _, err := ReadCSV[Replication](strings.NewReader(older), "older.csv"); err == nil || !strings.Contains(err.Error(), `missing column "placement"`) {
		t.Errorf("file without placement: %v, want it named missing", err)
	}
}

// A missing interval (nil bounds: one key set) is written as empty CSV
// cells and JSON null and reads back missing; a row with one bound and
// not the other is refused, naming the column.
func TestMissingIntervalRoundTrips(t *testing.T) {
	m := filled[Move]()
	m.MovedFracLo, m.MovedFracHi, m.CollateralFracLo, m.CollateralFracHi, m.NetMovedFracLo, m.NetMovedFracHi = nil, nil, nil, nil, nil, nil
	roundTrip(t, m)
	var b bytes.Buffer
	if err := WriteCSV(&b, []Move{m}); err != nil {
		t.Fatal(err)
	}
	if rec := strings.Split(strings.Split(b.String(), "\n")[1], ","); !slices.Contains(rec, "") {
		t.Errorf("CSV row %q has no empty cell for the missing interval", rec)
	}
	b.Reset()
	if err := WriteJSON(&b, []Move{m}); err != nil || !strings.Contains(b.String(), `"moved_frac_lo": null`) {
		t.Errorf("JSON: %v\n%s", err, b.String())
	}
	half := filledStorm()
	half.HitAfterHi = nil
	if err := WriteCSV(io.Discard, []Storm{half}); err == nil || !strings.Contains(err.Error(), "column hit_after_hi: missing while hit_after_lo is filled") {
		t.Errorf("one bound of hit_after: %v", err)
	}
	if _, err := ReadCSV[Move](strings.NewReader(strings.Join(Columns[Move](), ",")+"\n"+csvRowWithout(t, m, "moved_frac_hi")), "m.csv"); err == nil || !strings.Contains(err.Error(), "column moved_frac_hi (") {
		t.Errorf("a file with moved_frac_lo and no moved_frac_hi: %v", err)
	}
}

// csvRowWithout returns the CSV line of row m with column col emptied
// and moved_frac's interval filled.
func csvRowWithout(t *testing.T, m Move, col string) string {
	t.Helper()
	m.MovedFracLo, m.MovedFracHi = new(m.MovedFrac-1), new(m.MovedFrac+1)
	var b bytes.Buffer
	if err := WriteCSV(&b, []Move{m}); err != nil {
		t.Fatal(err)
	}
	rec := strings.Split(strings.TrimSpace(strings.Split(b.String(), "\n")[1]), ",")
	rec[slices.Index(Columns[Move](), col)] = ""
	return strings.Join(rec, ",") + "\n"
}
