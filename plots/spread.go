package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"

	"github.com/chbench/chbench/schema"
)

// bar is one bar of a grouped bar chart: Group indexes the group (x
// position), Series the bar within the group, Value its height with CI.
type bar struct {
	Group, Series int
	Value         xy // X unused
	Noise         float64
	HasNoise      bool
	Exact         float64
	HasExact      bool
	Layouts       xy // mean and 5th-95th percentiles over independent layouts (X unused)
	Draws         float64
	HasLayouts    bool
	Theory        float64
	HasTheory     bool
}

// peakBars groups spread rows for the "peak-to-mean per algorithm" chart:
// groups are the distinct node counts in increasing order, series the
// algorithms (and configurations) in catalog order with their legend
// labels. Two rows for the same series and node count are an error.
func peakBars(rows []schema.Spread) (groups []float64, labels []string, algos []string, bars []bar, err error) {
	var keys []seriesKey
	seen := map[seriesKey]map[int]bool{}
	for _, r := range rows {
		k := keyOf(r.Config, r.Label)
		if seen[k] == nil {
			seen[k] = map[int]bool{}
			keys = append(keys, k)
		}
		if seen[k][r.Nodes] {
			return nil, nil, nil, nil, fmt.Errorf("spread: two rows give algo=%s hash=%s vnodes=%d nodes=%d", r.Algo, r.Hash, r.VNodes, r.Nodes)
		}
		seen[k][r.Nodes] = true
		if n := float64(r.Nodes); !slices.Contains(groups, n) {
			groups = append(groups, n)
		}
	}
	slices.Sort(groups)
	sortKeys(keys)
	for _, k := range keys {
		labels = append(labels, seriesLabel(k, keys))
		algos = append(algos, k.algo)
	}
	for _, r := range rows {
		bars = append(bars, spreadBar(r, slices.Index(groups, float64(r.Nodes)), slices.Index(keys, keyOf(r.Config, r.Label))))
	}
	slices.SortFunc(bars, func(a, b bar) int { return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Series, b.Series)) })
	return groups, labels, algos, bars, nil
}

// spreadBar is the bar (or dot) of spread row r in group and series: the
// measured peak-to-mean with its 95% interval, the sampling-noise floor,
// and where the row has them the exact value, the layouts' mean and
// 5th-95th percentiles and the theory.
func spreadBar(r schema.Spread, group, series int) bar {
	b := bar{Group: group, Series: series, Value: peakPoint(r), Noise: r.NoisePeakToMean, HasNoise: true}
	if r.ExactPeakToMean != nil {
		b.Exact, b.HasExact = *r.ExactPeakToMean, true
	}
	if l, ok := layoutPoint(r); ok {
		b.Layouts, b.Draws, b.HasLayouts = l, float64(*r.Placements), true
	}
	if r.TheoryPeakToMean != nil {
		b.Theory, b.HasTheory = *r.TheoryPeakToMean, true
	}
	return b
}

// peakPoint is the measured peak-to-mean of r with its 95% interval (X
// left 0).
func peakPoint(r schema.Spread) xy {
	return estimate(r.PeakToMean, r.PeakToMeanLo, r.PeakToMeanHi)
}

// layoutPoint is the exact peak-to-mean of r over independent layouts: Y
// the mean, [Lo, Hi] the 5th-95th percentiles (CI false: the mean can lie
// outside them); ok is false when r has no layouts.
func layoutPoint(r schema.Spread) (xy, bool) {
	if r.Placements == nil {
		return xy{}, false
	}
	return xy{Y: *r.PlacementsPeakToMean, Lo: *r.PlacementsPeakToMeanP5, Hi: *r.PlacementsPeakToMeanP95}, true
}

// spreadFigure draws the peak-to-mean ratios as a dot chart: one panel
// per node count, one slot per algorithm (labelled with its name), the
// measured value with its 95% CI as the algorithm's marker, the
// sampling-noise floor as a black dash across the slot, the exact value
// of the default node IDs as a ring left of it, and the layouts' mean and
// 5-95% band and the theory right of it, with a line at 1 (perfectly
// even). Dots, not bars: a peak-to-mean is at least 1, so a bar from 0
// would be mostly the same for every algorithm, and a bar from the bottom
// of a zoomed axis has a length that means nothing.
func spreadFigure(rows []schema.Spread) (*figure, error) {
	groups, labels, algos, bars, err := peakBars(rows)
	if err != nil {
		return nil, err
	}
	if len(bars) == 0 {
		return nil, nil
	}
	panels := make([]dotPanel, len(groups))
	for i, n := range groups {
		panels[i].title = "n = " + tickText(n, -1) + " nodes"
	}
	for _, b := range bars {
		panels[b.Group].slots = append(panels[b.Group].slots, dotSlot{slot: b.Series, value: b.Value,
			noise: b.Noise, hasNoise: b.HasNoise, exact: b.Exact, hasExact: b.HasExact,
			layouts: b.Layouts, draws: b.Draws, hasLayouts: b.HasLayouts, theory: b.Theory, hasTheory: b.HasTheory})
	}
	return dotFigure(dotChart{
		name: "spread-peak-to-mean", title: "Peak-to-mean ratio per algorithm (1 = perfectly even)",
		caption: captionLines(runCaption(runsOf(rows)), dotLayoutNote(rows)),
		yLabel:  "peak-to-mean (max/mean keys per node)",
		labels:  labels, algos: algos, panels: panels,
		valueLabel: "measured with keys (95% CI)",
		ref:        1, refLabel: "1 = perfectly even",
	})
}

// dotLayoutNote says where the marks of the spread dot chart sit, or is
// "" when no row has layout draws or exact values.
func dotLayoutNote(rows []schema.Spread) string {
	if !slices.ContainsFunc(rows, func(r schema.Spread) bool { return r.Placements != nil || r.ExactPeakToMean != nil }) {
		return ""
	}
	return "each algorithm's marker: measured with keys (95% CI); ring left of it: exact for the default node IDs; grey right of it: exact over independent layouts (salted IDs); x: theory"
}

// layoutNote explains the marks beside the bars of algorithms with random
// layouts, or is "" when no row has layout draws.
func layoutNote(rows []schema.Spread) string {
	if !slices.ContainsFunc(rows, func(r schema.Spread) bool { return r.Placements != nil }) {
		return ""
	}
	return "bars: with keys (95% CI); grey: exact over independent layouts (salted IDs), mean and 5-95%; x: theory; rings: exact, default IDs"
}

// barChart is the data of a grouped bar chart: groups along x, one bar
// per series in each group (colour and legend label per series).
type barChart struct {
	groups    []string     // x tick labels
	labels    []string     // legend label per series
	colors    []color.RGBA // colour per series
	bars      []bar        // Bar.Noise, when set, is drawn as a black mark across the bar
	markLabel string       // legend label of that mark
	fromZero  bool         // y axis starts at 0 (else just below the smallest value drawn)
}

// drawBars adds the bars of bc to f with their 95% CIs, marks (noise
// floor or ideal) and exact values, on a linear y axis that spans every
// value drawn with room for the markers, and with at least three labelled
// ticks: the overlays are placed and measured first (layers), then the
// bars, the overlays and the axes are drawn.
func drawBars(f *figure, bc barChart) error {
	l := bc.layers()
	charts, err := addBarCharts(f, bc, l)
	if err != nil {
		return err
	}
	markGlyph, err := l.draw(f, bc.markLabel)
	if err != nil {
		return err
	}
	l.scale(f, bc)
	f.prepare = func(da draw.Canvas) {
		perUnit := (da.Max.X - da.Min.X) / vg.Length(f.p.X.Max-f.p.X.Min)
		w := perUnit * vg.Length(l.bw) * 0.92
		for _, c := range charts {
			c.Width = w
		}
		if markGlyph != nil {
			markGlyph.Radius = w / 2
		}
		l.cut.width = w
	}
	return nil
}

// barGroupWidth is the width of a group of bars, in units of the x axis
// (one per group).
const barGroupWidth = 0.8

// barLayers is what a bar chart draws besides its bars, placed (at each
// bar's centre, or beside it for the layout band and theory) and measured
// (the y extent every value drawn needs), before anything is drawn.
type barLayers struct {
	bw                                float64 // width of one bar
	ci, bands                         ciPoints
	marks, exact, layoutMeans, theory plotter.XYs
	draws                             map[float64]bool // layout draws behind the bands
	cut                               *cutBars         // bars off the scale, drawn cut at the top
	ymin, ymax                        float64
}

// x returns the centre of bar b.
func (l *barLayers) x(b bar) float64 {
	return float64(b.Group) - barGroupWidth/2 + (float64(b.Series)+0.5)*l.bw
}

// layers places and measures the overlays of bc's bars.
func (bc barChart) layers() *barLayers {
	l := &barLayers{bw: barGroupWidth / float64(len(bc.labels)), draws: map[float64]bool{}, cut: &cutBars{},
		ymin: math.Inf(1), ymax: math.Inf(-1)}
	limit := math.Inf(1)
	if bc.fromZero {
		limit = offScaleLimit(bc.bars)
	}
	grow := func(lo, hi float64) { l.ymin, l.ymax = min(l.ymin, lo), max(l.ymax, hi) }
	for _, b := range bc.bars {
		x := l.x(b)
		if b.Value.Hi > limit {
			// Off the scale: drawn cut at the top, with its value.
			l.cut.xs, l.cut.vals = append(l.cut.xs, x), append(l.cut.vals, b.Value.Y)
			l.ymin = min(l.ymin, b.Value.Lo)
			continue
		}
		if b.Value.CI {
			l.ci = append(l.ci, b.Value.atX(x))
		}
		grow(b.Value.Lo, b.Value.Hi)
		if b.HasNoise {
			l.marks = append(l.marks, plotter.XY{X: x, Y: b.Noise})
			grow(b.Noise, b.Noise)
		}
		if b.HasExact {
			l.exact = append(l.exact, plotter.XY{X: x, Y: b.Exact})
			grow(b.Exact, b.Exact)
		}
		// Layout band and theory sit right of the bar's centre, clear of
		// its CI bar and exact-value ring.
		side := x + l.bw*0.27
		if b.HasLayouts {
			l.bands = append(l.bands, xy{X: side, Y: b.Layouts.Y, Lo: b.Layouts.Lo, Hi: b.Layouts.Hi, CI: true})
			l.layoutMeans = append(l.layoutMeans, plotter.XY{X: side, Y: b.Layouts.Y})
			grow(b.Layouts.Lo, b.Layouts.Hi)
			l.draws[b.Draws] = true
		}
		if b.HasTheory {
			l.theory = append(l.theory, plotter.XY{X: side, Y: b.Theory})
			grow(b.Theory, b.Theory)
		}
	}
	return l
}

// addBarCharts adds one bar chart per bar of bc to f, and a legend entry
// per series in series order (even when a series is missing from the
// first groups); it returns the charts, whose width is set once the
// canvas is known.
func addBarCharts(f *figure, bc barChart, l *barLayers) ([]*plotter.BarChart, error) {
	var charts []*plotter.BarChart
	legendBar := make([]*plotter.BarChart, len(bc.labels)) // first bar of each series
	for _, b := range bc.bars {
		c, err := plotter.NewBarChart(plotter.Values{b.Value.Y}, 1)
		if err != nil {
			return nil, fmt.Errorf("bar %s: %w", bc.labels[b.Series], err)
		}
		c.XMin = l.x(b)
		c.Color = bc.colors[b.Series]
		c.LineStyle.Width = 0
		f.p.Add(c)
		charts = append(charts, c)
		if legendBar[b.Series] == nil {
			legendBar[b.Series] = c
		}
	}
	for i, c := range legendBar {
		if c != nil {
			f.legend.Add(bc.labels[i], c)
		}
	}
	return charts, nil
}

// draw adds the overlays of l to f with their legend entries: the 95%
// CIs, the marks (labelled markLabel; returned, since their width follows
// the bars'), the exact values, the layout bands and the theory.
func (l *barLayers) draw(f *figure, markLabel string) (*plotter.Scatter, error) {
	if len(l.ci) > 0 {
		eb, err := plotter.NewYErrorBars(l.ci)
		if err != nil {
			return nil, fmt.Errorf("error bars: %w", err)
		}
		eb.Width = vg.Points(1.5)
		eb.CapWidth = vg.Points(6)
		f.p.Add(eb)
		if err := legendNote(f, "95% CI (error bars)", vg.Points(1.5)); err != nil {
			return nil, err
		}
	}
	var markGlyph *plotter.Scatter
	if len(l.marks) > 0 {
		var err error
		if markGlyph, err = plotter.NewScatter(l.marks); err != nil {
			return nil, fmt.Errorf("%s: %w", markLabel, err)
		}
		markGlyph.Shape = hbar{}
		markGlyph.Color = color.Black
		f.p.Add(markGlyph)
		if err := legendNote(f, markLabel, vg.Points(3)); err != nil {
			return nil, err
		}
	}
	if len(l.exact) > 0 {
		s, err := plotter.NewScatter(l.exact)
		if err != nil {
			return nil, fmt.Errorf("exact values: %w", err)
		}
		s.Shape = draw.RingGlyph{}
		s.Color = color.Black
		s.Radius = vg.Points(5)
		f.p.Add(s)
		f.legend.Add("exact (no sampling)", s)
	}
	if err := l.drawBands(f); err != nil {
		return nil, err
	}
	if len(l.theory) > 0 {
		s, err := plotter.NewScatter(l.theory)
		if err != nil {
			return nil, fmt.Errorf("theory: %w", err)
		}
		s.Shape = thickCross{}
		s.Color = color.Black
		s.Radius = vg.Points(6)
		f.p.Add(s)
		f.legend.Add("theory (Gamma)", s)
	}
	return markGlyph, nil
}

// drawBands adds the layout bands (5th-95th percentile over the layout
// draws) and their means, with one legend entry.
func (l *barLayers) drawBands(f *figure) error {
	if len(l.bands) == 0 {
		return nil
	}
	eb, err := plotter.NewYErrorBars(l.bands)
	if err != nil {
		return fmt.Errorf("layout bands: %w", err)
	}
	eb.Color = bandColor
	eb.Width = vg.Points(4)
	eb.CapWidth = vg.Points(0)
	f.p.Add(eb)
	s, err := plotter.NewScatter(l.layoutMeans)
	if err != nil {
		return fmt.Errorf("layout means: %w", err)
	}
	s.Shape = draw.PyramidGlyph{}
	s.Color = bandColor
	s.Radius = vg.Points(5)
	f.p.Add(s)
	thumb, err := plotter.NewLine(plotter.XYs{{}})
	if err != nil {
		return err
	}
	thumb.Color, thumb.Width = bandColor, vg.Points(4)
	f.legend.Add(layoutsLabel(l.draws), thumb, s)
	return nil
}

// scale sets f's axes for bc: a group per x tick, a linear y axis over
// every value l drew with room around it (from 0 when bc asks), the cut
// bars' values above, and the figure's size for many series.
func (l *barLayers) scale(f *figure, bc barChart) {
	f.p.NominalX(bc.groups...)
	f.p.X.Min, f.p.X.Max = -0.5, float64(len(bc.groups))-0.5
	// Room of 4% of the range beyond the extreme values (0.01 when they
	// are all equal), so the exact-value rings and CI caps there are drawn
	// whole.
	pad := 0.04 * (l.ymax - l.ymin)
	if !(pad > 0) {
		pad = 0.01
	}
	f.p.Y.Min, f.p.Y.Max = l.ymin-pad, l.ymax+pad
	switch {
	case bc.fromZero && l.ymin >= 0:
		f.p.Y.Min = 0 // no padding below 0 for data that cannot be negative
	case bc.fromZero || f.p.Y.Min < 0:
		f.p.Y.Min = math.Min(0, f.p.Y.Min)
	}
	f.p.Y.Tick.Marker = linTicks{}
	if len(l.cut.xs) > 0 {
		f.p.Y.Max = l.ymax + 0.15*(l.ymax-f.p.Y.Min) // room for the values of the cut bars
		l.cut.text = f.legend.TextStyle
		l.cut.text.Font.Size = vg.Points(12)
		f.p.Add(l.cut)
		f.caption = append(f.caption, "bars broken at the top run off the scale; the number beside one is its value")
	}
	if len(bc.labels) > panelThreshold {
		// More than panelThreshold bars a group: the width of the small multiples.
		f.width, f.height = panelFigWidth, wideBarHeight
	}
}

// wideBarHeight is the height of a bar chart of more than panelThreshold
// series, drawn panelFigWidth wide.
var wideBarHeight = vg.Length(1000) * vg.Inch / vgimg.DefaultDPI

// offScaleLimit returns the largest value a bar chart starting at 0 draws
// to scale: when a few bars (at most a quarter, all of one series) reach
// at least 5 times as high as every other bar, and the others still reach
// 5% of the tallest (so they carry information worth the room), the
// others' top (bar value or CI end); +Inf otherwise. Those few bars would
// flatten the rest to the axis.
func offScaleLimit(bars []bar) float64 {
	tops := make([]float64, len(bars))
	for i, b := range bars {
		tops[i] = max(b.Value.Y, b.Value.Hi)
	}
	order := make([]int, len(bars))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(tops[b], tops[a]) })
	for k := 1; k <= len(bars)/4 && k < len(bars); k++ {
		if bars[order[k-1]].Series != bars[order[0]].Series {
			break
		}
		top, rest := tops[order[k-1]], tops[order[k]]
		if rest > 0 && top >= 5*rest && rest >= 0.05*tops[order[0]] {
			return rest
		}
	}
	return math.Inf(1)
}

// cutBars draws, over each bar at xs that runs off the top of the axis,
// a white break across the bar near the top and its value (vals) beside
// it. width is the bar width, known once the data area is (prepare).
type cutBars struct {
	xs, vals []float64
	width    vg.Length
	text     draw.TextStyle
}

// Plot implements plot.Plotter.
func (cb *cutBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	white := draw.LineStyle{Color: color.White, Width: vg.Points(2.5)}
	for i, x := range cb.xs {
		cx, top := trX(x), c.Max.Y
		for _, y := range []vg.Length{top - vg.Points(16), top - vg.Points(10)} {
			c.StrokeLine2(white, cx-cb.width/2-1, y-vg.Points(2), cx+cb.width/2+1, y+vg.Points(2))
		}
		st := cb.text
		st.XAlign, st.YAlign = draw.XLeft, draw.YTop
		c.FillText(st, vg.Point{X: cx + cb.width/2 + vg.Points(2), Y: top - vg.Points(2)}, strconv.FormatFloat(cb.vals[i], 'g', 2, 64))
	}
}

// hashBars groups the rows of hashes.csv (spread rows for several key
// hashes) for the "peak-to-mean per hash function" chart: groups are the
// algorithms in catalog order (with the node count when there are
// several), series the hash functions in registry order
// (algorithms.HashNames, unknown names after, alphabetically). Two rows for
// the same algorithm, vnodes, nodes and hash are an error.
func hashBars(rows []schema.Spread) (groups, hashes []string, bars []bar, err error) {
	type gkey struct {
		algo, vnodes string
		nodes        float64
	}
	gkeyOf := func(r schema.Spread) gkey { return gkey{r.Algo, strconv.Itoa(r.VNodes), float64(r.Nodes)} }
	var gkeys []gkey
	seen := map[gkey]map[string]bool{}
	for _, r := range rows {
		k := gkeyOf(r)
		if seen[k] == nil {
			seen[k] = map[string]bool{}
			gkeys = append(gkeys, k)
		}
		if seen[k][r.Hash] {
			return nil, nil, nil, fmt.Errorf("hashes: two rows give algo=%s vnodes=%d nodes=%d hash=%s", r.Algo, r.VNodes, r.Nodes, r.Hash)
		}
		seen[k][r.Hash] = true
		if !slices.Contains(hashes, r.Hash) {
			hashes = append(hashes, r.Hash)
		}
	}
	slices.SortFunc(gkeys, func(a, b gkey) int {
		return cmp.Or(catalog.Compare(a.algo, b.algo), cmp.Compare(a.nodes, b.nodes), cmp.Compare(a.vnodes, b.vnodes))
	})
	reg := algorithms.HashNames()
	rank := func(h string) int {
		if i := slices.Index(reg, h); i >= 0 {
			return i
		}
		return len(reg)
	}
	slices.SortFunc(hashes, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b)) })
	nodeCounts, vnodeCounts := map[float64]bool{}, map[string]bool{}
	algoCount := map[string]int{}
	for _, k := range gkeys {
		nodeCounts[k.nodes] = true
		vnodeCounts[k.vnodes] = true
		algoCount[k.algo]++
	}
	for _, k := range gkeys {
		g := k.algo
		if len(nodeCounts) > 1 {
			g += ", n = " + strconv.FormatFloat(k.nodes, 'f', -1, 64)
		}
		if algoCount[k.algo] > 1 && len(vnodeCounts) > 1 {
			g += ", vnodes " + k.vnodes
		}
		groups = append(groups, g)
	}
	for _, r := range rows {
		bars = append(bars, spreadBar(r, slices.Index(gkeys, gkeyOf(r)), slices.Index(hashes, r.Hash)))
	}
	slices.SortFunc(bars, func(a, b bar) int { return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Series, b.Series)) })
	return groups, hashes, bars, nil
}

// hashColors are the bar colours of hash functions in the spread-hashes
// plot: the Okabe–Ito palette in an order unlike the algorithms', with
// its yellow darkened to read on white.
var hashColors = []color.RGBA{
	{R: 0, G: 114, B: 178, A: 255},   // blue
	{R: 230, G: 159, B: 0, A: 255},   // orange
	{R: 0, G: 158, B: 115, A: 255},   // bluish green
	{R: 204, G: 121, B: 167, A: 255}, // reddish purple
	{R: 86, G: 180, B: 233, A: 255},  // sky blue
	{R: 213, G: 94, B: 0, A: 255},    // vermillion
	{R: 170, G: 160, B: 30, A: 255},  // dark yellow
}

// hashesFigure draws peak-to-mean per hash function, grouped by algorithm.
func hashesFigure(rows []schema.Spread) (*figure, error) {
	groups, hashes, bars, err := hashBars(rows)
	if err != nil || len(bars) == 0 {
		return nil, err
	}
	colors := make([]color.RGBA, len(hashes))
	for i := range hashes {
		colors[i] = hashColors[i%len(hashColors)]
	}
	title := "Peak-to-mean ratio per key hash function"
	var nodes []string
	for _, r := range rows {
		if n := strconv.Itoa(r.Nodes); !slices.Contains(nodes, n) {
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 1 {
		title += " (n = " + nodes[0] + " nodes)"
	}
	f := newFigure("spread-hashes", title, "algorithm", "peak-to-mean (max/mean keys per node)")
	f.caption = captionLines(runCaption(runsOf(rows)), layoutNote(rows))
	err = drawBars(f, barChart{groups: groups, labels: hashes, colors: colors, bars: bars, markLabel: "sampling-noise floor"})
	return f, err
}

// bandColor draws what varies over layouts (the 5th-95th percentile band
// and its mean): a dark grey distinct from black reference marks.
var bandColor = color.RGBA{R: 90, G: 90, B: 90, A: 255}

// thickCross is an X-shaped glyph drawn with a 2-point line, readable over
// coloured bars.
type thickCross struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (thickCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(2)})
	r := sty.Radius * 0.8
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
	c.Stroke(p)
}

// hbar is a glyph drawn as a horizontal black bar of width 2*Radius: the
// noise floor marker across one bar.
type hbar struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (hbar) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(2.5)})
	var p vg.Path
	p.Move(vg.Point{X: pt.X - sty.Radius, Y: pt.Y})
	p.Line(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	c.Stroke(p)
}

// vnodeSeries extracts the "ring spread vs virtual nodes" data from rows:
// for each node count (increasing), the ring's peak-to-mean against its
// vnodes count, the noise floor and the exact values. It returns nil
// series when ring rows have fewer than two distinct vnodes values. A
// vnodes value that is not a number > 0 is an error.
func vnodeSeries(rows []schema.Spread) (peak, noise, exact []curve, err error) {
	byNodes := map[int]*[3]curve{}
	var nodes []int
	vset := map[int]bool{}
	seen := map[[2]int]bool{}
	for _, r := range rows {
		if r.Algo != "ring" {
			continue
		}
		if r.VNodes < 1 {
			return nil, nil, nil, fmt.Errorf("ring nodes=%d: vnodes %d: want a number > 0", r.Nodes, r.VNodes)
		}
		if seen[[2]int{r.Nodes, r.VNodes}] {
			return nil, nil, nil, fmt.Errorf("two rows give ring nodes=%d vnodes=%d", r.Nodes, r.VNodes)
		}
		seen[[2]int{r.Nodes, r.VNodes}] = true
		vset[r.VNodes] = true
		s, ok := byNodes[r.Nodes]
		if !ok {
			n := strconv.Itoa(r.Nodes)
			s = &[3]curve{{Algo: "ring", Label: "ring, n = " + n}, {Algo: "ring", Label: "noise floor, n = " + n, index: len(nodes)}, {Algo: "ring", Label: "exact, n = " + n}}
			byNodes[r.Nodes] = s
			nodes = append(nodes, r.Nodes)
		}
		v := float64(r.VNodes)
		p := peakPoint(r)
		p.X = v
		s[0].Points = append(s[0].Points, p)
		s[1].Points = append(s[1].Points, xy{X: v, Y: r.NoisePeakToMean, Lo: r.NoisePeakToMean, Hi: r.NoisePeakToMean})
		if x := r.ExactPeakToMean; x != nil {
			s[2].Points = append(s[2].Points, xy{X: v, Y: *x, Lo: *x, Hi: *x})
		}
	}
	if len(vset) < 2 {
		return nil, nil, nil, nil
	}
	slices.Sort(nodes)
	byX := func(a, b xy) int { return cmp.Compare(a.X, b.X) }
	for _, n := range nodes {
		s := byNodes[n]
		for i := range s {
			slices.SortFunc(s[i].Points, byX)
		}
		peak = append(peak, s[0])
		if len(s[1].Points) > 0 {
			noise = append(noise, s[1])
		}
		if len(s[2].Points) > 0 {
			exact = append(exact, s[2])
		}
	}
	return peak, noise, exact, nil
}

// vnodeLayoutSeries extracts, like vnodeSeries, for each node count the
// ring's exact peak-to-mean over independent layouts against vnodes (Y
// the mean, Lo and Hi the 5th and 95th percentiles, CI false) and the
// theory curve; nil where the rows carry none.
func vnodeLayoutSeries(rows []schema.Spread) (layouts, theory []curve, err error) {
	by := map[int]*[2]curve{}
	var nodes []int
	for _, r := range rows {
		if r.Algo != "ring" || (r.Placements == nil && r.TheoryPeakToMean == nil) {
			continue
		}
		if r.VNodes < 1 {
			return nil, nil, fmt.Errorf("ring nodes=%d: vnodes %d: want a number > 0", r.Nodes, r.VNodes)
		}
		s, ok := by[r.Nodes]
		if !ok {
			n := strconv.Itoa(r.Nodes)
			s = &[2]curve{{Algo: "ring", Label: "n = " + n, index: len(nodes)}, {Algo: "ring", Label: "n = " + n, index: len(nodes)}}
			by[r.Nodes] = s
			nodes = append(nodes, r.Nodes)
		}
		v := float64(r.VNodes)
		if p, ok := layoutPoint(r); ok {
			p.X = v
			s[0].Points = append(s[0].Points, p)
		}
		if x := r.TheoryPeakToMean; x != nil {
			s[1].Points = append(s[1].Points, xy{X: v, Y: *x, Lo: *x, Hi: *x})
		}
	}
	slices.Sort(nodes)
	byX := func(a, b xy) int { return cmp.Compare(a.X, b.X) }
	for _, n := range nodes {
		s := by[n]
		for i := range s {
			slices.SortFunc(s[i].Points, byX)
		}
		if len(s[0].Points) > 1 {
			layouts = append(layouts, s[0])
		}
		if len(s[1].Points) > 1 {
			theory = append(theory, s[1])
		}
	}
	return layouts, theory, nil
}

// vnodesFigure draws ring peak-to-mean against virtual nodes, or returns
// nil if rows hold no vnodes sweep: the exact value over independent
// layouts (mean and 5th-95th percentile band), the theory curve, the
// measured value with keys (95% CI), the default ring's exact value and
// the sampling-noise floor.
func vnodesFigure(rows []schema.Spread) (*figure, error) {
	peak, noise, exact, err := vnodeSeries(rows)
	if err != nil || peak == nil {
		return nil, err
	}
	layouts, theory, err := vnodeLayoutSeries(rows)
	if err != nil {
		return nil, err
	}
	f, err := vnodesAxes(rows, peak, noise, exact, layouts, theory)
	if err != nil {
		return nil, err
	}
	multi := len(peak) > 1
	if err := drawLayoutBands(f, layouts, multi); err != nil {
		return nil, err
	}
	for _, s := range theory {
		label := "theory (Gamma)"
		if multi {
			label += ", " + s.Label
		}
		if err := referenceLine(f, label, plotterXYs(s.Points)); err != nil {
			return nil, err
		}
	}
	ring := algoStyle("ring")
	for i, s := range peak {
		switch {
		case len(peak) == 1 && len(layouts) > 0:
			s.Label = "measured with keys (95% CI)"
		case len(layouts) > 0:
			s.Label = "measured, " + strings.TrimPrefix(s.Label, "ring, ")
		}
		st := ring
		st.Dashes = dashes[i%len(dashes)]
		st.Glyph = glyphs[i%len(glyphs)]
		if err := addSeries(f, s, st); err != nil {
			return nil, err
		}
	}
	if err := drawNoiseFloors(f, noise); err != nil {
		return nil, err
	}
	if err := drawExactRings(f, exact, "exact, default ring (node-i IDs)"); err != nil {
		return nil, err
	}
	padAxes(f)
	return f, nil
}

// vnodesAxes returns the ring-vnodes figure with its title, caption and
// axes: log virtual nodes, and peak-to-mean (log when every value drawn
// is positive and they span enough). Peak intervals are cut at 1, the
// least a peak-to-mean can be.
func vnodesAxes(rows []schema.Spread, peak, noise, exact, layouts, theory []curve) (*figure, error) {
	title := "Ring spread vs virtual nodes"
	if len(peak) == 1 {
		title += " (" + strings.TrimPrefix(peak[0].Label, "ring, ") + " nodes)"
	}
	// A peak-to-mean is >= 1 (the largest load is at least the mean), so
	// a Student-t interval reaching below 1 (few sets, rings that differ
	// widely) is cut at 1, as intervals of quantities >= 0 are cut at 0.
	for _, s := range peak {
		for i := range s.Points {
			s.Points[i].Lo = math.Max(s.Points[i].Lo, 1)
		}
	}
	f := newFigure("ring-vnodes", title, "virtual nodes per node (log)", "peak-to-mean (max/mean keys per node)")
	var infos []schema.Run
	for _, r := range rows {
		if r.Algo == "ring" {
			infos = append(infos, schema.RunOf(r))
		}
	}
	f.caption = captionLines(runCaption(infos))
	if len(layouts) > 0 {
		f.caption = append(f.caption, "band: 5th-95th percentile of the exact peak-to-mean over independent rings (node IDs salted); theory: expected max of n Gamma(k, k) loads")
	}
	if err := logX(f, "vnodes", allXs(peak)); err != nil {
		return nil, err
	}
	all := append(append(allYs(peak), allYs(noise)...), allYs(exact)...)
	for _, s := range layouts {
		for _, p := range s.Points {
			all = append(all, p.Lo, p.Hi)
		}
	}
	all = append(all, allYs(theory)...)
	if useLogIfPositive(&f.p.Y, all) {
		f.p.Y.Label.Text = "peak-to-mean (max/mean keys per node, log)"
	}
	return f, nil
}

// drawLayoutBands adds, per curve of layouts, the band of its points' Lo
// to Hi and the line of their means, one legend entry each (naming the
// curve when multi).
func drawLayoutBands(f *figure, layouts []curve, multi bool) error {
	for _, s := range layouts {
		poly := make(plotter.XYs, 0, 2*len(s.Points))
		for _, p := range s.Points {
			poly = append(poly, plotter.XY{X: p.X, Y: p.Hi})
		}
		for i := len(s.Points) - 1; i >= 0; i-- {
			poly = append(poly, plotter.XY{X: s.Points[i].X, Y: s.Points[i].Lo})
		}
		band, err := plotter.NewPolygon(poly)
		if err != nil {
			return fmt.Errorf("layout band %s: %w", s.Label, err)
		}
		band.Color = color.NRGBA{R: 0, G: 114, B: 178, A: 60}
		band.LineStyle.Width = 0
		line, err := plotter.NewLine(plotterXYs(s.Points))
		if err != nil {
			return err
		}
		line.Color = color.RGBA{R: 0, G: 60, B: 110, A: 255}
		line.Width = vg.Points(2.5)
		f.p.Add(band, line)
		label := "exact over rings: mean, 5-95% band"
		if multi {
			label += ", " + s.Label
		}
		f.legend.Add(label, band, line)
	}
	return nil
}

// drawNoiseFloors adds each noise-floor curve black and dashed, with the
// markers of its node count's series, so several floors can be told
// apart.
func drawNoiseFloors(f *figure, noise []curve) error {
	for _, s := range noise {
		line, marks, err := plotter.NewLinePoints(plotterXYs(s.Points))
		if err != nil {
			return fmt.Errorf("%s: %w", s.Label, err)
		}
		line.Color = color.Black
		line.Width = vg.Points(1.5)
		line.Dashes = []vg.Length{vg.Points(1.5), vg.Points(3)}
		marks.Color = color.Black
		marks.Shape = glyphs[s.index%len(glyphs)]
		marks.Radius = vg.Points(3)
		f.p.Add(line, marks)
		label := s.Label
		if len(noise) == 1 {
			label = "sampling-noise floor"
		}
		f.legend.Add(label, line, marks)
	}
	return nil
}

// drawExactRings adds each curve of exact values as black rings; a lone
// curve is labelled one.
func drawExactRings(f *figure, exact []curve, one string) error {
	for _, s := range exact {
		sc, err := plotter.NewScatter(plotterXYs(s.Points))
		if err != nil {
			return fmt.Errorf("%s: %w", s.Label, err)
		}
		sc.Shape = draw.RingGlyph{}
		sc.Color = color.Black
		sc.Radius = vg.Points(6)
		f.p.Add(sc)
		label := s.Label
		if len(exact) == 1 {
			label = one
		}
		f.legend.Add(label, sc)
	}
	return nil
}
