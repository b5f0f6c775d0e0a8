package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// placementStyle is algoStyle for the placements of the load analysis:
// bounded-partition is the catalog's "bounded" and keeps its style; the
// key and request forms, which have no catalog entry, get colours of
// their own (purple, and a dark brown far from every palette colour but
// vermillion, whose partition form it is drawn apart from), markers
// (bounded-request a thick plus) and dashes not used by a neighbour.
func placementStyle(name string) style {
	switch name {
	case schema.VariantPartition:
		return algoStyle("bounded")
	case schema.VariantKey:
		return style{Color: color.RGBA{R: 106, G: 61, B: 154, A: 255}, Glyph: draw.BoxGlyph{}, Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}
	case schema.VariantRequest:
		return style{Color: color.RGBA{R: 110, G: 50, B: 10, A: 255}, Glyph: thickPlus{}, Dashes: nil}
	case "ring (no bound)":
		return algoStyle("ring")
	}
	return algoStyle(name)
}

// thickPlus is a plus-shaped marker drawn with a 2.5-point line: gonum's
// PlusGlyph, drawn hairline-thin, vanished on bounded-request's solid line.
type thickPlus struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (thickPlus) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(2.5)})
	r := sty.Radius * 1.1
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Move(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X, Y: pt.Y + r})
	c.Stroke(p)
}

// placementOrder sorts placements in catalog order with the two
// non-catalog forms of bounded loads after bounded-partition.
func placementOrder(a, b string) int {
	rank := func(s string) string {
		switch s {
		case schema.VariantPartition:
			return "bounded"
		case schema.VariantKey:
			return "bounded\x01"
		case schema.VariantRequest:
			return "bounded\x02"
		}
		return s
	}
	ra, rb := rank(a), rank(b)
	if c := catalog.Compare(strings.TrimRight(ra, "\x01\x02"), strings.TrimRight(rb, "\x01\x02")); c != 0 {
		return c
	}
	return cmp.Compare(ra, rb)
}

// loadSeries extracts from load.csv rows, for each node count in
// increasing order, one series per placement of peak-to-mean request load
// against the Zipf exponent (with 95% CIs), and the hot-key floor against
// the exponent. Rows of a request log (no zipf) are skipped. Two rows for
// the same placement, node count and exponent are an error.
func loadSeries(rows []schema.Load) (nodes []float64, series map[float64][]curve, floors map[float64][]xy, err error) {
	series, floors = map[float64][]curve{}, map[float64][]xy{}
	type key struct {
		algo string
		n    float64
	}
	pts := map[key][]xy{}
	seen := map[key]map[float64]bool{}
	var keys []key
	for _, r := range rows {
		if r.Zipf == nil {
			continue
		}
		n, s := float64(r.Nodes), *r.Zipf
		k := key{r.Algo, n}
		if seen[k] == nil {
			seen[k] = map[float64]bool{}
			keys = append(keys, k)
		}
		if seen[k][s] {
			return nil, nil, nil, fmt.Errorf("load: two rows give algo=%s nodes=%v zipf=%v", k.algo, n, s)
		}
		seen[k][s] = true
		pts[k] = append(pts[k], estimate(r.PeakToMean, r.PeakToMeanLo, r.PeakToMeanHi).atX(s))
		if !slices.Contains(nodes, n) {
			nodes = append(nodes, n)
		}
		if !slices.ContainsFunc(floors[n], func(q xy) bool { return q.X == s }) {
			floors[n] = append(floors[n], xy{X: s, Y: r.Floor, Lo: r.Floor, Hi: r.Floor})
		}
	}
	slices.Sort(nodes)
	slices.SortFunc(keys, func(a, b key) int { return placementOrder(a.algo, b.algo) })
	for _, k := range keys {
		ps := pts[k]
		slices.SortFunc(ps, func(a, b xy) int { return cmp.Compare(a.X, b.X) })
		series[k.n] = append(series[k.n], curve{Algo: k.algo, Label: k.algo, Points: ps})
	}
	for n := range floors {
		slices.SortFunc(floors[n], func(a, b xy) int { return cmp.Compare(a.X, b.X) })
	}
	return nodes, series, floors, nil
}

// trafficCaption is the data source of a load or bounded-loads figure:
// keys, streams, requests, hash, seed, vnodes, key kind and build, from the
// runs of its rows.
func trafficCaption(runs []schema.Run, notes ...string) []string {
	get := func(field func(schema.Run) string) string {
		var vs []string
		for _, r := range runs {
			if v := field(r); v != "" && v != "0" && !slices.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
		if len(vs) > 3 {
			return ""
		}
		return strings.Join(vs, "/")
	}
	var parts []string
	if k := get(func(r schema.Run) string { return r.Keys }); k != "" {
		parts = append(parts, "Zipf over "+thousands(k)+" keys")
	}
	if r, s := get(func(r schema.Run) string { return r.Requests }), get(func(r schema.Run) string { return r.Sets }); r != "" && s != "" {
		parts = append(parts, thousands(r)+" requests x "+s+" streams")
	}
	if h := get(func(r schema.Run) string { return r.Hash }); h != "" {
		parts = append(parts, h)
	}
	if s := get(func(r schema.Run) string { return r.Seed }); s != "" {
		parts = append(parts, "seed "+s)
	}
	if v := get(func(r schema.Run) string { return r.VNodes }); v != "" {
		parts = append(parts, "vnodes "+v)
	}
	if k := get(func(r schema.Run) string { return r.KeyKind }); k != "" {
		parts = append(parts, k+" keys")
	}
	line1 := strings.Join(parts, ", ")
	var build []string
	if g := get(func(r schema.Run) string { return r.GoVersion }); g != "" {
		build = append(build, g)
	}
	if c := get(func(r schema.Run) string { return r.Commit }); c != "" {
		build = append(build, "commit "+c)
	}
	if len(build) > 0 {
		line1 += "; " + strings.Join(build, ", ")
	}
	return append([]string{line1}, notes...)
}

// loadFigures draws, per node count, peak-to-mean request load against
// the Zipf exponent for every placement, with the hot-key floor and 95%
// CI bars; the x axis is ticked at the measured exponents. With more than
// panelThreshold placements it is small multiples (familyPanelsBy with
// loadFamily): the catalog families, and the three forms of bounded loads
// in a panel of their own beside the plain ring, every panel with the
// floor, on the axes of the whole figure.
func loadFigures(rows []schema.Load) ([]*figure, error) {
	nodes, series, floors, err := loadSeries(rows)
	if err != nil || len(nodes) == 0 {
		return nil, err
	}
	var figs []*figure
	for _, n := range nodes {
		ns := strconv.FormatFloat(n, 'f', -1, 64)
		name := "load-peak-to-mean"
		if len(nodes) > 1 {
			name += "-n" + ns
		}
		var runs []schema.Run
		eps, inflight := "", ""
		for _, r := range rows {
			if float64(r.Nodes) == n && r.Zipf != nil {
				runs = append(runs, schema.RunOf(r))
				if strings.HasPrefix(r.Algo, "bounded") {
					eps = strconv.FormatFloat(r.Eps, 'g', -1, 64)
				}
				if r.InFlight != 0 {
					inflight = strconv.Itoa(r.InFlight)
				}
			}
		}
		notes := []string{"dashed black: hot-key floor max(1, n x hottest key's share), below which no placement of whole keys can go"}
		if eps != "" {
			b := "bounded forms at eps " + eps
			if inflight != "" {
				b += "; bounded-request with " + thousands(inflight) + " requests in flight (FIFO)"
			}
			notes = append(notes, b+"; the key and partition forms bound keys, not requests")
		}
		caption := trafficCaption(runs, notes...)
		ss := series[n]
		ticks := zipfTicks(allXs(ss))
		var ring *curve
		if i := slices.IndexFunc(ss, func(s curve) bool { return s.Algo == "ring" }); i >= 0 {
			ring = &ss[i]
		}
		build := func(group []curve) (*figure, error) {
			f := newFigure(name, "Peak-to-mean request load under Zipf popularity (n = "+ns+" nodes)",
				"Zipf exponent s of key popularity (0 = uniform)", "peak-to-mean request load (busiest node / mean, log)")
			f.caption = caption
			if ring != nil && len(group) < len(ss) && !slices.ContainsFunc(group, func(s curve) bool { return loadFamily(s.Algo) != "bounded" }) {
				// The bounded panel: what bounding buys over the plain ring.
				group = append([]curve{{Algo: "ring (no bound)", Label: "ring (no bound)", Points: ring.Points}}, group...)
			}
			if !logYClipped(f, append(slices.Clone(group), curve{Points: floors[n]})) {
				f.p.Y.Label.Text = "peak-to-mean request load (busiest node / mean)"
			}
			for _, s := range group {
				if err := addSeries(f, s, placementStyle(s.Algo)); err != nil {
					return nil, err
				}
			}
			if err := referenceLine(f, "hot-key floor", plotterXYs(floors[n])); err != nil {
				return nil, err
			}
			if err := legendNote(f, "95% CI (bars)", vg.Points(1.5)); err != nil {
				return nil, err
			}
			padAxes(f)
			f.p.X.Tick.Marker = ticks
			return f, nil
		}
		f, err := build(ss)
		if err != nil {
			return nil, err
		}
		if f, err = familyPanelsBy(f, ss, loadFamily, build); err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// loadFamily is the panel of a placement in the load figure: "bounded"
// for the three forms of bounded loads (which answer another question
// than the hash families: can a bound beat the hot-key floor), the
// catalog family otherwise.
func loadFamily(name string) string {
	switch name {
	case schema.VariantPartition, schema.VariantKey, schema.VariantRequest:
		return "bounded"
	case "ring (no bound)":
		return familyOf("ring")
	}
	return familyOf(name)
}

// zipfTicks labels the Zipf exponents measured, xs, each once, in
// increasing order, with as many decimals as measured (0.99, not 1.0).
func zipfTicks(xs []float64) plot.ConstantTicks {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	xs = slices.Compact(xs)
	ticks := make(plot.ConstantTicks, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', -1, 64)}
	}
	return ticks
}

// boundedMetric is one plotted measure of boundedloads.csv: its value in
// a row (ok false where the row has none) and its reference line.
type boundedMetric struct {
	name, title, yLabel string
	log                 bool // log y axis
	value               func(r schema.Bounded) (xy, bool)
	ref                 func(r schema.Bounded) float64 // nil: no reference line
	refLabel            string
	skipRing            bool
}

var boundedMetrics = []boundedMetric{
	{name: "max-load-over-cap", title: "Bounded loads: largest load / capacity against eps (must stay <= 1)", yLabel: "max load / capacity (partitions, keys or requests in flight)",
		value: func(r schema.Bounded) (xy, bool) {
			if r.MaxLoadOverCap == nil {
				return xy{}, false
			}
			x := *r.MaxLoadOverCap
			return xy{Y: x, Lo: x, Hi: x}, true
		},
		ref: func(schema.Bounded) float64 { return 1 }, refLabel: "capacity (ratio 1)", skipRing: true},
	{name: "away", title: "Bounded loads: requests served away from their first-choice node", yLabel: "fraction of requests away from the first choice (log)", log: true,
		value:    func(r schema.Bounded) (xy, bool) { return estimate(r.AwayFrac, r.AwayFracLo, r.AwayFracHi), true },
		skipRing: true},
	{name: "moved-join", title: "Bounded loads: moved fraction when one node joins", yLabel: "moved fraction (keys; requests for bounded-request; log)", log: true,
		value: func(r schema.Bounded) (xy, bool) {
			return estimate(r.MovedJoinFrac, r.MovedJoinFracLo, r.MovedJoinFracHi), true
		},
		ref: func(r schema.Bounded) float64 { return r.IdealJoinFrac }, refLabel: "ideal 1/(n+1)"},
	{name: "moved-leave", title: "Bounded loads: moved fraction when one node leaves", yLabel: "moved fraction (keys; requests for bounded-request; log)", log: true,
		value: func(r schema.Bounded) (xy, bool) {
			return estimate(r.MovedLeaveFrac, r.MovedLeaveFracLo, r.MovedLeaveFracHi), true
		},
		ref: func(r schema.Bounded) float64 { return r.IdealLeaveFrac }, refLabel: "ideal (leaver's share)"},
	{name: "moves-per-cap", title: "Bounded loads: keys (partitions) moved per join, in node capacities C", yLabel: "moved keys or partitions / C, C = ceil(c m/n) (log)", log: true,
		value: func(r schema.Bounded) (xy, bool) {
			if r.MovesPerCapJoin == nil {
				return xy{}, false
			}
			return estimate(*r.MovesPerCapJoin, r.MovesPerCapJoinLo, r.MovesPerCapJoinHi), true
		},
		ref: func(r schema.Bounded) float64 { return 1 / (r.Eps * r.Eps) }, refLabel: "1/eps^2 (bound's shape)", skipRing: true},
}

// boundedFigures draws, for each Zipf exponent in the file, the bounded
// forms' max load / cap, away fraction, moved fractions on join and leave
// (with the plain ring and the ideal) and moves per capacity (with the
// paper's 1/eps^2 shape) against eps.
func boundedFigures(all []schema.Bounded) ([]*figure, error) {
	var zipfs []float64
	for _, r := range all {
		if !slices.Contains(zipfs, r.Zipf) {
			zipfs = append(zipfs, r.Zipf)
		}
	}
	var figs []*figure
	for _, zf := range zipfs {
		z := strconv.FormatFloat(zf, 'g', -1, 64)
		var rows []schema.Bounded
		for _, r := range all {
			if r.Zipf == zf {
				rows = append(rows, r)
			}
		}
		n := strconv.Itoa(rows[0].Nodes)
		for _, m := range boundedMetrics {
			f, err := boundedFigure(m, rows, n, z)
			if err != nil {
				return nil, err
			}
			if f != nil {
				figs = append(figs, f)
			}
		}
	}
	return figs, nil
}

// boundedFigure draws metric m of rows (one Zipf exponent z on n nodes)
// against eps, one series per form, with m's reference line; nil when no
// row has the metric.
func boundedFigure(m boundedMetric, rows []schema.Bounded, n, z string) (*figure, error) {
	pts := map[string][]xy{}
	var algos []string
	ref := map[float64]float64{}
	for _, r := range rows {
		a := r.Algo
		if m.skipRing && a == schema.VariantRing {
			continue
		}
		p, ok := m.value(r)
		if !ok {
			continue
		}
		p.X = r.Eps
		if a == schema.VariantRing {
			a = "ring (no bound)"
		}
		if !slices.Contains(algos, a) {
			algos = append(algos, a)
		}
		if slices.ContainsFunc(pts[a], func(q xy) bool { return q.X == r.Eps }) {
			return nil, fmt.Errorf("boundedloads: a second row for algo=%s eps=%v zipf=%s", a, r.Eps, z)
		}
		pts[a] = append(pts[a], p)
		if m.ref != nil {
			ref[r.Eps] = m.ref(r)
		}
	}
	if len(algos) == 0 {
		return nil, nil
	}
	slices.SortFunc(algos, placementOrder)
	var ss []curve
	for _, a := range algos {
		ps := pts[a]
		slices.SortFunc(ps, func(a, b xy) int { return cmp.Compare(a.X, b.X) })
		ss = append(ss, curve{Algo: a, Label: a, Points: ps})
	}
	f := newFigure("bounded-"+m.name+"-s"+z, m.title+" (n = "+n+", Zipf s = "+z+")", "eps (load factor c = 1 + eps, log)", m.yLabel)
	f.caption = trafficCaption(runsOf(rows))
	if err := logX(f, "eps", allXs(ss)); err != nil {
		return nil, err
	}
	var refPts []xy
	for e, y := range ref {
		refPts = append(refPts, xy{X: e, Y: y, Lo: y, Hi: y})
	}
	slices.SortFunc(refPts, func(a, b xy) int { return cmp.Compare(a.X, b.X) })
	if m.log {
		if !logYClipped(f, append(slices.Clone(ss), curve{Points: refPts})) {
			f.p.Y.Label.Text = strings.Replace(strings.Replace(m.yLabel, "; log)", ")", 1), " (log)", "", 1)
		}
	}
	for _, s := range ss {
		if err := addSeries(f, s, placementStyle(s.Algo)); err != nil {
			return nil, err
		}
	}
	if len(refPts) > 0 {
		if err := referenceLine(f, m.refLabel, plotterXYs(refPts)); err != nil {
			return nil, err
		}
	}
	padAxes(f)
	return f, nil
}
