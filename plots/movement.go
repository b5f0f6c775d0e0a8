package plots

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// minExpectedMoves is schema.MinExpectedMoves: points expecting fewer
// moved keys per key set are not drawn (the report does not quote them
// either).
const minExpectedMoves = schema.MinExpectedMoves

// enoughMoves splits rows into those expecting at least minExpectedMoves
// moved keys per key set (schema.Move.EnoughMoves) and the others,
// described by their node counts once per op.
func enoughMoves(rows []schema.Move) (kept []schema.Move, dropped map[string][]string) {
	dropped = map[string][]string{}
	for _, r := range rows {
		if !r.EnoughMoves() {
			n := strconv.Itoa(r.From)
			if !slices.Contains(dropped[r.Op], n) {
				dropped[r.Op] = append(dropped[r.Op], n)
			}
			continue
		}
		kept = append(kept, r)
	}
	return kept, dropped
}

// movementOps returns the distinct operations of rows, "add" first, then
// in order of first appearance.
func movementOps(rows []schema.Move) []string {
	var ops []string
	for _, r := range rows {
		if !slices.Contains(ops, r.Op) {
			ops = append(ops, r.Op)
		}
	}
	if i := slices.Index(ops, "add"); i > 0 {
		ops = slices.Insert(slices.Delete(ops, i, i+1), 0, "add")
	}
	return ops
}

// seriesKey identifies one line: an algorithm and its configuration, and
// the label its rows give it ("" for none).
type seriesKey struct{ algo, hash, vnodes, label string }

// keyOf returns the series key of a row's configuration and label.
func keyOf(c schema.Config, label string) seriesKey {
	return seriesKey{c.Algo, c.Hash, strconv.Itoa(c.VNodes), label}
}

// seriesLabel is the algorithm's label (its name when the rows give
// none), plus its configuration when the same algorithm appears with
// several configurations in keys.
func seriesLabel(k seriesKey, keys []seriesKey) string {
	n := 0
	for _, o := range keys {
		if o.algo == k.algo {
			n++
		}
	}
	name := k.label
	if name == "" {
		name = k.algo
	}
	if n == 1 {
		return name
	}
	return fmt.Sprintf("%s (%s, vnodes=%s)", name, k.hash, k.vnodes)
}

func sortKeys(keys []seriesKey) {
	slices.SortFunc(keys, func(a, b seriesKey) int {
		return cmp.Or(catalog.Compare(a.algo, b.algo), cmp.Compare(a.hash, b.hash), cmp.Compare(a.vnodes, b.vnodes))
	})
}

// movedSeries extracts, for operation op, one series per algorithm (and
// configuration) of the moved fraction against From, in catalog order and
// increasing From, and the ideal fraction against From (one point per From,
// from the ideal fraction). If ratio is true the series hold moved/ideal instead
// (CI bounds divided by the exact ideal) and ideal is nil. Two rows for
// the same series and From are an error.
func movedSeries(rows []schema.Move, op string, ratio bool) (series []curve, ideal []xy, err error) {
	pts := map[seriesKey][]xy{}
	idealAt := map[float64]float64{}
	var keys []seriesKey
	seen := map[seriesKey]map[int]bool{}
	for _, r := range rows {
		if r.Op != op {
			continue
		}
		k := keyOf(r.Config, r.Label)
		if seen[k] == nil {
			seen[k] = map[int]bool{}
			keys = append(keys, k)
		}
		if seen[k][r.From] {
			return nil, nil, fmt.Errorf("movement: two rows give algo=%s hash=%s vnodes=%d op=%s from=%d", r.Algo, r.Hash, r.VNodes, op, r.From)
		}
		seen[k][r.From] = true
		x := float64(r.From)
		if _, ok := idealAt[x]; !ok {
			idealAt[x] = r.IdealFrac
		}
		p := estimate(r.MovedFrac, r.MovedFracLo, r.MovedFracHi).atX(x)
		if ratio {
			p = p.over(r.IdealFrac)
			p.Y = r.MovedOverIdeal
		}
		pts[k] = append(pts[k], p)
	}
	sortKeys(keys)
	for _, k := range keys {
		ps := pts[k]
		slices.SortFunc(ps, func(a, b xy) int { return cmp.Compare(a.X, b.X) })
		series = append(series, curve{Algo: k.algo, Label: seriesLabel(k, keys), Points: ps})
	}
	if !ratio {
		for x, y := range idealAt {
			ideal = append(ideal, xy{X: x, Y: y, Lo: y, Hi: y})
		}
		slices.SortFunc(ideal, func(a, b xy) int { return cmp.Compare(a.X, b.X) })
	}
	return series, ideal, nil
}

// opTitle describes a membership change for plot titles.
func opTitle(op string) string {
	switch op {
	case "add":
		return "one node joins (n -> n+1)"
	case "add-many":
		return "n nodes join at once (n -> 2n)"
	case "remove-last":
		return "the last node leaves (n -> n-1)"
	case "remove-random":
		return "a random node leaves (n -> n-1)"
	case "restore":
		return "a random node leaves and comes back (moves of both steps summed)"
	case "shrink-random":
		return "random nodes leave one by one down to n/10 (moves summed)"
	case "shrink-lifo":
		return "the newest nodes leave one by one down to n/10 (moves summed)"
	case "churn":
		return "20 seeded joins and leaves (moves summed)"
	case schema.OpGrow:
		return "staged growth, node by node or in steps (moves of every step summed)"
	case schema.OpShrink:
		return "staged shrinkage, the last nodes first (moves of every step summed)"
	}
	if base, ok := strings.CutSuffix(op, "-step"); ok && base != "" {
		return "each step of " + strings.TrimSuffix(opTitle(base), " (moves of every step summed)") + ", at its node count"
	}
	return "membership change " + strconv.Quote(op)
}

// multiStep reports whether op sums the moves of several membership
// changes (so its moved fraction can exceed 1): a known multi-step op, or
// a steps column above 1 in one of its rows.
func multiStep(rows []schema.Move, op string) bool {
	switch op {
	case "restore", "shrink-random", "shrink-lifo", "churn":
		return true
	}
	for _, r := range rows {
		if r.Op == op && r.Steps > 1 {
			return true
		}
	}
	return false
}

// ratioOmitted is left out of the moved/ideal plots: modulo moves almost
// every key, so its ratio grows like n and would squash the other
// algorithms onto the line at 1.
const ratioOmitted = "modulo"

// movementFigures builds, for each operation in rows, the moved-fraction
// plot (with the ideal line) and the moved/ideal plot (without modulo).
//
// Points expecting fewer than minExpectedMoves moved keys per key set are
// not drawn; the caption names them, or says that every point reaches it.
func movementFigures(all []schema.Move) ([]*figure, error) {
	var figs []*figure
	rows, dropped := enoughMoves(all)
	for _, op := range movementOps(all) {
		mf := newMovementOp(rows, op, dropped[op])
		if mf == nil {
			continue // every point of op below minExpectedMoves
		}
		series, ideal, err := movedSeries(rows, op, false)
		if err != nil {
			return nil, err
		}
		mf.ideal = ideal
		f, err := mf.moved(series)
		if err != nil {
			return nil, err
		}
		if f, err = familyPanels(f, series, mf.moved); err != nil {
			return nil, err
		}
		figs = append(figs, f)
		ratios, _, err := movedSeries(rows, op, true)
		if err != nil {
			return nil, err
		}
		ratios = slices.DeleteFunc(ratios, func(s curve) bool {
			if s.Algo == ratioOmitted {
				mf.omitted = true
			}
			return s.Algo == ratioOmitted
		})
		if len(ratios) == 0 {
			continue
		}
		g, err := mf.ratio(ratios)
		if err != nil {
			return nil, err
		}
		if g, err = familyPanels(g, ratios, mf.ratio); err != nil {
			return nil, err
		}
		figs = append(figs, g)
	}
	return figs, nil
}

// movementOp is what the two movement figures of one op share: the
// caption (the run, and the points left out for too few expected moves),
// the axis labels, the ideal fraction, and whether modulo was left out of
// the ratios.
type movementOp struct {
	op             string
	caption        []string
	xLabel, yLabel string
	ideal          []xy
	omitted        bool
}

// newMovementOp returns the figures' common part for op, or nil when no
// row of op expects enough moves; dropped lists the node counts left out.
func newMovementOp(rows []schema.Move, op string, dropped []string) *movementOp {
	var infos []schema.Run
	for _, r := range rows {
		if r.Op == op {
			infos = append(infos, schema.RunOf(r))
		}
	}
	if len(infos) == 0 {
		return nil
	}
	note := fmt.Sprintf("every point expects >= %s moved keys per key set (keys x ideal fraction)", thousands(strconv.Itoa(minExpectedMoves)))
	if len(dropped) > 0 {
		note = fmt.Sprintf("not drawn: n = %s (fewer than %s expected moved keys per key set)", strings.Join(dropped, ", "), thousands(strconv.Itoa(minExpectedMoves)))
	}
	mf := &movementOp{op: op, caption: []string{runCaption(infos), note},
		xLabel: "nodes before the change, n (log)", yLabel: "moved fraction of keys (0..1)"}
	if multiStep(rows, op) {
		mf.xLabel = "nodes at the start, n (log)"
		mf.yLabel = "keys moved, summed over steps (fraction; can exceed 1)"
	}
	return mf
}

// moved draws the moved fraction of series against the ideal.
func (mf *movementOp) moved(series []curve) (*figure, error) {
	f := newFigure("movement-"+mf.op, "Keys moved: "+opTitle(mf.op), mf.xLabel, mf.yLabel)
	f.caption = captionLines(mf.caption...)
	if err := logX(f, "movement from", allXs(series)); err != nil {
		return nil, err
	}
	ys := allYs(series)
	for _, p := range mf.ideal {
		ys = append(ys, p.Y)
	}
	if useLogIfPositive(&f.p.Y, ys) {
		f.p.Y.Label.Text = strings.TrimSuffix(mf.yLabel, ")") + ", log)"
	}
	for _, s := range series {
		if err := addSeries(f, s, algoStyle(s.Algo)); err != nil {
			return nil, err
		}
	}
	label := "ideal (minimum for even shares)"
	if mf.op == "add" {
		label = "ideal 1/(n+1)"
	}
	if err := referenceLine(f, label, plotterXYs(mf.ideal)); err != nil {
		return nil, err
	}
	padAxes(f)
	return f, nil
}

// ratio draws the moved / ideal ratio of ratios against 1.
func (mf *movementOp) ratio(ratios []curve) (*figure, error) {
	g := newFigure("movement-ratio-"+mf.op, "Moved / ideal fraction: "+opTitle(mf.op), mf.xLabel, "moved fraction / ideal fraction (1 = ideal)")
	g.caption = captionLines(mf.caption...)
	if mf.omitted {
		g.caption = append(g.caption, "modulo omitted: its ratio grows like n, see movement-"+mf.op)
	}
	if err := logX(g, "movement from", allXs(ratios)); err != nil {
		return nil, err
	}
	// A log axis shows "twice the ideal" and "half the ideal" equally
	// far from 1; intervals reaching 0 are cut at the bottom.
	if logYClipped(g, ratios) {
		g.p.Y.Label.Text = "moved fraction / ideal fraction (1 = ideal, log)"
	}
	for _, s := range ratios {
		if err := addSeries(g, s, algoStyle(s.Algo)); err != nil {
			return nil, err
		}
	}
	xs := allXs(ratios)
	lo, hi := slices.Min(xs), slices.Max(xs)
	if err := referenceLine(g, "ideal (ratio 1)", plotter.XYs{{X: lo, Y: 1}, {X: hi, Y: 1}}); err != nil {
		return nil, err
	}
	padAxes(g)
	return g, nil
}

// captionLines returns the non-empty caption lines of cs.
func captionLines(cs ...string) []string {
	var out []string
	for _, c := range cs {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

// LeftOut returns one line per op of movement.csv and scenarios.csv in
// dir whose points are not drawn for expecting too few moved keys
// (schema.Move.EnoughMoves), e.g. "movement.csv: add: n = 10 not drawn
// (fewer than 1,000 expected moved keys per key set)", for the plot
// command to say on stderr what the plots leave out. A file that is
// absent or cannot be read gives no line ([RenderAll] reports it).
func LeftOut(dir string) []string {
	var out []string
	for _, f := range []schema.File[schema.Move]{schema.MovementFile, schema.ScenariosFile} {
		if !f.Exists(dir) {
			continue
		}
		rows, err := f.Read(dir)
		if err != nil {
			continue
		}
		_, dropped := enoughMoves(rows)
		for _, op := range movementOps(rows) {
			if ns := dropped[op]; len(ns) > 0 {
				out = append(out, fmt.Sprintf("%s: %s: n = %s not drawn (fewer than %s expected moved keys per key set; more keys per set bring them in)",
					f.Name, op, strings.Join(ns, ", "), thousands(strconv.Itoa(minExpectedMoves))))
			}
		}
	}
	return out
}
