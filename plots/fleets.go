package plots

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// groupedRow is one bar of a grouped bar chart read from a results file:
// the group (x position), the algorithm (series), the value with its CI
// and an optional mark (the ideal).
type groupedRow struct {
	group, algo string
	value       xy
	mark        float64
	hasMark     bool
	nodes       float64 // membership size before the change
	info        schema.Run
}

// groupedFigure draws rows as a grouped bar chart: groups in order of
// first appearance, one series per algorithm in catalog order (colours
// from algoStyle), the marks as black bars labelled markLabel. Two rows for
// the same group and algorithm are an error.
func groupedFigure(name, title, xLabel, yLabel, markLabel string, rows []groupedRow, notes ...string) (*figure, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	var groups, algos []string
	seen := map[[2]string]bool{}
	for _, r := range rows {
		k := [2]string{r.group, r.algo}
		if seen[k] {
			return nil, fmt.Errorf("%s: two rows give %s for %s", name, r.algo, r.group)
		}
		seen[k] = true
		if !slices.Contains(groups, r.group) {
			groups = append(groups, r.group)
		}
		if !slices.Contains(algos, r.algo) {
			algos = append(algos, r.algo)
		}
	}
	slices.SortFunc(algos, catalog.Compare)
	colors := make([]color.RGBA, len(algos))
	for i, a := range algos {
		colors[i] = algoStyle(a).Color
	}
	infos := make([]schema.Run, len(rows))
	bars := make([]bar, len(rows))
	for i, r := range rows {
		infos[i] = r.info
		bars[i] = bar{Group: slices.Index(groups, r.group), Series: slices.Index(algos, r.algo), Value: r.value, Noise: r.mark, HasNoise: r.hasMark}
	}
	// Legend entries follow the first bar of each series: draw in
	// (group, series) order so the legend is in catalog order.
	slices.SortStableFunc(bars, func(a, b bar) int {
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
func reweightFigures(rows []schema.Move) ([]*figure, error) {
	var changes, reweights, changesColl, reweightsColl []groupedRow
	for _, m := range rows {
		from := float64(m.From)
		r := groupedRow{group: changeLabel(m.Op, from, float64(m.To)), algo: m.Algo, nodes: from, info: schema.RunOf(m),
			value: estimate(m.MovedFrac, m.MovedFracLo, m.MovedFracHi), mark: m.IdealFrac, hasMark: true}
		if strings.HasPrefix(m.Op, "reweight-") {
			reweights = append(reweights, r)
		} else {
			changes = append(changes, r)
		}
		r.value, r.hasMark = estimate(m.CollateralFrac, m.CollateralFracLo, m.CollateralFracHi), false
		if strings.HasPrefix(m.Op, "reweight-") {
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
func replicationFigures(rows []schema.Replication) ([]*figure, error) {
	type key struct {
		op       string
		from, to float64
	}
	var keys []key
	moved, lost := map[key][]groupedRow{}, map[key][]lostRow{}
	for _, r := range rows {
		k := key{r.Op, float64(r.From), float64(r.To)}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
		rf := float64(r.Replicas)
		g := groupedRow{group: "R = " + strconv.Itoa(r.Replicas), algo: r.Algo, info: schema.RunOf(r),
			value: estimate(r.PairsMovedFrac, r.PairsMovedFracLo, r.PairsMovedFracHi), mark: r.IdealFrac, hasMark: true}
		moved[k] = append(moved[k], g)
		lost[k] = append(lost[k], lostRow{algo: r.Algo, replicas: rf, info: g.info,
			value: estimate(r.AllLostFrac, r.AllLostFracLo, r.AllLostFracHi)})
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

// lostRow is the fraction of keys re-homed entirely of
// one algorithm at one replication factor.
type lostRow struct {
	algo     string
	replicas float64
	value    xy
	info     schema.Run
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
	seen := map[string]bool{}
	for _, r := range rows {
		k := r.algo + "\x00" + strconv.FormatFloat(r.replicas, 'g', -1, 64)
		if seen[k] {
			return nil, fmt.Errorf("%s: two rows give %s at R = %v", name, r.algo, r.replicas)
		}
		seen[k] = true
		if !slices.Contains(algos, r.algo) {
			algos = append(algos, r.algo)
		}
		if !slices.Contains(rs, r.replicas) {
			rs = append(rs, r.replicas)
		}
	}
	slices.SortFunc(algos, catalog.Compare)
	slices.Sort(rs)
	panels := make([]dotPanel, len(rs))
	for i, r := range rs {
		panels[i].title = fmt.Sprintf("R = %v replicas", r)
		if r == 1 {
			panels[i].title = "R = 1 replica"
		}
	}
	infos := make([]schema.Run, len(rows))
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
