package plots

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Image size: 1200 x 800 pixels at vgimg's default 96 dpi.
var (
	figWidth  = vg.Length(1200) * vg.Inch / vgimg.DefaultDPI
	figHeight = vg.Length(800) * vg.Inch / vgimg.DefaultDPI
	// legendWidth is the strip right of the axes reserved for the legend,
	// so the legend never covers data.
	legendWidth = vg.Points(190)
)

// figure is one plot.Plot plus a legend drawn beside (not over) its data
// area. prepare, if set, runs once the data area is known, before drawing
// (bar widths are set there in data units).
type figure struct {
	name    string // file stem, e.g. "lookup"
	p       *plot.Plot
	legend  plot.Legend
	prepare func(dataArea draw.Canvas)
}

// newFigure returns a figure with the title and axis labels set and fonts
// sized for a 1200x800 image.
func newFigure(name, title, xLabel, yLabel string) *figure {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(17)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(14)
		a.Tick.Label.Font.Size = vg.Points(12)
	}
	p.Add(plotter.NewGrid())
	lg := plot.NewLegend()
	lg.TextStyle.Font.Size = vg.Points(13)
	lg.Top = true
	lg.Left = true
	lg.ThumbnailWidth = vg.Points(36)
	lg.Padding = vg.Points(7)
	return &figure{name: name, p: p, legend: lg}
}

// draw renders the figure on c: the plot on the left, the legend in a
// strip on the right, top-aligned with the data area.
func (f *figure) draw(c draw.Canvas) {
	pc := draw.Crop(c, 0, -legendWidth, 0, 0)
	if f.prepare != nil {
		f.prepare(f.p.DataCanvas(pc))
	}
	f.p.Draw(pc)
	lc := draw.Crop(c, c.Max.X-c.Min.X-legendWidth+vg.Points(10), 0, 0, -f.titleHeight())
	f.legend.Draw(lc)
}

// titleHeight is the vertical space the title takes, so the legend starts
// level with the top of the axes.
func (f *figure) titleHeight() vg.Length {
	if f.p.Title.Text == "" {
		return 0
	}
	return f.p.Title.TextStyle.Rectangle(f.p.Title.Text).Size().Y + f.p.Title.Padding + vg.Points(6)
}

// writeTo renders the figure in format "png" or "svg" to w.
func (f *figure) writeTo(w io.Writer, format string) error {
	var cw vg.CanvasWriterTo
	switch format {
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.New(figWidth, figHeight)}
	case "svg":
		cw = vgsvg.New(figWidth, figHeight)
	default:
		return fmt.Errorf("image format %q: want png or svg", format)
	}
	f.draw(draw.New(cw))
	_, err := cw.WriteTo(w)
	return err
}

// save writes dir/<name>.png and dir/<name>.svg, each atomically, and
// returns their paths. Drawing happens before any file is touched, and a
// panic inside gonum (which should not happen once inputs are validated) is
// turned into an error rather than leaving a partial file.
func (f *figure) save(dir string) (paths []string, err error) {
	for _, format := range []string{"png", "svg"} {
		path := filepath.Join(dir, f.name+"."+format)
		if err := writeAtomic(path, func(w io.Writer) error { return f.writeTo(w, format) }); err != nil {
			return paths, fmt.Errorf("plot %s: %w", path, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// writeAtomic writes path by filling a temporary file in the same directory
// and renaming it over path, so readers see either the old file or the
// complete new one, never a partial one.
func writeAtomic(path string, fill func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing failed: %v", r)
		}
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = fill(tmp); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// useLogIfPositive puts axis a on a log scale when every value in vals is
// finite and > 0, and reports whether it did; otherwise the axis stays
// linear (gonum's LogScale panics on values <= 0).
func useLogIfPositive(a *plot.Axis, vals []float64) bool {
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !(v > 0) || math.IsInf(v, 0) {
			return false
		}
	}
	a.Scale = plot.LogScale{}
	a.Tick.Marker = logTicks{}
	return true
}

// logYClipped puts the Y axis of f on a log scale when every centre value
// of ss is positive and finite, and returns whether it did. Confidence
// intervals whose lower end is <= 0 cannot be drawn on a log axis; their
// bars are cut at half the smallest positive value drawn, the bottom of
// the axis, so they visibly run off it.
func logYClipped(f *figure, ss []Series) bool {
	floor := math.Inf(1)
	for _, s := range ss {
		for _, p := range s.Points {
			if !(p.Y > 0) || math.IsInf(p.Y, 0) {
				return false
			}
			floor = math.Min(floor, p.Y)
			if p.CI && p.Lo > 0 {
				floor = math.Min(floor, p.Lo)
			}
		}
	}
	if math.IsInf(floor, 1) {
		return false
	}
	floor /= 2
	for _, s := range ss {
		for i := range s.Points {
			if p := &s.Points[i]; p.CI && p.Lo <= 0 {
				p.Lo = floor
			}
		}
	}
	f.p.Y.Min = floor
	f.p.Y.Scale = plot.LogScale{}
	f.p.Y.Tick.Marker = logTicks{}
	return true
}

// logTicks labels 1, 2 and 5 times each power of ten, with unlabelled
// minor ticks at the other integer multiples, so that log axes spanning
// less than a decade still get labels. Over more than four decades it
// defers to plot.LogTicks (powers of ten only); with fewer than two
// labelled ticks in range it falls back to plot.DefaultTicks.
type logTicks struct{}

// Ticks implements plot.Ticker for min > 0.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi/lo > 1e4 {
		return plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	}
	var ticks []plot.Tick
	labelled := 0
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
		for m := 1.0; m <= 9; m++ {
			v := m * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
				labelled++
			}
			ticks = append(ticks, t)
		}
	}
	if labelled < 2 {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	return ticks
}

// padAxes widens the axis ranges of f slightly so that markers and error
// bars at the extremes are not drawn on the frame: by a factor on log
// axes, by a fraction of the range on linear ones, never below 0 for data
// that is all >= 0.
func padAxes(f *figure) {
	for _, a := range []*plot.Axis{&f.p.X, &f.p.Y} {
		if _, isLog := a.Scale.(plot.LogScale); isLog {
			a.Min /= 1.12
			a.Max *= 1.12
			continue
		}
		d := 0.05 * (a.Max - a.Min)
		if d == 0 {
			d = 0.05 * math.Max(math.Abs(a.Max), 1)
		}
		if a.Min >= 0 {
			a.Min = math.Max(0, a.Min-d)
		} else {
			a.Min -= d
		}
		a.Max += d
	}
}

// requirePositive returns an error naming what and the first value <= 0,
// for axes that must be logarithmic (node counts, vnode counts).
func requirePositive(what string, vals []float64) error {
	for _, v := range vals {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s %v: a log axis needs finite values > 0", what, v)
		}
	}
	return nil
}
