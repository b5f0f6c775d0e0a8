package plots

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

const trafficDir = "testdata/traffic"

// The traffic figures: one request-load plot with the hot-key floor, and
// the five bounded-loads plots per Zipf exponent, each with a worded title,
// a caption naming the data source, and no internal column names.
func TestTrafficFigures(t *testing.T) {
	figs, errs := trafficFigures(trafficDir)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var names []string
	for _, f := range figs {
		names = append(names, f.name)
		for _, text := range []string{f.name, f.title, f.p.X.Label.Text, f.p.Y.Label.Text} {
			if strings.Contains(text, "_") {
				t.Errorf("%s: %q uses a column name", f.name, text)
			}
		}
		if f.title == "" || len(f.caption) == 0 || !strings.Contains(f.caption[0], "Zipf over 2,000 keys") || !strings.Contains(f.caption[0], "commit abc1234") {
			t.Errorf("%s: title %q caption %q", f.name, f.title, f.caption)
		}
	}
	want := []string{"load-peak-to-mean",
		"bounded-max-load-over-cap-s0.99", "bounded-away-s0.99", "bounded-moved-join-s0.99", "bounded-moved-leave-s0.99", "bounded-moves-per-cap-s0.99"}
	if !slices.Equal(names, want) {
		t.Fatalf("figures %v, want %v", names, want)
	}
	// The load plot's legend (read from its SVG) lists every placement,
	// the three bounded forms by their own names, and the floor.
	var b bytes.Buffer
	if err := figs[0].writeTo(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"modulo", "ring", "rendezvous", "jump", "slots", "bounded-partition", "bounded-key", "bounded-request", "hot-key floor"} {
		if !bytes.Contains(b.Bytes(), []byte(">"+label+"<")) {
			t.Errorf("legend lacks %q", label)
		}
	}
	if bytes.Contains(b.Bytes(), []byte(">bounded<")) {
		t.Error("an ambiguous \"bounded\" in the legend")
	}
	// Eight placements: one panel, x ticks at the measured exponents.
	load := figs[0]
	if len(load.panels) != 0 || len(load.drawn) != 8 {
		t.Errorf("load figure: %d panels, %d lines; want one panel with all 8", len(load.panels), len(load.drawn))
	}
	if got := tickLabels(load.p.X.Tick.Marker.Ticks(load.p.X.Min, load.p.X.Max)); !slices.Equal(got, []string{"0", "0.99", "1.2"}) {
		t.Errorf("x tick labels %v, want 0 0.99 1.2", got)
	}
}

// loadSeries groups load.csv by node count and placement, and the hot-key
// floor is max(1, n / H(N, s)) at each exponent.
func TestLoadSeries(t *testing.T) {
	rows, err := readLoad(filepath.Join(trafficDir, schema.LoadFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	nodes, series, floors, err := loadSeries(rows)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(nodes, []float64{20}) || len(series[20]) != 8 {
		t.Fatalf("nodes %v, %d series", nodes, len(series[20]))
	}
	// floor = max(1, 20 / H(2000, s)), H(N, s) = sum_{k<=N} k^-s.
	f := floors[20]
	for i, s := range []float64{0, 0.99, 1.2} {
		h := 0.0
		for k := 2000; k >= 1; k-- {
			h += math.Pow(float64(k), -s)
		}
		if want := math.Max(1, 20/h); len(f) != 3 || !near(f[i].Y, want) {
			t.Errorf("floor at s=%v: %v, want %v", s, f, want)
		}
	}
	for _, s := range series[20] {
		if xs := s.xs(); !slices.Equal(xs, []float64{0, 0.99, 1.2}) {
			t.Errorf("%s: x %v", s.Algo, xs)
		}
	}
}

// Same input, same bytes; a duplicated row is an error naming both lines.
func TestTrafficRenderDeterministicAndBadInput(t *testing.T) {
	render := func() []byte {
		figs, errs := trafficFigures(trafficDir)
		if len(errs) != 0 {
			t.Fatal(errs)
		}
		var b bytes.Buffer
		if err := figs[0].writeTo(&b, "svg"); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if !bytes.Equal(render(), render()) {
		t.Error("two renders of load.csv differ")
	}
	dir := t.TempDir()
	b, _ := os.ReadFile(filepath.Join(trafficDir, schema.LoadFile.Name))
	lines := strings.SplitAfter(string(b), "\n")
	dup := strings.Join(lines[:3], "") + lines[2]
	os.WriteFile(filepath.Join(dir, schema.LoadFile.Name), []byte(dup), 0o644)
	_, errs := trafficFigures(dir)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "two rows give algo=ring nodes=20 zipf=0") {
		t.Errorf("duplicate row: %v", errs)
	}
	os.WriteFile(filepath.Join(dir, schema.LoadFile.Name), []byte(strings.Replace(string(b), ",0.99,", ",NaN,", 1)), 0o644)
	if _, errs := trafficFigures(dir); len(errs) != 1 || !strings.Contains(errs[0].Error(), "NaN") {
		t.Errorf("NaN exponent: %v", errs)
	}
}

// loadTableAll returns testdata's load.csv with a row per Zipf exponent
// added, copied from modulo's, for every catalog algorithm it lacks (but
// "bounded", which is there as bounded-partition): 18 placements.
func loadTableAll(t *testing.T) []schema.Load {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(trafficDir, schema.LoadFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	var extra []string
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "modulo,")
		if !ok {
			continue
		}
		for _, name := range catalog.Names() {
			if name != "bounded" && !strings.Contains(text, "\n"+name+",") {
				extra = append(extra, name+","+rest)
			}
		}
	}
	path := filepath.Join(t.TempDir(), schema.LoadFile.Name)
	if err := os.WriteFile(path, []byte(text+strings.Join(extra, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := readLoad(path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// With more than panelThreshold placements the load figure is one panel
// per family, the bounded forms in their own panel beside the plain ring;
// every panel has the hot-key floor, the whole figure's axes and x ticks
// at exactly the measured exponents (0.99 as 0.99).
func TestLoadPanels(t *testing.T) {
	figs, err := loadFigures(loadTableAll(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 {
		t.Fatalf("%d figures, want 1", len(figs))
	}
	f := figs[0]
	want := []struct {
		title string
		lines int
	}{
		{familyTitles["classic"], 7}, // modulo ring rendezvous jump slots ketama crush
		{familyTitles["bounded"], 4}, // ring (no bound) and the three forms
		{familyTitles["range"], 4},
		{familyTitles["table"], 2},
		{familyTitles["stateful"], 3},
	}
	if len(f.panels) != len(want) {
		t.Fatalf("%d panels, want %d", len(f.panels), len(want))
	}
	p0 := f.panels[0].p
	for i, p := range f.panels {
		if p.title != want[i].title || len(p.drawn) != want[i].lines {
			t.Errorf("panel %d: %q with %d lines, want %q with %d", i, p.title, len(p.drawn), want[i].title, want[i].lines)
		}
		if got := tickLabels(p.p.X.Tick.Marker.Ticks(p.p.X.Min, p.p.X.Max)); !slices.Equal(got, []string{"0", "0.99", "1.2"}) {
			t.Errorf("panel %d: x tick labels %v, want the measured exponents 0 0.99 1.2", i, got)
		}
		if p.p.X.Min != p0.X.Min || p.p.X.Max != p0.X.Max || p.p.Y.Min != p0.Y.Min || p.p.Y.Max != p0.Y.Max {
			t.Errorf("panel %d: axes differ from the first panel's", i)
		}
		if p.legendW != f.panels[0].legendW || p.legendW > panelLegend {
			t.Errorf("panel %d: legend strip %v, want the common %v <= %v", i, p.legendW, f.panels[0].legendW, panelLegend)
		}
	}
	var b bytes.Buffer
	if err := f.writeTo(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	if n := strings.Count(svg, ">hot-key floor<"); n != len(want) {
		t.Errorf("hot-key floor in %d legends, want %d (every panel)", n, len(want))
	}
	if n := strings.Count(svg, ">ring (no bound)<"); n != 1 {
		t.Errorf("ring (no bound) in %d legends, want 1 (the bounded panel)", n)
	}
	b.Reset()
	if err := f.writeTo(&b, "png"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 1600 || r.Dy() != 1200+540 {
		t.Errorf("image %dx%d, want 1600x1740 (three rows of panels)", r.Dx(), r.Dy())
	}
}

// A boundedloads.csv of one eps value (chbench bounded -eps 0.25) draws
// all five bounded figures: the log eps axis spans a factor 2 each side
// of the one value instead of gonum's +-1, which went below 0.
func TestBoundedOneEps(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(trafficDir, schema.BoundedFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i, l := range strings.Split(string(b), "\n") {
		if i == 0 || strings.Contains(l, ",0.1,0.99,") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 5 {
		t.Fatalf("%d lines kept, want the header and 4 rows at eps 0.1", len(lines))
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, schema.BoundedFile.Name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	figs, errs := trafficFigures(dir)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if len(figs) != 5 {
		t.Fatalf("%d figures, want the 5 bounded ones", len(figs))
	}
	out := t.TempDir()
	for _, f := range figs {
		if !near(f.p.X.Min, 0.05) || !near(f.p.X.Max, 0.2) {
			t.Errorf("%s: x axis %v..%v, want 0.05..0.2", f.name, f.p.X.Min, f.p.X.Max)
		}
		paths, err := f.save(out)
		if err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		pf, err := os.Open(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(pf)
		pf.Close()
		if err != nil || img.Bounds().Dx() != 1200 {
			t.Errorf("%s: png %v, %v", f.name, img, err)
		}
	}
}

// A log axis that would still reach a value <= 0 is an error naming the
// file and the value, not gonum's bare "Values must be greater than 0".
func TestLogAxisNonPositiveNamed(t *testing.T) {
	f := newFigure("neg", "t", "x", "y")
	if err := logX(f, "eps", []float64{0.25}); err != nil {
		t.Fatal(err)
	}
	f.p.X.Min, f.p.X.Max = -0.75, 1.25
	dir := t.TempDir()
	_, err := f.save(dir)
	path := filepath.Join(dir, "neg.png")
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "x axis on a log scale reaches -0.75") {
		t.Errorf("error %v, want one naming %s and -0.75", err, path)
	}
	if _, serr := os.Stat(path); serr == nil {
		t.Errorf("%s written despite the error", path)
	}
}
