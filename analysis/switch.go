package analysis

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis/switching"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// SwitchPair is one switch: a fleet placed by From (a dialect or an
// algorithm) starts being placed by To.
type SwitchPair struct{ From, To string }

// Switching measures the cost of each switch of pairs on the fleet nodes
// with the keys of o: the fraction of keys the two placements route to
// different servers (package switching; the cache entries a switch
// loses), with its 95% interval over o's key sets, and the miss storm of
// the switch under m, that fraction taken as the moved fraction
// ([StormModel]; the rows are [schema.Switch]). first > 0 also keeps, per
// switch, the first first keys routed differently and the from -> to
// matrix (the matrix for several switches only on fleets of up to
// switching.DenseFlowNodes servers: each holds up to n x n cells).
//
// Every placement is built once, on nodes exactly as given (one layout:
// this fleet, whatever o.Placement says; a switch compares two placements
// of the same named servers), with o.Config; every key is routed once by
// each. It returns an error naming a bad model, an unknown placement or
// one that refuses the fleet, no pair, or a key source's error.
func Switching(o Options, nodes []algorithms.Node, pairs []SwitchPair, m StormModel, first int) ([]schema.Switch, error) {
	if len(pairs) == 0 {
		return nil, fmt.Errorf("no switch to measure")
	}
	if first < 0 {
		return nil, fmt.Errorf("first mismatches %d: must be >= 0", first)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, err
	}
	o.Algo, o.Placement = pairs[0].From, schema.PlacementFixed
	src, rc, err := o.prepare()
	if err != nil {
		return nil, err
	}
	var names []string
	index := map[string]int{}
	var sp []switching.Pair
	for _, p := range pairs {
		for _, name := range []string{p.From, p.To} {
			if _, ok := index[name]; !ok {
				index[name] = len(names)
				names = append(names, name)
			}
		}
		sp = append(sp, switching.Pair{From: index[p.From], To: index[p.To]})
	}
	ls := make([]algorithms.Locator, len(names))
	for i, name := range names {
		if ls[i], err = catalog.NewLocator(name, nodes, o.Config); err != nil {
			return nil, err
		}
	}
	// A matrix per switch holds up to n x n cells: for many switches only
	// on a fleet small enough for the dense tables.
	flows := first > 0 && (len(sp) == 1 || len(nodes) <= switching.DenseFlowNodes)
	rs, err := switching.Pairs(ls, sp, src, switching.Options{MaxFirst: first, Flows: flows})
	if err != nil {
		return nil, err
	}
	out := make([]schema.Switch, len(rs))
	for i, r := range rs {
		out[i] = switchRow(r, rc, nodes, m)
	}
	return out, nil
}

// switchRow returns the row of switching result r under run configuration
// rc (its algo set to r.From) and model m.
func switchRow(r switching.Result, rc schema.Config, nodes []algorithms.Node, m StormModel) schema.Switch {
	rc.Algo = r.From
	s := schema.Switch{
		Config: rc, ToAlgo: r.To, Nodes: len(nodes), Weights: weightList(nodes),
		FirstNode: nodes[0].ID, LastNode: nodes[len(nodes)-1].ID,
		DifferFrac: r.Fraction, DifferFracLo: r.Lo, DifferFracHi: r.Hi,
		Reads: m.Reads, HitRatio: m.HitRatio, WorkingSet: m.WorkingSet, Zipf: m.Zipf,
		DBSteady: m.SteadyDBReads(), TauS: m.TimeConstant(),
	}
	im := m.image(Estimate{Mean: r.Fraction, Lo: r.Lo, Hi: r.Hi})
	setEstimate(&s.HitAfter, &s.HitAfterLo, &s.HitAfterHi, im.hitAfter)
	setEstimate(&s.DBReads, &s.DBReadsLo, &s.DBReadsHi, im.dbReads)
	setEstimate(&s.DBMultiple, &s.DBMultipleLo, &s.DBMultipleHi, im.dbMultiple)
	setEstimate(&s.ExtraDBReads, &s.ExtraDBReadsLo, &s.ExtraDBReadsHi, im.extraDBReads)
	setEstimate(&s.RecoveryS, &s.RecoverySLo, &s.RecoverySHi, im.recovery)
	for _, f := range r.Flows {
		s.Flows = append(s.Flows, schema.SwitchFlow{FromNode: r.Nodes[f.From], ToNode: r.Nodes[f.To], Keys: f.Keys})
	}
	for _, mm := range r.First {
		s.First = append(s.First, schema.SwitchMismatch{Key: mm.Key, FromNode: mm.From, ToNode: mm.To})
	}
	return s
}

// weightList returns the weights of nodes in order, comma-separated, or
// the one weight when all are equal.
func weightList(nodes []algorithms.Node) string {
	f := func(w float64) string { return strconv.FormatFloat(w, 'g', -1, 64) }
	if algorithms.Uniform(nodes) {
		return f(nodes[0].Weight)
	}
	ws := make([]string, len(nodes))
	for i, n := range nodes {
		ws[i] = f(n.Weight)
	}
	return strings.Join(ws, ",")
}

// matrixNodes is the largest fleet whose from -> to matrix
// WriteSwitchTable prints in full; a larger one prints its largest
// cells.
const matrixNodes = 16

// WriteSwitchTable writes switching rows as aligned tables for terminals:
// the fleet and the cache fleet's model, one line per switch (keys routed
// differently with the 95% interval, and the miss storm), then for each
// switch that carries them its from -> to matrix (percent of the keys;
// in full up to 16 servers, else its 10 largest cells between different
// servers) and its first keys routed differently.
func WriteSwitchTable(w io.Writer, rs []schema.Switch) error {
	if len(rs) == 0 {
		return nil
	}
	r0 := rs[0]
	keys := fmt.Sprintf("%s per set x %d sets, seed %d", num(float64(r0.Keys)), r0.Sets, r0.Seed)
	if r0.KeyFile != "" {
		keys = fmt.Sprintf("the %s of key file %s, in %d sets", num(float64(r0.Keys)), r0.KeyFile, r0.Sets)
	}
	fmt.Fprintf(w, "fleet: %d servers %s .. %s, weights %s; keys: %s\n", r0.Nodes, r0.FirstNode, r0.LastNode, r0.Weights, keys)
	m := StormModel{Reads: r0.Reads, HitRatio: r0.HitRatio, WorkingSet: r0.WorkingSet, Zipf: r0.Zipf}
	fmt.Fprintf(w, "cache fleet: %s reads/s at %s hit ratio, working set %s keys (tau = K/Q = %s s); steady database load %s reads/s\n",
		num(m.Reads), pct(m.HitRatio), num(float64(m.WorkingSet)), strconv.FormatFloat(m.TimeConstant(), 'g', 4, 64), num(m.SteadyDBReads()))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "from\tto\trouted differently [95%% CI]\thit ratio after\tdb reads/s [95%% CI]\tx steady [95%% CI]\textra db reads\tseconds to <%gx steady\n", StormRecoveryFactor)
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Algo, r.ToAlgo,
			ci(r.DifferFrac, r.DifferFracLo, r.DifferFracHi, pct), ci(r.HitAfter, r.HitAfterLo, r.HitAfterHi, pct),
			ci(r.DBReads, r.DBReadsLo, r.DBReadsHi, num), ci(r.DBMultiple, r.DBMultipleLo, r.DBMultipleHi, x1), num(r.ExtraDBReads),
			strconv.FormatFloat(r.RecoveryS, 'f', 1, 64))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rs {
		if err := writeSwitchDetail(w, r); err != nil {
			return err
		}
	}
	return nil
}

// writeSwitchDetail writes r's from -> to matrix and first mismatches, if
// it has them.
func writeSwitchDetail(w io.Writer, r schema.Switch) error {
	if len(r.Flows) > 0 {
		total := int64(0)
		for _, f := range r.Flows {
			total += f.Keys
		}
		share := func(k int64) string { return numfmt.Percent(float64(k)/float64(total), 2) }
		var ids []string // the fleet order, as the flows are sorted
		seen := map[string]bool{}
		for _, f := range r.Flows {
			for _, id := range []string{f.FromNode, f.ToNode} {
				if !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		if r.Nodes <= matrixNodes {
			fmt.Fprintf(w, "\n%s -> %s: share of the keys by server (rows: %s's, columns: %s's; the diagonal stays)\n", r.Algo, r.ToAlgo, r.Algo, r.ToAlgo)
			cell := map[[2]string]int64{}
			for _, f := range r.Flows {
				cell[[2]string{f.FromNode, f.ToNode}] = f.Keys
			}
			fmt.Fprintf(tw, "\t%s\t\n", strings.Join(ids, "\t"))
			for _, a := range ids {
				row := []string{a}
				for _, b := range ids {
					row = append(row, share(cell[[2]string{a, b}]))
				}
				fmt.Fprintf(tw, "%s\t\n", strings.Join(row, "\t"))
			}
		} else {
			moved := slices.Clone(r.Flows)
			moved = slices.DeleteFunc(moved, func(f schema.SwitchFlow) bool { return f.FromNode == f.ToNode })
			slices.SortStableFunc(moved, func(x, y schema.SwitchFlow) int { return cmp.Compare(y.Keys, x.Keys) })
			fmt.Fprintf(w, "\n%s -> %s: the %d largest flows between different servers (share of the keys)\n", r.Algo, r.ToAlgo, min(10, len(moved)))
			for _, f := range moved[:min(10, len(moved))] {
				fmt.Fprintf(tw, "%s\t-> %s\t%s\t\n", f.FromNode, f.ToNode, share(f.Keys))
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(r.First) > 0 {
		fmt.Fprintf(w, "\n%s -> %s: the first %d keys routed differently\n", r.Algo, r.ToAlgo, len(r.First))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, mm := range r.First {
			fmt.Fprintf(tw, "%s\t%s -> %s\n", mm.Key, mm.FromNode, mm.ToNode)
		}
		return tw.Flush()
	}
	return nil
}
