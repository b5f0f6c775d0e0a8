package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// xy is one measured value: Y at X with, when CI is true, a 95%
// confidence interval [Lo, Hi] around Y. When CI is false, Lo = Hi = Y.
type xy struct {
	X, Y   float64
	Lo, Hi float64
	CI     bool
}

// curve is one line of a plot: an algorithm (which fixes its style), a
// legend label and its points in increasing X.
type curve struct {
	Algo   string
	Label  string
	Points []xy
	index  int // position among sibling series, for styles (unexported)
}

// estimate returns the point of a row's value y and its 95% interval
// columns [lo, hi] (X left 0); without an interval (nil: the run had one
// key set) the point has none and no error bar is drawn.
func estimate(y float64, lo, hi *float64) xy {
	if lo == nil || hi == nil {
		return xy{Y: y, Lo: y, Hi: y}
	}
	return xy{Y: y, Lo: *lo, Hi: *hi, CI: true}
}

// atX returns p at X = x.
func (p xy) atX(x float64) xy {
	p.X = x
	return p
}

// over returns p with Y and its interval divided by d > 0.
func (p xy) over(d float64) xy {
	p.Y, p.Lo, p.Hi = p.Y/d, p.Lo/d, p.Hi/d
	return p
}

func (s curve) ys() []float64 {
	v := make([]float64, 0, 3*len(s.Points))
	for _, p := range s.Points {
		v = append(v, p.Y)
		if p.CI {
			v = append(v, p.Lo, p.Hi)
		}
	}
	return v
}

func (s curve) xs() []float64 {
	v := make([]float64, len(s.Points))
	for i, p := range s.Points {
		v[i] = p.X
	}
	return v
}

func allYs(ss []curve) []float64 {
	var v []float64
	for _, s := range ss {
		v = append(v, s.ys()...)
	}
	return v
}

func allXs(ss []curve) []float64 {
	var v []float64
	for _, s := range ss {
		v = append(v, s.xs()...)
	}
	return v
}

// addSeries draws s as a line with markers in the style of its algorithm
// (dash overridden by dash if non-nil), with 95% CI error bars where known,
// and adds a legend entry.
func addSeries(f *figure, s curve, st style) error {
	xys := make(plotter.XYs, len(s.Points))
	for i, p := range s.Points {
		xys[i] = plotter.XY{X: p.X, Y: p.Y}
	}
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return fmt.Errorf("series %s: %w", s.Label, err)
	}
	line.Color = st.Color
	line.Width = vg.Points(2)
	line.Dashes = st.Dashes
	points.Color = st.Color
	points.Shape = st.Glyph
	points.Radius = vg.Points(5)
	if f.overlaps(xys) {
		// Drawn over an earlier series with the same values: a
		// larger, hollow marker and a thinner line let both be seen.
		points.Radius = vg.Points(9)
		points.Shape = hollow(points.Shape)
		line.Width = vg.Points(1.2)
	}
	f.drawn = append(f.drawn, xys)
	f.p.Add(line, points)
	_, logY := f.p.Y.Scale.(plot.LogScale)
	if bars, err := errorBars(s.Points, st.Color, logY); err != nil {
		return fmt.Errorf("series %s: %w", s.Label, err)
	} else if bars != nil {
		f.p.Add(bars)
	}
	f.legend.Add(s.Label, line, points)
	return nil
}

// overlaps reports whether every point of xys coincides (same x, y within
// 0.2%) with a point of one series drawn earlier in f, so that the new
// series would hide it.
func (f *figure) overlaps(xys plotter.XYs) bool {
	for _, prev := range f.drawn {
		n := 0
		for _, a := range xys {
			for _, b := range prev {
				if a.X == b.X && math.Abs(a.Y-b.Y) <= 0.002*math.Max(math.Abs(a.Y), math.Abs(b.Y)) {
					n++
					break
				}
			}
		}
		if len(xys) > 0 && n == len(xys) {
			return true
		}
	}
	return false
}

// ciPoints is a plotter.XYer and plotter.YErrorer over the points of a
// series that have a confidence interval; error bars are offsets from the
// centre (Y-Lo below, Hi-Y above), as gonum expects.
type ciPoints []xy

func (c ciPoints) Len() int                      { return len(c) }
func (c ciPoints) XY(i int) (x, y float64)       { return c[i].X, c[i].Y }
func (c ciPoints) YError(i int) (lo, hi float64) { return c[i].Y - c[i].Lo, c[i].Hi - c[i].Y }

// errorBars returns error bars for the points of pts that have a CI, or nil
// if none has one. On a log axis (logY) a CI whose low end, drawn as the
// offset Y-Lo below Y, would land on 0 or below (Lo <= 0, or Lo under
// Y's float precision: more than about 15 decades below it) is an error
// naming the values: gonum would panic on it.
func errorBars(pts []xy, col color.Color, logY bool) (*plotter.YErrorBars, error) {
	var ci ciPoints
	for _, p := range pts {
		if !p.CI {
			continue
		}
		if logY && !(p.Y-(p.Y-p.Lo) > 0) {
			return nil, fmt.Errorf("95%% CI [%v, %v] at %v around %v: its low end cannot be drawn on a log axis (an error bar is an offset from the centre, and %v - (%v - %v) is not > 0)", p.Lo, p.Hi, p.X, p.Y, p.Y, p.Y, p.Lo)
		}
		ci = append(ci, p)
	}
	if len(ci) == 0 {
		return nil, nil
	}
	bars, err := plotter.NewYErrorBars(ci)
	if err != nil {
		return nil, err
	}
	bars.Color = col
	bars.Width = vg.Points(1.5)
	bars.CapWidth = vg.Points(8)
	return bars, nil
}

// referenceLine draws xys as a black dashed line (ideal or noise floor)
// with a legend entry.
func referenceLine(f *figure, label string, xys plotter.XYs) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	l.Color = color.Black
	l.Width = vg.Points(1.5)
	l.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
	f.p.Add(l)
	if label != "" {
		f.legend.Add(label, l)
	}
	return nil
}

// logX puts the X axis of f on a log scale after checking every x > 0.
func logX(f *figure, what string, xs []float64) error {
	if err := requirePositive(what, xs); err != nil {
		return err
	}
	f.p.X.Scale = plot.LogScale{}
	f.p.X.Tick.Marker = logTicks{}
	return nil
}

// legendNote adds a legend entry drawn as a short black line of width w,
// for elements without a thumbnail of their own (error bars, marks).
func legendNote(f *figure, label string, w vg.Length) error {
	l, err := plotter.NewLine(plotter.XYs{{}})
	if err != nil {
		return err
	}
	l.Width = w
	f.legend.Add(label, l)
	return nil
}

// plotterXYs returns the (X, Y) of pts.
func plotterXYs(pts []xy) plotter.XYs {
	xys := make(plotter.XYs, len(pts))
	for i, p := range pts {
		xys[i] = plotter.XY{X: p.X, Y: p.Y}
	}
	return xys
}

// hollow returns the outline version of a filled marker (ring for circle,
// square for box, triangle for pyramid), and g itself otherwise.
func hollow(g draw.GlyphDrawer) draw.GlyphDrawer {
	switch g.(type) {
	case draw.CircleGlyph:
		return draw.RingGlyph{}
	case draw.BoxGlyph:
		return draw.SquareGlyph{}
	case draw.PyramidGlyph:
		return draw.TriangleGlyph{}
	}
	return g
}
