package plots

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// simData is what the simulation's figures draw: the windows, the event
// groups (one storm each), the node rows and what the traffic held.
type simData struct {
	windows []schema.SimWindow
	groups  []schema.SimEventGroup
	nodes   []schema.SimNode
	trace   *schema.TraceStats
	summary []schema.SimSummary
}

// simFigures draws the simulation: hit ratio and database reads per
// second over time (events as vertical lines), per event time the storm's
// peak multiple, extra database reads to the refill and refill time per
// placement, and the per-node hit ratio by node memory.
func simFigures(d simData) ([]*figure, error) {
	if len(d.windows) == 0 {
		return nil, nil
	}
	var figs []*figure
	for _, m := range []struct {
		name, title, y string
		value          func(schema.SimWindow) (float64, bool)
	}{
		{"sim-hit-ratio", "Cache fleet hit ratio over time", "hit ratio per window", func(w schema.SimWindow) (float64, bool) {
			if w.HitRatio == nil {
				return 0, false
			}
			return *w.HitRatio, true
		}},
		// A partial last window's rate divides by the whole window.
		{"sim-db-reads", "Database reads per second over time", "database reads/s per window", func(w schema.SimWindow) (float64, bool) { return w.DBReadsPerS, !w.Partial }},
	} {
		f, err := simTimeFigure(d, m.name, m.title, m.y, m.value)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	storms, err := simStormFigures(d)
	if err != nil {
		return nil, err
	}
	figs = append(figs, storms...)
	nf, err := simNodeFigure(d)
	if err != nil {
		return nil, err
	}
	if nf != nil {
		figs = append(figs, nf)
	}
	return figs, nil
}

// simCaption describes the run: the traffic and the fleet (lines: the
// changes are drawn as dashed lines).
func simCaption(d simData, lines bool) []string {
	var out []string
	if t := d.trace; t != nil {
		src := "generated workload"
		if t.KeyFile != "" {
			src = "trace " + t.KeyFile + " (" + t.Format + ")"
		}
		out = append(out, fmt.Sprintf("%s: %s requests, %s distinct keys, %s reads, span %s s", src, thousands(strconv.Itoa(t.Requests)),
			thousands(strconv.Itoa(t.DistinctKeys)), pctText(float64(t.OpGet+t.OpGets)/float64(max(t.Requests, 1))), strconv.FormatFloat(t.LastS-t.FirstS, 'g', 4, 64)))
	}
	if len(d.summary) > 0 {
		s := d.summary[0]
		fill := "a miss fills the cache (look-aside)"
		if !s.Fill {
			fill = "misses do not fill (-no-fill)"
		}
		out = append(out, fmt.Sprintf("%d LRU caches at the start, %d B overhead per item, %s s windows; %s", s.Nodes, s.ItemOverhead, strconv.FormatFloat(s.WindowS, 'g', -1, 64), fill))
	}
	var changes []string
	for _, g := range d.groups {
		if g.First.Algo == d.groups[0].First.Algo {
			changes = append(changes, strconv.FormatFloat(g.First.AtS, 'g', -1, 64)+" s: "+g.Change)
		}
	}
	if len(changes) > 0 && lines {
		out = append(out, "changes (dashed lines): "+strings.Join(changes, "; "))
	} else if len(changes) > 0 {
		out = append(out, "changes: "+strings.Join(changes, "; "))
	}
	return out
}

func pctText(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

// simSeries returns one curve per placement (in the order of the rows):
// value against the middle of each window.
func simSeries(rows []schema.SimWindow, value func(schema.SimWindow) (float64, bool)) []curve {
	var out []curve
	idx := map[string]int{}
	for _, w := range rows {
		v, ok := value(w)
		if !ok {
			continue
		}
		i, seen := idx[w.Algo]
		if !seen {
			i = len(out)
			idx[w.Algo] = i
			out = append(out, curve{Algo: w.Algo, Label: w.Algo})
		}
		out[i].Points = append(out[i].Points, xy{X: (w.StartS + w.EndS) / 2, Y: v})
	}
	return out
}

// simTimeFigure draws value per window against time for every placement,
// with a dashed vertical line at every event time; more than
// panelThreshold placements are drawn in family panels.
func simTimeFigure(d simData, name, title, yLabel string, value func(schema.SimWindow) (float64, bool)) (*figure, error) {
	series := simSeries(d.windows, value)
	var ats []float64
	for _, g := range d.groups {
		if !slices.Contains(ats, g.First.AtS) {
			ats = append(ats, g.First.AtS)
		}
	}
	ys := allYs(series)
	if len(ys) == 0 {
		return nil, fmt.Errorf("%s: no window has a value", name)
	}
	lo, hi := slices.Min(ys), slices.Max(ys)
	pad := max((hi-lo)*0.05, math.Abs(hi)*0.01, 1e-9)
	lo, hi = max(lo-pad, 0), hi+pad
	if strings.Contains(name, "hit") {
		hi = min(hi, 1)
	}
	build := func(ss []curve) (*figure, error) {
		f := newFigure(name, title, "seconds since the first request", yLabel)
		f.caption = simCaption(d, true)
		for i, at := range ats {
			label := ""
			if i == 0 {
				label = "membership change"
			}
			if err := referenceLine(f, label, plotter.XYs{{X: at, Y: lo}, {X: at, Y: hi}}); err != nil {
				return nil, err
			}
		}
		for _, s := range ss {
			if err := addTimeSeries(f, s, algoStyle(s.Algo)); err != nil {
				return nil, err
			}
		}
		xs := allXs(series)
		f.p.X.Min, f.p.X.Max = 0, slices.Max(xs)
		f.p.Y.Min, f.p.Y.Max = lo, hi
		f.p.X.Tick.Marker, f.p.Y.Tick.Marker = linTicks{}, linTicks{}
		return f, nil
	}
	f, err := build(series)
	if err != nil {
		return nil, err
	}
	return familyPanels(f, series, build)
}

// simStormFigures draws, for the placements' storms, three dot charts:
// the peak database reads as a multiple of the baseline, the extra
// database reads up to the refill, and the refill time; one panel per
// event time.
func simStormFigures(d simData) ([]*figure, error) {
	var algos []string
	var ats []float64
	for _, g := range d.groups {
		if !slices.Contains(algos, g.First.Algo) {
			algos = append(algos, g.First.Algo)
		}
		if !slices.Contains(ats, g.First.AtS) {
			ats = append(ats, g.First.AtS)
		}
	}
	if len(d.groups) == 0 {
		return nil, nil
	}
	labels := make([]string, len(algos))
	for i, a := range algos {
		labels[i] = a
		if in, err := catalog.Describe(a); err == nil {
			labels[i] = in.Label(false)
		}
	}
	var figs []*figure
	// Every chart has a reference line (1x, none, at once) so that its
	// axis reaches it: the values are compared with it, not only with
	// each other.
	for _, m := range []struct {
		name, title, y, refLabel string
		ref                      float64
		value                    func(schema.SimEvent) (float64, bool)
	}{
		{"sim-storm-peak", "Peak database load after each membership change", "peak database reads/s / baseline", "baseline (1x)", 1, func(e schema.SimEvent) (float64, bool) {
			return deref(e.PeakMultiple)
		}},
		{"sim-storm-extra", "Extra database reads of each storm, until refilled", "database reads beyond the baseline miss ratio", "none beyond the baseline", 0, func(e schema.SimEvent) (float64, bool) {
			return deref(e.ExtraToRefill)
		}},
		{"sim-storm-refill", "Time until the miss ratio is back within 1.1x the baseline", "seconds after the change (resolution: one window)", "the change", 0, func(e schema.SimEvent) (float64, bool) {
			return deref(e.RefillS)
		}},
	} {
		dc := dotChart{name: m.name, title: m.title, caption: simCaption(d, false), yLabel: m.y, labels: labels, algos: algos, ref: m.ref, refLabel: m.refLabel}
		for _, at := range ats {
			pn := dotPanel{title: "change at " + strconv.FormatFloat(at, 'g', -1, 64) + " s"}
			for _, g := range d.groups {
				if g.First.AtS != at {
					continue
				}
				pn.title = "at " + strconv.FormatFloat(at, 'g', -1, 64) + " s: " + g.Change
				if v, ok := m.value(g.First); ok {
					pn.slots = append(pn.slots, dotSlot{slot: slices.Index(algos, g.First.Algo), value: xy{Y: v, Lo: v, Hi: v}})
				}
			}
			dc.panels = append(dc.panels, pn)
		}
		f, err := dotFigure(dc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		if f != nil {
			figs = append(figs, f)
		}
	}
	return figs, nil
}

func deref(x *float64) (float64, bool) {
	if x == nil {
		return 0, false
	}
	return *x, true
}

// simNodeFigure draws each placement's per-node hit ratio over the whole
// run, one panel per node memory and per whether the node was a member
// from the start or joined later: the mean over those nodes, with bars
// from the lowest node's to the highest node's.
func simNodeFigure(d simData) (*figure, error) {
	type acc struct {
		gets, hits, mem int
		joined          bool
	}
	type key struct{ algo, node string }
	per := map[key]*acc{}
	var algos []string
	var order []key
	for _, n := range d.nodes {
		k := key{n.Algo, n.Node}
		if per[k] == nil {
			per[k] = &acc{joined: n.Window > 0}
			order = append(order, k)
			if !slices.Contains(algos, n.Algo) {
				algos = append(algos, n.Algo)
			}
		}
		a := per[k]
		a.gets, a.hits, a.mem = a.gets+n.Gets, a.hits+n.Hits, max(a.mem, n.CapacityBytes)
	}
	if len(order) == 0 {
		return nil, nil
	}
	type class struct {
		mem    int
		joined bool
	}
	var classes []class
	for _, k := range order {
		if c := (class{per[k].mem, per[k].joined}); !slices.Contains(classes, c) {
			classes = append(classes, c)
		}
	}
	slices.SortFunc(classes, func(a, b class) int {
		if a.joined != b.joined {
			return map[bool]int{false: -1, true: 1}[a.joined]
		}
		return a.mem - b.mem
	})
	labels := make([]string, len(algos))
	for i, a := range algos {
		labels[i] = a
		if in, err := catalog.Describe(a); err == nil {
			labels[i] = in.Label(false)
		}
	}
	dc := dotChart{name: "sim-node-hit-ratio", title: "Hit ratio of each node over the run, by node memory", caption: simCaption(d, false),
		yLabel: "hit ratio of the node's gets", labels: labels, algos: algos, valueLabel: "node mean, bars: min..max"}
	for _, c := range classes {
		when := "members from the start"
		if c.joined {
			when = "nodes that joined later"
		}
		pn := dotPanel{title: fmt.Sprintf("%s with %s of memory", when, catalog.HumanBytes(int64(c.mem)))}
		for i, a := range algos {
			var rs []float64
			for _, k := range order {
				if p := per[k]; k.algo == a && p.mem == c.mem && p.joined == c.joined && p.gets > 0 {
					rs = append(rs, float64(p.hits)/float64(p.gets))
				}
			}
			if len(rs) == 0 {
				continue
			}
			mean := 0.0
			for _, r := range rs {
				mean += r
			}
			mean /= float64(len(rs))
			pn.slots = append(pn.slots, dotSlot{slot: i, value: xy{Y: mean, Lo: slices.Min(rs), Hi: slices.Max(rs), CI: true}})
		}
		dc.panels = append(dc.panels, pn)
	}
	return dotFigure(dc)
}

// simFiguresFrom reads the simulation's files in dir (sim-window.csv and
// those beside it, each optional but the windows) and draws its figures.
func simFiguresFrom(dir string) ([]*figure, error) {
	var d simData
	var err error
	if d.windows, err = readIfPresent(dir, schema.SimWindowFile); err != nil || d.windows == nil {
		return nil, err
	}
	events, err := readIfPresent(dir, schema.SimEventFile)
	if err != nil {
		return nil, err
	}
	d.groups = schema.SimEventGroups(events)
	if d.nodes, err = readIfPresent(dir, schema.SimNodeFile); err != nil {
		return nil, err
	}
	if d.summary, err = readIfPresent(dir, schema.SimSummaryFile); err != nil {
		return nil, err
	}
	ts, err := readIfPresent(dir, schema.SimTraceFile)
	if err != nil {
		return nil, err
	}
	if len(ts) > 0 {
		d.trace = &ts[0]
	}
	figs, err := simFigures(d)
	return figs, wrapFile(schema.SimWindowFile.Path(dir), err)
}
