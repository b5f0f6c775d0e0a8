package plots

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// drawnShape is one path filled or stroked while drawing a figure, with
// the colour and line width set at the time and its bounding box.
type drawnShape struct {
	fill  bool
	col   color.Color
	width vg.Length
	box   vg.Rectangle
}

// drawnText is one line of text drawn while drawing a figure.
type drawnText struct {
	s  string
	at vg.Point
}

// record draws f on a recording canvas of its image size and returns the
// shapes and text lines drawn.
func record(f *figure) ([]drawnShape, []drawnText) {
	var rc recorder.Canvas
	w, h := f.size()
	f.draw(draw.NewCanvas(&rc, w, h))
	var shapes []drawnShape
	var texts []drawnText
	var col color.Color = color.Black
	var width vg.Length
	for _, a := range rc.Actions {
		switch a := a.(type) {
		case *recorder.SetColor:
			col = a.Color
		case *recorder.SetLineWidth:
			width = a.Width
		case *recorder.Fill:
			shapes = append(shapes, drawnShape{fill: true, col: col, width: width, box: pathBox(a.Path)})
		case *recorder.Stroke:
			shapes = append(shapes, drawnShape{col: col, width: width, box: pathBox(a.Path)})
		case *recorder.FillString:
			texts = append(texts, drawnText{a.String, a.Point})
		}
	}
	return shapes, texts
}

// pathBox returns the bounding box of p's points (arcs as full circles).
func pathBox(p vg.Path) vg.Rectangle {
	inf := vg.Length(math.Inf(1))
	r := vg.Rectangle{Min: vg.Point{X: inf, Y: inf}, Max: vg.Point{X: -inf, Y: -inf}}
	for _, c := range p {
		if c.Type == vg.CloseComp {
			continue
		}
		d := vg.Length(0)
		if c.Type == vg.ArcComp {
			d = c.Radius
		}
		r.Min.X, r.Min.Y = min(r.Min.X, c.Pos.X-d), min(r.Min.Y, c.Pos.Y-d)
		r.Max.X, r.Max.Y = max(r.Max.X, c.Pos.X+d), max(r.Max.Y, c.Pos.Y+d)
	}
	return r
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

func countText(texts []drawnText, s string) int {
	n := 0
	for _, t := range texts {
		if t.s == s {
			n++
		}
	}
	return n
}

// Outline markers in a dot chart are drawn at least 1.6 points wide
// (gonum draws them at 0.5, lost on a CI bar of 1.5).
func TestHeavyGlyph(t *testing.T) {
	for _, g := range []draw.GlyphDrawer{draw.RingGlyph{}, draw.PlusGlyph{}, polygonGlyph{sides: 5}} {
		var rc recorder.Canvas
		c := draw.NewCanvas(&rc, vg.Points(50), vg.Points(50))
		heavyGlyph{g, vg.Points(1.6)}.DrawGlyph(&c, draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6)}, vg.Point{X: 25, Y: 25})
		n := 0
		for _, a := range rc.Actions {
			if w, ok := a.(*recorder.SetLineWidth); ok {
				n++
				if w.Width < vg.Points(1.6) {
					t.Errorf("%T drawn %v wide, want >= 1.6 points", g, w.Width)
				}
			}
		}
		if n == 0 {
			t.Errorf("%T: no line width set", g)
		}
	}
}

// The zero-row log axis: 0 gets a row of its own, labelled 0, under a
// break and below every positive value; positive values are drawn where
// they are; labels stay a factor 3.2 apart; one decade of small values
// takes a readable share of the axis.
func TestZeroLogAxis(t *testing.T) {
	a := newZeroLogAxis(8e-6, 0.99, true)
	if !(a.zero < a.brk && a.brk < 8e-6 && a.min < a.zero && a.max > 0.99) {
		t.Fatalf("axis %+v: want min < zero < break < 8e-6 and max > 0.99", a)
	}
	if a.at(0) != a.zero || a.at(-1) != a.zero || a.at(1e-5) != 1e-5 {
		t.Errorf("at(0) = %v, at(1e-5) = %v; want the zero row %v and 1e-5", a.at(0), a.at(1e-5), a.zero)
	}
	p := plot.New()
	a.set(p)
	if _, ok := p.Y.Scale.(plot.LogScale); !ok {
		t.Fatalf("scale %T, want log", p.Y.Scale)
	}
	ticks := p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max)
	if ticks[0].Label != "0" || ticks[0].Value != a.zero {
		t.Errorf("first tick %+v, want 0 at the zero row %v", ticks[0], a.zero)
	}
	var labelled []float64
	for _, tk := range ticks[1:] {
		if tk.Label != "" {
			labelled = append(labelled, tk.Value)
			if tk.Value < a.brk {
				t.Errorf("tick %v labelled under the break %v", tk.Value, a.brk)
			}
		}
	}
	for i := 1; i < len(labelled); i++ {
		if labelled[i]/labelled[i-1] < 3.2 {
			t.Errorf("labels %v and %v less than a factor 3.2 apart", labelled[i-1], labelled[i])
		}
	}
	if len(labelled) < 4 {
		t.Errorf("labels %v, want >= 4 over five decades", labelled)
	}
	// 1e-5 vs 3e-5 vs 0: the old linear axis put them within 0.1% of its
	// height of each other.
	norm := p.Y.Norm
	if d := norm(3e-5) - norm(1e-5); d < 0.04 {
		t.Errorf("1e-5 and 3e-5 %.3f of the axis apart, want >= 0.04", d)
	}
	if d := norm(1e-5) - norm(a.zero); d < 0.06 {
		t.Errorf("1e-5 and the zero row %.3f of the axis apart, want >= 0.06", d)
	}
	// Without zeros there is no zero row.
	if b := newZeroLogAxis(1e-3, 0.5, false); b.hasZero || b.min != b.brk {
		t.Errorf("no zeros: axis %+v has a zero row", b)
	}
}

// A dot chart of several panels stacks them in one column on one y axis,
// with the marks' legend beside the first panel only and every panel's
// legend strip as wide, so the axes line up.
func TestDotFigurePanels(t *testing.T) {
	dc := dotChart{name: "x", title: "t", yLabel: "y", labels: []string{"ring", "jump"}, algos: []string{"ring", "jump"},
		valueLabel: "measured", ref: 1, refLabel: "1 = even",
		panels: []dotPanel{
			{title: "a", slots: []dotSlot{{slot: 0, value: ci(0, 1.2, 1.1, 1.3)}, {slot: 1, value: ci(0, 1.01, 1.0, 1.02)}}},
			{title: "b", slots: []dotSlot{{slot: 1, value: ci(0, 1.5, 1.4, 1.6)}}},
		}}
	f, err := dotFigure(dc)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.panels) != 2 || f.cols != 1 {
		t.Fatalf("%d panels in %d columns, want 2 in 1", len(f.panels), f.cols)
	}
	a, b := f.panels[0], f.panels[1]
	if a.p.Y.Min != b.p.Y.Min || a.p.Y.Max != b.p.Y.Max {
		t.Errorf("y axes %v..%v and %v..%v, want the same", a.p.Y.Min, a.p.Y.Max, b.p.Y.Min, b.p.Y.Max)
	}
	if lo, hi := 1-0.05*0.6, 1.6+0.05*0.6; !near(a.p.Y.Min, lo) || !near(a.p.Y.Max, hi) {
		t.Errorf("y axis %v..%v, want %v..%v (1 to 1.6, 5%% beyond)", a.p.Y.Min, a.p.Y.Max, lo, hi)
	}
	if a.legendNeed() <= legendGap || b.legendNeed() != legendGap || a.legendW != b.legendW || a.legendW == 0 {
		t.Errorf("legends: first needs %v, second %v, strips %v and %v; want the legend in the first only, equal strips",
			a.legendNeed(), b.legendNeed(), a.legendW, b.legendW)
	}
	_, texts := record(f)
	var ta, tb vg.Point
	for _, tx := range texts {
		switch tx.s {
		case "a":
			ta = tx.at
		case "b":
			tb = tx.at
		}
	}
	// (Centred texts start half their width left of the centre.)
	if d := ta.X - tb.X; d > 2 || d < -2 || !(ta.Y > tb.Y) {
		t.Errorf("panel titles at %v and %v, want one above the other", ta, tb)
	}
	// A single panel is a plain figure with the panel's title appended.
	dc.panels = dc.panels[:1]
	if f, err = dotFigure(dc); err != nil || f.panels != nil || f.title != "t (a)" {
		t.Errorf("one panel: %v panels, title %q, %v; want a plain figure titled \"t (a)\"", len(f.panels), f.title, err)
	}
	dc.panels = nil
	if f, err := dotFigure(dc); f != nil || err != nil {
		t.Errorf("no slots: %v, %v; want nil, nil", f, err)
	}
}

// Each value is drawn as its algorithm's marker, in its colour; the CI in
// the same colour; no filled shape in that colour is taller than a marker
// (no bars).
func TestDotMarkersNotBars(t *testing.T) {
	dc := dotChart{name: "x", title: "t", yLabel: "y", labels: []string{"ring", "jump"}, algos: []string{"ring", "jump"},
		panels: []dotPanel{{slots: []dotSlot{{slot: 0, value: ci(0, 0.4, 0.3, 0.5)}, {slot: 1, value: noCI(0, 0.9)}}}}}
	f, err := dotFigure(dc)
	if err != nil {
		t.Fatal(err)
	}
	shapes, texts := record(f)
	for _, a := range []string{"ring", "jump"} {
		if n := markersNotBars(t, shapes, a); n == 0 {
			t.Errorf("%s: nothing drawn in its colour", a)
		}
		if countText(texts, a) != 1 {
			t.Errorf("%s: name drawn %d times, want once under its slot", a, countText(texts, a))
		}
	}
	if strings.Contains(strings.Join(f.caption, " "), "bars") {
		t.Errorf("caption %q speaks of bars", f.caption)
	}
}

// Every panel of a dot chart gets a y axis of the same length, most of
// its tile, wherever its values lie: nothing drawn (such as a noise floor
// dash as wide as a slot) makes gonum pad one panel's axis.
func TestDotPanelsAlign(t *testing.T) {
	_, f := okSpreadFigure(t)
	_, h := f.size()
	tile := h / vg.Length(len(f.panels))
	_, texts := record(f)
	var lo, hi []vg.Length // y of the labels 1.00 and 1.30, panel by panel
	for _, tx := range texts {
		switch tx.s {
		case "1.00":
			lo = append(lo, tx.at.Y)
		case "1.30":
			hi = append(hi, tx.at.Y)
		}
	}
	if len(lo) != len(f.panels) || len(hi) != len(f.panels) {
		t.Fatalf("labels 1.00 at %v, 1.30 at %v; want one of each per panel", lo, hi)
	}
	span := hi[0] - lo[0]
	for i := range lo {
		if d := hi[i] - lo[i] - span; d > 1 || d < -1 || hi[i]-lo[i] < 0.5*tile {
			t.Errorf("panel %d: 1.00 to 1.30 spans %v, panel 0 %v, tile %v; want all equal and >= half the tile", i, hi[i]-lo[i], span, tile)
		}
	}
}
