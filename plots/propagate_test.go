package plots

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

const propagateDir = "testdata/propagate"

// The propagation figure of a 16-algorithm run: one panel per catalog
// family on a shared log axis, every panel with the stale-routed series
// (the same for every algorithm) and its algorithms' astray series, each
// legend entry naming the totals simulated and modelled; a window where
// no request went astray keeps its model point but gets no marker.
func TestPropagateFigure(t *testing.T) {
	rows, err := schema.PropagateFile.Read(propagateDir)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := propagateFigures(rows, "propagate")
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 || figs[0].name != "propagate" || len(figs[0].panels) != 4 {
		t.Fatalf("%d figures, want one named propagate with 4 family panels", len(figs))
	}
	f := figs[0]
	if !strings.Contains(f.title, "one join at 20 nodes") || !strings.Contains(f.title, "linear:T=5s") {
		t.Errorf("title %q", f.title)
	}
	if !strings.Contains(f.caption[0], "400 requests/s from 100 clients on 2,000 uniform keys") || !strings.Contains(f.caption[0], "mean of 3 replays") {
		t.Errorf("caption %q", f.caption[0])
	}
	for _, pf := range f.panels {
		if _, ok := pf.p.Y.Scale.(plot.LogScale); !ok {
			t.Errorf("panel %s: y axis not logarithmic", pf.title)
		}
		if pf.p.Y.Min != f.panels[0].p.Y.Min || pf.p.Y.Max != f.panels[0].p.Y.Max {
			t.Errorf("panel %s: y range %v..%v, first panel %v..%v: panels must share the axis", pf.title, pf.p.Y.Min, pf.p.Y.Max, f.panels[0].p.Y.Min, f.panels[0].p.Y.Max)
		}
	}
	var svg bytes.Buffer
	if err := f.writeTo(&svg, "svg"); err != nil {
		t.Fatal(err)
	}
	var tot schema.Propagate
	for _, r := range rows {
		if r.Algo == "ring" && r.Window == -1 {
			tot = r
		}
	}
	for _, want := range []string{"ring: " + numfmt.Thousands(tot.Misrouted) + " (model " + numfmt.Thousands(tot.MisroutedExpected) + ")",
		"(model 1,000)"} { // stale: 400 requests/s x 5 s / 2
		if !strings.Contains(svg.String(), want) {
			t.Errorf("the figure does not show %q", want)
		}
	}

	// A window with nothing astray has no marker but keeps the model.
	rows[0].Misrouted, rows[0].MisroutedLo, rows[0].MisroutedHi = 0, new(0.0), new(0.0)
	sim, model, _, _, _, err := propagateSeries(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(sim[0].Points) != 4 || len(model[0].Points) != 5 {
		t.Errorf("%s: %d simulated and %d model points, want 4 and 5", sim[0].Algo, len(sim[0].Points), len(model[0].Points))
	}
	dup := append(slices.Clone(rows), rows[3])
	if _, err := propagateFigures(dup, "propagate"); err == nil || !strings.Contains(err.Error(), "two rows give algo=modulo") {
		t.Errorf("a repeated row: %v, want an error naming it", err)
	}
}

// The resharding figure: an ASK panel and a MOVED panel over the same
// time axis, the caption stating the whole run's counts against the model
// and whether the ASK count lies inside its band.
func TestRedirectFigure(t *testing.T) {
	rows, err := schema.PropagateRedisFile.Read(propagateDir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := redirectFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	if f.name != "propagate-redis" || len(f.panels) != 2 {
		t.Fatalf("figure %s with %d panels, want propagate-redis with 2", f.name, len(f.panels))
	}
	a, m := f.panels[0], f.panels[1]
	if a.p.X.Min != m.p.X.Min || a.p.X.Max != m.p.X.Max {
		t.Errorf("ASK x range %v..%v, MOVED %v..%v: want the same", a.p.X.Min, a.p.X.Max, m.p.X.Min, m.p.X.Max)
	}
	whole := ""
	for _, c := range f.caption {
		if strings.HasPrefix(c, "whole run:") {
			whole = c
		}
	}
	if !strings.Contains(whole, "(inside)") || !strings.Contains(whole, "MOVED 8, model 8..8") {
		t.Errorf("caption line %q, want the run inside its band and 8 MOVED", whole)
	}
	rows[len(rows)-1].Ask = 10000
	f, err = redirectFigure(rows)
	if err != nil || !strings.Contains(strings.Join(f.caption, "\n"), "(OUTSIDE)") {
		t.Errorf("an ASK count far off the model: caption %q, %v; want OUTSIDE", f.caption, err)
	}
	if _, err := redirectFigure(append(rows, rows[0])); err == nil || !strings.Contains(err.Error(), "two rows give window 0") {
		t.Errorf("a repeated window: %v", err)
	}
}

// RenderAll draws both files: a 1600x1200 PNG of panels for the 16
// algorithms and a 1200x1000 one for the resharding, the same bytes on a
// second render.
func TestRenderPropagate(t *testing.T) {
	inputs.Reset() // other tests' inputs, whose inodes a new file may reuse, are not this run's
	dir := copyDir(t, propagateDir)
	files, err := RenderAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string][2]int{"propagate.png": {1600, 1200}, "propagate-redis.png": {1200, 1000}}
	seen := 0
	for _, p := range files {
		want, ok := sizes[filepath.Base(p)]
		if !ok {
			continue
		}
		seen++
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
		if err != nil || cfg.Width != want[0] || cfg.Height != want[1] {
			t.Errorf("%s: %dx%d, %v; want %dx%d", p, cfg.Width, cfg.Height, err, want[0], want[1])
		}
		again, err := RenderAll(dir)
		if err != nil || len(again) != len(files) {
			t.Fatal(err)
		}
		b2, _ := os.ReadFile(p)
		if !bytes.Equal(b, b2) {
			t.Errorf("%s differs between two renders", p)
		}
	}
	if seen != 2 {
		t.Errorf("rendered %v, want propagate.png and propagate-redis.png", files)
	}
}
