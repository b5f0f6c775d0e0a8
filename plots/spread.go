package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SpreadRow is one row of spread.csv (or vnodes.csv, same header): how
// evenly one algorithm spreads keys over Nodes nodes.
type SpreadRow struct {
	Algo, Hash, VNodes string
	Line               int
	Nodes              float64
	PeakToMean         Point   // max/mean keys per node with its 95% CI (X left 0)
	CV                 Point   // coefficient of variation with its 95% CI (X left 0)
	NoisePeakToMean    float64 // peak-to-mean a perfect algorithm shows from sampling alone
	HasNoise           bool
	ExactPeakToMean    float64 // peak-to-mean of the exact shares (no sampling), if known
	HasExact           bool
}

var spreadColumns = []string{"algo", "hash", "vnodes", "nodes", "peak_to_mean", "cv"}

// ReadSpread reads spread.csv (or vnodes.csv) at path. Columns are found by
// header name, unknown ones ignored; *_lo/_hi, noise_peak_to_mean and
// exact_peak_to_mean may be empty. A missing column or a cell that is not a
// finite number is an error naming the file, line, column and value.
func ReadSpread(path string) ([]SpreadRow, error) {
	t, err := readTable(path, spreadColumns)
	if err != nil {
		return nil, err
	}
	return spreadRows(t)
}

func spreadRows(t *table) ([]SpreadRow, error) {
	rows := make([]SpreadRow, len(t.rows))
	for i := range t.rows {
		r := SpreadRow{Algo: t.str(i, "algo"), Hash: t.str(i, "hash"), VNodes: t.str(i, "vnodes"), Line: t.lines[i]}
		var err error
		if r.Nodes, err = t.count(i, "nodes"); err != nil {
			return nil, err
		}
		if r.PeakToMean, err = t.interval(i, "peak_to_mean"); err != nil {
			return nil, err
		}
		if r.CV, err = t.interval(i, "cv"); err != nil {
			return nil, err
		}
		if r.NoisePeakToMean, r.HasNoise, err = t.optNum(i, "noise_peak_to_mean"); err != nil {
			return nil, err
		}
		if r.ExactPeakToMean, r.HasExact, err = t.optNum(i, "exact_peak_to_mean"); err != nil {
			return nil, err
		}
		rows[i] = r
	}
	return rows, nil
}

// Bar is one bar of a grouped bar chart: Group indexes the group (x
// position), Series the bar within the group, Value its height with CI.
type Bar struct {
	Group, Series int
	Value         Point // X unused
	Noise         float64
	HasNoise      bool
	Exact         float64
	HasExact      bool
}

// PeakBars groups spread rows for the "peak-to-mean per algorithm" chart:
// groups are the distinct node counts in increasing order, series the
// algorithms (and configurations) in catalog order with their legend
// labels. Two rows for the same series and node count are an error.
func PeakBars(rows []SpreadRow) (groups []float64, labels []string, algos []string, bars []Bar, err error) {
	var keys []seriesKey
	seen := map[seriesKey]map[float64]int{}
	for _, r := range rows {
		k := seriesKey{r.Algo, r.Hash, r.VNodes}
		if seen[k] == nil {
			seen[k] = map[float64]int{}
			keys = append(keys, k)
		}
		if l, dup := seen[k][r.Nodes]; dup {
			return nil, nil, nil, nil, fmt.Errorf("spread: lines %d and %d both give algo=%s hash=%s vnodes=%s nodes=%v", l, r.Line, r.Algo, r.Hash, r.VNodes, r.Nodes)
		}
		seen[k][r.Nodes] = r.Line
		if !slices.Contains(groups, r.Nodes) {
			groups = append(groups, r.Nodes)
		}
	}
	slices.Sort(groups)
	sortKeys(keys)
	for _, k := range keys {
		labels = append(labels, seriesLabel(k, keys))
		algos = append(algos, k.algo)
	}
	for _, r := range rows {
		b := Bar{
			Group:  slices.Index(groups, r.Nodes),
			Series: slices.Index(keys, seriesKey{r.Algo, r.Hash, r.VNodes}),
			Value:  r.PeakToMean, Noise: r.NoisePeakToMean, HasNoise: r.HasNoise,
			Exact: r.ExactPeakToMean, HasExact: r.HasExact,
		}
		bars = append(bars, b)
	}
	slices.SortFunc(bars, func(a, b Bar) int { return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Series, b.Series)) })
	return groups, labels, algos, bars, nil
}

// spreadFigure draws the grouped bar chart of peak-to-mean ratios.
func spreadFigure(rows []SpreadRow) (*figure, error) {
	groups, labels, algos, bars, err := PeakBars(rows)
	if err != nil {
		return nil, err
	}
	if len(bars) == 0 {
		return nil, nil
	}
	f := newFigure("spread-peak-to-mean", "Peak-to-mean ratio per algorithm", "number of nodes", "peak-to-mean (max/mean keys per node)")
	const groupWidth = 0.8
	bw := groupWidth / float64(len(labels))
	xOf := func(b Bar) float64 { return float64(b.Group) - groupWidth/2 + (float64(b.Series)+0.5)*bw }

	var charts []*plotter.BarChart
	legendDone := make([]bool, len(labels))
	ymin, ymax := 1.0, 1.0
	var noise, exact plotter.XYs
	var ci ciPoints
	for _, b := range bars {
		st := AlgoStyle(algos[b.Series])
		c, err := plotter.NewBarChart(plotter.Values{b.Value.Y}, 1)
		if err != nil {
			return nil, fmt.Errorf("spread bar %s: %w", labels[b.Series], err)
		}
		c.XMin = xOf(b)
		c.Color = st.Color
		c.LineStyle.Width = 0
		f.p.Add(c)
		charts = append(charts, c)
		if !legendDone[b.Series] {
			f.legend.Add(labels[b.Series], c)
			legendDone[b.Series] = true
		}
		if b.Value.CI {
			ci = append(ci, Point{X: xOf(b), Y: b.Value.Y, Lo: b.Value.Lo, Hi: b.Value.Hi, CI: true})
		}
		ymin, ymax = min(ymin, b.Value.Lo), max(ymax, b.Value.Hi)
		if b.HasNoise {
			noise = append(noise, plotter.XY{X: xOf(b), Y: b.Noise})
			ymin, ymax = min(ymin, b.Noise), max(ymax, b.Noise)
		}
		if b.HasExact {
			exact = append(exact, plotter.XY{X: xOf(b), Y: b.Exact})
			ymin, ymax = min(ymin, b.Exact), max(ymax, b.Exact)
		}
	}
	if len(ci) > 0 {
		eb, err := plotter.NewYErrorBars(ci)
		if err != nil {
			return nil, fmt.Errorf("spread error bars: %w", err)
		}
		eb.Width = vg.Points(1.5)
		eb.CapWidth = vg.Points(6)
		f.p.Add(eb)
		if err := legendNote(f, "95% CI (error bars)", vg.Points(1.5)); err != nil {
			return nil, err
		}
	}
	var noiseGlyph *plotter.Scatter
	if len(noise) > 0 {
		if noiseGlyph, err = plotter.NewScatter(noise); err != nil {
			return nil, fmt.Errorf("spread noise floor: %w", err)
		}
		noiseGlyph.Shape = hbar{}
		noiseGlyph.Color = color.Black
		f.p.Add(noiseGlyph)
		if err := legendNote(f, "sampling-noise floor", vg.Points(3)); err != nil {
			return nil, err
		}
	}
	if len(exact) > 0 {
		s, err := plotter.NewScatter(exact)
		if err != nil {
			return nil, fmt.Errorf("spread exact values: %w", err)
		}
		s.Shape = draw.RingGlyph{}
		s.Color = color.Black
		s.Radius = vg.Points(5)
		f.p.Add(s)
		f.legend.Add("exact (no sampling)", s)
	}

	names := make([]string, len(groups))
	for i, n := range groups {
		names[i] = "n = " + strconv.FormatFloat(n, 'f', -1, 64)
	}
	f.p.NominalX(names...)
	f.p.X.Min, f.p.X.Max = -0.5, float64(len(groups))-0.5
	f.p.Y.Min = ymin
	f.p.Y.Max = ymax + math.Max(0.05*(ymax-ymin), 0.01)
	f.prepare = func(da draw.Canvas) {
		perUnit := (da.Max.X - da.Min.X) / vg.Length(f.p.X.Max-f.p.X.Min)
		w := perUnit * vg.Length(bw) * 0.92
		for _, c := range charts {
			c.Width = w
		}
		if noiseGlyph != nil {
			noiseGlyph.Radius = w / 2
		}
	}
	return f, nil
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

// VNodeSeries extracts the "ring spread vs virtual nodes" data from rows:
// for each node count (increasing), the ring's peak-to-mean against its
// vnodes count, the noise floor and the exact values. It returns nil
// series when ring rows have fewer than two distinct vnodes values. A
// vnodes value that is not a number > 0 is an error.
func VNodeSeries(rows []SpreadRow) (peak, noise, exact []Series, err error) {
	byNodes := map[float64]*[3]Series{}
	var nodes []float64
	vset := map[float64]bool{}
	seen := map[[2]float64]int{}
	for _, r := range rows {
		if r.Algo != "ring" {
			continue
		}
		v, perr := strconv.ParseFloat(r.VNodes, 64)
		if perr != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, nil, nil, fmt.Errorf("line %d: vnodes %q: want a number > 0", r.Line, r.VNodes)
		}
		if l, dup := seen[[2]float64{r.Nodes, v}]; dup {
			return nil, nil, nil, fmt.Errorf("lines %d and %d both give ring nodes=%v vnodes=%v", l, r.Line, r.Nodes, v)
		}
		seen[[2]float64{r.Nodes, v}] = r.Line
		vset[v] = true
		s, ok := byNodes[r.Nodes]
		if !ok {
			label := "ring, n = " + strconv.FormatFloat(r.Nodes, 'f', -1, 64)
			n := strconv.FormatFloat(r.Nodes, 'f', -1, 64)
			s = &[3]Series{{Algo: "ring", Label: label}, {Algo: "ring", Label: "noise floor, n = " + n, index: len(nodes)}, {Algo: "ring", Label: "exact, n = " + n}}
			byNodes[r.Nodes] = s
			nodes = append(nodes, r.Nodes)
		}
		p := r.PeakToMean
		p.X = v
		s[0].Points = append(s[0].Points, p)
		if r.HasNoise {
			s[1].Points = append(s[1].Points, Point{X: v, Y: r.NoisePeakToMean, Lo: r.NoisePeakToMean, Hi: r.NoisePeakToMean})
		}
		if r.HasExact {
			s[2].Points = append(s[2].Points, Point{X: v, Y: r.ExactPeakToMean, Lo: r.ExactPeakToMean, Hi: r.ExactPeakToMean})
		}
	}
	if len(vset) < 2 {
		return nil, nil, nil, nil
	}
	slices.Sort(nodes)
	byX := func(a, b Point) int { return cmp.Compare(a.X, b.X) }
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

// vnodesFigure draws ring peak-to-mean against virtual nodes, or returns
// nil if rows hold no vnodes sweep.
func vnodesFigure(rows []SpreadRow) (*figure, error) {
	peak, noise, exact, err := VNodeSeries(rows)
	if err != nil || peak == nil {
		return nil, err
	}
	f := newFigure("ring-vnodes", "Ring spread vs virtual nodes", "virtual nodes per node (log)", "peak-to-mean (max/mean keys per node)")
	if err := logX(f, "vnodes", allXs(peak)); err != nil {
		return nil, err
	}
	all := append(append(allYs(peak), allYs(noise)...), allYs(exact)...)
	if useLogIfPositive(&f.p.Y, all) {
		f.p.Y.Label.Text = "peak-to-mean (max/mean keys per node, log)"
	}
	ring := AlgoStyle("ring")
	for i, s := range peak {
		st := ring
		st.Dashes = dashes[i%len(dashes)]
		st.Glyph = glyphs[i%len(glyphs)]
		if err := addSeries(f, s, st); err != nil {
			return nil, err
		}
	}
	for _, s := range noise {
		// Black, dashed, with the markers of its node count's series, so
		// several noise floors can be told apart.
		xys := make(plotter.XYs, len(s.Points))
		for j, p := range s.Points {
			xys[j] = plotter.XY{X: p.X, Y: p.Y}
		}
		line, marks, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Label, err)
		}
		line.Color = color.Black
		line.Width = vg.Points(1.5)
		line.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
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
	for _, s := range exact {
		xys := make(plotter.XYs, len(s.Points))
		for j, p := range s.Points {
			xys[j] = plotter.XY{X: p.X, Y: p.Y}
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Label, err)
		}
		sc.Shape = draw.RingGlyph{}
		sc.Color = color.Black
		sc.Radius = vg.Points(6)
		f.p.Add(sc)
		{
			label := s.Label
			if len(exact) == 1 {
				label = "exact (no sampling)"
			}
			f.legend.Add(label, sc)
		}
	}
	padAxes(f)
	return f, nil
}
