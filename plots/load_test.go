package plots

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/analysis/schema"
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
}

func TestLoadSeries(t *testing.T) {
	tb, err := schema.ReadTable(filepath.Join(trafficDir, LoadFile), loadColumns)
	if err != nil {
		t.Fatal(err)
	}
	nodes, series, floors, err := LoadSeries(tb)
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
	b, _ := os.ReadFile(filepath.Join(trafficDir, LoadFile))
	lines := strings.SplitAfter(string(b), "\n")
	dup := strings.Join(lines[:3], "") + lines[2]
	os.WriteFile(filepath.Join(dir, LoadFile), []byte(dup), 0o644)
	_, errs := trafficFigures(dir)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "lines 3 and 4") {
		t.Errorf("duplicate row: %v", errs)
	}
	os.WriteFile(filepath.Join(dir, LoadFile), []byte(strings.Replace(string(b), ",0.99,", ",NaN,", 1)), 0o644)
	if _, errs := trafficFigures(dir); len(errs) != 1 || !strings.Contains(errs[0].Error(), "NaN") {
		t.Errorf("NaN exponent: %v", errs)
	}
}
