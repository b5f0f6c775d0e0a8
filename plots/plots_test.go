package plots

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

const okDir = "testdata/ok"

// near reports whether a and b agree to 1e-9 relative (the benchfmt reader
// stores time as seconds, so ns values go through a *1e-9 *1e9 round trip).
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b))
}

func checkPoints(t *testing.T, what string, got []xy, want []xy) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d points %v, want %d %v", what, len(got), got, len(want), want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if !near(g.X, w.X) || !near(g.Y, w.Y) || !near(g.Lo, w.Lo) || !near(g.Hi, w.Hi) || g.CI != w.CI {
			t.Errorf("%s point %d = %+v, want %+v", what, i, g, w)
		}
	}
}

func ci(x, y, lo, hi float64) xy { return xy{X: x, Y: y, Lo: lo, Hi: hi, CI: true} }
func noCI(x, y float64) xy       { return xy{X: x, Y: y, Lo: y, Hi: y} }

// lookup.txt reads into one set per benchmark, variant and unit, with
// medians and intervals from benchmath.
func TestReadBenchmarks(t *testing.T) {
	sets, err := benchSets(filepath.Join(okDir, schema.LookupFile))
	if err != nil {
		t.Fatal(err)
	}
	type id struct{ name, variant, unit string }
	var ids []id
	for _, s := range sets {
		ids = append(ids, id{s.Name, s.Variant, s.Unit})
	}
	wantIDs := []id{
		{"Build", "", "ns/op"}, {"Build", "", "bytes-per-placement"},
		{"Lookup", "from=hash", "ns/op"}, {"Lookup", "from=key", "ns/op"},
	}
	if !slices.Equal(ids, wantIDs) {
		t.Fatalf("sets %v, want %v", ids, wantIDs)
	}
	lookup := sets[3]
	var algos []string
	for _, s := range lookup.Series {
		algos = append(algos, s.Algo)
	}
	if want := []string{"modulo", "ring", "jump"}; !slices.Equal(algos, want) {
		t.Fatalf("lookup algos %v, want catalog order %v", algos, want)
	}
	// modulo has 3 samples (5, 6, 7): median 6 and no finite 95% interval.
	checkPoints(t, "modulo", lookup.Series[0].Points, []xy{noCI(10, 6), noCI(1000, 6)})
	// ring at 10 nodes: 13 10 15 11 14 12 ns; 6 samples: median 12.5, and
	// the 95% interval of a median from 6 samples is [min, max].
	checkPoints(t, "ring", lookup.Series[1].Points, []xy{ci(10, 12.5, 10, 15), ci(1000, 22.5, 20, 25)})
	checkPoints(t, "jump", lookup.Series[2].Points, []xy{ci(10, 32.5, 30, 35), ci(1000, 42.5, 40, 45)})
	// from=hash is a separate variant, never pooled with from=key.
	checkPoints(t, "ring from=hash", sets[2].Series[0].Points, []xy{noCI(10, 4), noCI(1000, 5)})
	// Build: rendezvous n*5+i ns, ring n*100+i ns; custom metric n*16+i.
	checkPoints(t, "build ring", sets[0].Series[0].Points, []xy{ci(10, 1002.5, 1000, 1005), ci(100, 10002.5, 10000, 10005), ci(1000, 100002.5, 100000, 100005)})
	checkPoints(t, "build rendezvous bytes", sets[1].Series[1].Points, []xy{ci(10, 162.5, 160, 165), ci(100, 1602.5, 1600, 1605), ci(1000, 16002.5, 16000, 16005)})
}

// A benchmark line with NaN, +Inf, a bad number or a bad node count is an
// error naming the file, line and value.
func TestReadBenchmarksBadInput(t *testing.T) {
	for _, tc := range []struct{ name, line, want string }{
		{"nan", "BenchmarkLookup/algo=ring/nodes=10-2 100 NaN ns/op", "bad.txt:2: NaN ns/op"},
		{"inf", "BenchmarkLookup/algo=ring/nodes=10-2 100 +Inf ns/op", "bad.txt:2: +Inf ns/op"},
		{"syntax", "BenchmarkLookup/algo=ring/nodes=10-2 100 fast ns/op", "bad.txt:2"},
		{"nodes", "BenchmarkLookup/algo=ring/nodes=ten-2 100 5 ns/op", "bad.txt:2: nodes=ten"},
		{"nodes0", "BenchmarkLookup/algo=ring/nodes=0-2 100 5 ns/op", "bad.txt:2: nodes=0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := "BenchmarkLookup/algo=ring/nodes=100-2 100 5 ns/op\n" + tc.line + "\n"
			_, err := parseBench(strings.NewReader(in), "bad.txt")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// movedSeries gives one curve per algorithm and variant, sorted by node
// count, with the ideal fraction beside it; the ratio curves divide by it.
func TestMovedSeries(t *testing.T) {
	rows, err := readMove(filepath.Join(okDir, schema.MovementFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := movementOps(rows), []string{"add", "remove-random"}; !slices.Equal(got, want) {
		t.Fatalf("ops %v, want %v", got, want)
	}
	series, ideal, err := movedSeries(rows, "add", false)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, s := range series {
		labels = append(labels, s.Label)
	}
	if want := []string{"modulo", "ring", "jump"}; !slices.Equal(labels, want) {
		t.Fatalf("labels %v, want %v", labels, want)
	}
	checkPoints(t, "ring add", series[1].Points, []xy{ci(10, 0.095, 0.090, 0.100), ci(100, 0.0101, 0.0095, 0.0107)})
	checkPoints(t, "ideal add", ideal, []xy{noCI(10, 0.0909090909), noCI(100, 0.00990099)})

	ratios, ideal, err := movedSeries(rows, "remove-random", true)
	if err != nil {
		t.Fatal(err)
	}
	if ideal != nil || len(ratios) != 2 || ratios[0].Algo != "modulo" || ratios[1].Algo != "ring" {
		t.Fatalf("remove-random ratios %+v ideal %v, want modulo then ring and no ideal", ratios, ideal)
	}
	// moved_over_ideal from the file; bounds are moved_frac_lo/hi over ideal_frac.
	checkPoints(t, "ring remove ratio", ratios[1].Points, []xy{ci(10, 1.05, 1.0, 1.1), ci(100, 1.02, 0.99, 1.05)})
}

// peakBars gives one bar per node count and algorithm with its interval,
// noise floor and exact value; vnodeSeries the ring's curves against
// virtual nodes.
func TestPeakBarsAndVNodes(t *testing.T) {
	rows, err := readSpread(filepath.Join(okDir, schema.SpreadFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	groups, labels, _, bars, err := peakBars(rows)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(groups, []float64{10, 1000}) || !slices.Equal(labels, []string{"modulo", "ring", "jump"}) || len(bars) != 6 {
		t.Fatalf("groups %v labels %v, %d bars", groups, labels, len(bars))
	}
	b := bars[4] // group 1 (1000 nodes), series 1 (ring)
	if b.Group != 1 || b.Series != 1 || b.Value.Y != 1.30 || b.Value.Lo != 1.27 || b.Value.Hi != 1.33 || !b.Value.CI ||
		!b.HasNoise || b.Noise != 1.10 || !b.HasExact || b.Exact != 1.29 {
		t.Errorf("ring at 1000 nodes: %+v", b)
	}
	if bars[3].HasExact { // modulo at 1000: exact_peak_to_mean empty
		t.Errorf("modulo at 1000 nodes has an exact value: %+v", bars[3])
	}
	// spread.csv has one vnodes value: no sweep.
	if peak, _, _, err := vnodeSeries(rows); peak != nil || err != nil {
		t.Errorf("vnodeSeries(spread.csv) = %v, %v; want nil, nil", peak, err)
	}

	vrows, err := readSpread(filepath.Join(okDir, schema.VNodesFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	peak, noise, exact, err := vnodeSeries(vrows)
	if err != nil {
		t.Fatal(err)
	}
	if len(peak) != 2 || peak[0].Label != "ring, n = 5" || peak[1].Label != "ring, n = 100" {
		t.Fatalf("peak series %+v", peak)
	}
	checkPoints(t, "ring n=5", peak[0].Points, []xy{ci(1, 1.785, 1.5, 2.0), ci(10, 1.325, 1.25, 1.4), ci(100, 1.055, 1.03, 1.08), ci(1000, 1.025, 1.01, 1.04)})
	checkPoints(t, "noise n=100", noise[1].Points, []xy{noCI(1, 1.3), noCI(10, 1.3), noCI(100, 1.3)})
	if len(exact) != 1 {
		t.Fatalf("%d exact series, want 1 (n=100 has none)", len(exact))
	}
	checkPoints(t, "exact n=5", exact[0].Points, []xy{noCI(1, 1.79), noCI(10, 1.32), noCI(100, 1.05)})
}

// copyDir copies the regular files of src into a new temporary directory.
func copyDir(t *testing.T, src string, only ...string) string {
	t.Helper()
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if len(only) > 0 && !slices.Contains(only, e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// RenderAll writes every plot the test results allow, PNG and SVG, and the
// same bytes on a second run.
func TestRenderAll(t *testing.T) {
	dir := copyDir(t, okDir)
	files, err := RenderAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{
		"build.png", "build.svg", "build-bytes-per-placement.png", "build-bytes-per-placement.svg",
		"lookup-from-hash.png", "lookup-from-hash.svg", "lookup-from-key.png", "lookup-from-key.svg",
		"movement-add.png", "movement-add.svg", "movement-ratio-add.png", "movement-ratio-add.svg",
		"movement-remove-random.png", "movement-remove-random.svg", "movement-ratio-remove-random.png", "movement-ratio-remove-random.svg",
		"movement-shrink-random.png", "movement-shrink-random.svg", "movement-ratio-shrink-random.png", "movement-ratio-shrink-random.svg",
		"movement-churn.png", "movement-churn.svg", "movement-ratio-churn.png", "movement-ratio-churn.svg",
		"spread-peak-to-mean.png", "spread-peak-to-mean.svg", "ring-vnodes.png", "ring-vnodes.svg",
		"spread-hashes.png", "spread-hashes.svg", "weights.png", "weights.svg",
	}
	if !slices.Equal(names, want) {
		t.Fatalf("files %v\nwant %v", names, want)
	}
	first := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		first[f] = b
		switch filepath.Ext(f) {
		case ".png":
			cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
			if err != nil || format != "png" || cfg.Width != 1200 || cfg.Height != 800 {
				t.Errorf("%s: %s %dx%d, %v; want a 1200x800 png", f, format, cfg.Width, cfg.Height, err)
			}
		case ".svg":
			if !bytes.Contains(b, []byte("<svg")) || !bytes.HasSuffix(bytes.TrimSpace(b), []byte("</svg>")) {
				t.Errorf("%s: not a complete SVG document", f)
			}
		}
	}
	// No temporary files left behind: the figures and their index.
	ents, _ := os.ReadDir(filepath.Join(dir, schema.PlotsDir))
	if len(ents) != len(files)+1 {
		t.Errorf("%d files in %s, want %d and %s", len(ents), schema.PlotsDir, len(files), schema.PlotIndex)
	}
	// Same input, same bytes. (A second render of some of the inputs, in
	// another directory, keeps the race-enabled test short.)
	dir2 := copyDir(t, okDir, schema.ScenariosFile.Name, schema.SpreadFile.Name, schema.VNodesFile.Name, schema.HashesFile.Name, schema.WeightsFile.Name)
	again, err := RenderAll(dir2)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != 16 {
		t.Errorf("second render: %d files, want 16", len(again))
	}
	for _, f := range again {
		b, _ := os.ReadFile(f)
		if !bytes.Equal(b, first[filepath.Join(dir, schema.PlotsDir, filepath.Base(f))]) {
			t.Errorf("%s differs between two renders of the same input", filepath.Base(f))
		}
	}
}

// An empty directory is an error listing the missing inputs; one file
// alone gives its plots and no error.
func TestRenderAllMissingInputs(t *testing.T) {
	dir := t.TempDir()
	_, err := RenderAll(dir)
	if err == nil || !strings.Contains(err.Error(), "no plots") || !strings.Contains(err.Error(), filepath.Join(dir, schema.SpreadFile.Name)) {
		t.Fatalf("empty dir: error %v, want one listing the missing inputs", err)
	}
	// Only spread.csv: its plot, no error for the others.
	dir = copyDir(t, okDir, schema.SpreadFile.Name)
	files, err := RenderAll(dir)
	if err != nil || len(files) != 2 || filepath.Base(files[0]) != "spread-peak-to-mean.png" {
		t.Fatalf("spread only: %v, %v", files, err)
	}
}

// A bad number in any input is an error naming the file, line, column and
// value.
func TestRenderAllBadNumbers(t *testing.T) {
	for _, tc := range []struct{ file, from, to, want string }{
		{schema.SpreadFile.Name, "1.30,1.27,1.33", "1.30,NaN,1.33", `spread.csv:6: column peak_to_mean_lo (15): "NaN" is not a finite number`},
		{schema.MovementFile.Name, "0.095,0.090", "0.095,abc", `movement.csv:4: column moved_frac_lo (11): "abc" is not a finite number`},
		{schema.MovementFile.Name, "ring,xxhash,160,add,10,11", "ring,xxhash,160,add,,11", `movement.csv:4: column from (5): empty`},
		{schema.VNodesFile.Name, "1.785,1.5,2.0", "1.785,1.9,2.0", `vnodes.csv:2: column peak_to_mean (14): 1.785 outside its interval [1.9, 2]`},
		{schema.LookupFile, "1000000\t 10 ns/op", "1000000\t Inf ns/op", `lookup.txt:6: +Inf ns/op: not a finite`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			renderBroken(t, tc.file, tc.want, func(b []byte) []byte {
				bad := strings.Replace(string(b), tc.from, tc.to, 1)
				if bad == string(b) {
					t.Fatalf("test setup: %q not in %s", tc.from, tc.file)
				}
				return []byte(bad)
			})
		})
	}
}

// A moved fraction of 0 puts the movement plot on a linear axis (a log
// axis cannot show it), and the figure still saves.
func TestMovementZeroUsesLinearAxis(t *testing.T) {
	rows := []schema.Move{
		{Config: schema.Config{Algo: "jump"}, Op: "add", From: 10, To: 11, MovedFrac: 0, IdealFrac: 1.0 / 11, ExpectedMoves: 1e6},
		{Config: schema.Config{Algo: "jump"}, Op: "add", From: 100, To: 101, MovedFrac: 0.01, MovedFracLo: new(0.01), MovedFracHi: new(0.01), IdealFrac: 1.0 / 101, MovedOverIdeal: 1.01, ExpectedMoves: 1e6},
	}
	figs, err := movementFigures(rows)
	if err != nil {
		t.Fatal(err)
	}
	if _, isLog := figs[0].p.Y.Scale.(plot.LogScale); isLog {
		t.Errorf("moved fraction 0 on a log y axis")
	}
	if _, err := figs[0].save(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	rows[0].From = 0
	if _, err := movementFigures(rows); err == nil || !strings.Contains(err.Error(), "movement from 0") {
		t.Errorf("from = 0 on a log x axis: error %v", err)
	}
}

// Every algorithm has its own colour, fixed by its catalog position, and
// an unknown one the unknown colour.
func TestAlgoStyle(t *testing.T) {
	names := catalog.Names()
	seen := map[[4]uint8]string{}
	for _, n := range names {
		c := algoStyle(n).Color
		k := [4]uint8{c.R, c.G, c.B, c.A}
		if o, dup := seen[k]; dup {
			t.Errorf("%s and %s share colour %v", n, o, c)
		}
		seen[k] = n
	}
	if algoStyle("ring").Color != palette[slices.Index(names, "ring")] {
		t.Errorf("ring colour not fixed by catalog position")
	}
	if algoStyle("nope").Color != unknownColor {
		t.Errorf("unknown algorithm not grey")
	}
	// The common dialects, which share plots (the switching matrix, the
	// dialects' lookup panel), differ from each other in colour too.
	seen = map[[4]uint8]string{}
	for _, n := range catalog.CommonDialects() {
		c := algoStyle(n).Color
		k := [4]uint8{c.R, c.G, c.B, c.A}
		if c == unknownColor {
			t.Errorf("dialect %s drawn in the unknown grey", n)
		}
		if o, dup := seen[k]; dup {
			t.Errorf("dialects %s and %s share colour %v", n, o, c)
		}
		seen[k] = n
	}
}

// Every listed algorithm gets its own colour, marker and dash; the first
// six colours are the Okabe–Ito ones the original plots used; no two
// colours (nor a colour and the grey of unknown names) are closer in
// CIELAB than the closest Okabe–Ito pair (sky blue and blue, 26.4), and
// the added colours are dark enough to read on white.
func TestDistinctStyles(t *testing.T) {
	n := len(catalog.Names())
	if len(palette) < n || len(glyphs) < n || len(dashes) < n {
		t.Fatalf("%d colours, %d markers, %d dashes; want %d of each", len(palette), len(glyphs), len(dashes), n)
	}
	okabeIto := []color.RGBA{{86, 180, 233, 255}, {0, 114, 178, 255}, {0, 158, 115, 255}, {230, 159, 0, 255}, {204, 121, 167, 255}, {213, 94, 0, 255}}
	if !slices.Equal(palette[:6], okabeIto) {
		t.Errorf("first six colours %v, want %v", palette[:6], okabeIto)
	}
	minDist := labDist(palette[0], palette[1])
	for i := 0; i < n; i++ {
		if d := labDist(palette[i], unknownColor); d < minDist {
			t.Errorf("colour %d %v is %.1f from the unknown grey, closer than %.1f", i, palette[i], d, minDist)
		}
		if _, y := lab(palette[i]); i >= 6 && y > 0.45 {
			t.Errorf("colour %d %v has luminance %.2f, too light on white", i, palette[i], y)
		}
		for j := i + 1; j < n; j++ {
			if d := labDist(palette[i], palette[j]); d < minDist*(1-1e-9) {
				t.Errorf("colours %d %v and %d %v are %.1f apart, closer than %.1f", i, palette[i], j, palette[j], d, minDist)
			}
			if fmt.Sprintf("%#v", glyphs[i]) == fmt.Sprintf("%#v", glyphs[j]) {
				t.Errorf("markers %d and %d are the same %#v", i, j, glyphs[i])
			}
			if fmt.Sprint(dashes[i]) == fmt.Sprint(dashes[j]) {
				t.Errorf("dashes %d and %d are the same %v", i, j, dashes[i])
			}
		}
	}
	// Every polygon marker draws without error.
	p := plot.New()
	sc, err := plotter.NewScatter(plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range glyphs {
		sc.GlyphStyle.Shape = g
		p.Add(sc)
	}
	if _, err := p.WriterTo(vg.Points(100), vg.Points(100), "svg"); err != nil {
		t.Fatal(err)
	}
}

// lab returns the CIELAB coordinates (D65) of c and its relative
// luminance Y.
func lab(c color.RGBA) ([3]float64, float64) {
	lin := func(u uint8) float64 {
		v := float64(u) / 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	r, g, b := lin(c.R), lin(c.G), lin(c.B)
	x := (0.4124*r + 0.3576*g + 0.1805*b) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := (0.0193*r + 0.1192*g + 0.9505*b) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}, y
}

func labDist(a, b color.RGBA) float64 {
	la, _ := lab(a)
	lb, _ := lab(b)
	return math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2]))
}

func tickLabels(ticks []plot.Tick) []string {
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	return labels
}

// Log axes label 1-2-3-5-7 under two decades, 1-2-5 over more, powers of
// ten over four, the lowest minor tick when the first label is far above
// the bottom, and thousands with commas.
func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		// Under two decades: 1, 2, 3, 5, 7 times powers of ten.
		{5, 46, []string{"5", "7", "10", "20", "30"}},
		// Retained bytes per node, 23..31000: 1-2-5 labels, and 30 labelled
		// because the lowest 1-2-5 label (50) is over 1.8x above the bottom;
		// thousands grouped with commas.
		{23, 31000, []string{"30", "50", "100", "200", "500", "1,000", "2,000", "5,000", "10,000", "20,000"}},
		// Moved fraction 0.000107..1.12, over four decades: powers of ten,
		// and the lowest minor tick 0.0002 labelled.
		{0.000107, 1.12, []string{"0.0002", "0.001", "0.01", "0.1", "1"}},
		// Ring peak-to-mean 0.9..2.3, under half a decade: linear steps.
		{0.9, 2.3, []string{"1.0", "1.2", "1.4", "1.6", "1.8", "2.0", "2.2"}},
	} {
		if got := tickLabels((logTicks{}).Ticks(tc.lo, tc.hi)); !slices.Equal(got, tc.want) {
			t.Errorf("logTicks(%v, %v) labels %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
	// Every range gets at least three labelled ticks, inside the range.
	for lo := 1e-6; lo < 1e6; lo *= 1.7 {
		for _, f := range []float64{1.05, 1.3, 2, 3.7, 9, 40, 300, 5e3, 1e5, 1e9} {
			hi := lo * f
			ticks := (logTicks{}).Ticks(lo, hi)
			if n := len(tickLabels(ticks)); n < 3 {
				t.Errorf("logTicks(%g, %g): %d labels %v, want >= 3", lo, hi, n, tickLabels(ticks))
			}
			for _, tk := range ticks {
				if tk.Value < lo*(1-1e-9) || tk.Value > hi*(1+1e-9) {
					t.Errorf("logTicks(%g, %g): tick %v outside the range", lo, hi, tk.Value)
				}
			}
		}
	}
}

// Linear axes label steps of 0.1 or 0.05, with as many decimals as the
// step needs.
func TestLinTicks(t *testing.T) {
	// The spread axis: from just below the smallest value (1.0) up to 1.72.
	if got, want := tickLabels((linTicks{}).Ticks(0.97, 1.72)), []string{"1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7"}; !slices.Equal(got, want) {
		t.Errorf("linTicks(0.97, 1.72) labels %v, want %v", got, want)
	}
	if got, want := tickLabels((linTicks{}).Ticks(0, 0.52)), []string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5"}; !slices.Equal(got, want) {
		t.Errorf("linTicks(0, 0.52) labels %v, want %v", got, want)
	}
	if got, want := tickLabels((linTicks{}).Ticks(0.95, 1.2)), []string{"0.95", "1.00", "1.05", "1.10", "1.15", "1.20"}; !slices.Equal(got, want) {
		t.Errorf("linTicks(0.95, 1.2) labels %v, want %v", got, want)
	}
}
