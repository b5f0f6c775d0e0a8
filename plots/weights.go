package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strconv"

	"github.com/chbench/chbench/schema"
)

// WeightRow is one row of weights.csv: the share of keys one node of a
// weighted membership received, against the share its weight entitles it
// to.
type WeightRow struct {
	Algo, Hash, VNodes, ID string
	Line                   int
	Nodes                  float64 // nodes in the membership
	Weight                 float64 // the node's weight
	WeightShare            float64 // weight / total weight: the ideal share (0..1)
	Share                  Point   // measured share of keys (0..1) with its 95% CI (X left 0)
	ExactShare             float64 // share computed exactly (no sampling), if known
	HasExact               bool
	Info                   runInfo
}

var weightColumns = []string{schema.ColAlgo, schema.ColHash, schema.ColVNodes, schema.ColNodes, schema.ColID, schema.ColWeight, schema.ColWeightShare, schema.ColShare}

// ReadWeights reads weights.csv at path. Columns are found by header name,
// unknown ones ignored; share_lo/_hi and exact_share may be empty. A
// missing column, a cell that is not a finite number, a node count that is
// not a whole number >= 1 or a share outside 0..1 is an error naming the
// file, line, column and value.
func ReadWeights(path string) ([]WeightRow, error) {
	t, err := schema.ReadTable(path, weightColumns)
	if err != nil {
		return nil, err
	}
	return weightRows(t)
}

func weightRows(t *schema.Table) ([]WeightRow, error) {
	rows := make([]WeightRow, t.Len())
	for i := range t.Len() {
		r := WeightRow{Algo: t.Str(i, schema.ColAlgo), Hash: t.Str(i, schema.ColHash), VNodes: t.Str(i, schema.ColVNodes), ID: t.Str(i, schema.ColID), Line: t.Line(i), Info: info(t, i)}
		var err error
		if r.Nodes, err = t.Count(i, schema.ColNodes); err != nil {
			return nil, err
		}
		if r.Weight, err = t.Num(i, schema.ColWeight); err != nil {
			return nil, err
		}
		if r.WeightShare, err = fraction(t, i, schema.ColWeightShare); err != nil {
			return nil, err
		}
		if _, err = fraction(t, i, schema.ColShare); err != nil {
			return nil, err
		}
		if r.Share, err = interval(t, i, schema.ColShare); err != nil {
			return nil, err
		}
		if r.ExactShare, r.HasExact, err = t.OptNum(i, schema.ColExactShare); err != nil {
			return nil, err
		}
		rows[i] = r
	}
	return rows, nil
}

// fraction returns column name of row i as a number in 0..1, or an error
// naming the file, line, column and bad value.
func fraction(t *schema.Table, i int, name string) (float64, error) {
	v, err := t.Num(i, name)
	if err == nil && (v < 0 || v > 1) {
		err = t.Errorf(i, name, "%q is not a fraction in 0..1", t.Str(i, name))
	}
	return v, err
}

// WeightBars groups weights.csv rows for the "share vs weight share"
// chart: groups are the nodes (by membership size, then order of first
// appearance) labelled with their id and weight, series the algorithms
// (and configurations) in catalog order. Each bar is the measured share
// with its CI; Bar.Noise holds the node's weight share (the ideal) and
// Bar.Exact the exact share when known. Two rows for the same series and
// node are an error.
func WeightBars(rows []WeightRow) (groups, labels, algos []string, bars []Bar, err error) {
	type node struct {
		nodes float64
		id    string
	}
	var nodes []node
	weight := map[node]float64{}
	var keys []seriesKey
	seen := map[seriesKey]map[node]int{}
	for _, r := range rows {
		k, n := seriesKey{r.Algo, r.Hash, r.VNodes, ""}, node{r.Nodes, r.ID}
		if seen[k] == nil {
			seen[k] = map[node]int{}
			keys = append(keys, k)
		}
		if l, dup := seen[k][n]; dup {
			return nil, nil, nil, nil, fmt.Errorf("weights: lines %d and %d both give algo=%s hash=%s vnodes=%s nodes=%v id=%s", l, r.Line, r.Algo, r.Hash, r.VNodes, r.Nodes, r.ID)
		}
		seen[k][n] = r.Line
		if !slices.Contains(nodes, n) {
			nodes = append(nodes, n)
			weight[n] = r.Weight
		}
	}
	slices.SortStableFunc(nodes, func(a, b node) int { return cmp.Compare(a.nodes, b.nodes) })
	sizes := map[float64]bool{}
	for _, n := range nodes {
		sizes[n.nodes] = true
	}
	for _, n := range nodes {
		g := n.id + " (weight " + strconv.FormatFloat(weight[n], 'f', -1, 64) + ")"
		if len(sizes) > 1 {
			g = "n = " + strconv.FormatFloat(n.nodes, 'f', -1, 64) + ": " + g
		}
		groups = append(groups, g)
	}
	sortKeys(keys)
	for _, k := range keys {
		labels = append(labels, seriesLabel(k, keys))
		algos = append(algos, k.algo)
	}
	for _, r := range rows {
		bars = append(bars, Bar{
			Group:  slices.Index(nodes, node{r.Nodes, r.ID}),
			Series: slices.Index(keys, seriesKey{r.Algo, r.Hash, r.VNodes, ""}),
			Value:  r.Share, Noise: r.WeightShare, HasNoise: true,
			Exact: r.ExactShare, HasExact: r.HasExact,
		})
	}
	slices.SortFunc(bars, func(a, b Bar) int { return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Series, b.Series)) })
	return groups, labels, algos, bars, nil
}

// weightsFigure draws each node's share of keys per algorithm, with its
// weight share (the ideal) marked across each bar.
func weightsFigure(rows []WeightRow) (*figure, error) {
	groups, labels, algos, bars, err := WeightBars(rows)
	if err != nil || len(bars) == 0 {
		return nil, err
	}
	colors := make([]color.RGBA, len(algos))
	for i, a := range algos {
		colors[i] = AlgoStyle(a).Color
	}
	infos := make([]runInfo, len(rows))
	for i, r := range rows {
		infos[i] = r.Info
	}
	f := newFigure("weights", "Share of keys per node with unequal weights", "node (weight)", "share of keys (fraction 0..1)")
	f.caption = captionLines(runCaption(infos))
	err = drawBars(f, barChart{groups: groups, labels: labels, colors: colors, bars: bars, markLabel: "ideal (weight share)", fromZero: true})
	return f, err
}
