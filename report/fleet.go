package report

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/fleet"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// stagedFactor is how far past its ideal fraction a step of a staged
// change must move for the report to name it (1.5x: a placement that
// re-rounds every server's share moves about twice the ideal).
const stagedFactor = 1.5

// changeCost is one algorithm's cost of one planned change: the whole
// change, its steps summed when staged.
type changeCost struct {
	algo      string
	moved     float64 // moved fraction of the keys, summed over the steps
	ideal     float64
	peakDB    float64 // database reads/s right after the change (the largest step's)
	steady    float64 // database reads/s before the change
	extra     float64 // database reads the change adds until refilled, summed over the steps
	extraLo   float64 // its 95% interval, summed over the steps (= extra without one)
	extraHi   float64
	extraCI   bool    // every step has an interval
	recovery  float64 // seconds to 1.1x steady, the longest step's
	steps     int
	overSteps []string // steps past stagedFactor x ideal: "45 -> 46 (2.09x)"
}

// fleetCosts groups the fleet storm rows by change (in the profile's
// order) and algorithm (in the rows' order).
func fleetCosts(p *fleet.Profile, rows []schema.Storm) map[string][]changeCost {
	out := map[string][]changeCost{}
	for _, c := range p.Changes {
		var cs []changeCost
		idx := map[string]int{}
		for _, r := range rows {
			if r.Op != c.Name && r.Op != c.Name+"-step" {
				continue
			}
			i, ok := idx[r.Algo]
			if !ok {
				i = len(cs)
				idx[r.Algo] = i
				cs = append(cs, changeCost{algo: r.Algo, steady: r.DBSteady, extraCI: true})
			}
			cc := &cs[i]
			cc.moved += r.MovedFrac
			cc.ideal += r.IdealFrac
			extra := est(r.ExtraDBReads, r.ExtraDBReadsLo, r.ExtraDBReadsHi)
			cc.extra += extra.V
			cc.extraLo += extra.Lo
			cc.extraHi += extra.Hi
			cc.extraCI = cc.extraCI && extra.CI
			cc.peakDB = max(cc.peakDB, r.DBReads)
			cc.recovery = max(cc.recovery, r.RecoveryS)
			cc.steps++
			if r.Op == c.Name+"-step" && est(r.MovedFrac, r.MovedFracLo, r.MovedFracHi).Lo > stagedFactor*r.IdealFrac {
				cc.overSteps = append(cc.overSteps, fmt.Sprintf("%d -> %d (%sx)", r.From, r.To, fixed2(r.MovedFrac/r.IdealFrac)))
			}
		}
		out[c.Name] = cs
	}
	return out
}

// writeFleet writes "Your fleet": the members and their weights, the
// client, the layout, then for every planned change what each algorithm
// moves and what it costs the database, and which costs least.
func writeFleet(b *strings.Builder, d *Data) {
	p := d.profile.Fleet
	if p == nil {
		return
	}
	b.WriteString("## Your fleet\n\n")
	fmt.Fprintf(b, "From the fleet profile `%s`.\n\n", p.Path)
	fmt.Fprintf(b, "- **Members**: %s today (%s); %s.\n", count(float64(len(p.Nodes))), memberRange(p.Nodes), memberClasses(p))
	if p.Topology != nil {
		fmt.Fprintf(b, "- **Failure domains**: levels %s.\n", strings.Join(p.Topology.Levels(), ", "))
	}
	fmt.Fprintf(b, "- **Replication**: R = %d.\n", p.Replicas)
	switch {
	case p.Client == "":
		b.WriteString("- **Client today**: not given (`client` in the profile): the report cannot say what leaving it costs.\n")
	case catalog.IsDialect(p.Client):
		fmt.Fprintf(b, "- **Client today**: `%s`, a dialect: the real client's placement bit for bit, measured below beside every algorithm as the cost of staying with it.\n", p.Client)
	default:
		fmt.Fprintf(b, "- **Client today**: `%s`, measured below beside every other algorithm.\n", p.Client)
	}
	if p.Placement == schema.PlacementFixed {
		b.WriteString("- **Layout**: fixed: every algorithm is built on exactly these node IDs, unsalted, as your client builds it; the numbers are this fleet's layout, not an average over random layouts (a ring's shares on other IDs differ).\n")
	} else {
		b.WriteString("- **Layout**: per-set: each key set on a salted layout, so the numbers describe random layouts of this size, not the layout your IDs give.\n")
	}
	t := p.Traffic
	src := fmt.Sprintf("%s generated keys a set", count(float64(t.Keys)))
	ws := count(float64(t.KeyCount())) + " keys"
	switch {
	case t.KeyFile != "":
		src = "the keys of `" + t.KeyFile + "`"
	case t.Trace != "":
		src = "the distinct keys of the trace `" + t.Trace + "`, each once in order of first appearance"
		if t.WorkingSet == 0 {
			ws = "the trace's distinct keys"
		}
	}
	fmt.Fprintf(b, "- **Traffic**: %s reads/s at hit ratio %s (%s reads/s reach the database), a working set of %s, Zipf s = %s; movement measured on %s.\n\n",
		reads(t.Reads), numfmt.Percent(t.HitRatio, 2), reads(t.Reads*(1-t.HitRatio)), ws, num(t.Zipf), src)
	var rest strings.Builder
	even := writeFleetShares(&rest, d)
	writeFleetLoad(&rest, d)
	writeFleetLookup(&rest, d)
	writeFleetSwitching(&rest, d)
	least, measured := writeFleetChanges(&rest, d)
	writeFleetReplication(&rest, d)
	writeFleetSummary(b, p, even, least, measured)
	b.WriteString(rest.String())
}

// writeFleetChanges writes what each planned change moves and costs, and
// returns for each algorithm the changes on which it was among the least
// costly, and the changes measured (followed by some algorithm).
func writeFleetChanges(b *strings.Builder, d *Data) (least map[string][]string, measured []string) {
	p := d.profile.Fleet
	if len(p.Changes) == 0 {
		b.WriteString("The profile plans no change (`[[change]]`).\n\n")
		return nil, nil
	}
	if d.fleetStorm == nil {
		fmt.Fprintf(b, "The planned changes were not measured: `%s` is not in this run (`make bench PROFILE=%s` writes it).\n\n", schema.FleetStormFile.Name, p.Path)
		return nil, nil
	}
	least = map[string][]string{}
	costs := fleetCosts(p, d.fleetStorm)
	b.WriteString("### What each planned change moves and costs the database\n\n")
	b.WriteString("Each change from the fleet it starts from (today's, or after the change it follows). Moved: the fraction of keys that change node (a staged change: summed over its steps), over its ideal (the weight that changes hands; on a leave or failure under 1x means the node held less than its weight's share, over 1x that keys of other nodes moved too). Extra database reads: reads the change adds until the cache has refilled (h f K per step, summed), with its 95% interval over key sets; peak: database reads/s right after the change (a staged change: its worst step). Algorithms that take no weights cannot place a weighted fleet and are left out.\n\n")
	for _, c := range p.Changes {
		cs := costs[c.Name]
		before, after := p.Before(c), p.After(c)
		fmt.Fprintf(b, "**%s** (%s, %s -> %s nodes", c.Name, c.Kind(), count(float64(len(before))), count(float64(len(after))))
		if c.Step > 0 {
			fmt.Fprintf(b, ", %d at a time", c.Step)
		}
		if c.After != "" {
			fmt.Fprintf(b, ", after %s", c.After)
		}
		b.WriteString(")")
		if len(cs) == 0 {
			b.WriteString(": no rows in " + schema.FleetStormFile.Name + ".\n\n")
			continue
		}
		fmt.Fprintf(b, ": ideal %s of the keys move; steady database load %s reads/s.\n\n", numfmt.Percent(cs[0].ideal, 2), reads(cs[0].steady))
		b.WriteString("| algorithm | moved | moved/ideal | peak db reads/s | extra db reads [95%] | to 1.1x steady |\n|---|---|---|---|---|---|\n")
		order := slices.Clone(cs)
		slices.SortStableFunc(order, func(x, y changeCost) int { return cmp.Compare(x.extra, y.extra) })
		for _, cc := range order {
			name := "`" + cc.algo + "`"
			if cc.algo == p.Client {
				name += " (today)"
			}
			fmt.Fprintf(b, "| %s | %s | %sx | %s | %s | %s s |\n", name, numfmt.Percent(cc.moved, 2), fixed2(cc.moved/cc.ideal),
				reads(cc.peakDB), interval(value{V: cc.extra, OK: true, Lo: cc.extraLo, Hi: cc.extraHi, CI: cc.extraCI, Single: !cc.extraCI}, reads, ""), numfmt.Sig3(cc.recovery))
		}
		b.WriteString("\n")
		text, ls := changeTakeaway(p, c, order)
		b.WriteString(text + "\n\n")
		if len(ls) > 0 {
			measured = append(measured, c.Name)
		}
		for _, a := range ls {
			least[a] = append(least[a], c.Name)
		}
	}
	return least, measured
}

// writeFleetSummary writes the section's answer: the algorithms both most
// even and least costly on the most planned changes, and where the client
// stands.
func writeFleetSummary(b *strings.Builder, p *fleet.Profile, even []string, least map[string][]string, measured []string) {
	if len(even) == 0 || len(measured) == 0 {
		return
	}
	best, most := []string{}, -1
	for _, a := range even {
		switch n := len(least[a]); {
		case n > most:
			best, most = []string{a}, n
		case n == most:
			best = append(best, a)
		}
	}
	quoted := make([]string, len(best))
	for i, a := range best {
		quoted[i] = "`" + a + "`"
	}
	fmt.Fprintf(b, "**In short**: of the most even placements for this fleet, %s %s among the least costly to the database on %d of the %d planned changes measured", strings.Join(quoted, " and "), map[bool]string{true: "is", false: "are"}[len(best) == 1], most, len(measured))
	if most > 0 {
		fmt.Fprintf(b, " (%s)", strings.Join(least[best[0]], ", "))
	}
	b.WriteString(".")
	if p.Client != "" {
		cl := least[p.Client]
		fmt.Fprintf(b, " Your client `%s` is %samong the most even, and among the least costly on %d of %d.", p.Client, map[bool]string{true: "", false: "not "}[slices.Contains(even, p.Client)], len(cl), len(measured))
	}
	b.WriteString(" The tables below give each number with its interval.\n\n")
}

// changeTakeaway says which algorithms cost the database least on one
// change (those whose extra-reads interval overlaps the least's), what
// the client costs beside them, and the steps of a staged change that
// moved past stagedFactor x their ideal.
func changeTakeaway(p *fleet.Profile, c fleet.Change, order []changeCost) (text string, least []string) {
	var s string
	var unfollowed []string
	followed := order[:0:0]
	for _, cc := range order {
		if cc.followed() {
			followed = append(followed, cc)
		} else {
			unfollowed = append(unfollowed, fmt.Sprintf("`%s` (%sx)", cc.algo, fixed2(cc.moved/cc.ideal)))
		}
	}
	if len(unfollowed) > 0 {
		s = fmt.Sprintf("Not followed: %s moved less than half the ideal fraction, so the weight that changed hands stays where it was (the change is not made; its low cost is no saving) and is left out of the comparison. ", strings.Join(unfollowed, ", "))
	}
	if len(followed) == 0 {
		return s + "No algorithm followed this change.", nil
	}
	best := followed[0]
	var tied []string
	for _, cc := range followed {
		if cc.extraLo <= best.extraHi {
			tied = append(tied, "`"+cc.algo+"`")
			least = append(least, cc.algo)
		}
	}
	if len(tied) == 1 {
		s += fmt.Sprintf("Least database load: %s (%s extra reads).", tied[0], reads(best.extra))
	} else {
		s += fmt.Sprintf("Least database load: %s, within each other's 95%% intervals of extra reads (the least %s).", strings.Join(tied, ", "), reads(best.extra))
	}
	if i := slices.IndexFunc(order, func(cc changeCost) bool { return cc.algo == p.Client }); i >= 0 {
		cl := order[i]
		if !cl.followed() {
			s += fmt.Sprintf(" Your client `%s` does not follow it.", p.Client)
		} else if cl.extraLo > best.extraHi {
			s += fmt.Sprintf(" Your client `%s` adds %s extra reads, %sx the least.", p.Client, reads(cl.extra), fixed2(cl.extra/best.extra))
		} else {
			s += fmt.Sprintf(" Your client `%s` is among them.", p.Client)
		}
	}
	var over []string
	for _, cc := range order {
		if len(cc.overSteps) > 0 {
			over = append(over, fmt.Sprintf("`%s` at %s", cc.algo, strings.Join(cc.overSteps, ", ")))
		}
	}
	if len(over) > 0 {
		s += fmt.Sprintf(" Steps that moved more than %sx their ideal (the 95%% interval's low end past it): %s.", fixed2(stagedFactor), strings.Join(over, "; "))
	} else if c.Step > 0 {
		s += fmt.Sprintf(" No step moved more than %sx its ideal.", fixed2(stagedFactor))
	}
	return s, least
}

// memberRange names the first and last member.
func memberRange(nodes []algorithms.Node) string {
	if len(nodes) == 1 {
		return "`" + nodes[0].ID + "`"
	}
	return "`" + nodes[0].ID + "` .. `" + nodes[len(nodes)-1].ID + "`"
}

// memberClasses sums today's members up by weight (and memory): "8 of
// weight 2 (32 GiB), 32 of weight 1 (16 GiB)", heaviest first.
func memberClasses(p *fleet.Profile) string {
	type class struct {
		w   float64
		mem int64
		n   int
	}
	var cs []class
	for i, n := range p.Nodes {
		var mem int64
		if p.Memory != nil {
			mem = p.Memory[i]
		}
		j := slices.IndexFunc(cs, func(c class) bool { return c.w == n.Weight && c.mem == mem })
		if j < 0 {
			cs = append(cs, class{w: n.Weight, mem: mem})
			j = len(cs) - 1
		}
		cs[j].n++
	}
	if len(cs) == 1 {
		return "all of one weight"
	}
	slices.SortStableFunc(cs, func(a, b class) int { return cmp.Compare(b.w, a.w) })
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%d of weight %s", c.n, num(c.w))
		if c.mem > 0 {
			parts[i] += " (" + memSize(c.mem) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// memSize writes bytes in the largest binary unit that divides them.
func memSize(b int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b%u.size == 0 {
			return fmt.Sprintf("%d %s", b/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d B", b)
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// reads writes a number of database reads or reads per second, rounded.
func reads(x float64) string { return numfmt.Thousands(x) }

// followed reports whether an algorithm followed the change: moved at
// least half its ideal fraction. One that moves less leaves the weight
// that changed hands where it was (bounded loads keep a partition where
// it is while its node is under capacity, so a node whose weight doubles
// gets no more keys): the change is not made, and its low cost is not a
// saving.
func (cc changeCost) followed() bool { return cc.moved >= 0.5*cc.ideal }

// nodeRatio is one node's share of the keys over its weight share.
type nodeRatio struct {
	id     string
	weight float64
	value  // share / weight share, with its 95% interval
}

// writeFleetShares writes how uneven the keys, and so the memory they
// take, are per node relative to its weight, from fleet-shares.csv: for
// each algorithm the fullest and emptiest node against its weight share.
func writeFleetShares(b *strings.Builder, d *Data) (even []string) {
	p := d.profile.Fleet
	b.WriteString("### How full each node is, relative to its weight\n\n")
	if d.fleetShares == nil {
		fmt.Fprintf(b, "Not measured: `%s` is not in this run (`make bench PROFILE=%s` writes it).\n\n", schema.FleetSharesFile.Name, p.Path)
		return nil
	}
	var algos []string
	by := map[string][]nodeRatio{}
	for _, r := range d.fleetShares {
		if _, ok := by[r.Algo]; !ok {
			algos = append(algos, r.Algo)
		}
		by[r.Algo] = append(by[r.Algo], nodeRatio{r.ID, r.Weight, est(r.Share.Share, r.ShareLo, r.ShareHi).scaled(r.WeightShare)})
	}
	what := "holds 1.2 times its weight's part of the keys"
	if p.Memory != nil {
		what = "fills its memory 1.2 times as fast as the fleet on average"
	}
	fmt.Fprintf(b, "Each node's share of the keys today over its weight share (1 = exactly its weight's part; a node at 1.20 %s, assuming values of one size), measured on the profile's keys, 95%% interval over key sets. Sorted by the fullest node, the one that runs out of memory first.\n\n", what)
	if _, err := os.Stat(filepath.Join(d.dir, schema.PlotsDir, "fleet-weights.png")); err == nil {
		fmt.Fprintf(b, "![fleet-weights](%s/fleet-weights.png)\n\n", d.plotsLink())
	}
	b.WriteString("| algorithm | fullest node | its share / weight share | emptiest node | its share / weight share |\n|---|---|---|---|---|\n")
	type row struct {
		algo        string
		full, empty nodeRatio
	}
	var rows []row
	for _, a := range algos {
		ns := by[a]
		full := slices.MaxFunc(ns, func(x, y nodeRatio) int { return cmp.Compare(x.V, y.V) })
		empty := slices.MinFunc(ns, func(x, y nodeRatio) int { return cmp.Compare(x.V, y.V) })
		rows = append(rows, row{a, full, empty})
	}
	slices.SortStableFunc(rows, func(x, y row) int { return cmp.Compare(x.full.V, y.full.V) })
	for _, r := range rows {
		name := "`" + r.algo + "`"
		if r.algo == p.Client {
			name += " (today)"
		}
		fmt.Fprintf(b, "| %s | `%s` (weight %s) | %s | `%s` (weight %s) | %s |\n", name,
			r.full.id, num(r.full.weight), interval(r.full.value, fixed2, ""),
			r.empty.id, num(r.empty.weight), interval(r.empty.value, fixed2, ""))
	}
	b.WriteString("\n")
	if len(rows) > 0 {
		best := rows[0]
		var tied []string
		for _, r := range rows {
			if r.full.Lo <= best.full.Hi {
				tied = append(tied, "`"+r.algo+"`")
				even = append(even, r.algo)
			}
		}
		fmt.Fprintf(b, "Most even for this fleet (fullest node least over its weight, within the 95%% intervals): %s, whose fullest node holds %sx its weight's share.\n\n", strings.Join(tied, ", "), fixed2(best.full.V))
	}
	return even
}

// writeFleetLoad writes how uneven the requests are per node relative to
// its weight, from fleet-load.csv, with the hot-key floor that no
// placement goes below.
func writeFleetLoad(b *strings.Builder, d *Data) {
	p := d.profile.Fleet
	b.WriteString("### How busy each node is, relative to its weight\n\n")
	if d.fleetLoad == nil {
		fmt.Fprintf(b, "Not measured: `%s` is not in this run (`make bench PROFILE=%s` writes it).\n\n", schema.FleetLoadFile.Name, p.Path)
		return
	}
	rows := slices.Clone(d.fleetLoad)
	slices.SortStableFunc(rows, func(x, y schema.Load) int { return cmp.Compare(x.PeakToMean, y.PeakToMean) })
	r0 := rows[0]
	law := fmt.Sprintf("drawn from a Zipf law with s = %s over the profile's keys (%s requests per key set)", num(p.Traffic.Zipf), count(float64(r0.Requests)))
	if r0.Zipf == nil && p.Traffic.Trace != "" {
		law = fmt.Sprintf("of the trace `%s`, replayed as recorded (%s requests)", p.Traffic.Trace, count(float64(r0.Requests)))
	}
	fmt.Fprintf(b, "Requests %s, on today's members. Peak-to-mean: the busiest node's share of the requests over its weight share (1 = every node serves exactly its weight's part), 95%% interval over key sets.\n\n", law)
	b.WriteString("| algorithm | request peak-to-mean [95%] | hottest key's node (first key set) | hot-key floor there |\n|---|---|---|---|\n")
	for _, r := range rows {
		name := "`" + r.Algo + "`"
		if r.Algo == p.Client {
			name += " (today)"
		}
		fmt.Fprintf(b, "| %s | %s | `%s` | %s |\n", name, interval(est(r.PeakToMean, r.PeakToMeanLo, r.PeakToMeanHi), fixed2, ""), r.HotKeyNode, fixed2(r.FloorHotNode))
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "The hottest key alone draws %s of the requests, and every placement sends all of them to one node: the node holding it serves at least hot share x W / w of its weight's part, whatever the algorithm (the hot-key floor; it assumes no replication of hot keys and no client-side cache). On one of the largest nodes that floor is %s, on one of the smallest %s. ",
		numfmt.Percent(r0.HotShare, 2), fixed2(r0.Floor), fixed2(r0.FloorMinNode))
	if est(r0.PeakToMean, r0.PeakToMeanLo, r0.PeakToMeanHi).Lo <= r0.FloorMinNode {
		b.WriteString("The least measured peak-to-mean's interval reaches below the smallest node's floor: the skew of the traffic, not the placement, makes the busiest node (where the hot key lands decides how busy: a node of twice the weight halves the floor); an algorithm cannot fix it, replicating the hot keys or a near cache can.\n\n")
	} else {
		fmt.Fprintf(b, "The least peak-to-mean, `%s`'s, is above that floor: the placement adds to the skew.\n\n", r0.Algo)
	}
}

// writeFleetSwitching writes what leaving the client costs once, from
// fleet-switching.csv: per placement, the keys it routes differently from
// the client on today's members and the miss storm of the switch.
func writeFleetSwitching(b *strings.Builder, d *Data) {
	p := d.profile.Fleet
	if p.Client == "" {
		return
	}
	fmt.Fprintf(b, "### Leaving `%s`\n\n", p.Client)
	if d.fleetSwitching == nil {
		fmt.Fprintf(b, "Not measured: `%s` is not in this run (`make bench PROFILE=%s` writes it).\n\n", schema.FleetSwitchingFile.Name, p.Path)
		return
	}
	rows := slices.Clone(d.fleetSwitching)
	slices.SortStableFunc(rows, func(x, y schema.Switch) int { return cmp.Compare(x.DifferFrac, y.DifferFrac) })
	b.WriteString("Switching today's fleet from the client to another placement, once: the keys the two route to different servers (each a miss after the switch), 95% interval over key sets, and the miss storm of that switch under the profile's traffic.\n\n")
	b.WriteString("| to | keys routed differently [95%] | db reads/s right after | extra db reads | to 1.1x steady |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(b, "| `%s` | %s | %s (%sx steady) | %s | %s s |\n", r.ToAlgo,
			interval(est(r.DifferFrac, r.DifferFracLo, r.DifferFracHi), pct2, ""),
			reads(r.DBReads), fixed2(r.DBMultiple), reads(r.ExtraDBReads), numfmt.Sig3(r.RecoveryS))
	}
	b.WriteString("\n")
	r0 := rows[0]
	fmt.Fprintf(b, "The cheapest switch, to `%s`, re-routes %s of the keys: %s extra database reads once, %sx the steady database load right after it.",
		r0.ToAlgo, numfmt.Percent(r0.DifferFrac, 2), reads(r0.ExtraDBReads), fixed2(r0.DBMultiple))
	if d.fleetStorm != nil {
		// What each placement would save on the planned changes against
		// the client: the sum over the changes both followed.
		costs := fleetCosts(p, d.fleetStorm)
		var parts []string
		for _, r := range rows {
			saved, n := 0.0, 0
			for _, c := range p.Changes {
				cs := costs[c.Name]
				i := slices.IndexFunc(cs, func(cc changeCost) bool { return cc.algo == p.Client })
				j := slices.IndexFunc(cs, func(cc changeCost) bool { return cc.algo == r.ToAlgo })
				if i < 0 || j < 0 || !cs[i].followed() || !cs[j].followed() {
					continue
				}
				saved += cs[i].extra - cs[j].extra
				n++
			}
			if n > 0 {
				parts = append(parts, fmt.Sprintf("`%s` %s", r.ToAlgo, reads(saved)))
			}
		}
		if len(parts) > 0 {
			b.WriteString(" Against it, the extra database reads each placement saves over all the planned changes below (the client's minus its own, summed over the changes both follow; negative: it costs more): " + strings.Join(parts, ", ") + ". Leaving pays off in database load only where that saving exceeds the switch's cost.")
		}
	}
	b.WriteString("\n\n")
}

// writeFleetReplication writes, from fleet-replication.csv, what every
// planned change does to the replicas at the profile's replication
// factor R > 1: per algorithm the key-replica pairs re-homed (a copy made
// anew on a node that held none of the key) against the ideal fraction,
// and the keys none of whose replicas stays, each with its 95% interval
// over key sets. At R = 1 it writes nothing: the storms' moved fraction
// is then the replica movement.
func writeFleetReplication(b *strings.Builder, d *Data) {
	p := d.profile.Fleet
	if p.Replicas < 2 || len(p.Changes) == 0 {
		return
	}
	fmt.Fprintf(b, "### The replicas on each planned change, R = %d\n\n", p.Replicas)
	if d.fleetReplication == nil {
		fmt.Fprintf(b, "Not measured: `%s` is not in this run (`make bench PROFILE=%s` writes it).\n\n", schema.FleetReplicationFile.Name, p.Path)
		return
	}
	fmt.Fprintf(b, "Each key on %d distinct nodes; each change whole (a staged change from its first to its last placement), from the fleet it starts from. Pairs re-homed: the key-replica pairs whose node holds no replica of the key after the change, each a copy to make (the ideal: the weight that changes hands); keys losing every replica: none of its %d copies stays where it was, so the key must be fetched or rebuilt from outside the fleet. 95%% intervals over key sets.\n\n", p.Replicas, p.Replicas)
	for _, c := range p.Changes {
		var rows []schema.Replication
		for _, r := range d.fleetReplication {
			if r.Op == c.Name {
				rows = append(rows, r)
			}
		}
		fmt.Fprintf(b, "**%s** (%s, %s -> %s nodes)", c.Name, c.Kind(), count(float64(len(p.Before(c)))), count(float64(len(p.After(c)))))
		if len(rows) == 0 {
			b.WriteString(": no rows in " + schema.FleetReplicationFile.Name + ".\n\n")
			continue
		}
		fmt.Fprintf(b, ": ideal %s of the pairs re-homed.\n\n", numfmt.Percent(rows[0].IdealFrac, 2))
		b.WriteString("| algorithm | pairs re-homed [95%] | over ideal | keys losing every replica [95%] |\n|---|---|---|---|\n")
		slices.SortStableFunc(rows, func(x, y schema.Replication) int { return cmp.Compare(x.PairsMovedFrac, y.PairsMovedFrac) })
		for _, r := range rows {
			name := "`" + r.Algo + "`"
			if r.Algo == p.Client {
				name += " (today)"
			}
			fmt.Fprintf(b, "| %s | %s | %sx | %s |\n", name, interval(pairsMoved(r), pct2, ""), fixed2(r.PairsMovedFrac/r.IdealFrac),
				interval(allLost(r), func(x float64) string { return numfmt.Percent(x, 3) }, ""))
		}
		var fewest, none []string
		least := pairsMoved(rows[0])
		for _, r := range rows {
			if pairsMoved(r).Lo <= least.Hi {
				fewest = append(fewest, "`"+r.Algo+"`")
			}
			if allLost(r).Hi == 0 {
				none = append(none, "`"+r.Algo+"`")
			}
		}
		fmt.Fprintf(b, "\nFewest copies to make: %s (%s of the pairs%s).", strings.Join(fewest, ", "), numfmt.Percent(rows[0].PairsMovedFrac, 2), withinEach(len(fewest)))
		if len(none) > 0 {
			fmt.Fprintf(b, " No key loses every replica under %s.", strings.Join(none, ", "))
		} else {
			b.WriteString(" Under every algorithm some keys lose every replica.")
		}
		b.WriteString("\n\n")
	}
}

// writeFleetLookup writes, from fleet-lookup.txt, the lookup time of each
// placement from a key string at the fleet's sizes (today's members and
// the largest planned membership): benchmath's median over the runs with
// its 95% interval, fastest at the largest size first; then those whose
// interval reaches the fastest's, and the client beside them.
func writeFleetLookup(b *strings.Builder, d *Data) {
	p := d.profile.Fleet
	b.WriteString("### How fast is a lookup at this fleet's sizes\n\n")
	set := d.fleetLookup
	if set == nil || len(set.Series) == 0 {
		fmt.Fprintf(b, "Not measured: `%s` is not in this run (`make bench PROFILE=%s` writes it).\n\n", schema.FleetLookupFile, p.Path)
		return
	}
	var sizes []float64
	for _, sr := range set.Series {
		for _, pt := range sr.Points {
			sizes = append(sizes, pt.Nodes)
		}
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	at := func(sr schema.BenchSeries, n float64) (schema.BenchPoint, bool) {
		i := slices.IndexFunc(sr.Points, func(pt schema.BenchPoint) bool { return pt.Nodes == n })
		if i < 0 {
			return schema.BenchPoint{}, false
		}
		return sr.Points[i], true
	}
	largest := sizes[len(sizes)-1]
	series := slices.Clone(set.Series)
	key := func(sr schema.BenchSeries) float64 {
		if pt, ok := at(sr, largest); ok {
			return pt.Median
		}
		return math.Inf(1)
	}
	slices.SortStableFunc(series, func(x, y schema.BenchSeries) int { return cmp.Compare(key(x), key(y)) })
	fmt.Fprintf(b, "One lookup from a key string to its node (hash the key, place it, index the members), on %s nodes of weight 1, the bench package's default IDs: the node count is what sets a lookup's cost (a heavier node adds ring points, a step of a ring's binary search per doubling). Median over the runs with its 95%% interval (benchmath); measured on %s.\n\n", joinCounts(sizes), md(set.Caption))
	b.WriteString("| algorithm |")
	for _, n := range sizes {
		fmt.Fprintf(b, " at %s nodes [95%%] |", count(n))
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(sizes)) + "\n")
	for _, sr := range series {
		name := "`" + sr.Algo + "`"
		if sr.Algo == p.Client {
			name += " (today)"
		}
		b.WriteString("| " + name + " |")
		for _, n := range sizes {
			if pt, ok := at(sr, n); ok {
				b.WriteString(" " + nsInterval(pt) + " |")
			} else {
				b.WriteString(" not measured |")
			}
		}
		b.WriteString("\n")
	}
	best, ok := at(series[0], largest)
	if !ok {
		b.WriteString("\n")
		return
	}
	var tied []string
	for _, sr := range series {
		if pt, ok := at(sr, largest); ok && pt.Lo <= best.Hi {
			tied = append(tied, "`"+sr.Algo+"`")
		}
	}
	fmt.Fprintf(b, "\nFastest at %s nodes: %s (%s ns%s).", count(largest), strings.Join(tied, ", "), numfmt.Sig3(best.Median), withinEach(len(tied)))
	if i := slices.IndexFunc(series, func(sr schema.BenchSeries) bool { return sr.Algo == p.Client }); i > 0 {
		if pt, ok := at(series[i], largest); ok && pt.Lo > best.Hi {
			fmt.Fprintf(b, " Your client `%s` takes %s ns, %sx the fastest.", p.Client, numfmt.Sig3(pt.Median), fixed2(pt.Median/best.Median))
		}
	}
	b.WriteString("\n\n")
}

// nsInterval writes a lookup median with its interval in ns ("42.1 ns
// [41.0, 43.5]"), or the median alone when benchmath gave none.
func nsInterval(pt schema.BenchPoint) string {
	if !pt.CI {
		return numfmt.Sig3(pt.Median) + " ns"
	}
	return numfmt.Interval(numfmt.Sig3(pt.Median)+" ns", numfmt.Sig3(pt.Lo), numfmt.Sig3(pt.Hi))
}

// joinCounts writes node counts as "40 and 60".
func joinCounts(ns []float64) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = count(n)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// withinEach returns ", the least; the others' intervals reach it" for
// more than one algorithm named beside the least, else "".
func withinEach(n int) string {
	if n > 1 {
		return ", the least; the others' intervals reach it"
	}
	return ""
}

// pairsMoved is a replication row's fraction of key-replica pairs
// re-homed, with its interval.
func pairsMoved(r schema.Replication) value {
	return est(r.PairsMovedFrac, r.PairsMovedFracLo, r.PairsMovedFracHi)
}

// allLost is a replication row's fraction of keys that lost every
// replica, with its interval.
func allLost(r schema.Replication) value { return est(r.AllLostFrac, r.AllLostFracLo, r.AllLostFracHi) }
