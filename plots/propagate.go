package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// propagateScenario is what a propagation figure holds: the rows of one
// scenario (the columns before the algorithm's own).
type propagateScenario struct {
	Op, At, Model          string
	From, To, Clients      int
	Rate, Zipf, Writes     float64
	Keys, Replays, Changes int
}

func scenarioOf(r schema.Propagate) propagateScenario {
	return propagateScenario{Op: r.Op, At: r.At, Model: r.Model, From: r.From, To: r.To, Clients: r.Clients,
		Rate: r.Rate, Zipf: r.Zipf, Writes: r.Writes, Keys: r.Keys, Replays: r.Replays, Changes: r.Changes}
}

// propagateFigures draws one figure per scenario of rows (propagate.csv,
// propagate-cache.csv), named name when the file holds one scenario and
// name-<op>-n<from>[-<k>] otherwise: requests per window against time,
// stale-routed (the same for every algorithm: one black series) and
// misrouted per algorithm, each simulated (markers, 95% CI) beside its
// analytic expectation (a line), on a log axis; one panel per catalog
// family when there are many algorithms. Two rows for one algorithm,
// configuration and window are an error.
func propagateFigures(rows []schema.Propagate, name string) ([]*figure, error) {
	var order []propagateScenario
	groups := map[propagateScenario][]schema.Propagate{}
	for _, r := range rows {
		sc := scenarioOf(r)
		if groups[sc] == nil {
			order = append(order, sc)
		}
		groups[sc] = append(groups[sc], r)
	}
	var figs []*figure
	names := map[string]bool{}
	for _, sc := range order {
		n := name
		if len(order) > 1 {
			n = fmt.Sprintf("%s-%s-n%d", name, sc.Op, sc.From)
			for k := 2; names[n]; k++ {
				n = fmt.Sprintf("%s-%s-n%d-%d", name, sc.Op, sc.From, k)
			}
		}
		names[n] = true
		f, err := propagateFigure(groups[sc], n)
		if err != nil {
			return nil, err
		}
		if f != nil {
			figs = append(figs, f)
		}
	}
	return figs, nil
}

// propagateSeries returns, in catalog order, the misrouted series of each
// algorithm (simulated: points with their CI; model: the expectation) and
// the stale series of the first, each against the windows' midpoints,
// with the whole span's rows by series key. Windows where the simulated
// mean is 0 keep their expectation but carry no marker (a log axis cannot
// draw 0).
func propagateSeries(rows []schema.Propagate) (sim, model []curve, stale, staleModel curve, totals map[string]schema.Propagate, err error) {
	pts := map[seriesKey][]schema.Propagate{}
	whole := map[seriesKey]schema.Propagate{}
	seen := map[seriesKey]map[int]bool{}
	var keys []seriesKey
	for _, r := range rows {
		k := keyOf(r.Config, r.Label)
		if seen[k] == nil {
			seen[k] = map[int]bool{}
			keys = append(keys, k)
		}
		if seen[k][r.Window] {
			return nil, nil, curve{}, curve{}, nil, fmt.Errorf("propagate: two rows give algo=%s hash=%s vnodes=%d window=%d", r.Algo, r.Hash, r.VNodes, r.Window)
		}
		seen[k][r.Window] = true
		if r.Window == -1 {
			whole[k] = r
			continue
		}
		pts[k] = append(pts[k], r)
	}
	sortKeys(keys)
	totals = map[string]schema.Propagate{}
	// Only positive values can be drawn on the log axis.
	add := func(c *curve, x float64, p xy) {
		if p.Y > 0 {
			c.Points = append(c.Points, p.atX(x))
		}
	}
	for i, k := range keys {
		ws := pts[k]
		slices.SortFunc(ws, func(a, b schema.Propagate) int { return cmp.Compare(a.Window, b.Window) })
		s := curve{Algo: k.algo, Label: seriesLabel(k, keys)}
		m := curve{Algo: k.algo, Label: s.Label}
		if t, ok := whole[k]; ok {
			totals[s.Label] = t
		}
		for _, w := range ws {
			x := (w.StartS + w.EndS) / 2
			add(&s, x, estimate(w.Misrouted, w.MisroutedLo, w.MisroutedHi))
			add(&m, x, estimate(w.MisroutedExpected, nil, nil))
			if i == 0 {
				add(&stale, x, estimate(w.Stale, w.StaleLo, w.StaleHi))
				add(&staleModel, x, estimate(w.StaleExpected, nil, nil))
			}
		}
		sim, model = append(sim, s), append(model, m)
	}
	return sim, model, stale, staleModel, totals, nil
}

// staleColor draws the stale-routed requests, which every algorithm shares.
var staleColor = color.RGBA{R: 40, G: 40, B: 40, A: 255}

// propagateFigure draws one scenario's rows (see propagateFigures); nil
// when the rows have no windows.
func propagateFigure(rows []schema.Propagate, name string) (*figure, error) {
	sim, model, stale, staleModel, totals, err := propagateSeries(rows)
	if err != nil || len(staleModel.Points) == 0 {
		return nil, err
	}
	r0 := rows[0]
	title := fmt.Sprintf("Requests sent astray while %s rolls out (%s)", changePhrase(r0), r0.Model)
	width := r0.EndS - r0.StartS
	for _, r := range rows {
		if r.Window >= 0 {
			width = r.EndS - r.StartS
			break
		}
	}
	pop := "uniform keys"
	if r0.Zipf > 0 {
		pop = "keys with Zipf popularity s = " + strconv.FormatFloat(r0.Zipf, 'g', -1, 64)
	}
	caption := []string{
		fmt.Sprintf("%s requests/s from %d clients on %s %s; markers: simulated, mean of %d replays with 95%% CI (a window with none astray has no marker); lines: the model",
			numfmt.Thousands(r0.Rate), r0.Clients, numfmt.Int(r0.Keys), pop, r0.Replays),
		"stale (black): routed by a client that had not learned the change; astray (per algorithm): of those, sent to another server than the new view names; legend: totals over the span",
		runCaption(runsOf(rows)),
	}
	// The legend names each algorithm's total astray, simulated and model.
	label := func(s curve) string {
		if t, ok := totals[s.Label]; ok {
			return fmt.Sprintf("%s: %s (model %s)", s.Label, numfmt.Thousands(t.Misrouted), numfmt.Thousands(t.MisroutedExpected))
		}
		return s.Label
	}
	floor, top := propagateRange(append(append(allYs(sim), allYs(model)...), append(stale.ys(), staleModel.ys()...)...))
	for _, c := range append(slices.Clone(sim), stale) {
		for i := range c.Points {
			c.Points[i].Lo = math.Max(c.Points[i].Lo, floor)
		}
	}
	xs := allXs(append(slices.Clone(model), staleModel))
	build := func(ss []curve) (*figure, error) {
		f := newFigure(name, title, "seconds after the first change", fmt.Sprintf("requests per %s s window (log)", strconv.FormatFloat(width, 'g', 3, 64)))
		f.caption = caption
		if err := drawStale(f, stale, staleModel, totals); err != nil {
			return nil, err
		}
		for _, s := range ss {
			if err := addModelAndSim(f, s, modelOf(model, s), label(s)); err != nil {
				return nil, err
			}
		}
		setPropagateAxes(f, floor, top, xs)
		return f, nil
	}
	f, err := build(sim)
	if err != nil {
		return nil, err
	}
	return familyPanels(f, sim, build)
}

// modelOf returns the model curve of the same series as s.
func modelOf(model []curve, s curve) curve {
	for _, m := range model {
		if m.Algo == s.Algo && m.Label == s.Label {
			return m
		}
	}
	return curve{}
}

// changePhrase describes the scenario of r: "one join at 100 nodes", or
// its op and node counts.
func changePhrase(r schema.Propagate) string {
	switch {
	case r.Changes == 1 && r.Op == schema.OpAdd:
		return fmt.Sprintf("one join at %d nodes", r.From)
	case r.Changes == 1 && r.Op == schema.OpRemoveRandom:
		return fmt.Sprintf("one leave at %d nodes", r.From)
	case r.Changes == 1:
		return fmt.Sprintf("%s, %d -> %d nodes,", r.Op, r.From, r.To)
	}
	return fmt.Sprintf("%s, %d -> %d nodes in %d changes,", r.Op, r.From, r.To, r.Changes)
}

// drawStale draws the stale-routed requests: the model as a black line,
// the simulation as black markers with their CI.
func drawStale(f *figure, stale, model curve, totals map[string]schema.Propagate) error {
	var total, expected float64
	for _, t := range totals {
		total, expected = t.Stale, t.StaleExpected
		break
	}
	st := style{Color: staleColor, Glyph: draw.BoxGlyph{}}
	return addModelAndSim(f, stale, curve{Points: model.Points}, fmt.Sprintf("stale: %s (model %s)", numfmt.Thousands(total), numfmt.Thousands(expected)), st)
}

// addModelAndSim draws the model m as a line and the simulation s as
// markers with error bars, in the style of s's algorithm (or st), with one
// legend entry.
func addModelAndSim(f *figure, s, m curve, label string, st ...style) error {
	sty := algoStyle(s.Algo)
	if len(st) > 0 {
		sty = st[0]
	}
	var line *plotter.Line
	if len(m.Points) > 0 {
		var err error
		if line, err = plotter.NewLine(plotterXYs(m.Points)); err != nil {
			return fmt.Errorf("series %s: %w", label, err)
		}
		line.Color, line.Width, line.Dashes = sty.Color, vg.Points(2), sty.Dashes
		f.p.Add(line)
	}
	var points *plotter.Scatter
	if len(s.Points) > 0 {
		var err error
		if points, err = plotter.NewScatter(plotterXYs(s.Points)); err != nil {
			return fmt.Errorf("series %s: %w", label, err)
		}
		points.Color, points.Shape, points.Radius = sty.Color, sty.Glyph, vg.Points(4)
		f.p.Add(points)
		bars, err := errorBars(s.Points, sty.Color, true) // setPropagateAxes puts y on a log scale
		if err != nil {
			return fmt.Errorf("series %s: %w", label, err)
		}
		if bars != nil {
			bars.CapWidth = vg.Points(5)
			bars.Width = vg.Points(1)
			f.p.Add(bars)
		}
	}
	var thumbs []plot.Thumbnailer
	if line != nil {
		thumbs = append(thumbs, line)
	}
	if points != nil {
		thumbs = append(thumbs, points)
	}
	f.legend.Add(label, thumbs...)
	return nil
}

// propagateRange returns the y range of a log axis over the positive
// values of ys: from a quarter of the smallest, but at most five decades
// below the largest (a model value of 1e-9 of a request would otherwise
// stretch the axis over nothing), to 1.5 times the largest.
func propagateRange(ys []float64) (lo, hi float64) {
	lo = math.Inf(1)
	for _, y := range ys {
		if y > 0 && !math.IsInf(y, 0) {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	if hi == 0 {
		return 0.5, 2
	}
	lo, top := logRange(lo, hi, 4, 1.5)
	return math.Max(lo, hi*1e-5), top
}

// setPropagateAxes sets the y axis to the log range lo..hi and the x axis
// over xs.
func setPropagateAxes(f *figure, lo, hi float64, xs []float64) {
	f.p.Y.Min, f.p.Y.Max = lo, hi
	f.p.Y.Scale = plot.LogScale{}
	f.p.Y.Tick.Marker = logTicks{}
	if len(xs) > 0 {
		f.p.X.Min, f.p.X.Max = slices.Min(xs), slices.Max(xs)
		d := 0.03 * (f.p.X.Max - f.p.X.Min)
		if d == 0 {
			d = 0.5
		}
		f.p.X.Min, f.p.X.Max = f.p.X.Min-d, f.p.X.Max+d
	}
	f.p.X.Tick.Marker = linTicks{}
}

// askColor and movedColor draw a resharding's ASK and MOVED redirects,
// askBandColor the band the ASK count must fall in.
var (
	askColor     = color.RGBA{R: 0, G: 114, B: 178, A: 255}
	movedColor   = color.RGBA{R: 213, G: 94, B: 0, A: 255}
	askBandColor = color.NRGBA{R: 0, G: 114, B: 178, A: 60}
	spanColor    = color.Gray{Y: 235}
)

// redirectFigure draws a live Redis Cluster resharding (propagate-redis.csv)
// against its model in two panels over the same time axis: above, per
// window, the ASK redirects observed (markers) beside the model's
// expectation (a step line) and the band the observation must fall in
// (the bracket over the timing uncertainty widened by 4 binomial sd);
// below, the MOVED redirects observed beside the model's bounds; the
// migration's span shaded in both. Rows of more than one run, or two rows
// for one window, are an error.
func redirectFigure(rows []schema.Redirect) (*figure, error) {
	wins, total, err := redirectWindows(rows)
	if err != nil || len(wins) == 0 {
		return nil, err
	}
	r0 := wins[0]
	f := &figure{name: "propagate-redis", title: fmt.Sprintf("Redis Cluster redirects while %d slots migrate: observed against the model", r0.Slots),
		cols: 1, width: figWidth, height: figHeight * 5 / 4, p: newFigure("", "", "", "").p}
	f.caption = []string{
		fmt.Sprintf("redis %s, 3 masters on 127.0.0.1; redis-cli --cluster reshard moves %d slots x %s keys (%d per MIGRATE) to the second master, %.2f..%.2f s",
			r0.RedisVersion, r0.Slots, numfmt.Int(r0.KeysPerSlot), r0.Pipeline, r0.MigrationStartS, r0.MigrationEndS),
		fmt.Sprintf("one client caches the slot map: up to %s requests/s, %s writes; it follows ASK (map kept) and MOVED (map updated)",
			numfmt.Thousands(r0.Rate), numfmt.Percent(r0.Writes, 0)),
		fmt.Sprintf("model: ASK with the share of the slot's keys already moved, one MOVED per slot; timing slack %.1f ms (2 x p99.9 round trip)", 1e3*r0.SlackS),
	}
	if total != nil {
		lo, hi := math.Max(0, total.AskModelLo-4*total.AskSD), total.AskModelHi+4*total.AskSD
		verdict := "inside"
		if float64(total.Ask) < lo || float64(total.Ask) > hi {
			verdict = "OUTSIDE"
		}
		f.caption = append(f.caption, fmt.Sprintf("whole run: %s requests; ASK %d, model %.1f, band %.1f..%.1f (%s); MOVED %d, model %d..%d",
			numfmt.Int(total.Requests), total.Ask, total.AskModel, lo, hi, verdict, total.Moved, total.MovedModelLo, total.MovedModelHi))
	}
	f.caption = append(f.caption, runCaption(runsOf(rows)))
	ask, err := askPanel(wins)
	if err != nil {
		return nil, err
	}
	moved, err := movedPanel(wins)
	if err != nil {
		return nil, err
	}
	f.panels = []*figure{ask, moved}
	w := max(ask.legendNeed(), moved.legendNeed())
	for _, pf := range f.panels {
		pf.legendW = w
		pf.p.X.Min, pf.p.X.Max = wins[0].StartS, wins[len(wins)-1].EndS
		pf.p.X.Tick.Marker = linTicks{}
	}
	return f, nil
}

// redirectWindows returns the window rows in order and the whole run's.
func redirectWindows(rows []schema.Redirect) ([]schema.Redirect, *schema.Redirect, error) {
	var wins []schema.Redirect
	var total *schema.Redirect
	seen := map[int]bool{}
	for i, r := range rows {
		if r.Slots != rows[0].Slots || r.KeysPerSlot != rows[0].KeysPerSlot || r.MigrationStartS != rows[0].MigrationStartS || r.Seed != rows[0].Seed {
			return nil, nil, fmt.Errorf("redirects: rows 1 and %d describe different runs (one plot per run)", i+1)
		}
		if seen[r.Window] {
			return nil, nil, fmt.Errorf("redirects: two rows give window %d", r.Window)
		}
		seen[r.Window] = true
		if r.Window == -1 {
			total = &rows[i]
			continue
		}
		wins = append(wins, r)
	}
	slices.SortFunc(wins, func(a, b schema.Redirect) int { return cmp.Compare(a.Window, b.Window) })
	return wins, total, nil
}

// migrationSpan shades the migration's span of r up to height top.
func migrationSpan(f *figure, r schema.Redirect, top float64) error {
	span, err := plotter.NewPolygon(plotter.XYs{{X: r.MigrationStartS, Y: 0}, {X: r.MigrationEndS, Y: 0}, {X: r.MigrationEndS, Y: top}, {X: r.MigrationStartS, Y: top}})
	if err != nil {
		return err
	}
	span.Color, span.LineStyle.Width = spanColor, 0
	f.p.Add(span)
	f.legend.Add("slots migrating", span)
	return nil
}

// askPanel draws the ASK redirects of wins against the model.
func askPanel(wins []schema.Redirect) (*figure, error) {
	f := newFigure("", "ASK: a key of a migrating slot already moved", "seconds from the client's start", "ASK redirects per window")
	var band, model, obs plotter.XYs
	top := 1.0
	for _, w := range wins {
		lo, hi := math.Max(0, w.AskModelLo-4*w.AskSD), w.AskModelHi+4*w.AskSD
		band = append(band, plotter.XY{X: w.StartS, Y: lo}, plotter.XY{X: w.EndS, Y: lo})
		model = append(model, plotter.XY{X: w.StartS, Y: w.AskModel}, plotter.XY{X: w.EndS, Y: w.AskModel})
		obs = append(obs, plotter.XY{X: (w.StartS + w.EndS) / 2, Y: float64(w.Ask)})
		top = math.Max(top, math.Max(hi, float64(w.Ask)))
	}
	for i := len(wins) - 1; i >= 0; i-- {
		w := wins[i]
		hi := w.AskModelHi + 4*w.AskSD
		band = append(band, plotter.XY{X: w.EndS, Y: hi}, plotter.XY{X: w.StartS, Y: hi})
	}
	top *= 1.1
	if err := migrationSpan(f, wins[0], top); err != nil {
		return nil, err
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return nil, err
	}
	poly.Color, poly.LineStyle.Width = askBandColor, 0
	line, err := plotter.NewLine(model)
	if err != nil {
		return nil, err
	}
	line.Color, line.Width = askColor, vg.Points(2)
	pts, err := plotter.NewScatter(obs)
	if err != nil {
		return nil, err
	}
	pts.Color, pts.Shape, pts.Radius = askColor, draw.CircleGlyph{}, vg.Points(5)
	f.p.Add(poly, line, pts)
	f.legend.Add("model ± 4 sd", poly)
	f.legend.Add("model", line)
	f.legend.Add("observed", pts)
	f.p.Y.Min, f.p.Y.Max = 0, top
	return f, nil
}

// movedPanel draws the MOVED redirects of wins against the model's
// bounds.
func movedPanel(wins []schema.Redirect) (*figure, error) {
	f := newFigure("", "MOVED: the slot has been handed over (the map is updated)", "seconds from the client's start", "MOVED redirects per window")
	var obs plotter.XYs
	var bounds []xy
	top := 2.0
	for _, w := range wins {
		x := (w.StartS + w.EndS) / 2
		obs = append(obs, plotter.XY{X: x, Y: float64(w.Moved)})
		bounds = append(bounds, xy{X: x, Y: float64(w.MovedModelLo), Lo: float64(w.MovedModelLo), Hi: float64(w.MovedModelHi), CI: true})
		top = math.Max(top, float64(max(w.Moved, w.MovedModelHi)))
	}
	top += 0.5
	if err := migrationSpan(f, wins[0], top); err != nil {
		return nil, err
	}
	bars, err := errorBars(bounds, color.Gray{Y: 90}, false) // a linear count from 0
	if err != nil {
		return nil, err
	}
	// The bounds as bars across, so that a range of one value (the MOVED
	// is certain in that window, or certainly not) still shows.
	var ends plotter.XYs
	for _, b := range bounds {
		ends = append(ends, plotter.XY{X: b.X, Y: b.Lo}, plotter.XY{X: b.X, Y: b.Hi})
	}
	marks, err := plotter.NewScatter(ends)
	if err != nil {
		return nil, err
	}
	marks.Color, marks.Shape, marks.Radius = color.Gray{Y: 90}, hbar{}, vg.Points(11)
	pts, err := plotter.NewScatter(obs)
	if err != nil {
		return nil, err
	}
	pts.Color, pts.Shape, pts.Radius = movedColor, draw.PyramidGlyph{}, vg.Points(6)
	f.p.Add(bars, marks, pts)
	f.legend.Add("model: from .. to", marks)
	f.legend.Add("observed", pts)
	f.p.Y.Min, f.p.Y.Max = 0, top
	var ticks []plot.Tick
	for v := 0.0; v <= top; v++ {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
	}
	f.p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	return f, nil
}
