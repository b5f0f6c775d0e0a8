package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	gpalette "gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// The switching matrix is a heat map of switching.csv: one figure per
// fleet (the rows with the same nodes, weights, first and last node),
// cell (row FROM, column TO) the fraction of keys routed differently when
// the fleet switches from FROM to TO, printed in the cell with, under
// it, the database's reads right after the switch as a multiple of its
// steady load; white for 0 to dark red for 1, in a colour map whose
// lightness falls linearly with the value (moreland.NewLuminance), so the
// shade reads the same in grey. The diagonal, a placement with itself, is
// grey.

// switchCellPixels is the side of one cell of the matrix; the figure
// grows with the placements so that two lines of text fit every cell.
const switchCellPixels = 70

// switchColors are the colour map's control points, dark to light (the
// luminance must rise): dark red, red, orange, pale orange, white.
var switchColors = []color.Color{
	color.RGBA{R: 103, G: 0, B: 13, A: 255}, color.RGBA{R: 203, G: 24, B: 29, A: 255}, color.RGBA{R: 241, G: 105, B: 19, A: 255},
	color.RGBA{R: 253, G: 208, B: 162, A: 255}, color.RGBA{R: 255, G: 255, B: 255, A: 255},
}

// switchFleet is one fleet's rows and its placements in order of first
// appearance (as algo, then as to_algo).
type switchFleet struct {
	key   string
	rows  []schema.Switch
	names []string
}

// switchFleets groups rows by fleet, in order of first appearance.
func switchFleets(rows []schema.Switch) []*switchFleet {
	var fleets []*switchFleet
	for _, r := range rows {
		key := fmt.Sprintf("%d|%s|%s|%s", r.Nodes, r.Weights, r.FirstNode, r.LastNode)
		i := slices.IndexFunc(fleets, func(f *switchFleet) bool { return f.key == key })
		if i < 0 {
			fleets = append(fleets, &switchFleet{key: key})
			i = len(fleets) - 1
		}
		f := fleets[i]
		f.rows = append(f.rows, r)
		for _, n := range []string{r.Algo, r.ToAlgo} {
			if !slices.Contains(f.names, n) {
				f.names = append(f.names, n)
			}
		}
	}
	return fleets
}

// switchGrid is a plotter.GridXYZ of one fleet: column c is to_algo
// names[c], row r (from the bottom) algo names[len-1-r], Z the fraction
// routed differently, NaN where not measured (the diagonal).
type switchGrid struct {
	names []string
	z     [][]float64 // [from][to]
}

func (g switchGrid) Dims() (c, r int)   { return len(g.names), len(g.names) }
func (g switchGrid) Z(c, r int) float64 { return g.z[len(g.names)-1-r][c] }
func (g switchGrid) X(c int) float64    { return float64(c) }
func (g switchGrid) Y(r int) float64    { return float64(r) }
func (g switchGrid) Min() float64       { return 0 }
func (g switchGrid) Max() float64       { return 1 }

// switchingFigures returns one switching matrix per fleet of rows: the
// first named switching, the next switching-weighted when its fleet is
// weighted and the first is not, any further one switching-<i> (i = 3,
// ...). It returns an error for a pair given twice in one fleet.
func switchingFigures(rows []schema.Switch) ([]*figure, error) {
	var figs []*figure
	for i, fl := range switchFleets(rows) {
		name := "switching"
		switch {
		case i == 0:
		case i == 1 && fl.rows[0].Weights != "1" && figs[0] != nil && rows[0].Weights == "1":
			name = "switching-weighted"
		default:
			name = fmt.Sprintf("switching-%d", i+1)
		}
		f, err := switchingFigure(name, fl)
		if err != nil {
			return figs, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// switchMatrix returns the grid of one fleet and the database multiple
// of every cell ([from][to], NaN where not measured); an error names a
// pair given twice.
func switchMatrix(fl *switchFleet) (switchGrid, [][]float64, error) {
	n := len(fl.names)
	g := switchGrid{names: fl.names, z: make([][]float64, n)}
	mult := make([][]float64, n)
	for i := range g.z {
		g.z[i], mult[i] = make([]float64, n), make([]float64, n)
		for j := range g.z[i] {
			g.z[i][j], mult[i][j] = math.NaN(), math.NaN()
		}
	}
	for _, r := range fl.rows {
		i, j := slices.Index(fl.names, r.Algo), slices.Index(fl.names, r.ToAlgo)
		if !math.IsNaN(g.z[i][j]) {
			return g, nil, fmt.Errorf("switch %s -> %s on %d servers: two rows", r.Algo, r.ToAlgo, r.Nodes)
		}
		g.z[i][j], mult[i][j] = r.DifferFrac, r.DBMultiple
	}
	return g, mult, nil
}

// switchingFigure draws the matrix of one fleet.
func switchingFigure(name string, fl *switchFleet) (*figure, error) {
	n := len(fl.names)
	g, mult, err := switchMatrix(fl)
	if err != nil {
		return nil, err
	}
	cmap, err := moreland.NewLuminance(switchColors)
	if err != nil {
		return nil, err
	}
	cmap.SetMin(0)
	cmap.SetMax(1)
	r0 := fl.rows[0]
	weights := "weight " + r0.Weights
	if strings.Contains(r0.Weights, ",") {
		weights = "weights " + r0.Weights
	}
	f := newFigure(name, "Keys routed differently when a fleet switches client or proxy (from the row's to the column's)", "switched to", "the fleet runs today")
	f.caption = []string{
		fmt.Sprintf("%d servers %s .. %s, %s; under each share: the database's reads right after the switch, x its steady load (%s reads/s at %s hits)",
			r0.Nodes, r0.FirstNode, r0.LastNode, weights, numfmt.Thousands(r0.Reads), numfmt.Percent(r0.HitRatio, 0)),
		runCaption(runsOf(fl.rows)),
	}
	f.p = plot.New()
	f.p.X.Label.Text, f.p.Y.Label.Text = "switched to", "the fleet runs today"
	for _, a := range []*plot.Axis{&f.p.X, &f.p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(14)
		a.Tick.Label.Font.Size = vg.Points(12)
		a.Tick.Length = 0
		a.LineStyle.Width = 0
	}
	f.p.Title.TextStyle.Font.Size = vg.Points(17)
	hm := plotter.NewHeatMap(g, gpalette.Reverse(cmap).Palette(256))
	hm.Min, hm.Max = 0, 1
	hm.NaN = color.Gray{Y: 225}
	f.p.Add(hm)
	labels, err := switchLabels(g, mult, cmap)
	if err != nil {
		return nil, err
	}
	f.p.Add(labels)
	var xt, yt []plot.Tick
	for i, nm := range fl.names {
		xt = append(xt, plot.Tick{Value: float64(i), Label: nm})
		yt = append(yt, plot.Tick{Value: float64(n - 1 - i), Label: nm})
	}
	f.p.X.Tick.Marker, f.p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	f.p.X.Tick.Label.Rotation = math.Pi / 4
	f.p.X.Tick.Label.XAlign, f.p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	f.p.X.Min, f.p.X.Max, f.p.Y.Min, f.p.Y.Max = -0.5, float64(n)-0.5, -0.5, float64(n)-0.5
	f.keepXTicks = true
	f.legendW = vg.Points(24) // no legend: a margin right of the last column
	side := vg.Length(switchCellPixels*n) * vg.Inch / vgimg.DefaultDPI
	f.width = side + vg.Points(300)
	f.height = side + vg.Points(320)
	return f, nil
}

// switchLabels returns the text of every measured cell: the fraction in
// percent and under it the database multiple, dark on light cells and
// white on dark ones (colour lightness below half).
func switchLabels(g switchGrid, mult [][]float64, cmap gpalette.ColorMap) (*plotter.Labels, error) {
	var xy plotter.XYLabels
	var styles []draw.TextStyle
	n := len(g.names)
	for i := range n {
		for j := range n {
			v := g.z[i][j]
			if math.IsNaN(v) {
				continue
			}
			xy.XYs = append(xy.XYs, plotter.XY{X: float64(j), Y: float64(n - 1 - i)})
			xy.Labels = append(xy.Labels, numfmt.PercentSig3(v)+"\n"+numfmt.Fixed(mult[i][j], 1)+"x")
			st := draw.TextStyle{Color: color.Black, XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}
			st.Font.Size = vg.Points(10)
			st.Font.Typeface, st.Font.Variant = plot.DefaultFont.Typeface, plot.DefaultFont.Variant
			if c, err := gpalette.Reverse(cmap).At(v); err == nil && lightness(c) < 0.5 {
				st.Color = color.White
			}
			styles = append(styles, st)
		}
	}
	l, err := plotter.NewLabels(xy)
	if err != nil {
		return nil, err
	}
	for k := range styles {
		styles[k].Font = l.TextStyle[k].Font
		styles[k].Font.Size = vg.Points(10)
	}
	l.TextStyle = styles
	return l, nil
}

// lightness returns the relative luminance of c (0 black, 1 white).
func lightness(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}
