package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// switching reads switching.csv: every row is kept for the section
// "Switching clients"; names must be plain text (they are shown in code
// spans), and the run's metadata joins the others'.
func (ld *loader) switching(rows []schema.Switch) error {
	if err := ld.meta(runsOf(rows)); err != nil {
		return err
	}
	for i, r := range rows {
		for _, c := range []struct{ what, v string }{{"to_algo", r.ToAlgo}, {"first_node", r.FirstNode}, {"last_node", r.LastNode}, {"weights", r.Weights}} {
			if err := plainText(i, c.what, c.v); err != nil {
				return err
			}
		}
	}
	ld.d.keysSets(schema.SwitchingFile.Name, runsOf(rows))
	ld.d.switches = rows
	return nil
}

// The question the section answers, and the systems it names.
const (
	switchFrom = "libmemcached"
	switchTo   = "twemproxy"
	// switchNear is the fraction of keys routed differently below which
	// two dialects count as nearly agreeing (a tenth of what two unrelated
	// placements on the default fleet of 10 servers differ by).
	switchNear = 0.2
)

// product returns the system a dialect belongs to (catalog
// DialectFacts.Product), "" for an algorithm or an unknown name.
func product(name string) string {
	if in, err := catalog.Describe(name); err == nil && in.Dialect != nil {
		return in.Dialect.Product
	}
	return ""
}

// isDefault reports whether name is its system's default setting.
func isDefault(name string) bool {
	in, err := catalog.Describe(name)
	return err == nil && in.Dialect != nil && in.Dialect.Default
}

// fleetOf returns the rows of switching.csv's first fleet (nodes, weights
// and servers of the first row) and the rows of each other fleet.
func fleetOf(rows []schema.Switch) (first []schema.Switch, others [][]schema.Switch) {
	key := func(r schema.Switch) string { return fmt.Sprint(r.Nodes, r.Weights, r.FirstNode, r.LastNode) }
	var keys []string
	byKey := map[string][]schema.Switch{}
	for _, r := range rows {
		k := key(r)
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], r)
	}
	for _, k := range keys[1:] {
		others = append(others, byKey[k])
	}
	return byKey[keys[0]], others
}

// switchingSection is "Switching clients": what moving a fleet from
// libmemcached to twemproxy costs its cache (the cheapest settings and
// the two systems' defaults, from switching.csv's rows), and how the
// other pairs of common dialects compare.
func switchingSection(d *Data) section {
	s := section{title: "Switching clients", plots: []string{"switching"}}
	if len(d.switches) == 0 {
		s.text = append(s.text, notIn("Switching clients", schema.SwitchingFile.Name+"; `chbench switch` writes it"))
		return s
	}
	rows, others := fleetOf(d.switches)
	if len(others) > 0 {
		s.plots = append(s.plots, "switching-weighted")
	}
	r0 := rows[0]
	m := func(r schema.Switch) string {
		v := est(r.DifferFrac, r.DifferFracLo, r.DifferFracHi)
		if !v.CI {
			return percent(v.V) + " of keys routed differently " + numfmt.NoInterval
		}
		return fmt.Sprintf("%s of keys routed differently [%s, %s]", percent(v.V), percent(v.Lo), percent(v.Hi))
	}
	storm := func(r schema.Switch) string {
		if r.DifferFrac == 0 {
			return fmt.Sprintf("the database stays at its steady %s reads/s", numfmt.Thousands(r.DBSteady))
		}
		return fmt.Sprintf("right after the switch the database sees %s reads/s, %sx its steady %s, and is back within a tenth of that after %s s, %s extra reads later",
			numfmt.Thousands(r.DBReads), fixed2(r.DBMultiple), numfmt.Thousands(r.DBSteady), numfmt.Thousands(r.RecoveryS), numfmt.Thousands(r.ExtraDBReads))
	}
	fleet := fmt.Sprintf("on %s servers `%s` .. `%s` (weight %s) taking %s reads/s at a %s hit ratio over %s keys",
		count(float64(r0.Nodes)), r0.FirstNode, r0.LastNode, r0.Weights, numfmt.Thousands(r0.Reads), percent(r0.HitRatio), numfmt.Thousands(float64(r0.WorkingSet)))
	var pairs []schema.Switch
	for _, r := range rows {
		if product(r.Algo) == switchFrom && product(r.ToAlgo) == switchTo {
			pairs = append(pairs, r)
		}
	}
	if len(pairs) == 0 {
		s.text = append(s.text, fmt.Sprintf("**Takeaway:** %s has no switch from %s to %s, so this run cannot say what it costs; `chbench switch -from %s -to %s` measures it.",
			schema.SwitchingFile.Name, switchFrom, switchTo, catalog.CommonDialectGroup, catalog.CommonDialectGroup))
	} else {
		slices.SortStableFunc(pairs, func(a, b schema.Switch) int { return compareFloat(a.DifferFrac, b.DifferFrac) })
		best := pairs[0]
		t := fmt.Sprintf("**Takeaway:** %s, a fleet that runs %s and moves to %s loses least with `%s` -> `%s`: %s; %s.",
			fleet, switchFrom, switchTo, best.Algo, best.ToAlgo, m(best), storm(best))
		for _, r := range pairs[1:] {
			if isDefault(r.Algo) && isDefault(r.ToAlgo) {
				t += fmt.Sprintf(" With the two systems' defaults, `%s` -> `%s`, %s: %s.", r.Algo, r.ToAlgo, m(r), storm(r))
			}
		}
		if len(pairs) > 1 {
			worst := pairs[len(pairs)-1]
			t += fmt.Sprintf(" The %s -> %s switches measured range from %s to %s of keys routed differently (`%s` -> `%s`).",
				switchFrom, switchTo, percent(best.DifferFrac), percent(worst.DifferFrac), worst.Algo, worst.ToAlgo)
		}
		s.text = append(s.text, t)
		s.text = append(s.text, switchTable(pairs))
	}
	s.text = append(s.text, agreements(rows))
	for _, o := range others {
		s.text = append(s.text, otherFleet(o))
	}
	return s
}

// compareFloat orders a before b when a < b.
func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// switchTable returns the Markdown table of switches rs.
func switchTable(rs []schema.Switch) string {
	var b strings.Builder
	b.WriteString("| from | to | keys routed differently [95% CI] | database reads/s right after (x steady) | seconds until within a tenth of steady |\n|---|---|---|---|---|\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s (%sx) | %s |\n", r.Algo, r.ToAlgo, interval(est(r.DifferFrac, r.DifferFracLo, r.DifferFracHi), percent, ""),
			numfmt.Thousands(r.DBReads), fixed2(r.DBMultiple), numfmt.Thousands(r.RecoveryS))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// agreements returns the sentence on the pairs of one fleet that agree:
// those routing every key alike, those nearly alike, and the range of
// the rest.
func agreements(rows []schema.Switch) string {
	var same, near []string
	lo, hi := 1.0, 0.0
	seen := map[[2]string]bool{}
	for _, r := range rows {
		pair := [2]string{r.Algo, r.ToAlgo}
		if seen[[2]string{r.ToAlgo, r.Algo}] {
			continue // the same keys either way: one of the two directions
		}
		seen[pair] = true
		desc := fmt.Sprintf("`%s` and `%s`", r.Algo, r.ToAlgo)
		switch {
		case r.DifferFrac == 0:
			same = append(same, desc)
		case r.DifferFrac < switchNear:
			near = append(near, desc+" ("+percent(r.DifferFrac)+")")
		default:
			lo, hi = min(lo, r.DifferFrac), max(hi, r.DifferFrac)
		}
	}
	t := "Across the pairs of placements measured on this fleet, "
	if len(same) > 0 {
		t += "these route every key alike: " + strings.Join(same, ", ") + "; "
	} else {
		t += "none routes every key alike; "
	}
	if len(near) > 0 {
		t += fmt.Sprintf("these differ by less than %s: %s; ", percent(switchNear), strings.Join(near, ", "))
	}
	if hi > 0 {
		t += fmt.Sprintf("every other pair routes %s to %s of keys differently, which is what two placements with no relation to each other do", percent(lo), percent(hi))
	}
	return strings.TrimSuffix(t, "; ") + "."
}

// otherFleet returns the sentence on a further fleet of switching.csv
// (the weighted one of make bench): the same question's cheapest answer
// there.
func otherFleet(rows []schema.Switch) string {
	r0 := rows[0]
	t := fmt.Sprintf("On %s servers `%s` .. `%s` weighted `%s`: ", count(float64(r0.Nodes)), r0.FirstNode, r0.LastNode, r0.Weights)
	var pairs []schema.Switch
	for _, r := range rows {
		if product(r.Algo) == switchFrom && product(r.ToAlgo) == switchTo {
			pairs = append(pairs, r)
		}
	}
	if len(pairs) == 0 {
		return t + fmt.Sprintf("no switch from %s to %s was measured.", switchFrom, switchTo)
	}
	slices.SortStableFunc(pairs, func(a, b schema.Switch) int { return compareFloat(a.DifferFrac, b.DifferFrac) })
	best, worst := pairs[0], pairs[len(pairs)-1]
	t += fmt.Sprintf("from %s to %s, `%s` -> `%s` routes %s of keys differently", switchFrom, switchTo, best.Algo, best.ToAlgo, percent(best.DifferFrac))
	if len(pairs) > 1 {
		t += fmt.Sprintf(" and `%s` -> `%s` %s (the database at %sx its steady reads right after)", worst.Algo, worst.ToAlgo, percent(worst.DifferFrac), fixed2(worst.DBMultiple))
	}
	return t + "."
}
