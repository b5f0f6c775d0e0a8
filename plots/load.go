package plots

import (
	"cmp"
	"errors"
	"image/color"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chbench/chbench/schema"
)

// Input files of the traffic plots (all optional).
const (
	LoadFile             = "load.csv"              // chbench load: request load per placement and Zipf exponent
	BoundedLoadsFile     = "boundedloads.csv"      // chbench bounded: the forms of bounded loads against eps
	HashesSequentialFile = "hashes-sequential.csv" // spread per hash on sequential keys, spread.csv header
)

// Names of the forms of bounded loads without a catalog entry, and the
// label the load analysis gives the catalog's partition form.
const (
	boundedPartition = "bounded-partition"
	boundedKey       = "bounded-key"
	boundedRequest   = "bounded-request"
)

// placementStyle is AlgoStyle for the placements of the load analysis:
// bounded-partition is the catalog's "bounded" and keeps its style; the
// key and request forms, which have no catalog entry, get colours of
// their own (purple, and a dark brown far from every palette colour but
// vermillion, whose partition form it is drawn apart from), markers
// (bounded-request a thick plus) and dashes not used by a neighbour.
func placementStyle(name string) Style {
	switch name {
	case boundedPartition:
		return AlgoStyle("bounded")
	case boundedKey:
		return Style{Color: color.RGBA{R: 106, G: 61, B: 154, A: 255}, Glyph: draw.BoxGlyph{}, Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}
	case boundedRequest:
		return Style{Color: color.RGBA{R: 110, G: 50, B: 10, A: 255}, Glyph: thickPlus{}, Dashes: nil}
	case "ring (no bound)":
		return AlgoStyle("ring")
	}
	return AlgoStyle(name)
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
		case boundedPartition:
			return "bounded"
		case boundedKey:
			return "bounded\x01"
		case boundedRequest:
			return "bounded\x02"
		}
		return s
	}
	ra, rb := rank(a), rank(b)
	if c := algoOrder(strings.TrimRight(ra, "\x01\x02"), strings.TrimRight(rb, "\x01\x02")); c != 0 {
		return c
	}
	return cmp.Compare(ra, rb)
}

// trafficFigures reads the optional traffic inputs in dir and returns
// their figures and the errors met (a malformed file names its line).
func trafficFigures(dir string) ([]*figure, []error) {
	var figs []*figure
	var errs []error
	read := func(name string, build func(t *schema.Table) ([]*figure, error), required []string) {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return
		}
		t, err := schema.ReadTable(p, required)
		if err == nil {
			var fs []*figure
			fs, err = build(t)
			figs = append(figs, fs...)
		}
		errs = appendErr(errs, wrapFile(p, err))
	}
	read(LoadFile, loadFigures, loadColumns)
	read(BoundedLoadsFile, boundedFigures, boundedColumns)
	read(HashesSequentialFile, func(t *schema.Table) ([]*figure, error) {
		rows, err := spreadRows(t)
		if err != nil {
			return nil, err
		}
		f, err := hashesFigure(rows)
		if f == nil || err != nil {
			return nil, err
		}
		f.name = "spread-hashes-sequential"
		f.title = strings.Replace(f.title, "function", "function, sequential keys user:1, user:2, ...", 1)
		return []*figure{f}, nil
	}, spreadColumns)
	return figs, errs
}

var loadColumns = []string{schema.ColAlgo, schema.ColNodes, schema.ColZipf, schema.ColPeakToMean, schema.ColFloor}

// LoadSeries extracts from load.csv rows, for each node count in
// increasing order, one series per placement of peak-to-mean request load
// against the Zipf exponent (with 95% CIs), and the hot-key floor against
// the exponent. Rows of a request log (empty zipf) are skipped. Two rows
// for the same placement, node count and exponent are an error.
func LoadSeries(t *schema.Table) (nodes []float64, series map[float64][]Series, floors map[float64][]Point, err error) {
	series, floors = map[float64][]Series{}, map[float64][]Point{}
	type key struct {
		algo string
		n    float64
	}
	pts := map[key][]Point{}
	seen := map[key]map[float64]int{}
	var keys []key
	for i := range t.Len() {
		if t.Str(i, schema.ColZipf) == "" {
			continue
		}
		n, err := t.Count(i, schema.ColNodes)
		if err != nil {
			return nil, nil, nil, err
		}
		s, err := t.Num(i, schema.ColZipf)
		if err != nil {
			return nil, nil, nil, err
		}
		p, err := interval(t, i, schema.ColPeakToMean)
		if err != nil {
			return nil, nil, nil, err
		}
		floor, err := t.Num(i, schema.ColFloor)
		if err != nil {
			return nil, nil, nil, err
		}
		k := key{t.Str(i, schema.ColAlgo), n}
		if seen[k] == nil {
			seen[k] = map[float64]int{}
			keys = append(keys, k)
		}
		if l, dup := seen[k][s]; dup {
			return nil, nil, nil, t.Errorf(i, schema.ColAlgo, "lines %d and %d both give algo=%s nodes=%v zipf=%v", l, t.Line(i), k.algo, n, s)
		}
		seen[k][s] = t.Line(i)
		p.X = s
		pts[k] = append(pts[k], p)
		if !slices.Contains(nodes, n) {
			nodes = append(nodes, n)
		}
		if !slices.ContainsFunc(floors[n], func(q Point) bool { return q.X == s }) {
			floors[n] = append(floors[n], Point{X: s, Y: floor, Lo: floor, Hi: floor})
		}
	}
	slices.Sort(nodes)
	slices.SortFunc(keys, func(a, b key) int { return placementOrder(a.algo, b.algo) })
	for _, k := range keys {
		ps := pts[k]
		slices.SortFunc(ps, func(a, b Point) int { return cmp.Compare(a.X, b.X) })
		series[k.n] = append(series[k.n], Series{Algo: k.algo, Label: k.algo, Points: ps})
	}
	for n := range floors {
		slices.SortFunc(floors[n], func(a, b Point) int { return cmp.Compare(a.X, b.X) })
	}
	return nodes, series, floors, nil
}

// trafficCaption is the data source of a load or bounded-loads figure:
// keys, streams, requests, hash, seed, vnodes, in-flight requests and
// build, from the columns of rows.
func trafficCaption(t *schema.Table, rows []int, notes ...string) []string {
	get := func(col string) string {
		var vs []string
		for _, i := range rows {
			if v := t.Str(i, col); v != "" && v != "0" && !slices.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
		if len(vs) > 3 {
			return ""
		}
		return strings.Join(vs, "/")
	}
	var parts []string
	if k := get(schema.ColKeys); k != "" {
		parts = append(parts, "Zipf over "+thousands(k)+" keys")
	}
	if r, s := get(schema.ColRequests), get(schema.ColSets); r != "" && s != "" {
		parts = append(parts, thousands(r)+" requests x "+s+" streams")
	}
	if h := get(schema.ColHash); h != "" {
		parts = append(parts, h)
	}
	if s := get(schema.ColSeed); s != "" {
		parts = append(parts, "seed "+s)
	}
	if v := get(schema.ColVNodes); v != "" {
		parts = append(parts, "vnodes "+v)
	}
	if k := get(schema.ColKeyKind); k != "" {
		parts = append(parts, k+" keys")
	}
	line1 := strings.Join(parts, ", ")
	var build []string
	if g := get(schema.ColGoVersion); g != "" {
		build = append(build, g)
	}
	if c := get(schema.ColCommit); c != "" {
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
func loadFigures(t *schema.Table) ([]*figure, error) {
	nodes, series, floors, err := LoadSeries(t)
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
		var rows []int
		eps, inflight := "", ""
		for i := range t.Len() {
			if c, _ := t.Count(i, schema.ColNodes); c == n && t.Str(i, schema.ColZipf) != "" {
				rows = append(rows, i)
				if strings.HasPrefix(t.Str(i, schema.ColAlgo), "bounded") {
					eps = t.Str(i, schema.ColEps)
				}
				if k := t.Str(i, schema.ColInFlight); k != "" && k != "0" {
					inflight = k
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
		caption := trafficCaption(t, rows, notes...)
		ss := series[n]
		ticks := zipfTicks(allXs(ss))
		var ring *Series
		if i := slices.IndexFunc(ss, func(s Series) bool { return s.Algo == "ring" }); i >= 0 {
			ring = &ss[i]
		}
		build := func(group []Series) (*figure, error) {
			f := newFigure(name, "Peak-to-mean request load under Zipf popularity (n = "+ns+" nodes)",
				"Zipf exponent s of key popularity (0 = uniform)", "peak-to-mean request load (busiest node / mean, log)")
			f.caption = caption
			if ring != nil && len(group) < len(ss) && !slices.ContainsFunc(group, func(s Series) bool { return loadFamily(s.Algo) != "bounded" }) {
				// The bounded panel: what bounding buys over the plain ring.
				group = append([]Series{{Algo: "ring (no bound)", Label: "ring (no bound)", Points: ring.Points}}, group...)
			}
			if !logYClipped(f, append(slices.Clone(group), Series{Points: floors[n]})) {
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
	case boundedPartition, boundedKey, boundedRequest:
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

var boundedColumns = []string{schema.ColAlgo, schema.ColNodes, schema.ColEps, schema.ColZipf, schema.ColMaxLoadOverCap, schema.ColAwayFrac, schema.ColMovedJoinFrac, schema.ColIdealJoinFrac, schema.ColMovedLeaveFrac}

// boundedMetric is one plotted column of boundedloads.csv.
type boundedMetric struct {
	name, col, title, yLabel string
	log                      bool   // log y axis
	ref                      string // reference line: "one", "ideal-join", "ideal-leave", "eps2" or ""
	skipRing                 bool
}

var boundedMetrics = []boundedMetric{
	{"max-load-over-cap", "max_load_over_cap", "Bounded loads: largest load / capacity against eps (must stay <= 1)", "max load / capacity (partitions, keys or requests in flight)", false, "one", true},
	{"away", schema.ColAwayFrac, "Bounded loads: requests served away from their first-choice node", "fraction of requests away from the first choice (log)", true, "", true},
	{"moved-join", schema.ColMovedJoinFrac, "Bounded loads: moved fraction when one node joins", "moved fraction (keys; requests for bounded-request; log)", true, "ideal-join", false},
	{"moved-leave", schema.ColMovedLeaveFrac, "Bounded loads: moved fraction when one node leaves", "moved fraction (keys; requests for bounded-request; log)", true, "ideal-leave", false},
	{"moves-per-cap", schema.ColMovesPerCapJoin, "Bounded loads: keys (partitions) moved per join, in node capacities C", "moved keys or partitions / C, C = ceil(c m/n) (log)", true, "eps2", true},
}

// boundedFigures draws, for each Zipf exponent in the file, the bounded
// forms' max load / cap, away fraction, moved fractions on join and leave
// (with the plain ring and the ideal) and moves per capacity (with the
// paper's 1/eps^2 shape) against eps.
func boundedFigures(t *schema.Table) ([]*figure, error) {
	var zipfs []string
	for i := range t.Len() {
		// The exponent names plot files (bounded-<metric>-s<zipf>): only a
		// number may, not "0.99/../../x".
		if _, err := t.Num(i, schema.ColZipf); err != nil {
			return nil, err
		}
		if z := t.Str(i, schema.ColZipf); !slices.Contains(zipfs, z) {
			zipfs = append(zipfs, z)
		}
	}
	var figs []*figure
	for _, z := range zipfs {
		var rows []int
		for i := range t.Len() {
			if t.Str(i, schema.ColZipf) == z {
				rows = append(rows, i)
			}
		}
		n := t.Str(rows[0], schema.ColNodes)
		for _, m := range boundedMetrics {
			pts := map[string][]Point{}
			var algos []string
			ref := map[float64]float64{}
			for _, i := range rows {
				a := t.Str(i, schema.ColAlgo)
				if m.skipRing && a == "ring" {
					continue
				}
				if t.Str(i, m.col) == "" {
					continue
				}
				eps, err := t.Num(i, schema.ColEps)
				if err != nil {
					return nil, err
				}
				p, err := interval(t, i, m.col)
				if err != nil {
					return nil, err
				}
				p.X = eps
				if a == "ring" {
					a = "ring (no bound)"
				}
				if !slices.Contains(algos, a) {
					algos = append(algos, a)
				}
				if slices.ContainsFunc(pts[a], func(q Point) bool { return q.X == eps }) {
					return nil, t.Errorf(i, schema.ColAlgo, "a second row for algo=%s eps=%v zipf=%s", a, eps, z)
				}
				pts[a] = append(pts[a], p)
				switch m.ref {
				case "one":
					ref[eps] = 1
				case "ideal-join":
					ref[eps], _ = t.Num(i, schema.ColIdealJoinFrac)
				case "ideal-leave":
					ref[eps], _ = t.Num(i, schema.ColIdealLeaveFrac)
				case "eps2":
					ref[eps] = 1 / (eps * eps)
				}
			}
			if len(algos) == 0 {
				continue
			}
			slices.SortFunc(algos, placementOrder)
			var ss []Series
			for _, a := range algos {
				ps := pts[a]
				slices.SortFunc(ps, func(a, b Point) int { return cmp.Compare(a.X, b.X) })
				ss = append(ss, Series{Algo: a, Label: a, Points: ps})
			}
			f := newFigure("bounded-"+m.name+"-s"+z, m.title+" (n = "+n+", Zipf s = "+z+")", "eps (load factor c = 1 + eps, log)", m.yLabel)
			f.caption = trafficCaption(t, rows)
			if err := logX(f, "eps", allXs(ss)); err != nil {
				return nil, err
			}
			var refPts []Point
			for e, y := range ref {
				refPts = append(refPts, Point{X: e, Y: y, Lo: y, Hi: y})
			}
			slices.SortFunc(refPts, func(a, b Point) int { return cmp.Compare(a.X, b.X) })
			if m.log {
				if !logYClipped(f, append(slices.Clone(ss), Series{Points: refPts})) {
					f.p.Y.Label.Text = strings.Replace(strings.Replace(m.yLabel, "; log)", ")", 1), " (log)", "", 1)
				}
			}
			for _, s := range ss {
				if err := addSeries(f, s, placementStyle(s.Algo)); err != nil {
					return nil, err
				}
			}
			if len(refPts) > 0 {
				label := map[string]string{"one": "capacity (ratio 1)", "ideal-join": "ideal 1/(n+1)", "ideal-leave": "ideal (leaver's share)",
					"eps2": "1/eps^2 (bound's shape)"}[m.ref]
				if err := referenceLine(f, label, plotterXYs(refPts)); err != nil {
					return nil, err
				}
			}
			padAxes(f)
			figs = append(figs, f)
		}
	}
	return figs, nil
}
