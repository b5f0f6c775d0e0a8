package plots

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/chbench/chbench/schema"
)

// Image size: 1200 x 800 pixels at vgimg's default 96 dpi.
var (
	figWidth  = vg.Length(1200) * vg.Inch / vgimg.DefaultDPI
	figHeight = vg.Length(800) * vg.Inch / vgimg.DefaultDPI
	// legendWidth is the widest strip right of the axes reserved for the
	// legend, so the legend never covers data; a narrower legend gets a
	// strip just wide enough (legendNeed), and the axes the rest.
	legendWidth = vg.Points(240)
	// legendGap is the space between the axes and the legend.
	legendGap = vg.Points(10)
)

// figure is one plot.Plot plus a legend drawn beside (not over) its data
// area. prepare, if set, runs once the data area is known, before drawing
// (bar widths are set there in data units).
type figure struct {
	name    string   // file stem, e.g. "lookup"
	title   string   // drawn above the axes
	caption []string // smaller lines under the title: data source, notes
	p       *plot.Plot
	legend  plot.Legend
	prepare func(dataArea draw.Canvas)
	drawn   []plotter.XYs // line series already added, to spot exact overlaps

	// panels, when set, are drawn in a grid under the title and caption
	// instead of p and legend (small multiples, see familyPanels).
	panels        []*figure
	cols          int       // columns of the panel grid; 0 = panelCols
	width, height vg.Length // image size; 0 = figWidth, figHeight
	legendW       vg.Length // legend strip; 0 = as wide as the legend needs, at most legendWidth
	keepXTicks    bool      // draw every x tick label (rotated names), none thinned out
}

// legendStrip returns the width of the strip the legend is drawn in:
// legendW when set, else what the legend needs, at most legendWidth.
func (f *figure) legendStrip() vg.Length {
	if f.legendW > 0 {
		return f.legendW
	}
	return min(f.legendNeed(), legendWidth)
}

// legendNeed returns the width the legend of f takes with the gap before
// it and a margin after it (the gap alone when the legend is empty).
func (f *figure) legendNeed() vg.Length {
	w := f.legend.Rectangle(draw.Canvas{}).Size().X
	if w == 0 {
		return legendGap
	}
	return legendGap + w + vg.Points(8)
}

// size returns the image size of f.
func (f *figure) size() (w, h vg.Length) {
	if f.width > 0 && f.height > 0 {
		return f.width, f.height
	}
	return figWidth, figHeight
}

// newFigure returns a figure with the title and axis labels set and fonts
// sized for a 1200x800 image.
func newFigure(name, title, xLabel, yLabel string) *figure {
	p := plot.New()
	// The title is drawn by figure.draw (with the caption under it), not
	// by the plot, so p.Title stays empty; its style is reused.
	p.Title.TextStyle.Font.Size = vg.Points(17)
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
	return &figure{name: name, title: title, p: p, legend: lg}
}

// Header layout: margin above the title, gap between lines, space below.
var (
	headerTop   = vg.Points(6)
	headerGap   = vg.Points(3)
	headerBelow = vg.Points(10)
)

// titleStyle and captionStyle are the text styles of the header lines,
// centred and hanging from their top.
func (f *figure) titleStyle() draw.TextStyle {
	st := f.p.Title.TextStyle
	st.XAlign, st.YAlign = draw.XCenter, draw.YTop
	return st
}

func (f *figure) captionStyle() draw.TextStyle {
	st := f.titleStyle()
	st.Font.Size = vg.Points(11.5)
	st.Color = color.Gray{Y: 70}
	return st
}

// fitWidth returns st with its font shrunk, if needed, so that txt is at
// most w wide.
func fitWidth(st draw.TextStyle, txt string, w vg.Length) draw.TextStyle {
	if tw := st.Width(txt); tw > w && tw > 0 {
		st.Font.Size = st.Font.Size * w / tw
	}
	return st
}

// headerHeight is the vertical space the title and caption lines take, so
// the axes and the legend start below them.
func (f *figure) headerHeight() vg.Length {
	if f.title == "" && len(f.caption) == 0 {
		return 0
	}
	h := headerTop + headerBelow
	if f.title != "" {
		h += f.titleStyle().Height(f.title)
	}
	for _, l := range f.caption {
		h += headerGap + f.captionStyle().Height(l)
	}
	return h
}

// draw renders the figure on c: the title and caption centred over the
// plot, the plot on the left, the legend in a strip on the right,
// top-aligned with the data area.
func (f *figure) draw(c draw.Canvas) {
	hh := f.headerHeight()
	if len(f.panels) > 0 {
		f.drawHeader(c, c)
		f.drawPanels(draw.Crop(c, 0, 0, 0, -hh))
		return
	}
	pc := draw.Crop(c, 0, -f.legendStrip(), 0, -hh)
	f.drawHeader(c, pc)
	// The y label is drawn here, not by gonum: gonum reserves space for it
	// as if it were centred on the arithmetic mean of the axis range, which
	// on a log axis lies near the top, and leaves a wide empty band above
	// the data. It is centred on the data area, moved up or down as
	// little as needed to stay inside the plot canvas, and its font
	// shrinks if it is longer than the canvas is high (in a small panel it
	// would run into the panels above and below).
	yLabel := f.p.Y.Label.Text
	if yLabel != "" {
		h := f.p.Y.Label.TextStyle.Height(yLabel)
		inner := draw.Crop(pc, h+f.p.Y.Label.Padding+vg.Points(3), 0, 0, 0)
		f.p.Y.Label.Text = ""
		defer func() { f.p.Y.Label.Text = yLabel }()
		da := f.p.DataCanvas(inner)
		st := fitWidth(f.p.Y.Label.TextStyle, yLabel, pc.Max.Y-pc.Min.Y)
		half := st.Width(yLabel) / 2
		y := min(max(da.Center().Y, pc.Min.Y+half), pc.Max.Y-half)
		descent := st.FontExtents().Descent
		st.Rotation += math.Pi / 2
		c.FillText(st, vg.Point{X: pc.Min.X + h - descent, Y: y}, yLabel)
		pc = inner
	}
	// X tick labels that would overlap at this width are dropped (their
	// ticks stay, unlabelled), the roundest values kept first.
	if marker := f.p.X.Tick.Marker; marker != nil && !f.keepXTicks {
		da := f.p.DataCanvas(pc)
		ticks := thinLabels(marker.Ticks(f.p.X.Min, f.p.X.Max),
			func(v float64) vg.Length { return vg.Length(f.p.X.Norm(v)) * (da.Max.X - da.Min.X) },
			f.p.X.Tick.Label.Width, f.p.X.Tick.Label.Width("0"))
		f.p.X.Tick.Marker = plot.ConstantTicks(ticks)
		defer func() { f.p.X.Tick.Marker = marker }()
	}
	if f.prepare != nil {
		f.prepare(f.p.DataCanvas(pc))
	}
	f.p.Draw(pc)
	lc := draw.Crop(c, c.Max.X-c.Min.X-f.legendStrip()+legendGap, 0, 0, -hh)
	f.legend.Draw(lc)
}

// drawHeader draws the title and caption lines at the top of c, centred
// over (and at most as wide as) the plot canvas pc.
func (f *figure) drawHeader(c, pc draw.Canvas) {
	x := (pc.Min.X + pc.Max.X) / 2
	y := c.Max.Y - headerTop
	if f.title != "" {
		st := fitWidth(f.titleStyle(), f.title, pc.Max.X-pc.Min.X)
		c.FillText(st, vg.Point{X: x, Y: y}, f.title)
		y -= f.titleStyle().Height(f.title)
	}
	for _, l := range f.caption {
		st := fitWidth(f.captionStyle(), l, pc.Max.X-pc.Min.X)
		y -= headerGap
		c.FillText(st, vg.Point{X: x, Y: y}, l)
		y -= st.Height(l)
	}
}

// thinLabels returns ticks with the labels removed that would overlap a
// label kept: labels are kept in order of roundness (labelRank), then
// from left to right, each only if it is at least gap clear of every
// label kept before. pos gives a tick's position along the axis and width
// a label's width.
func thinLabels(ticks []plot.Tick, pos func(float64) vg.Length, width func(string) vg.Length, gap vg.Length) []plot.Tick {
	out := slices.Clone(ticks)
	var order []int
	for i, t := range out {
		if t.Label != "" {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return labelRank(out[a].Value) - labelRank(out[b].Value) })
	type span struct{ lo, hi vg.Length }
	var kept []span
	for _, i := range order {
		x, w := pos(out[i].Value), width(out[i].Label)
		s := span{x - w/2 - gap/2, x + w/2 + gap/2}
		if slices.ContainsFunc(kept, func(k span) bool { return s.lo < k.hi && k.lo < s.hi }) {
			out[i].Label = ""
			continue
		}
		kept = append(kept, s)
	}
	return out
}

// labelRank orders tick values by roundness: 0 and powers of ten first,
// then 5, 2 and other leading digits times a power of ten.
func labelRank(v float64) int {
	if v == 0 {
		return 0
	}
	e := math.Floor(math.Log10(math.Abs(v)))
	m := math.Abs(v) / math.Pow(10, e)
	if m > 9.999999 { // 1000 read as 9.99... x 10^2
		m /= 10
	}
	for rank, lead := range []float64{1, 5, 2} {
		if math.Abs(m-lead) < 1e-6 {
			return rank
		}
	}
	return 3
}

// logRange returns the range of a log axis showing lo to hi (0 < lo <=
// hi), widened by a factor down below lo and up above hi (each >= 1):
// lo/down to hi*up, each end kept within the finite floats > 0
// (math.SmallestNonzeroFloat64 to math.MaxFloat64) so that values near
// either limit widen to the limit instead of underflowing to 0 or
// overflowing to +Inf, which a log axis cannot draw (gonum turns an
// infinite end into 0, then panics). The range it returns is never empty:
// when clamping leaves min >= max, the free end moves a factor 2 away. Every
// log axis of the plots takes its range from here.
func logRange(lo, hi, down, up float64) (min, max float64) {
	const tiny, huge = math.SmallestNonzeroFloat64, math.MaxFloat64
	clamp := func(v float64) float64 { return math.Min(math.Max(v, tiny), huge) }
	min, max = clamp(clamp(lo)/down), clamp(clamp(hi)*up)
	if !(min < max) {
		if max <= huge/2 {
			max = clamp(min * 2)
		} else {
			min = max / 2
		}
	}
	return min, max
}

// logRangeErr returns an error naming the axis (x or y) and its lowest
// value when a, on a log scale, would reach a value <= 0 once gonum has
// sanitized its range (an empty range is widened by 1 each side), and
// nil otherwise. gonum's own message names neither.
func logRangeErr(name string, a *plot.Axis) error {
	if _, isLog := a.Scale.(plot.LogScale); !isLog {
		return nil
	}
	lo, hi := math.Min(a.Min, a.Max), math.Max(a.Min, a.Max)
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return fmt.Errorf("%s axis on a log scale has range %v to %v: a log axis needs finite values", name, a.Min, a.Max)
	}
	if lo == hi {
		lo--
	}
	if !(lo > 0) {
		return fmt.Errorf("%s axis on a log scale reaches %v (range %v to %v): a log axis needs values > 0", name, lo, a.Min, a.Max)
	}
	return nil
}

// checkLogAxes returns the first logRangeErr of f's axes or its panels'.
func (f *figure) checkLogAxes() error {
	for _, g := range append([]*figure{f}, f.panels...) {
		if g.p == nil {
			continue
		}
		if err := logRangeErr("x", &g.p.X); err != nil {
			return err
		}
		if err := logRangeErr("y", &g.p.Y); err != nil {
			return err
		}
	}
	return nil
}

// writeTo renders the figure in format "png" or "svg" to w. A log axis
// that would reach a value <= 0 is an error naming the axis and the value
// (see logRangeErr); nothing is drawn then.
func (f *figure) writeTo(w io.Writer, format string) error {
	if err := f.checkLogAxes(); err != nil {
		return err
	}
	var cw vg.CanvasWriterTo
	width, height := f.size()
	switch format {
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
	case "svg":
		cw = vgsvg.New(width, height)
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
//
// f's name must be a plain file name (see [schema.IsLabel]): names come from
// result files (an op, a Zipf exponent, a benchmark name), and a name
// such as "x/../../../y" would otherwise write outside dir.
func (f *figure) save(dir string) (paths []string, err error) {
	if !schema.IsLabel(f.name) {
		return nil, fmt.Errorf("plot %q: not a plain file name (%s); nothing written", f.name, schema.LabelRule)
	}
	for _, format := range []string{"png", "svg"} {
		path := filepath.Join(dir, f.name+"."+format)
		if err := schema.WriteFile(path, func(w io.Writer) error { return f.writeTo(w, format) }); err != nil {
			return paths, fmt.Errorf("plot %s: %w", path, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
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
// the axis (only then is the axis taken that low), so they visibly run
// off it.
func logYClipped(f *figure, ss []curve) bool {
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
	floor, _ = logRange(floor, floor, 2, 1)
	for _, s := range ss {
		for i := range s.Points {
			if p := &s.Points[i]; p.CI && p.Lo <= 0 {
				p.Lo = floor
				f.p.Y.Min = floor
			}
		}
	}
	f.p.Y.Scale = plot.LogScale{}
	f.p.Y.Tick.Marker = logTicks{}
	return true
}

// logTicks labels a log axis with at least three labelled ticks: powers
// of ten over more than four decades; 1, 2 and 5 times them over 1.5 to
// four decades; 1, 2, 3, 5 and 7 times them over less; and, over less than
// half a decade, evenly spaced linear values ([linTicks]). Integer
// multiples that are not labelled are minor ticks (up to eight decades).
// When the lowest (highest) labelled tick leaves most of a factor of two
// of the axis below (above) it unlabelled, the lowest (highest) minor tick
// is labelled too, so the ends of the axis are always readable.
type logTicks struct{}

// Ticks implements plot.Ticker for 0 < lo < hi.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	// A log axis needs 0 < lo < hi < +Inf; gonum hands an axis whose
	// minimum is 0 (an axis padded to include 0) here too: linear ticks
	// then, never a loop from decade MinInt.
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return linTicks{}.Ticks(lo, hi)
	}
	d := math.Log10(hi / lo)
	var major []float64
	switch {
	case d > 4:
		major = []float64{1}
	case d > 1.5:
		major = []float64{1, 2, 5}
	case d > 0.7:
		major = []float64{1, 2, 3, 5, 7}
	default:
		return linTicks{}.Ticks(lo, hi)
	}
	var ticks []plot.Tick
	// At most about 12 decades get a tick each; a wider axis (a value of
	// 1e308 beside one of 1e2) ticks every step-th decade, so the ticks,
	// and the cost of drawing them, are bounded whatever the values.
	elo, ehi := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	step := max(1, (ehi-elo+11)/12)
	for e := elo; e <= ehi; e += step {
		for m := 1; m <= 9; m++ {
			isMajor := slices.Contains(major, float64(m))
			if !isMajor && (d > 8 || step > 1) {
				continue
			}
			v := decimal(m, e)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if isMajor {
				t.Label = tickText(v, -1)
			}
			ticks = append(ticks, t)
		}
	}
	labelEnds(ticks, lo, hi)
	n := 0
	for _, t := range ticks {
		if t.Label != "" {
			n++
		}
	}
	if n < 3 {
		return linTicks{}.Ticks(lo, hi)
	}
	return ticks
}

// tickText formats a tick value with decimals decimals (-1: as few as
// needed) and commas between groups of three digits of its whole part
// (60,000,000, not 60000000).
func tickText(v float64, decimals int) string {
	// From 10^12 up and below 10^-6 (but 0): an exponent, never a label
	// of hundreds of digits.
	if a := math.Abs(v); a >= 1e12 || (a > 0 && a < 1e-6) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	sign, whole, frac := "", s, ""
	if strings.HasPrefix(whole, "-") {
		sign, whole = "-", whole[1:]
	}
	if i := strings.IndexByte(whole, '.'); i >= 0 {
		whole, frac = whole[:i], whole[i:]
	}
	return sign + thousands(whole) + frac
}

// decimal returns m * 10^e rounded to the nearest float64, so that labels
// print as short decimals (0.3, not 0.30000000000000004).
func decimal(m, e int) float64 {
	v, _ := strconv.ParseFloat(strconv.Itoa(m)+"e"+strconv.Itoa(e), 64)
	return v
}

// labelEnds labels the first (last) tick of ticks, sorted by value, when
// the lowest (highest) labelled one is more than a factor 1.8 inside lo
// (hi) and the tick is a factor 1.4 away from it (so labels do not crowd).
func labelEnds(ticks []plot.Tick, lo, hi float64) {
	first, last := -1, -1
	for i, t := range ticks {
		if t.Label != "" {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	label := func(i int) { ticks[i].Label = tickText(ticks[i].Value, -1) }
	if first < 0 {
		return
	}
	if ticks[first].Value > 1.8*lo && ticks[first].Value >= 1.4*ticks[0].Value {
		label(0)
	}
	if n := len(ticks) - 1; ticks[last].Value < hi/1.8 && ticks[n].Value >= 1.4*ticks[last].Value {
		label(n)
	}
}

// linTicks labels an axis at multiples of a round step (1, 2, 2.5 or 5
// times a power of ten) chosen for four to eight labels in [lo, hi], with
// unlabelled minor ticks halfway between. Labels have as many decimals as
// the step needs, so 1 prints as "1.0" next to "1.1".
type linTicks struct{}

// Ticks implements plot.Ticker for lo < hi.
func (linTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	raw := (hi - lo) / 6
	e := int(math.Floor(math.Log10(raw)))
	var step float64
	decimals := 0
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		step = m * math.Pow(10, float64(e))
		if step >= raw*0.8 {
			decimals = max(0, -e)
			if m == 2.5 {
				decimals++
			}
			if m == 10 {
				decimals = max(0, -e-1)
			}
			break
		}
	}
	// The slack above hi overflows to +Inf next to math.MaxFloat64 (an
	// axis logRange clamped there), where every tick value would pass.
	top := hi + 1e-9*step
	if math.IsInf(top, 0) {
		top = hi
	}
	var ticks []plot.Tick
	for k := math.Ceil(lo/step*2 - 1e-9); k/2*step <= top; k++ {
		v := k / 2 * step
		if math.Abs(v) < 1e-12*step {
			v = 0
		}
		t := plot.Tick{Value: v}
		if int64(k)%2 == 0 {
			t.Label = tickText(v, decimals)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// padAxes widens the axis ranges of f slightly so that markers and error
// bars at the extremes are not drawn on the frame: by a factor on log
// axes (5% of the axis length, at most 1.12), by 5% of the range on
// linear ones, never below 0 for data
// that is all >= 0.
func padAxes(f *figure) {
	for _, a := range []*plot.Axis{&f.p.X, &f.p.Y} {
		if _, isLog := a.Scale.(plot.LogScale); isLog {
			// 5% of the axis length, as on linear axes, at most a factor
			// 1.12 (gonum adds room for markers on its own). A single
			// value (one eps, one node count) gets a factor 2 each side:
			// gonum would widen an empty range by 1 each side, below 0
			// for values under 1, which a log scale cannot draw.
			if a.Min == a.Max && a.Min > 0 {
				a.Min, a.Max = logRange(a.Min, a.Max, 2, 2)
				continue
			}
			k := math.Min(1.12, math.Pow(a.Max/a.Min, 0.05)) // an overflowing ratio (+Inf) gives 1.12
			a.Min, a.Max = logRange(a.Min, a.Max, k, k)
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
