package plots

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/schema"
)

// Optional inputs of the fleet plots.
const (
	ReweightFile    = "reweight.csv"    // named, weighted fleets and reweights, movement.csv header
	ReplicationFile = "replication.csv" // chbench replication results
)

// groupedRow is one bar of a grouped bar chart read from a results file:
// the group (x position), the algorithm (series), the value with its CI
// and an optional mark (the ideal).
type groupedRow struct {
	group, algo string
	line        int
	value       Point
	mark        float64
	hasMark     bool
	nodes       float64 // membership size before the change
	info        runInfo
}

// groupedFigure draws rows as a grouped bar chart: groups in order of
// first appearance, one series per algorithm in catalog order (colours
// from AlgoStyle), the marks as black bars labelled markLabel. Two rows for
// the same group and algorithm are an error.
func groupedFigure(name, title, xLabel, yLabel, markLabel string, rows []groupedRow, notes ...string) (*figure, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	var groups, algos []string
	seen := map[[2]string]int{}
	for _, r := range rows {
		k := [2]string{r.group, r.algo}
		if l, dup := seen[k]; dup {
			return nil, fmt.Errorf("%s: lines %d and %d both give %s for %s", name, l, r.line, r.algo, r.group)
		}
		seen[k] = r.line
		if !slices.Contains(groups, r.group) {
			groups = append(groups, r.group)
		}
		if !slices.Contains(algos, r.algo) {
			algos = append(algos, r.algo)
		}
	}
	slices.SortFunc(algos, algoOrder)
	colors := make([]color.RGBA, len(algos))
	for i, a := range algos {
		colors[i] = AlgoStyle(a).Color
	}
	infos := make([]runInfo, len(rows))
	bars := make([]Bar, len(rows))
	for i, r := range rows {
		infos[i] = r.info
		bars[i] = Bar{Group: slices.Index(groups, r.group), Series: slices.Index(algos, r.algo), Value: r.value, Noise: r.mark, HasNoise: r.hasMark}
	}
	// Legend entries follow the first bar of each series: draw in
	// (group, series) order so the legend is in catalog order.
	slices.SortStableFunc(bars, func(a, b Bar) int {
		if a.Group != b.Group {
			return a.Group - b.Group
		}
		return a.Series - b.Series
	})
	f := newFigure(name, title, xLabel, yLabel)
	f.caption = append(captionLines(runCaption(infos)), notes...)
	err := drawBars(f, barChart{groups: groups, labels: algos, colors: colors, bars: bars, markLabel: markLabel, fromZero: true})
	return f, err
}

// changeLabel describes a fleet change for a bar group: "5%: 1 -> 127"
// (the fraction of nodes reweighted and the weights) for the reweight ops,
// else "join (2 -> 3)" (node counts).
func changeLabel(op string, from, to float64) string {
	if rest, ok := strings.CutPrefix(op, "reweight-"); ok {
		// reweight-<pct>%-[<old>-]to-<new>
		pctPart, tail, _ := strings.Cut(rest, "%-")
		old, nw, ok := strings.Cut(tail, "-to-")
		if !ok {
			nw = strings.TrimPrefix(tail, "to-")
			return fmt.Sprintf("%s%%: -> %s", pctPart, nw)
		}
		return fmt.Sprintf("%s%%: %s -> %s", pctPart, old, nw)
	}
	return fmt.Sprintf("%s (%v -> %v)", op, from, to)
}

// reweightFigures draws reweight.csv: the moved fraction of the named and
// weighted fleet changes and of the reweights, each against its ideal, and
// the collateral moves of all of them.
func reweightFigures(path string) ([]*figure, error) {
	t, err := schema.ReadTable(path, []string{schema.ColAlgo, schema.ColOp, schema.ColFrom, schema.ColTo, schema.ColMovedFrac, schema.ColIdealFrac, schema.ColCollateralFrac})
	if err != nil {
		return nil, err
	}
	var changes, reweights, changesColl, reweightsColl []groupedRow
	for i := range t.Len() {
		from, err := t.Count(i, schema.ColFrom)
		if err != nil {
			return nil, err
		}
		to, err := t.Count(i, schema.ColTo)
		if err != nil {
			return nil, err
		}
		ideal, err := fraction(t, i, schema.ColIdealFrac)
		if err != nil {
			return nil, err
		}
		moved, err := interval(t, i, schema.ColMovedFrac)
		if err != nil {
			return nil, err
		}
		coll, err := interval(t, i, schema.ColCollateralFrac)
		if err != nil {
			return nil, err
		}
		op := t.Str(i, schema.ColOp)
		r := groupedRow{group: changeLabel(op, from, to), algo: t.Str(i, schema.ColAlgo), line: t.Line(i), value: moved, mark: ideal, hasMark: true, nodes: from, info: info(t, i)}
		if strings.HasPrefix(op, "reweight-") {
			reweights = append(reweights, r)
		} else {
			changes = append(changes, r)
		}
		r.value, r.hasMark = coll, false
		if strings.HasPrefix(op, "reweight-") {
			reweightsColl = append(reweightsColl, r)
		} else {
			changesColl = append(changesColl, r)
		}
	}
	var figs []*figure
	collNote := "collateral: a move from a node whose weight share did not shrink, or to one whose share did not grow"
	for _, g := range []struct {
		name, title, yLabel, mark string
		rows                      []groupedRow
		note                      string
	}{
		{"fleet-changes", "Keys moved by named, weighted fleet changes", "moved fraction of keys (0..1)", "ideal (minimum)", changes,
			"join: A (weight 1), B (2) + C (1); join-2: two weight-2 machines join ten of weight 1; leave: one of five named nodes"},
		{"fleet-changes-collateral", "Collateral moves of named, weighted fleet changes", "collateral fraction of keys (0..1)", "", changesColl, collNote},
		{"reweight", "Keys moved when part of the fleet changes weight", "moved fraction of keys (0..1)", "ideal (minimum)", reweights,
			"ideal = total-variation distance between the old and new weight shares; ring vnodes = round(V w)"},
		{"reweight-collateral", "Collateral moves when part of the fleet changes weight", "collateral fraction of keys (0..1)", "", reweightsColl, collNote},
	} {
		xLabel := "change"
		if strings.HasPrefix(g.name, "reweight") && len(g.rows) > 0 && reweightNodes(g.rows) > 0 {
			xLabel = fmt.Sprintf("fraction of the %s nodes reweighted: old -> new weight", thousands(strconv.Itoa(int(reweightNodes(g.rows)))))
		}
		f, err := groupedFigure(g.name, g.title, xLabel, g.yLabel, g.mark, g.rows, g.note)
		if err != nil {
			return figs, err
		}
		if f != nil {
			figs = append(figs, f)
		}
	}
	return figs, nil
}

// replicationFigures draws replication.csv: for each scenario and node
// count, the key-replica pairs moved per replication factor against the
// ideal, and for node removals the keys that lose every replica.
func replicationFigures(path string) ([]*figure, error) {
	t, err := schema.ReadTable(path, []string{schema.ColAlgo, schema.ColReplicas, schema.ColOp, schema.ColFrom, schema.ColTo, schema.ColPairsMovedFrac, schema.ColAllLostFrac, schema.ColIdealFrac})
	if err != nil {
		return nil, err
	}
	type key struct {
		op       string
		from, to float64
	}
	var keys []key
	moved, lost := map[key][]groupedRow{}, map[key][]lostRow{}
	for i := range t.Len() {
		var k key
		if k.op, err = scenarioOp(t, i); err != nil {
			return nil, err
		}
		if k.from, err = t.Count(i, schema.ColFrom); err != nil {
			return nil, err
		}
		if k.to, err = t.Count(i, schema.ColTo); err != nil {
			return nil, err
		}
		rf, err := t.Count(i, schema.ColReplicas)
		if err != nil {
			return nil, err
		}
		ideal, err := fraction(t, i, schema.ColIdealFrac)
		if err != nil {
			return nil, err
		}
		if _, err := fraction(t, i, schema.ColPairsMovedFrac); err != nil {
			return nil, err
		}
		pm, err := interval(t, i, schema.ColPairsMovedFrac)
		if err != nil {
			return nil, err
		}
		if _, err := fraction(t, i, schema.ColAllLostFrac); err != nil {
			return nil, err
		}
		al, err := interval(t, i, schema.ColAllLostFrac)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
		g := "R = " + strconv.FormatFloat(rf, 'f', -1, 64)
		r := groupedRow{group: g, algo: t.Str(i, schema.ColAlgo), line: t.Line(i), value: pm, mark: ideal, hasMark: true, info: info(t, i)}
		moved[k] = append(moved[k], r)
		lost[k] = append(lost[k], lostRow{algo: r.algo, replicas: rf, line: r.line, value: al, info: r.info})
	}
	var figs []*figure
	for _, k := range keys {
		what := fmt.Sprintf("%s, %v -> %v nodes", k.op, k.from, k.to)
		rows, note := omitModulo(moved[k], "it moves")
		f, err := groupedFigure(fmt.Sprintf("replication-%s-n%v", k.op, k.from), "Key replicas moved by replication factor R: "+what,
			"replication factor (distinct nodes per key)", "fraction of key-replica pairs moved (0..1)", "ideal (minimum)", rows, note...)
		if err != nil {
			return figs, err
		}
		if f != nil {
			figs = append(figs, f)
		}
		if k.to >= k.from {
			continue // keys re-homed entirely are drawn for removals, where a copy can be gone
		}
		f, err = rehomedFigure(fmt.Sprintf("replication-lost-%s-n%v", k.op, k.from), what, lost[k])
		if err != nil {
			return figs, err
		}
		if f != nil {
			figs = append(figs, f)
		}
	}
	return figs, nil
}

// lostRow is the fraction of keys re-homed entirely (all_lost_frac) of
// one algorithm at one replication factor.
type lostRow struct {
	algo     string
	replicas float64
	line     int
	value    Point
	info     runInfo
}

// rehomedFigure draws the keys of a removal that no replica stays with
// (none of a key's nodes before the change is among its nodes after it)
// as a dot chart: one panel per replication factor R, every algorithm
// (modulo too) labelled under its slot, on a log axis shared by the
// panels so that R = 3's thousandths of a percent read as well as R = 1's
// percents, with 0 on a row of its own under a break. what describes the
// change. Two rows for the same algorithm and R are an error.
func rehomedFigure(name, what string, rows []lostRow) (*figure, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	var algos []string
	var rs []float64
	seen := map[string]int{}
	for _, r := range rows {
		k := r.algo + "\x00" + strconv.FormatFloat(r.replicas, 'g', -1, 64)
		if l, dup := seen[k]; dup {
			return nil, fmt.Errorf("%s: lines %d and %d both give %s at R = %v", name, l, r.line, r.algo, r.replicas)
		}
		seen[k] = r.line
		if !slices.Contains(algos, r.algo) {
			algos = append(algos, r.algo)
		}
		if !slices.Contains(rs, r.replicas) {
			rs = append(rs, r.replicas)
		}
	}
	slices.SortFunc(algos, algoOrder)
	slices.Sort(rs)
	panels := make([]dotPanel, len(rs))
	for i, r := range rs {
		panels[i].title = fmt.Sprintf("R = %v replicas", r)
		if r == 1 {
			panels[i].title = "R = 1 replica"
		}
	}
	infos := make([]runInfo, len(rows))
	for i, r := range rows {
		infos[i] = r.info
		p := &panels[slices.Index(rs, r.replicas)]
		p.slots = append(p.slots, dotSlot{slot: slices.Index(algos, r.algo), value: r.value})
	}
	for _, p := range panels {
		slices.SortFunc(p.slots, func(a, b dotSlot) int { return a.slot - b.slot })
	}
	return dotFigure(dotChart{
		name:  name,
		title: "Keys re-homed entirely (no replica stays in place): " + what,
		caption: append(captionLines(runCaption(infos)),
			"re-homed entirely: none of a key's R nodes before the change is among its R nodes after it, so every copy must be made anew (not data loss while an old copy is readable)",
			"marker: mean over the key sets, bar: 95% CI; log axis shared by the panels; 0 (under the break): no key re-homed entirely in any key set; a CI reaching 0 runs down to that row"),
		yLabel:  "keys re-homed entirely (fraction, log)",
		labels:  algos,
		algos:   algos,
		panels:  panels,
		logZero: true,
	})
}

// reweightNodes returns the node count of the reweight rows when they all
// share one (else 0, and the label says so).
func reweightNodes(rows []groupedRow) float64 {
	n := rows[0].nodes
	for _, r := range rows {
		if r.nodes != n {
			return 0
		}
	}
	return n
}

// omitModulo leaves modulo's rows out (it moves most key replicas at
// every R and would flatten the other algorithms' bars to zero) and
// returns a caption line stating its values ("modulo omitted ...: it
// moves 90% at R = 1, ...").
func omitModulo(rows []groupedRow, verb string) ([]groupedRow, []string) {
	var kept []groupedRow
	var omitted []string
	for _, r := range rows {
		if r.algo == ratioOmitted {
			omitted = append(omitted, fmt.Sprintf("%.0f%% at %s", 100*r.value.Y, r.group))
			continue
		}
		kept = append(kept, r)
	}
	if len(omitted) == 0 {
		return kept, nil
	}
	return kept, []string{ratioOmitted + " omitted to keep the others readable: " + verb + " " + strings.Join(omitted, ", ")}
}
