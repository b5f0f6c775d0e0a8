package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strconv"

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
			Value:  xy{Y: r.Share.Share, Lo: r.ShareLo, Hi: r.ShareHi, CI: true}, Noise: r.WeightShare, HasNoise: true,
		}
		if r.Exact != nil {
			b.Exact, b.HasExact = *r.Exact, true
		}
		bars = append(bars, b)
	}
	slices.SortFunc(bars, func(a, b bar) int { return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Series, b.Series)) })
	return groups, labels, algos, bars, nil
}

// weightsFigure draws each node's share of keys per algorithm, with its
// weight share (the ideal) marked across each bar.
func weightsFigure(rows []schema.ShareRow) (*figure, error) {
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
