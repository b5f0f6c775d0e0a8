package plots

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

func readMovementFigs(t *testing.T, file string) []*figure {
	t.Helper()
	rows, err := readMove(filepath.Join(okDir, file))
	if err != nil {
		t.Fatal(err)
	}
	figs, err := movementFigures(rows)
	if err != nil {
		t.Fatal(err)
	}
	return figs
}

// Titles, labels and file names use words, not CSV column or op names.
func TestMovementTitlesAndLabels(t *testing.T) {
	figs := append(readMovementFigs(t, schema.MovementFile.Name), readMovementFigs(t, schema.ScenariosFile.Name)...)
	var names []string
	for _, f := range figs {
		names = append(names, f.name)
		for _, text := range []string{f.name, f.title, f.p.Y.Label.Text} {
			if strings.Contains(text, "_") || strings.Contains(text, "op=") {
				t.Errorf("%s: %q uses an internal name", f.name, text)
			}
		}
		if f.title == "" || len(f.caption) == 0 {
			t.Errorf("%s: title %q caption %q, want both", f.name, f.title, f.caption)
		}
		if want := "100,000 keys x 5 sets, xxhash, seed 1, ring vnodes 160"; f.caption[0] != want {
			t.Errorf("%s: caption %q, want %q", f.name, f.caption[0], want)
		}
		multi := strings.Contains(f.name, "shrink") || strings.Contains(f.name, "churn")
		y := f.p.Y.Label.Text
		if multi && (strings.Contains(y, "0..1") || !strings.Contains(y, "can exceed 1")) && !strings.Contains(f.name, "ratio") {
			t.Errorf("%s: y label %q: a summed multi-step move must not claim 0..1", f.name, y)
		}
		if !multi && !strings.Contains(f.name, "ratio") && !strings.Contains(y, "(0..1") {
			t.Errorf("%s: y label %q, want the 0..1 range of a single change", f.name, y)
		}
	}
	want := []string{"movement-add", "movement-ratio-add", "movement-remove-random", "movement-ratio-remove-random",
		"movement-shrink-random", "movement-ratio-shrink-random", "movement-churn", "movement-ratio-churn"}
	if !slices.Equal(names, want) {
		t.Fatalf("figures %v, want %v", names, want)
	}
	for _, op := range []string{"add", "add-many", "remove-last", "remove-random", "restore", "shrink-random", "shrink-lifo", "churn"} {
		if s := opTitle(op); strings.Contains(s, op) && op != "add" {
			t.Errorf("opTitle(%q) = %q: not described", op, s)
		}
	}
	if s := opTitle("grow-3"); !strings.Contains(s, `"grow-3"`) {
		t.Errorf("opTitle of an unknown op = %q, want it quoted", s)
	}
}

// Modulo's ratio (9.999 at 10 nodes in the test data, growing like n) is
// left out of the ratio plots, with a note, so the axis spans the others.
func TestRatioPlotsOmitModulo(t *testing.T) {
	figs := readMovementFigs(t, schema.MovementFile.Name)
	add := figs[1]
	if add.name != "movement-ratio-add" {
		t.Fatalf("figure %s, want movement-ratio-add", add.name)
	}
	// Ratios left: ring 0.95/1.01 (CI 0.9..1.1 /0.0909 ...), jump ~1.
	if add.p.Y.Max > 2 || add.p.Y.Min < 0.5 {
		t.Errorf("ratio axis %v..%v: should span the non-modulo ratios near 1, not modulo's 10", add.p.Y.Min, add.p.Y.Max)
	}
	if len(add.drawn) != 2 {
		t.Errorf("%d series drawn, want 2 (ring, jump)", len(add.drawn))
	}
	if n := len(add.caption); n != 3 || add.caption[2] != "modulo omitted: its ratio grows like n, see movement-add" {
		t.Errorf("caption %q, want the modulo note", add.caption)
	}
	labels := tickLabels(add.p.Y.Tick.Marker.Ticks(add.p.Y.Min, add.p.Y.Max))
	if len(labels) < 3 {
		t.Errorf("ratio axis labels %v, want >= 3", labels)
	}
}

// TestMovementNeedsExpectedMoves: no movement plot draws a point that
// expects fewer than minExpectedMoves moved keys per key set. In the test
// data the add at n = 100 has 100,000 keys x ideal 1/101 = 990 expected
// moves: it is left out of movement-add and its ratio plot, and the
// caption says so; remove-random at n = 100 (1,000 expected) is drawn,
// and its caption says every point reaches the threshold.
func TestMovementNeedsExpectedMoves(t *testing.T) {
	figs := readMovementFigs(t, schema.MovementFile.Name)
	for _, f := range figs {
		for _, xys := range f.drawn {
			for _, p := range xys {
				if strings.HasSuffix(f.name, "-add") && p.X == 100 {
					t.Errorf("%s draws n = 100 (990 expected moves)", f.name)
				}
			}
		}
		var note string
		for _, c := range f.caption {
			if strings.Contains(c, "expect") {
				note = c
			}
		}
		want := "every point expects >= 1,000"
		if strings.HasSuffix(f.name, "-add") {
			want = "not drawn: n = 100 (fewer than 1,000 expected moved keys per key set)"
		}
		if !strings.Contains(note, want) {
			t.Errorf("%s caption %q, want %q", f.name, f.caption, want)
		}
	}
	rows, err := readMove(filepath.Join(okDir, schema.MovementFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	kept, dropped := enoughMoves(rows)
	if len(kept) != len(rows)-3 || len(dropped["add"]) != 1 {
		t.Errorf("kept %d of %d rows, dropped %v; want the three adds at n = 100 left out", len(kept), len(rows), dropped)
	}
}

// Benchmark plots name their machine and runs in the caption, and each
// benchmark and unit its own title and file name.
func TestBenchTitlesAndCaption(t *testing.T) {
	sets, err := benchSets(filepath.Join(okDir, schema.LookupFile))
	if err != nil {
		t.Fatal(err)
	}
	lookup := sets[3] // from=key: modulo 3 samples, ring and jump 6
	if want := "linux/amd64, cpu test, GOMAXPROCS 2; median of 3-6 runs per point"; lookup.Caption != want || lookup.Procs != "2" {
		t.Errorf("caption %q procs %q, want %q and 2", lookup.Caption, lookup.Procs, want)
	}
	for _, tc := range []struct {
		set        benchSet
		name, text string
	}{
		{benchSet{BenchSet: schema.BenchSet{Name: "Build", Unit: "retained-bytes/node"}}, "build-retained-bytes-per-node", "Memory per node retained by one placement (bytes)"},
		{benchSet{BenchSet: schema.BenchSet{Name: "LookupSwap", Unit: "ns/op", Procs: "2"}}, "lookupswap", "Lookup time with a concurrent placement swap (ns per lookup, 2 goroutines)"},
		{benchSet{BenchSet: schema.BenchSet{Name: "LookupParallel", Unit: "ns/op", Procs: "4"}}, "lookupparallel", "Parallel lookup time on one shared placement (ns per lookup, 4 goroutines)"},
		{benchSet{BenchSet: schema.BenchSet{Name: "Lookup", Unit: "ns/op", Variant: "from=hash"}}, "lookup-from-hash", "Lookup time from a precomputed key hash (ns per lookup)"},
	} {
		tc.set.Series = []curve{{Algo: "ring", Label: "ring", Points: []xy{noCI(10, 5), noCI(100, 6)}}}
		f, err := benchFigure(tc.set)
		if err != nil {
			t.Fatal(err)
		}
		if f.name != tc.name || f.title != tc.text {
			t.Errorf("%+v: file %q title %q, want %q %q", tc.set, f.name, f.title, tc.name, tc.text)
		}
	}
	if got := fileSafe("retained-bytes/node"); got != "retained-bytes-per-node" {
		t.Errorf("fileSafe = %q", got)
	}
	if got := fileSafe("from=key_x y"); got != "from-key-x-y" {
		t.Errorf("fileSafe = %q", got)
	}
}

// The spread chart is a dot chart, not bars: one panel per node count,
// stacked, on one y axis that spans 1 (perfectly even, drawn as a line)
// and every value, CI end, noise floor and exact value with 5% to spare,
// labelled at 1. A bar from the bottom of that axis would have a length
// that means nothing; a marker has none.
func TestSpreadDotChart(t *testing.T) {
	rows, f := okSpreadFigure(t)
	if len(f.panels) != 2 || f.cols != 1 || f.panels[0].title != "n = 10 nodes" || f.panels[1].title != "n = 1,000 nodes" {
		t.Fatalf("%d panels in %d columns, want n = 10 and n = 1,000 nodes stacked", len(f.panels), f.cols)
	}
	lo, hi := 1.0, 1.0
	for _, r := range rows {
		lo, hi = min(lo, *r.PeakToMeanLo), max(hi, *r.PeakToMeanHi)
		if x := r.ExactPeakToMean; x != nil {
			lo, hi = min(lo, *x), max(hi, *x)
		}
		lo, hi = min(lo, r.NoisePeakToMean), max(hi, r.NoisePeakToMean)
	}
	pad := 0.05 * (hi - lo)
	for _, pf := range f.panels {
		if !near(pf.p.Y.Min, lo-pad) || !near(pf.p.Y.Max, hi+pad) {
			t.Errorf("%s: y axis %v..%v, want %v..%v (5%% beyond %v..%v)", pf.title, pf.p.Y.Min, pf.p.Y.Max, lo-pad, hi+pad, lo, hi)
		}
		ticks := pf.p.Y.Tick.Marker.Ticks(pf.p.Y.Min, pf.p.Y.Max)
		one := slices.IndexFunc(ticks, func(tk plot.Tick) bool { return tk.Value == 1 && tk.Label != "" })
		if labels := tickLabels(ticks); one < 0 || len(labels) < 3 {
			t.Errorf("%s: y labels %v, want >= 3 with one at 1", pf.title, labels)
		}
	}
	shapes, texts := record(f)
	for _, a := range []string{"modulo", "ring", "jump"} {
		if n := markersNotBars(t, shapes, a); n < 2 {
			t.Errorf("%s: %d shapes in its colour, want a marker in each panel", a, n)
		}
		if got := countText(texts, a); got != 2 {
			t.Errorf("%s: name drawn %d times, want under its slot in both panels", a, got)
		}
	}
	for _, want := range []string{"1 = perfectly even", "measured with keys (95% CI)", "sampling-noise floor", "exact (no sampling), default IDs"} {
		if got := countText(texts, want); got != 1 {
			t.Errorf("legend entry %q drawn %d times, want once (beside the first panel)", want, got)
		}
	}
	if c := strings.Join(f.caption, "\n"); strings.Contains(c, "bars") || !strings.Contains(c, "ring left of it: exact") {
		t.Errorf("caption %q: want where the marks sit, not bars", c)
	}
}

// With every listed algorithm every name is printed under its slot in
// every panel: none is dropped for want of room (the figure is
// panelFigWidth wide), and a configuration label runs on two lines.
// Algorithms are told apart by name, marker and colour, the markers and
// colours those of algoStyle.
func TestSpreadDirectLabels(t *testing.T) {
	var rows []schema.Spread
	for _, n := range []int{10, 100, 1000} {
		for i, a := range catalog.Names() {
			v := 1.02 + 0.01*float64(i)
			r := schema.Spread{Config: schema.Config{Algo: a, Hash: "xxhash", VNodes: 160}, Nodes: n,
				PeakToMean: v, PeakToMeanLo: new(v - 0.005), PeakToMeanHi: new(v + 0.005), NoisePeakToMean: 1.02}
			if a == "bounded" {
				r.Label = "bounded (partitions)"
			}
			rows = append(rows, r)
		}
	}
	f, err := spreadFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	if w, h := f.size(); w != panelFigWidth || h < 3*dotPanelHeight {
		t.Errorf("size %v x %v, want %v wide and >= %v high", w, h, panelFigWidth, 3*dotPanelHeight)
	}
	shapes, texts := record(f)
	for _, a := range catalog.Names() {
		name := a
		if a == "bounded" && countText(texts, "(partitions)") != 3 {
			t.Errorf("(partitions) drawn %d times, want 3", countText(texts, "(partitions)"))
		}
		if got := countText(texts, name); got != 3 {
			t.Errorf("%s: name drawn %d times, want once per panel", name, got)
		}
		n := 0
		for _, s := range shapes {
			if sameColor(s.col, algoStyle(a).Color) {
				n++
			}
		}
		if n < 3 {
			t.Errorf("%s: %d shapes in its colour, want its marker in each panel", a, n)
		}
	}
}

// Keys re-homed entirely: one panel per replication factor on one shared
// log axis, so R = 3's thousandths of a percent read as well as R = 1's
// percents, 0 on a row of its own; modulo drawn, not left out; the title,
// axis and caption name the metric (no replica stays in place) and say it
// is not data loss.
func TestRehomedFigure(t *testing.T) {
	rows := []lostRow{
		{algo: "ring", replicas: 1, value: ci(0, 0.0104, 0.0096, 0.0112)},
		{algo: "modulo", replicas: 1, value: ci(0, 0.989, 0.988, 0.99)},
		{algo: "ketama", replicas: 1, value: ci(0, 0.0348, 0.033, 0.0366)},
		{algo: "ring", replicas: 3, value: ci(0, 0, 0, 0)},
		{algo: "modulo", replicas: 3, value: ci(0, 0.911, 0.91, 0.913)},
		{algo: "ketama", replicas: 3, value: ci(0, 2e-5, 0, 4e-5)},
		{algo: "jump", replicas: 3, value: ci(0, 1e-5, 0, 3.8e-5)},
	}
	f, err := rehomedFigure("replication-lost-remove-random-n100", "remove-random, 100 -> 99 nodes", rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.panels) != 2 || f.panels[0].title != "R = 1 replica" || f.panels[1].title != "R = 3 replicas" {
		t.Fatalf("%d panels, want R = 1 and R = 3", len(f.panels))
	}
	y0, y := f.panels[0].p.Y, f.panels[1].p.Y
	if _, ok := y.Scale.(plot.LogScale); !ok || y0.Min != y.Min || y0.Max != y.Max || y.Max < 0.99 || y.Min >= 1e-5 {
		t.Errorf("y axes %T %v..%v and %v..%v, want one log axis from under 1e-5 to over 0.99", y.Scale, y0.Min, y0.Max, y.Min, y.Max)
	}
	ticks := y.Tick.Marker.Ticks(y.Min, y.Max)
	if ticks[0].Label != "0" || !(ticks[0].Value < 1e-5) {
		t.Errorf("lowest tick %+v, want 0 below every value", ticks[0])
	}
	if d := y.Norm(2e-5) - y.Norm(1e-5); d < 0.04 {
		t.Errorf("1e-5 and 2e-5 %.3f of the axis apart, want >= 0.04", d)
	}
	if d := y.Norm(1e-5) - y.Norm(ticks[0].Value); d < 0.06 {
		t.Errorf("1e-5 and 0 %.3f of the axis apart, want >= 0.06", d)
	}
	_, texts := record(f)
	for _, a := range []string{"modulo", "ring", "jump", "ketama"} {
		if got := countText(texts, a); got != 2 {
			t.Errorf("%s: name drawn %d times, want once per panel", a, got)
		}
	}
	all := f.title + "\n" + strings.Join(f.caption, "\n") + "\n" + y.Label.Text
	for _, want := range []string{"Keys re-homed entirely (no replica stays in place): remove-random, 100 -> 99 nodes",
		"none of a key's R nodes before the change is among its R nodes after it", "not data loss", "0 (under the break)", "keys re-homed entirely (fraction, log)"} {
		if !strings.Contains(all, want) {
			t.Errorf("title, caption and y label %q lack %q", all, want)
		}
	}
	for _, bad := range []string{"losing", "omitted", "surviving"} {
		if strings.Contains(all, bad) {
			t.Errorf("title, caption and y label %q say %q", all, bad)
		}
	}
	rows = append(rows, lostRow{algo: "jump", replicas: 3, value: ci(0, 0, 0, 0)})
	if _, err := rehomedFigure("x", "y", rows); err == nil || !strings.Contains(err.Error(), "x: two rows give jump at R = 3") {
		t.Errorf("duplicate row: error %v", err)
	}
}

// Ring and bounded, which overlap in most plots, have colours at least 200
// apart in RGB and different markers.
func TestAlgoColoursApart(t *testing.T) {
	dist := func(a, b string) float64 {
		x, y := algoStyle(a).Color, algoStyle(b).Color
		dr, dg, db := float64(x.R)-float64(y.R), float64(x.G)-float64(y.G), float64(x.B)-float64(y.B)
		return math.Sqrt(dr*dr + dg*dg + db*db)
	}
	// Ring and bounded (a ring with load bounds) overlap in most plots.
	if d := dist("ring", "bounded"); d < 200 {
		t.Errorf("ring and bounded colours %v apart, want >= 200", d)
	}
	if algoStyle("ring").Glyph == algoStyle("bounded").Glyph {
		t.Errorf("ring and bounded share a marker")
	}
}

// A series drawn exactly over an earlier one gets larger markers and a
// thinner line; one that only comes close does not.
func TestOverlapDrawnVisibly(t *testing.T) {
	f := newFigure("x", "t", "x", "y")
	a := curve{Algo: "modulo", Label: "modulo", Points: []xy{noCI(10, 28.8), noCI(100, 26.1)}}
	if err := addSeries(f, a, algoStyle("modulo")); err != nil {
		t.Fatal(err)
	}
	same := plotterXYs(a.Points)
	if !f.overlaps(same) {
		t.Errorf("identical series not detected as overlapping")
	}
	close := plotterXYs([]xy{noCI(10, 28.8), noCI(100, 26.1*1.01)})
	if f.overlaps(close) {
		t.Errorf("series 1%% apart at one point detected as overlapping")
	}
}

// hashBars gives one bar per algorithm and hash with its interval, noise
// floor and exact value.
func TestHashBars(t *testing.T) {
	rows, err := readSpread(filepath.Join(okDir, schema.HashesFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	groups, hashes, bars, err := hashBars(rows)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(groups, []string{"ring", "jump"}) || !slices.Equal(hashes, []string{"fnv1a32", "xxhash"}) || len(bars) != 4 {
		t.Fatalf("groups %v hashes %v, %d bars; want catalog and registry order", groups, hashes, len(bars))
	}
	b := bars[0] // ring, fnv1a32
	if b.Group != 0 || b.Series != 0 || b.Value.Y != 1.431 || b.Value.Lo != 1.413 || !b.HasNoise || b.Noise != 1.015 || !b.HasExact || b.Exact != 1.433 {
		t.Errorf("ring fnv1a32 bar %+v", b)
	}
	if bars[3].HasExact { // jump xxhash: no exact value
		t.Errorf("jump xxhash bar %+v has an exact value", bars[3])
	}
	rows = append(rows, rows[0])
	if _, _, _, err := hashBars(rows); err == nil || !strings.Contains(err.Error(), "algo=jump vnodes=160 nodes=10 hash=xxhash") {
		t.Errorf("duplicate row: error %v", err)
	}
}

// weightBars gives one bar per node and algorithm, labelled with the
// node's weight, beside its weight share.
func TestWeightBars(t *testing.T) {
	rows, err := readWeights(filepath.Join(okDir, schema.WeightsFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	groups, labels, _, bars, err := weightBars(rows)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(groups, []string{"a (weight 1)", "b (weight 1)", "c (weight 2)"}) || !slices.Equal(labels, []string{"ring", "rendezvous"}) || len(bars) != 6 {
		t.Fatalf("groups %v labels %v, %d bars", groups, labels, len(bars))
	}
	b := bars[4] // node c, ring
	if b.Group != 2 || b.Series != 0 || b.Value.Y != 0.5 || b.Value.Lo != 0.495 || b.Noise != 0.5 || !b.HasExact || b.Exact != 0.5 {
		t.Errorf("ring node c bar %+v", b)
	}
	if b := bars[1]; b.Noise != 0.25 || b.Value.Y != 0.251 || b.HasExact {
		t.Errorf("rendezvous node a bar %+v", b)
	}
	f, err := weightsFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	if f.p.Y.Min != 0 {
		t.Errorf("share axis starts at %v, want 0", f.p.Y.Min)
	}
}

// A share outside 0..1 in weights.csv is an error naming the value.
func TestWeightsBadShare(t *testing.T) {
	dir := copyDir(t, okDir, schema.WeightsFile.Name)
	path := filepath.Join(dir, schema.WeightsFile.Name)
	b, _ := os.ReadFile(path)
	bad := strings.Replace(string(b), "0.25,0.27,", "0.25,1.27,", 1)
	if bad == string(b) {
		t.Fatal("test setup: share not found")
	}
	os.WriteFile(path, []byte(bad), 0o644)
	if _, err := readWeights(path); err == nil || !strings.Contains(err.Error(), `"1.27" is not a fraction in 0..1`) {
		t.Errorf("error %v, want one naming 1.27", err)
	}
}

// An op in both movement.csv and scenarios.csv is drawn once, with an error.
func TestRenderAllDuplicateOp(t *testing.T) {
	dir := copyDir(t, okDir, schema.MovementFile.Name)
	b, _ := os.ReadFile(filepath.Join(dir, schema.MovementFile.Name))
	os.WriteFile(filepath.Join(dir, schema.ScenariosFile.Name), b, 0o644)
	files, err := RenderAll(dir)
	if err == nil || !strings.Contains(err.Error(), "plot movement-add: more than one input") {
		t.Errorf("error %v, want one naming movement-add", err)
	}
	if len(files) != 8 {
		t.Errorf("%d files, want 8 (4 plots once each)", len(files))
	}
}

// The caption names keys x sets, hash, seeds, the settings the algorithms
// shown read, the Go version and commit, and leaves out settings no
// algorithm shown uses.
func TestRunCaption(t *testing.T) {
	in := []schema.Run{
		{Algo: "ring", Keys: "1000000", Sets: "5", Seed: "1", Hash: "xxhash", VNodes: "160", Eps: "0.25", GoVersion: "go1.26.8", Commit: "abc"},
		{Algo: "bounded", Keys: "1000000", Sets: "5", Seed: "2", Hash: "xxhash", VNodes: "160", Eps: "0.25", GoVersion: "go1.26.8", Commit: "abc"},
	}
	want := "1,000,000 keys x 5 sets, xxhash, seed 1/2, ring vnodes 160, bounded eps 0.25; go1.26.8, commit abc"
	if got := runCaption(in); got != want {
		t.Errorf("caption %q\nwant    %q", got, want)
	}
	// Without ring or bounded rows, vnodes and eps say nothing.
	if got, want := runCaption([]schema.Run{{Algo: "jump", Keys: "999", Hash: "fnv1a64", VNodes: "160", Eps: "0.25"}}), "999 keys, fnv1a64"; got != want {
		t.Errorf("caption %q, want %q", got, want)
	}
	// The table size, probes and capacity appear with the algorithms that
	// read them; capacity 0 (the default) says nothing.
	rows := []schema.Run{
		{Algo: "jump", Keys: "10", TableSize: "7", Probes: "3", Capacity: "99"},
		{Algo: "maglev", Keys: "10", TableSize: "65537", Probes: "21", Capacity: "0"},
		{Algo: "multiprobe", Keys: "10", TableSize: "65537", Probes: "21", Capacity: "0"},
		{Algo: "anchor", Keys: "10", TableSize: "65537", Probes: "21", Capacity: "0"},
	}
	if got, want := runCaption(rows), "10 keys, table size 65537, probes 21"; got != want {
		t.Errorf("caption %q, want %q", got, want)
	}
	rows[3].Capacity = "64"
	if got, want := runCaption(rows), "10 keys, table size 65537, probes 21, capacity 64"; got != want {
		t.Errorf("caption %q, want %q", got, want)
	}
	if got := thousands("12345/100"); got != "12,345/100" {
		t.Errorf("thousands = %q", got)
	}
}

// TestVNodesLayoutBandAndTheory: a vnodes sweep with layout draws and
// theory columns draws the band (5th-95th percentile over rings, as a
// polygon through the percentiles), the mean line, the theory curve and
// the default ring; percentiles that cross are an error naming the file,
// line and column.
func TestVNodesLayoutBandAndTheory(t *testing.T) {
	const head = "algo,hash,vnodes,nodes,keys,sets,seed,peak_to_mean,peak_to_mean_lo,peak_to_mean_hi,cv,noise_peak_to_mean,exact_peak_to_mean,placement,placements,placements_peak_to_mean,placements_peak_to_mean_p5,placements_peak_to_mean_p95,theory_peak_to_mean\n"
	csv := head +
		"ring,xxhash,1,10,1000,5,1,3.1,2.0,4.5,0.9,1.05,2.1,per-set,200,3.0,1.9,4.6,2.93\n" +
		"ring,xxhash,10,10,1000,5,1,1.6,1.4,1.8,0.3,1.05,1.4,per-set,200,1.55,1.3,1.85,1.54\n" +
		"ring,xxhash,100,10,1000,5,1,1.2,1.1,1.3,0.1,1.05,1.15,per-set,200,1.16,1.1,1.25,1.16\n"
	path := filepath.Join(t.TempDir(), schema.VNodesFile.Name)
	if err := os.WriteFile(path, []byte(complete[schema.Spread](t, csv)), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := readSpread(path)
	if err != nil {
		t.Fatal(err)
	}
	layouts, theory, err := vnodeLayoutSeries(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(layouts) != 1 || len(theory) != 1 {
		t.Fatalf("layout series %d, theory %d; want 1 each", len(layouts), len(theory))
	}
	if p := layouts[0].Points[1]; p.X != 10 || p.Y != 1.55 || p.Lo != 1.3 || p.Hi != 1.85 {
		t.Errorf("layout point at 10 vnodes %+v, want mean 1.55 in [1.3, 1.85]", p)
	}
	if p := theory[0].Points[0]; p.X != 1 || p.Y != 2.93 {
		t.Errorf("theory at 1 vnode %+v, want 2.93", p)
	}
	f, err := vnodesFigure(rows)
	if err != nil || f == nil {
		t.Fatalf("figure %v, %v", f, err)
	}
	if f.title != "Ring spread vs virtual nodes (n = 10 nodes)" || !strings.Contains(strings.Join(f.caption, " "), "placement per-set") {
		t.Errorf("title %q caption %q", f.title, f.caption)
	}
	var b bytes.Buffer
	if err := f.writeTo(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"exact over rings: mean, 5-95% band", "theory (Gamma)", "default ring"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("svg lacks legend entry %q", want)
		}
	}
	bad := strings.Replace(csv, ",200,3.0,1.9,4.6,", ",200,3.0,4.7,4.6,", 1)
	if err := os.WriteFile(path, []byte(complete[schema.Spread](t, bad)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readSpread(path); err == nil || !strings.Contains(err.Error(), ":2: column placements_peak_to_mean_p5") {
		t.Errorf("5th percentile above the 95th: error %v", err)
	}
}

// Tick labels group thousands with commas and keep the decimals asked for.
func TestTickText(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		dec  int
		want string
	}{
		{60000000, -1, "60,000,000"}, {1000, -1, "1,000"}, {999, -1, "999"}, {0.99, -1, "0.99"},
		{1234.5, 1, "1,234.5"}, {-2500, 0, "-2,500"}, {1, 1, "1.0"},
	} {
		if got := tickText(tc.v, tc.dec); got != tc.want {
			t.Errorf("tickText(%v, %d) = %q, want %q", tc.v, tc.dec, got, tc.want)
		}
	}
}

// X tick labels that would overlap are dropped, the roundest kept: on
// a node axis 10..10,000 in a narrow panel 5,000 goes and 10,000 stays; on
// a wide one all stay. Likewise in rendered figures, on 10..20,000.
func TestThinLabels(t *testing.T) {
	ticks := (logTicks{}).Ticks(10, 10000)
	width := func(s string) vg.Length { return vg.Length(6 * len(s)) }
	thin := func(axis vg.Length) []string {
		pos := func(v float64) vg.Length { return axis * vg.Length(math.Log10(v/10)/3) }
		return tickLabels(thinLabels(ticks, pos, width, 6))
	}
	if got, want := thin(2000), tickLabels(ticks); !slices.Equal(got, want) {
		t.Errorf("wide axis: labels %v, want all of %v", got, want)
	}
	narrow := thin(300)
	if !slices.Contains(narrow, "10,000") || !slices.Contains(narrow, "1,000") || slices.Contains(narrow, "5,000") {
		t.Errorf("narrow axis: labels %v, want 10,000 and 1,000 kept, 5,000 dropped", narrow)
	}
	if got := len(thinLabels(ticks, func(float64) vg.Length { return 0 }, width, 6)); got != len(ticks) {
		t.Errorf("%d ticks after thinning, want all %d (only labels go)", got, len(ticks))
	}
	// In the rendered lookup figure: every algorithm, so panels of
	// half the width, where 5,000 does not fit beside 10,000; eight,
	// one wide panel, where it does.
	s := everyAlgorithm()
	for i := range s.Series {
		s.Series[i].Points[1].X = 20000
	}
	for _, tc := range []struct {
		n       int
		has5000 bool
	}{{16, false}, {8, true}} {
		s.Series = s.Series[:tc.n]
		f, err := benchFigure(s)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := f.writeTo(&b, "svg"); err != nil {
			t.Fatal(err)
		}
		if svg := b.String(); strings.Contains(svg, ">5,000<") != tc.has5000 || !strings.Contains(svg, ">10,000<") {
			t.Errorf("%d algorithms: label 5,000 drawn %v, want %v (and 10,000 always)", tc.n, !tc.has5000, tc.has5000)
		}
	}
}

// A y label longer than a panel is high is drawn in a smaller font, so it
// stays inside its panel; a short one keeps the 14-point font.
func TestYLabelFitsPanel(t *testing.T) {
	fontSize := func(label string) float64 {
		s := everyAlgorithm()
		f, err := benchFigure(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.panels {
			p.p.Y.Label.Text = label
		}
		var b bytes.Buffer
		if err := f.writeTo(&b, "svg"); err != nil {
			t.Fatal(err)
		}
		svg := b.String()
		i := strings.Index(svg, ">"+label+"<")
		if i < 0 {
			t.Fatalf("label %q not drawn", label)
		}
		tag := svg[strings.LastIndex(svg[:i], "<"):i]
		_, rest, ok := strings.Cut(tag, "font-size:")
		px, _, _ := strings.Cut(rest, "px")
		size, err := strconv.ParseFloat(px, 64)
		if !ok || err != nil {
			t.Fatalf("no font size in %q", tag)
		}
		return size
	}
	if got := fontSize("time (ns)"); got != 14 {
		t.Errorf("short label at %v pt, want 14", got)
	}
	long := strings.Repeat("a very long axis label ", 6)
	if got := fontSize(long); got >= 14 || got < 6 {
		t.Errorf("long label at %v pt, want shrunk below 14", got)
	}
}

// The legend strip is as wide as the legend needs, at most legendWidth.
func TestLegendStrip(t *testing.T) {
	f := newFigure("x", "t", "x", "y")
	if err := addSeries(f, curve{Algo: "ring", Label: "ring", Points: []xy{noCI(1, 1), noCI(2, 2)}}, algoStyle("ring")); err != nil {
		t.Fatal(err)
	}
	short := f.legendStrip()
	if short >= legendWidth || short != f.legendNeed() || short <= legendGap {
		t.Errorf("one short entry: strip %v, want its need %v, under %v", short, f.legendNeed(), legendWidth)
	}
	f.legend.Add(strings.Repeat("a long legend entry ", 5))
	if got := f.legendStrip(); got != legendWidth {
		t.Errorf("a long entry: strip %v, want the cap %v", got, legendWidth)
	}
}

// A few bars of one algorithm 5x above all others are cut at the top of
// the axis, with their values printed, so the others and the ideal stay
// readable; bars that are tall because the others are near zero are not.
func TestOffScaleBars(t *testing.T) {
	var rows []groupedRow
	for g, slots := range []float64{0.01, 0.5, 0.33, 0.2} {
		group := fmt.Sprintf("R = %d", g+1)
		for _, r := range []struct {
			algo string
			v    float64
		}{{"ring", 0.01}, {"slots", slots}, {"ketama", 0.034}} {
			rows = append(rows, groupedRow{group: group, algo: r.algo, value: ci(0, r.v, r.v*0.95, r.v*1.05), mark: 0.0099, hasMark: true})
		}
	}
	f, err := groupedFigure("replication-add-n100", "t", "x", "y", "ideal", rows)
	if err != nil {
		t.Fatal(err)
	}
	if f.p.Y.Max > 0.1 || f.p.Y.Max < 0.034*1.05 {
		t.Errorf("y axis up to %v, want just above the others' 0.0357", f.p.Y.Max)
	}
	if c := strings.Join(f.caption, "\n"); !strings.Contains(c, "run off the scale") {
		t.Errorf("caption %q lacks the note on cut bars", c)
	}
	var b bytes.Buffer
	if err := f.writeTo(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{">0.5<", ">0.33<", ">0.2<"} {
		if !strings.Contains(b.String(), v) {
			t.Errorf("cut bar value %s not printed", v)
		}
	}
	// The others near zero (reweight collateral): nothing is cut.
	for i := range rows {
		if rows[i].algo != "slots" {
			rows[i].value = ci(0, 0.001, 0.0009, 0.0011)
		}
	}
	if limit := offScaleLimit(barsOf(rows)); !math.IsInf(limit, 1) {
		t.Errorf("others at 0.1%% of the top: limit %v, want none", limit)
	}
	// Two algorithms far above the rest: nothing is cut either.
	rows[0].algo, rows[0].value = "jump", ci(0, 0.45, 0.44, 0.46)
	if limit := offScaleLimit(barsOf(rows)); !math.IsInf(limit, 1) {
		t.Errorf("tall bars of two algorithms: limit %v, want none", limit)
	}
}

// barsOf returns rows as Bars, one series per algorithm.
func barsOf(rows []groupedRow) []bar {
	var algos []string
	bars := make([]bar, len(rows))
	for i, r := range rows {
		if !slices.Contains(algos, r.algo) {
			algos = append(algos, r.algo)
		}
		bars[i] = bar{Series: slices.Index(algos, r.algo), Value: r.value}
	}
	return bars
}

// markersNotBars returns how many recorded shapes are drawn in algo's
// colour, and flags any filled one taller than a marker (a bar).
func markersNotBars(t *testing.T, shapes []drawnShape, algo string) int {
	t.Helper()
	n := 0
	for _, s := range shapes {
		if !sameColor(s.col, algoStyle(algo).Color) {
			continue
		}
		n++
		if h := s.box.Max.Y - s.box.Min.Y; s.fill && h > vg.Points(20) {
			t.Errorf("%s: a filled shape %v tall in its colour: a bar", algo, h)
		}
	}
	return n
}

// okSpreadFigure reads the test spread.csv and builds its figure.
func okSpreadFigure(t *testing.T) ([]schema.Spread, *figure) {
	t.Helper()
	rows, err := readSpread(filepath.Join(okDir, schema.SpreadFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := spreadFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	return rows, f
}

// shareRows returns one weights.csv row per node of a fleet of n nodes,
// the first eight of weight 2, for each algorithm: node i's share is its
// weight share times ratio(algo, i), with an interval of +-2% of it.
func shareRows(n int, algos []string, ratio func(algo string, i int) float64) []schema.ShareRow {
	w := float64(n + 8)
	var rows []schema.ShareRow
	for _, a := range algos {
		for i := range n {
			wt := 1.0
			if i < 8 {
				wt = 2
			}
			share := wt / w * ratio(a, i)
			rows = append(rows, schema.ShareRow{Config: schema.Config{Algo: a, Hash: "xxhash", VNodes: 160, Keys: 100000, Sets: 5, Seed: 1},
				Nodes: n, Share: schema.Share{ID: fmt.Sprintf("cache-%03d:11211", i+1), Weight: wt, WeightShare: wt / w,
					Share: share, ShareLo: new(share * 0.98), ShareHi: new(share * 1.02)}})
		}
	}
	return rows
}

// At the sizes of real fleets (40 and 200 nodes) the weights plot is no
// longer a bar per node and algorithm on an axis from 0: it draws each
// node's share over its weight share, sorted, one panel per weight class
// (weight 2 and weight 1), on an axis around 1 that spans the ratios, with
// each algorithm's least and most ratio and their nodes in its legend.
func TestWeightsReadableAtFleetSize(t *testing.T) {
	for _, n := range []int{40, 200} {
		rows := shareRows(n, []string{"ring", "rendezvous"}, func(a string, i int) float64 {
			if a == "ring" {
				return 0.8 + 0.4*float64((i*7)%n)/float64(n) // 0.8 .. 1.2
			}
			return 1
		})
		f, err := weightsFigure(rows)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.panels) != 2 || f.panels[0].title != "8 nodes of weight 2" || f.panels[1].title != fmt.Sprintf("%d nodes of weight 1", n-8) {
			t.Fatalf("%d nodes: %d panels %v, want one per weight class", n, len(f.panels), f.panels)
		}
		for _, pf := range f.panels {
			if pf.p.Y.Min <= 0.5 || pf.p.Y.Min >= 0.8 || pf.p.Y.Max <= 1.2 || pf.p.Y.Max >= 1.5 {
				t.Errorf("%d nodes, %s: y axis %v .. %v, want around the ratios 0.8 .. 1.2, not from 0", n, pf.title, pf.p.Y.Min, pf.p.Y.Max)
			}
		}
		dir := t.TempDir()
		if _, err := f.save(dir); err != nil {
			t.Fatal(err)
		}
		svg, err := os.ReadFile(filepath.Join(dir, "weights.svg"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(svg), "ring: 0.80 (cache-001:11211) .. 1.") {
			t.Errorf("%d nodes: the legend lacks ring's least ratio with its node", n)
		}
	}
	// A small fleet keeps its bars.
	f, err := weightsFigure(shareRows(10, []string{"ring"}, func(string, int) float64 { return 1 }))
	if err != nil || len(f.panels) != 0 || f.p.Y.Min != 0 {
		t.Errorf("10 nodes: %v, %d panels, axis from %v; want the bar chart", err, len(f.panels), f.p.Y.Min)
	}
}
