package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/chbench/chbench/schema"
)

// weightBars groups weights.csv rows for the "share vs weight share"
// chart: groups are the nodes (by membership size, then order of first
// appearance) labelled with their id and weight, series the algorithms
// (and configurations) in catalog order. Each bar is the measured share
// with its CI; Bar.Noise holds the node's weight share (the ideal) and
// Bar.Exact the exact share when known. Two rows for the same series and
// node are an error.
func weightBars(rows []schema.ShareRow) (groups, labels, algos []string, bars []bar, err error) {
	type node struct {
		nodes int
		id    string
	}
	var nodes []node
	weight := map[node]float64{}
	var keys []seriesKey
	seen := map[seriesKey]map[node]bool{}
	for _, r := range rows {
		k, n := keyOf(r.Config, ""), node{r.Nodes, r.ID}
		if seen[k] == nil {
			seen[k] = map[node]bool{}
			keys = append(keys, k)
		}
		if seen[k][n] {
			return nil, nil, nil, nil, fmt.Errorf("weights: two rows give algo=%s hash=%s vnodes=%d nodes=%d id=%s", r.Algo, r.Hash, r.VNodes, r.Nodes, r.ID)
		}
		seen[k][n] = true
		if !slices.Contains(nodes, n) {
			nodes = append(nodes, n)
			weight[n] = r.Weight
		}
	}
	slices.SortStableFunc(nodes, func(a, b node) int { return cmp.Compare(a.nodes, b.nodes) })
	sizes := map[int]bool{}
	for _, n := range nodes {
		sizes[n.nodes] = true
	}
	for _, n := range nodes {
		g := n.id + " (weight " + strconv.FormatFloat(weight[n], 'f', -1, 64) + ")"
		if len(sizes) > 1 {
			g = "n = " + strconv.Itoa(n.nodes) + ": " + g
		}
		groups = append(groups, g)
	}
	sortKeys(keys)
	for _, k := range keys {
		labels = append(labels, seriesLabel(k, keys))
		algos = append(algos, k.algo)
	}
	for _, r := range rows {
		b := bar{
			Group:  slices.Index(nodes, node{r.Nodes, r.ID}),
			Series: slices.Index(keys, keyOf(r.Config, "")),
			Value:  estimate(r.Share.Share, r.ShareLo, r.ShareHi), Noise: r.WeightShare, HasNoise: true,
		}
		if r.Exact != nil {
			b.Exact, b.HasExact = *r.Exact, true
		}
		bars = append(bars, b)
	}
	slices.SortFunc(bars, func(a, b bar) int { return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Series, b.Series)) })
	return groups, labels, algos, bars, nil
}

// maxBarNodes is the most nodes the weights plot draws as bars (one group
// of bars a node, one bar an algorithm); a larger fleet is drawn as sorted
// ratios (weightRatioFigure), which stay readable at hundreds of nodes.
const maxBarNodes = 12

// weightsFigure draws each node's share of keys per algorithm, with its
// weight share (the ideal) marked across each bar; a single fleet of more
// than maxBarNodes nodes is drawn by weightRatioFigure instead.
func weightsFigure(rows []schema.ShareRow) (*figure, error) {
	if n, one := oneFleet(rows); one && n > maxBarNodes {
		return weightRatioFigure(rows)
	}
	groups, labels, algos, bars, err := weightBars(rows)
	if err != nil || len(bars) == 0 {
		return nil, err
	}
	colors := make([]color.RGBA, len(algos))
	for i, a := range algos {
		colors[i] = algoStyle(a).Color
	}
	infos := runsOf(rows)
	f := newFigure("weights", "Share of keys per node with unequal weights", "node (weight)", "share of keys (fraction 0..1)")
	f.caption = captionLines(runCaption(infos))
	err = drawBars(f, barChart{groups: groups, labels: labels, colors: colors, bars: bars, markLabel: "ideal (weight share)", fromZero: true})
	return f, err
}

// oneFleet returns the node count of rows when they all describe one
// membership (one nodes value), and whether they do.
func oneFleet(rows []schema.ShareRow) (int, bool) {
	if len(rows) == 0 {
		return 0, false
	}
	for _, r := range rows {
		if r.Nodes != rows[0].Nodes {
			return 0, false
		}
	}
	return rows[0].Nodes, true
}

// maxWeightPanels is the most weight classes drawn as panels of their own;
// a fleet with more distinct weights is drawn in one panel.
const maxWeightPanels = 4

// weightRatioFigure draws a fleet of many nodes: each node's share of keys
// over its weight share (1 = exactly its weight's share, the ideal), per
// algorithm, the nodes sorted by that ratio so that each algorithm's line
// runs from its most underloaded node to its most overloaded; one panel
// per weight class (the nodes of one weight) when the fleet has 2 to
// maxWeightPanels weights, so that big and small nodes are compared with
// their own kind. Error bars are the 95% intervals over key sets; the axis
// is linear around 1, not from 0; each legend entry gives the algorithm's
// least and most ratio and the nodes they belong to.
func weightRatioFigure(rows []schema.ShareRow) (*figure, error) {
	type node struct {
		id     string
		weight float64
	}
	var keys []seriesKey
	byKey := map[seriesKey][]schema.ShareRow{}
	var weights []float64
	for _, r := range rows {
		k := keyOf(r.Config, "")
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		for _, o := range byKey[k] {
			if o.ID == r.ID {
				return nil, fmt.Errorf("weights: two rows give algo=%s hash=%s vnodes=%d nodes=%d id=%s", r.Algo, r.Hash, r.VNodes, r.Nodes, r.ID)
			}
		}
		byKey[k] = append(byKey[k], r)
		if !slices.Contains(weights, r.Weight) {
			weights = append(weights, r.Weight)
		}
	}
	sortKeys(keys)
	slices.Sort(weights)
	slices.Reverse(weights) // the largest nodes first
	classes := [][]float64{weights}
	if len(weights) >= 2 && len(weights) <= maxWeightPanels {
		classes = nil
		for _, w := range weights {
			classes = append(classes, []float64{w})
		}
	}
	ratio := func(r schema.ShareRow) xy {
		return estimate(r.Share.Share, r.ShareLo, r.ShareHi).over(r.WeightShare)
	}
	// The legend's range of each algorithm, over every node.
	labels := map[seriesKey]string{}
	for _, k := range keys {
		lo, hi := byKey[k][0], byKey[k][0]
		for _, r := range byKey[k] {
			if ratio(r).Y < ratio(lo).Y {
				lo = r
			}
			if ratio(r).Y > ratio(hi).Y {
				hi = r
			}
		}
		labels[k] = fmt.Sprintf("%s: %s (%s) .. %s (%s)", seriesLabel(k, keys), strconv.FormatFloat(ratio(lo).Y, 'f', 2, 64), lo.ID, strconv.FormatFloat(ratio(hi).Y, 'f', 2, 64), hi.ID)
	}
	var ys []float64
	build := func(class []float64) (*figure, error) {
		what := "nodes"
		if len(class) == 1 && len(classes) > 1 {
			what = "nodes of weight " + strconv.FormatFloat(class[0], 'f', -1, 64)
		}
		f := newFigure("weights", "", what+", sorted by share / weight share (rank)", "share of keys / weight share (1 = ideal)")
		var n int
		for _, k := range keys {
			var pts []xy
			for _, r := range byKey[k] {
				if slices.Contains(class, r.Weight) {
					pts = append(pts, ratio(r))
				}
			}
			slices.SortStableFunc(pts, func(a, b xy) int { return cmp.Compare(a.Y, b.Y) })
			for i := range pts {
				pts[i].X = float64(i + 1)
			}
			n = max(n, len(pts))
			c := curve{Algo: k.algo, Label: labels[k], Points: pts}
			for _, p := range pts {
				ys = append(ys, p.Y)
			}
			if err := addSeries(f, c, algoStyle(k.algo)); err != nil {
				return nil, err
			}
		}
		if err := referenceLine(f, "ideal: the weight's share", plotter.XYs{{X: 1, Y: 1}, {X: float64(max(n, 2)), Y: 1}}); err != nil {
			return nil, err
		}
		f.title = fmt.Sprintf("%d %s", n, what)
		return f, nil
	}
	f := newFigure("weights", fmt.Sprintf("Share of keys over weight share, %d nodes", rows[0].Nodes), "", "")
	f.caption = captionLines(runCaption(runsOf(rows)),
		"each line: one algorithm's nodes sorted from most under- to most over-loaded for their weight; error bars 95% over key sets, cut at the axis; legend: least .. most (node)")
	for _, class := range classes {
		pf, err := build(class)
		if err != nil {
			return nil, err
		}
		f.panels = append(f.panels, pf)
	}
	// Shared y axis around 1 spanning the ratios (not their intervals,
	// which few key sets make wide and which are cut at the axis), padded
	// by half their range so that the spread is seen against 1.
	lo, hi := slices.Min(append(ys, 1)), slices.Max(append(ys, 1))
	pad := max(0.5*(hi-lo), 0.02)
	for _, pf := range f.panels {
		pf.p.Y.Min, pf.p.Y.Max = lo-pad, hi+pad
		pf.p.X.Min = 0.5
		pf.p.Title.TextStyle.Font.Size = vg.Points(15)
		pf.legend.TextStyle.Font.Size = vg.Points(11.5)
		pf.legend.ThumbnailWidth = vg.Points(30)
	}
	if len(f.panels) == 1 {
		one := f.panels[0]
		one.name, one.title, one.caption = f.name, f.title, f.caption
		return one, nil
	}
	f.width, f.height, f.cols = panelFigWidth, panelFigHeight, 1
	if len(f.panels) > 2 {
		f.height += vg.Length(len(f.panels)-2) * panelRowHeight
	}
	legend := vg.Length(0)
	for _, pf := range f.panels {
		legend = max(legend, pf.legendNeed())
	}
	for _, pf := range f.panels {
		pf.legendW = min(legend, 2*panelLegend)
	}
	f.p = f.panels[0].p
	return f, nil
}
