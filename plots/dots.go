package plots

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// A dot chart draws one value per algorithm as a marker (the algorithm's
// colour and marker, as in every plot) with its 95% CI, in a row of slots
// labelled with the algorithms' names, one panel per setting (node count,
// replication factor) stacked on shared axes. It replaces grouped bars
// where a bar's length would mislead: a ratio that cannot fall below 1, or
// fractions spanning decades down to exactly 0. The names under the slots
// identify each algorithm without a colour legend.

// dotSlot is one algorithm (or configuration) in one panel: the measured
// value with its CI and the marks drawn beside it where known.
type dotSlot struct {
	slot       int // x position: index into dotChart.labels
	value      xy  // X unused; CI when value.CI
	noise      float64
	hasNoise   bool
	exact      float64
	hasExact   bool
	layouts    xy // mean and 5th-95th percentiles over layouts (X unused)
	draws      float64
	hasLayouts bool
	theory     float64
	hasTheory  bool
}

// dotPanel is one panel of a dot chart: its title and slots.
type dotPanel struct {
	title string
	slots []dotSlot
}

// dotChart is the data of a dot chart.
type dotChart struct {
	name, title string
	caption     []string
	yLabel      string
	labels      []string // slot names, left to right (direct labels under the slots)
	algos       []string // algorithm of each slot, for its style
	panels      []dotPanel
	valueLabel  string // legend label of the markers and their CIs; "" for none
	// logZero draws the y axis on a log scale with 0 on a row of its own
	// under a break (fractions spanning decades that can be exactly 0);
	// otherwise the axis is linear.
	logZero bool
	// ref, when refLabel is set, is drawn as a solid black line across
	// every panel (1 = perfectly even).
	ref      float64
	refLabel string
	// theoryLabel is the legend entry of the theory marks; "" reads
	// "theory (Gamma)", the spread's.
	theoryLabel string
}

// Sizes of a dot chart: 1200 pixels wide for up to panelThreshold slots,
// panelFigWidth wide for more; dotHeader plus dotPanelHeight per panel
// high, at least figHeight.
var (
	dotHeader      = vg.Length(110) * vg.Inch / vgimg.DefaultDPI
	dotPanelHeight = vg.Length(330) * vg.Inch / vgimg.DefaultDPI
)

// Offsets (in slots) of the marks beside a slot's value: the exact value
// left of it, the layout band and theory right of it.
const (
	dotExactOff  = -0.27
	dotLayoutOff = 0.27
)

// dotFigure draws dc: one panel per dc.panels (one plain figure when
// there is only one), stacked in one column, all on the same axes, the
// legend of the marks beside the first. It returns nil for a chart
// without slots.
func dotFigure(dc dotChart) (*figure, error) {
	n := 0
	for _, pn := range dc.panels {
		n += len(pn.slots)
	}
	if n == 0 {
		return nil, nil
	}
	lo, hi, minPos, zeros := dotRange(dc)
	var ax yAxisSetter
	if dc.logZero {
		ax = newZeroLogAxis(minPos, hi, zeros)
	} else {
		ax = linearDotAxis(lo, hi)
	}
	var figs []*figure
	for i, pn := range dc.panels {
		f, err := dotPanelFigure(dc, pn, ax, i == 0)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	w := figWidth
	if len(dc.labels) > panelThreshold {
		w = panelFigWidth
	}
	h := max(figHeight, dotHeader+vg.Length(len(figs))*dotPanelHeight)
	if len(figs) == 1 {
		f := figs[0]
		f.name, f.title, f.caption = dc.name, dc.title, dc.caption
		if pt := dc.panels[0].title; pt != "" {
			f.title += " (" + pt + ")"
		}
		f.width, f.height = w, max(figHeight, dotHeader+dotPanelHeight)
		return f, nil
	}
	legend := vg.Length(0)
	for _, f := range figs {
		legend = max(legend, f.legendNeed())
	}
	for _, f := range figs {
		f.legendW = min(legend, legendWidth)
	}
	return &figure{name: dc.name, title: dc.title, caption: dc.caption, p: figs[0].p,
		panels: figs, cols: 1, width: w, height: h}, nil
}

// dotRange returns the extent of every value drawn in dc (values, CI
// ends, marks and the reference), the smallest value > 0 among them
// (+Inf if none), and whether any value or CI end is <= 0.
func dotRange(dc dotChart) (lo, hi, minPos float64, zeros bool) {
	lo, hi, minPos = math.Inf(1), math.Inf(-1), math.Inf(1)
	add := func(v float64) {
		lo, hi = min(lo, v), max(hi, v)
		if v > 0 {
			minPos = min(minPos, v)
		} else {
			zeros = true
		}
	}
	for _, pn := range dc.panels {
		for _, s := range pn.slots {
			add(s.value.Y)
			if s.value.CI {
				add(s.value.Lo)
				add(s.value.Hi)
			}
			if s.hasNoise {
				add(s.noise)
			}
			if s.hasExact {
				add(s.exact)
			}
			if s.hasLayouts {
				add(s.layouts.Lo)
				add(s.layouts.Hi)
				add(s.layouts.Y)
			}
			if s.hasTheory {
				add(s.theory)
			}
		}
	}
	if dc.refLabel != "" {
		add(dc.ref)
	}
	return lo, hi, minPos, zeros
}

// yAxisSetter sets the y axis of a panel (scale, range, ticks) and maps a
// value to where it is drawn.
type yAxisSetter interface {
	set(p *plot.Plot)
	at(v float64) float64
}

// linearDot is a linear y axis from lo to hi.
type linearDot struct{ lo, hi float64 }

// linearDotAxis returns a linear axis over [lo, hi] with 5% of the range
// (0.01 when it is empty) beyond each end, so markers and CI caps at the
// extremes are drawn whole.
func linearDotAxis(lo, hi float64) linearDot {
	pad := 0.05 * (hi - lo)
	if !(pad > 0) {
		pad = 0.01
	}
	return linearDot{lo - pad, hi + pad}
}

func (a linearDot) set(p *plot.Plot) {
	p.Y.Min, p.Y.Max = a.lo, a.hi
	p.Y.Tick.Marker = linTicks{}
}

func (a linearDot) at(v float64) float64 { return v }

// zeroLog is a log y axis from brk to max whose values <= 0 are drawn at
// zero, on a row of its own labelled 0 under a break at brk.
type zeroLog struct {
	min, zero, brk, max float64
	hasZero             bool
}

// newZeroLogAxis returns a log axis over [minPos, hi] with 5% of its
// length (at least a tenth of a decade) beyond each end; when zeros is
// set, the axis goes on down past a break to a row for 0, a third of a
// decade (at least) below.
func newZeroLogAxis(minPos, hi float64, zeros bool) zeroLog {
	if math.IsInf(minPos, 1) { // every value is 0
		minPos, hi = 1e-3, 1
	}
	hi = max(hi, minPos)
	d := math.Log10(hi) - math.Log10(minPos) // decades (hi/minPos may overflow)
	pad := math.Pow(10, max(0.1, 0.05*d))
	a := zeroLog{}
	a.brk, a.max = logRange(minPos, hi, pad, pad)
	a.min = a.brk
	if zeros {
		a.hasZero = true
		a.zero, _ = logRange(a.brk, a.brk, math.Pow(10, max(0.35, 0.09*d)), 1)
		a.min, _ = logRange(a.zero, a.zero, math.Pow(10, max(0.12, 0.03*d)), 1)
	}
	return a
}

func (a zeroLog) set(p *plot.Plot) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Min, p.Y.Max = a.min, a.max
	p.Y.Tick.Marker = a
	if a.hasZero {
		p.Add(axisBreak{at: math.Sqrt(a.zero * a.brk)})
	}
}

func (a zeroLog) at(v float64) float64 {
	if v <= 0 && a.hasZero {
		return a.zero
	}
	return v
}

// Ticks implements plot.Ticker: the log ticks from the break up, and 0 at
// the zero row. Of two labels less than a factor 3.2 apart only the
// rounder is kept (logTicks labels the ends of the axis, which crowd the
// break).
func (a zeroLog) Ticks(lo, hi float64) []plot.Tick {
	ticks := thinLabels(logTicks{}.Ticks(a.brk, hi), func(v float64) vg.Length { return vg.Length(math.Log10(v)) },
		func(string) vg.Length { return 0 }, vg.Length(math.Log10(3.2)))
	if a.hasZero {
		ticks = append([]plot.Tick{{Value: a.zero, Label: "0"}}, ticks...)
	}
	return ticks
}

// axisBreak marks a break of the y axis at the value at: a white band
// across the data area and the axis line, with two slanted strokes on the
// axis.
type axisBreak struct{ at float64 }

// Plot implements plot.Plotter.
func (b axisBreak) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(b.at)
	h := vg.Points(3)
	band := vg.Path{}
	band.Move(vg.Point{X: c.Min.X - vg.Points(6), Y: y - h})
	band.Line(vg.Point{X: c.Max.X, Y: y - h})
	band.Line(vg.Point{X: c.Max.X, Y: y + h})
	band.Line(vg.Point{X: c.Min.X - vg.Points(6), Y: y + h})
	band.Close()
	c.SetColor(color.White)
	c.Fill(band)
	st := draw.LineStyle{Color: color.Black, Width: vg.Points(1)}
	for _, dy := range []vg.Length{-h, h} {
		c.StrokeLine2(st, c.Min.X-vg.Points(6), y+dy-vg.Points(2.5), c.Min.X+vg.Points(6), y+dy+vg.Points(2.5))
	}
}

// dotPanelFigure draws one panel of dc: its slots on the axis ax, the
// marks' legend when legend is set (the first panel), every slot labelled
// with its name.
func dotPanelFigure(dc dotChart, pn dotPanel, ax yAxisSetter, legend bool) (*figure, error) {
	f := newFigure(dc.name, pn.title, "", dc.yLabel)
	f.p.Title.TextStyle.Font.Size = vg.Points(15)
	labels := make([]string, len(dc.labels))
	for i, l := range dc.labels {
		// "bounded (partitions)" in two lines, so slots stay narrow.
		labels[i] = strings.Replace(l, " (", "\n(", 1)
	}
	f.p.NominalX(labels...)
	f.p.Y.Padding = 0
	f.p.X.Tick.Label.Font.Size = vg.Points(12.5)
	f.p.X.Min, f.p.X.Max = -0.5, float64(len(dc.labels))-0.5
	ax.set(f.p)
	if dc.refLabel != "" {
		l, err := plotter.NewLine(plotter.XYs{{X: f.p.X.Min, Y: dc.ref}, {X: f.p.X.Max, Y: dc.ref}})
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = color.Black, vg.Points(1)
		f.p.Add(l)
		if legend {
			f.legend.Add(dc.refLabel, l)
		}
	}
	l := pn.layers(ax)
	// The noise floor first, under the values.
	if len(l.noise) > 0 {
		f.p.Add(slotDashes(l.noise))
	}
	if err := drawDotValues(f, dc, pn, ax); err != nil {
		return nil, err
	}
	if legend {
		if dc.valueLabel != "" {
			f.legend.Add(dc.valueLabel, ciThumb{})
		}
		if len(l.noise) > 0 {
			if err := legendNote(f, "sampling-noise floor", vg.Points(3)); err != nil {
				return nil, err
			}
		}
	}
	if err := l.draw(f, legend, dc.theoryLabel); err != nil {
		return nil, err
	}
	return f, nil
}

// dotLayers is what a dot panel draws besides its values, placed on the
// panel's y axis: the noise floors, exact values, layout bands and means,
// and theory of its slots.
type dotLayers struct {
	noise, exact, layoutMeans, theory plotter.XYs
	bands                             ciPoints
	draws                             map[float64]bool // layout draws behind the bands
}

// layers places the overlays of pn's slots on ax.
func (pn dotPanel) layers(ax yAxisSetter) dotLayers {
	l := dotLayers{draws: map[float64]bool{}}
	for _, s := range pn.slots {
		x := float64(s.slot)
		if s.hasNoise {
			l.noise = append(l.noise, plotter.XY{X: x, Y: ax.at(s.noise)})
		}
		if s.hasExact {
			l.exact = append(l.exact, plotter.XY{X: x + dotExactOff, Y: ax.at(s.exact)})
		}
		if s.hasLayouts {
			l.bands = append(l.bands, xy{X: x + dotLayoutOff, Y: ax.at(s.layouts.Y), Lo: ax.at(s.layouts.Lo), Hi: ax.at(s.layouts.Hi), CI: true})
			l.layoutMeans = append(l.layoutMeans, plotter.XY{X: x + dotLayoutOff, Y: ax.at(s.layouts.Y)})
			l.draws[s.draws] = true
		}
		if s.hasTheory {
			l.theory = append(l.theory, plotter.XY{X: x + dotLayoutOff, Y: ax.at(s.theory)})
		}
	}
	return l
}

// drawDotValues adds the values of pn's slots in the style of their
// algorithms, with their CIs: a white disc under each marker keeps it
// clear of the noise floor, the CI bar is drawn over the disc and the
// marker over both, its outline heavier than in line plots (gonum's 0.5
// points vanish on a CI bar).
func drawDotValues(f *figure, dc dotChart, pn dotPanel, ax yAxisSetter) error {
	for _, s := range pn.slots {
		st := algoStyle(dc.algos[s.slot])
		x := float64(s.slot)
		pt := xy{X: x, Y: ax.at(s.value.Y), Lo: ax.at(s.value.Lo), Hi: ax.at(s.value.Hi), CI: s.value.CI}
		halo, err := plotter.NewScatter(plotter.XYs{{X: x, Y: pt.Y}})
		if err != nil {
			return fmt.Errorf("%s: %w", dc.labels[s.slot], err)
		}
		halo.Shape, halo.Color, halo.Radius = draw.CircleGlyph{}, color.White, vg.Points(7.5)
		f.p.Add(halo)
		if pt.CI && pt.Hi > pt.Lo {
			eb, err := plotter.NewYErrorBars(ciPoints{pt})
			if err != nil {
				return fmt.Errorf("%s: %w", dc.labels[s.slot], err)
			}
			eb.Color, eb.Width, eb.CapWidth = st.Color, vg.Points(1.5), vg.Points(10)
			f.p.Add(eb)
		}
		sc, err := plotter.NewScatter(plotter.XYs{{X: x, Y: pt.Y}})
		if err != nil {
			return fmt.Errorf("%s: %w", dc.labels[s.slot], err)
		}
		sc.Shape, sc.Color, sc.Radius = heavyGlyph{st.Glyph, vg.Points(1.6)}, st.Color, vg.Points(6)
		f.p.Add(sc)
	}
	return nil
}

// draw adds the exact values, layout bands and means, and theory of l,
// with legend entries when legend is set; theoryLabel names the theory
// marks ("" for "theory (Gamma)").
func (l dotLayers) draw(f *figure, legend bool, theoryLabel string) error {
	if len(l.exact) > 0 {
		s, err := plotter.NewScatter(l.exact)
		if err != nil {
			return fmt.Errorf("exact values: %w", err)
		}
		s.Shape, s.Color, s.Radius = draw.RingGlyph{}, color.Black, vg.Points(5)
		f.p.Add(s)
		if legend {
			f.legend.Add("exact (no sampling), default IDs", s)
		}
	}
	if len(l.bands) > 0 {
		eb, err := plotter.NewYErrorBars(l.bands)
		if err != nil {
			return fmt.Errorf("layout bands: %w", err)
		}
		eb.Color, eb.Width, eb.CapWidth = bandColor, vg.Points(4), 0
		f.p.Add(eb)
		s, err := plotter.NewScatter(l.layoutMeans)
		if err != nil {
			return fmt.Errorf("layout means: %w", err)
		}
		s.Shape, s.Color, s.Radius = draw.PyramidGlyph{}, bandColor, vg.Points(5)
		f.p.Add(s)
		if legend {
			line, err := plotter.NewLine(plotter.XYs{{}})
			if err != nil {
				return err
			}
			line.Color, line.Width = bandColor, vg.Points(4)
			f.legend.Add(layoutsLabel(l.draws), line, s)
		}
	}
	if len(l.theory) > 0 {
		s, err := plotter.NewScatter(l.theory)
		if err != nil {
			return fmt.Errorf("theory: %w", err)
		}
		s.Shape, s.Color, s.Radius = thickCross{}, color.Black, vg.Points(5)
		f.p.Add(s)
		if legend {
			if theoryLabel == "" {
				theoryLabel = "theory (Gamma)"
			}
			f.legend.Add(theoryLabel, s)
		}
	}
	return nil
}

// layoutsLabel is the legend entry of layout bands over draws layouts
// ("200 layouts: mean, 5-95%", without the count when it varies).
func layoutsLabel(draws map[float64]bool) string {
	if len(draws) == 1 {
		for d := range draws {
			return fmt.Sprintf("%g layouts: mean, 5-95%%", d)
		}
	}
	return "layouts: mean, 5-95%"
}

// slotDashes draws a black dash 84% of a slot wide centred on each point
// (the noise floor across a slot). Unlike a scatter of wide glyphs it
// reports no glyph boxes, which gonum would pad the axes for as if the
// dashes were as tall as they are wide.
type slotDashes plotter.XYs

// Plot implements plot.Plotter.
func (d slotDashes) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	half := (trX(1) - trX(0)) * 0.42
	st := draw.LineStyle{Color: color.Black, Width: vg.Points(2.5)}
	for _, pt := range d {
		x, y := trX(pt.X), trY(pt.Y)
		c.StrokeLine2(st, x-half, y, x+half, y)
	}
}

// ciThumb is the legend thumbnail of a dot chart's values: a grey dot on
// a vertical 95% CI bar with caps (the markers themselves take each
// algorithm's colour and shape).
type ciThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (ciThumb) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	st := draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(1.5)}
	lo, hi := c.Min.Y, c.Max.Y
	c.StrokeLine2(st, x, lo, x, hi)
	c.StrokeLine2(st, x-vg.Points(4), lo, x+vg.Points(4), lo)
	c.StrokeLine2(st, x-vg.Points(4), hi, x+vg.Points(4), hi)
	c.DrawGlyph(draw.GlyphStyle{Color: color.Gray{Y: 60}, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}, vg.Point{X: x, Y: (lo + hi) / 2})
}

// heavyGlyph draws g with every stroke at least width wide (gonum draws
// outline markers at 0.5 points, too thin to find on a CI bar).
type heavyGlyph struct {
	g     draw.GlyphDrawer
	width vg.Length
}

// DrawGlyph implements draw.GlyphDrawer.
func (h heavyGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	hc := *c
	hc.Canvas = minLineWidth{Canvas: c.Canvas, min: h.width}
	h.g.DrawGlyph(&hc, sty, pt)
}

// minLineWidth is a vg.Canvas whose line width is at least min.
type minLineWidth struct {
	vg.Canvas
	min vg.Length
}

// SetLineWidth implements vg.Canvas.
func (m minLineWidth) SetLineWidth(w vg.Length) { m.Canvas.SetLineWidth(max(w, m.min)) }
