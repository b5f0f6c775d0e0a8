package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// Thresholds of the takeaways and rules; the report states them where it
// uses them.
const (
	// nearIdeal is the moved/ideal ratio up to which a change counts as
	// moving about the minimum.
	nearIdeal = 1.1
	// top is how many algorithms a takeaway names at each end.
	top = 3
	// lossLimit is the fraction of keys (1 in 10,000) that may lose every
	// replica to one node failure in the replicated-store rule. Schemes that
	// rehash with a salt lose the rare key whose first probes all hit the
	// failed node (about 1 in 100,000 at 100 nodes), a layout in slot
	// order about 1 in 100: the limit tells the two apart.
	lossLimit = 1e-4
)

// metricInfo is how the report shows a metric.
type metricInfo struct {
	head   string // table header ("" for a metric the table does not show)
	short  string // in sentences: "lookup ns at 10,000 nodes"
	unit   string // after the number in sentences ("" for none)
	format func(float64) string
	// lower is true when less is better (lookup time, memory, peak load,
	// lost keys): the table marks the best cell and those tied with it.
	// Movement is best at the ideal, not at its least, and is not marked.
	lower bool
}

func metricInfos(d *Data) [numMetrics]metricInfo {
	at := func(n float64) string {
		if n == 0 {
			return ""
		}
		return " @" + count(n)
	}
	atN := func(n float64) string {
		if n == 0 {
			return ""
		}
		return " at " + count(n) + " nodes"
	}
	z := d.loadZipf
	if d.loadN == 0 {
		z = d.profile.Zipf
	}
	r := replR(d)
	return [numMetrics]metricInfo{
		lookupLo:        {"lookup ns" + at(d.lookupLoN), "lookup time" + atN(d.lookupLoN), " ns", sig3, true},
		lookupHi:        {"lookup ns" + at(d.lookupHiN), "lookup time" + atN(d.lookupHiN), " ns", sig3, true},
		buildNs:         {"build ns" + at(d.buildN), "build time", " ns", sig3, true},
		retainedPerNode: {"bytes/node" + at(d.buildN), "bytes per node", " B", sig3, true},
		joinRatio:       {"join moved/ideal" + at(d.moveN), "join moved/ideal", "x", fixed2, false},
		leaveRatio:      {"random leave moved/ideal" + at(d.moveN), "random leave moved/ideal", "x", fixed2, false},
		replicaMoved:    {"R=" + count(r) + " random leave: pairs moved" + at(d.replN), "key-replica pairs re-homed", "", percent, false},
		replicaLost:     {"R=" + count(r) + " random leave: keys re-homed entirely" + at(d.replN), "keys re-homed entirely", "", percent, true},
		keyPeak:         {"keys peak/mean" + at(d.spreadNUsed), "key peak-to-mean", "x", fixed2, true},
		zipfPeak:        {"Zipf s=" + strconv.FormatFloat(z, 'g', -1, 64) + " requests peak/mean" + at(d.loadN), "request peak-to-mean", "x", fixed2, true},
		stormMultiple:   {"storm DB reads x" + d.stormShort, "storm database multiple", "x", fixed2, true},
		lastLeaveRatio:  {"", "last-node leave moved/ideal", "x", fixed2, false},
		replicaLoadPeak: {"", "replica load peak-to-mean", "x", fixed2, true},
		weightPeak:      {"", "weighted share peak", "x", fixed2, true},
		domainShared:    {"", "keys with replicas sharing a domain", "", percent, true},
	}
}

var (
	sig3    = numfmt.Sig3
	percent = numfmt.PercentSig3
)

func fixed2(x float64) string { return numfmt.Fixed(x, 2) }

// ranked returns the rows of d with metric m, lowest first (ties in
// table order), keeping only those keep accepts (nil: all).
func ranked(d *Data, m metric, keep func(algoRow) bool) []named {
	var out []named
	for _, r := range d.rows {
		if r.Vals[m].OK && (keep == nil || keep(r)) {
			out = append(out, named{r.Info.Name, r.Vals[m].V, r.Vals[m]})
		}
	}
	slices.SortStableFunc(out, func(a, b named) int { return cmp.Compare(a.V, b.V) })
	return out
}

// overlap reports whether the 95% intervals of a and b overlap; without
// intervals, whether the values are equal.
func overlap(a, b value) bool {
	if !a.CI || !b.CI {
		return a.V == b.V
	}
	return a.Lo <= b.Hi && b.Lo <= a.Hi
}

// tiedWithFirst splits ns (sorted) into the first and those whose 95%
// intervals overlap the first's, and the rest.
func tiedWithFirst(ns []named) (tied, rest []named) {
	for i, n := range ns {
		if i == 0 || overlap(n.Val, ns[0].Val) {
			tied = append(tied, n)
		} else {
			rest = append(rest, n)
		}
	}
	return tied, rest
}

// ranking formats ns (sorted, best first) as the tied group joined by
// " ≈ ", then "; clearly above the lowest: " and the rest: "`a` (1.00x) ≈
// `b` (1.01x); clearly above the lowest: `c` (2.00x)".
func ranking(ns []named, f func(float64) string, unit string) string {
	tied, rest := tiedWithFirst(ns)
	parts := make([]string, len(tied))
	for i, n := range tied {
		parts[i] = fmt.Sprintf("`%s` (%s%s)", n.Name, f(n.V), unit)
	}
	out := strings.Join(parts, " ≈ ")
	if len(rest) > 0 {
		out += "; clearly above the lowest: " + list(rest, f, unit)
	}
	return out
}

// interval formats v as "7.22x [7.08, 7.35]" (without brackets when it
// has no interval).
func interval(v value, f func(float64) string, unit string) string {
	if !v.CI {
		return f(v.V) + unit
	}
	return numfmt.Interval(f(v.V)+unit, f(v.Lo), f(v.Hi))
}

// list formats ns as "a (1.00x), b (1.01x)" with f and unit.
func list(ns []named, f func(float64) string, unit string) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("`%s` (%s%s)", n.Name, f(n.V), unit)
	}
	return strings.Join(parts, ", ")
}

func head(ns []named, k int) []named { return ns[:min(k, len(ns))] }

func countIf(ns []named, ok func(named) bool) int {
	k := 0
	for _, n := range ns {
		if ok(n) {
			k++
		}
	}
	return k
}

// Write renders the report of d as Markdown to w.
func Write(w io.Writer, d *Data) error {
	var b strings.Builder
	mi := metricInfos(d)
	writeHeader(&b, d)
	writeRun(&b, d)
	rs := rules(d, mi)
	writeVerdicts(&b, rs)
	writeTable(&b, d, mi)
	writeSections(&b, d)
	writePicks(&b, rs)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeHeader writes the title and where the numbers come from.
func writeHeader(b *strings.Builder, d *Data) {
	p := d.profile
	title := "chbench design review"
	if p.Name != "" {
		title += ": " + md(p.Name)
	}
	fmt.Fprintf(b, "# %s\n\n", title)
	if link := d.plotsLink(); link == "plots" {
		b.WriteString("Generated by `chbench report` from the result files next to this report.")
	} else {
		fmt.Fprintf(b, "Generated by `chbench report` from the result files in %s.", code(strings.TrimSuffix(link, "/plots")))
	}
	b.WriteString(" Every number and every ordering below is read or computed from those files; re-running on other keys or fleets rewrites them.\n\n")

}

// writeRun writes "The run": machine, Go, commit, seed, keys, fleet
// shape, the inputs used and the warnings about them.
func writeRun(b *strings.Builder, d *Data) {
	p := d.profile
	b.WriteString("## The run\n\n")
	item := func(label, val string) {
		if val == "" {
			val = "not in this run"
		}
		fmt.Fprintf(b, "- **%s**: %s\n", label, val)
	}
	item("Machine", md(d.machine))
	item("Go", mdList(d.goVersions))
	item("Commit", mdList(d.commits))
	item("Seed", strings.Join(d.seeds, ", "))
	item("Keys", keySources(d))
	if len(d.placements) > 0 {
		item("Ring and bounded layouts", strings.Join(d.placements, ", "))
	}
	shape := []string{}
	if len(d.moveShape) > 0 {
		shape = append(shape, "movement from "+strings.Join(d.moveShape, "; "))
	}
	if len(d.spreadN) > 0 {
		shape = append(shape, fmt.Sprintf("spread at %s nodes", counts(d.spreadN)))
	}
	if d.storm != "" {
		shape = append(shape, "miss storm "+d.storm)
	}
	item("Fleet shape", strings.Join(shape, "; "))
	used := fmt.Sprintf("profile %s asks for %s..%s nodes, R = %d, Zipf s = %s", code(p.Source), count(float64(p.Nodes)), count(float64(p.MaxNodes)),
		p.Replicas, strconv.FormatFloat(p.Zipf, 'g', -1, 64))
	if p.KeyFile != "" {
		used += ", key file " + code(p.KeyFile)
	}
	used += "; the nearest values the files have are used: " + usedValues(d)
	item("Inputs used", used)
	if off := offProfile(d); len(off) > 0 {
		fmt.Fprintf(b, "- **Warning**: these results do not hold the profile's values; the report reads the nearest: %s. Numbers read far from your fleet describe another fleet: run the commands at your sizes (README, \"The command line\"), or `make bench` with its size variables (the Makefile's first lines).\n", strings.Join(off, "; "))
	}
	if p.KeyFile != "" && !slices.Equal(d.keySources, []string{p.KeyFile}) {
		fmt.Fprintf(b, "- **Warning**: the profile names key file %s but these results were made with %s; run %s to measure on it.\n",
			code(p.KeyFile), keySources(d), code("make bench KEYFILE="+p.KeyFile))
	}
	if len(d.missing) > 0 {
		item("Not in this run", strings.Join(d.missing, ", "))
	}

}

// writeVerdicts writes each rule's first pick.
func writeVerdicts(b *strings.Builder, rs []rule) {
	b.WriteString("\n## Verdicts\n\n")
	b.WriteString("What each rule of \"Pick this if\" (at the end, with the rule, the full list and what it left out) keeps first, or, where its measures cannot separate several, that whole group; and why.\n\n")
	for _, r := range rs {
		if r.first == "" {
			fmt.Fprintf(b, "- **%s**: none in this run.\n", r.need)
			continue
		}
		fmt.Fprintf(b, "- **%s**: %s; %s.\n", r.need, r.first, r.why)
	}

}

// writeTable writes the trade-off table, one row per algorithm, the
// lowest of each column and its ties in bold, and the note on the forms
// of bounded loads.
func writeTable(b *strings.Builder, d *Data, mi [numMetrics]metricInfo) {
	b.WriteString("\n## Trade-offs\n\n")
	b.WriteString("One row per algorithm; a blank cell is not in this run. Lookup: median ns from a key string (lookup.txt); build: median ns and retained bytes per node (BenchmarkBuild); moved/ideal: moved fraction over the minimum (movement.csv; 1.00 = ideal); pairs moved: key-replica pairs re-homed when a random node leaves (replication.csv), and keys re-homed entirely: keys none of whose R replicas stays (the data still exists on the surviving copies, but all R must be copied anew; for a cache, a certain miss); peak/mean: busiest node over the mean, by keys (spread.csv) and by Zipf requests (load.csv); storm: database reads right after the cache resize over the steady rate (storm.csv). Leave and weights are catalog facts (for a program of family external, what its handshake declares; `chbench conformance` checks it). **Bold**: the lowest of a column where lower is better, and every cell whose 95% interval overlaps the lowest's (this run cannot tell them apart).\n\n")
	// One lookup column when both fleet sizes read the same node count.
	shown := func(m metric) bool { return mi[m].head != "" && (m != lookupHi || d.lookupHiN != d.lookupLoN) }
	hdr := []string{"algorithm", "family"}
	for m := range numMetrics {
		if shown(m) {
			hdr = append(hdr, mi[m].head)
		}
	}
	hdr = append(hdr, "which node may leave", "weights")
	fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(hdr, " | "), strings.Repeat("---|", len(hdr)))
	var best [numMetrics]value
	for m := range numMetrics {
		if ns := ranked(d, m, nil); len(ns) > 0 {
			best[m] = ns[0].Val
		}
	}
	for _, r := range d.rows {
		cells := []string{"`" + r.Info.Name + "`", r.Info.Family}
		for m := range numMetrics {
			if !shown(m) {
				continue
			}
			c := ""
			if v := r.Vals[m]; v.OK {
				c = mi[m].format(v.V)
				if mi[m].lower && overlap(v, best[m]) {
					c = "**" + c + "**"
				}
			}
			cells = append(cells, c)
		}
		weights := "no"
		if r.Info.Weighted {
			weights = "yes"
		}
		if r.Info.Family == catalog.ExternalFamily {
			weights = r.Info.Weights
		}
		leave := r.Info.Removal
		if r.Variant {
			leave = "as `" + bounded.Name + "`"
			weights = "as `" + bounded.Name + "`"
		}
		cells = append(cells, leave, weights)
		fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
	}
	b.WriteString("\n")
	if vs := variantNames(d); len(vs) > 0 {
		fmt.Fprintf(b, "%s: forms of bounded loads beside the catalog's `%s` (its partition form), from load.csv at eps %s", vs, bounded.Name, strconv.FormatFloat(d.loadEps, 'g', -1, 64))
		if d.boundedN > 0 {
			fmt.Fprintf(b, "; their moved/ideal is boundedloads.csv's at %s nodes, Zipf s = %s (movement.csv does not run them), and for `%s` it counts requests re-routed, not keys", count(d.boundedN), strconv.FormatFloat(d.boundedZipf, 'g', -1, 64), schema.VariantRequest)
		}
		b.WriteString(".\n\n")
	}

}

// writeSections writes one section per review question, with its plots
// (or a note that the run has none) and its text.
func writeSections(b *strings.Builder, d *Data) {
	drawn, err := schema.ReadPlotIndex(d.dir)
	if err != nil {
		fmt.Fprintf(b, "(the plot index: %s; no plot is shown)\n\n", md(err.Error()))
	}
	for _, sec := range sections(d) {
		fmt.Fprintf(b, "## %s\n\n", sec.title)
		for _, pl := range sec.plots {
			// Only a figure the last plot run drew is current.
			if _, err := os.Stat(filepath.Join(d.dir, schema.PlotsDir, pl+".png")); err == nil && drawn[pl] {
				fmt.Fprintf(b, "![%s](%s/%s.png)\n\n", pl, d.plotsLink(), pl)
			} else {
				fmt.Fprintf(b, "(plot `plots/%s.png`: not in this run)\n\n", pl)
			}
		}
		for _, s := range sec.text {
			fmt.Fprintf(b, "%s\n\n", s)
		}
	}

}

// writePicks writes "Pick this if": each rule, what it keeps and what it
// left out.
func writePicks(b *strings.Builder, rs []rule) {
	b.WriteString("## Pick this if\n\n")
	b.WriteString("Each rule is applied to the measurements (the table above, and the files a rule names); the algorithms it keeps are listed best first, with the number that orders them. `a` ≈ `b`: their 95% intervals overlap the lowest's, so this run cannot order them (a tied group is listed by lookup time, noted where it is); \"clearly above the lowest\" lists those whose intervals do not. A condition excludes an algorithm only when its whole 95% interval is past the limit. \"Left out\" names each algorithm a measured condition excluded, with the number that failed it.\n\n")
	for _, r := range rs {
		fmt.Fprintf(b, "- **%s.** Rule: %s.\n  -> %s\n", r.need, r.rule, r.pick)
		if r.out != "" {
			fmt.Fprintf(b, "  Left out: %s.\n", r.out)
		}
	}
}

// farOff is the factor by which a node count the report reads may differ
// from the profile's before the report warns.
const farOff = 1.5

// offProfile lists the values the report read that differ from the
// profile's: node counts more than farOff apart, another replication
// factor, a Zipf exponent more than 0.05 away.
func offProfile(d *Data) []string {
	p := d.profile
	var out []string
	nodes := func(what string, got float64, want int) {
		if got > 0 && (got > farOff*float64(want) || got*farOff < float64(want)) {
			out = append(out, fmt.Sprintf("%s at %s nodes (asked %s)", what, count(got), count(float64(want))))
		}
	}
	nodes("lookup", d.lookupLoN, p.Nodes)
	nodes("lookup for the largest fleet", d.lookupHiN, p.MaxNodes)
	nodes("build", d.buildN, p.Nodes)
	nodes("movement", d.moveN, p.Nodes)
	nodes("spread", d.spreadNUsed, p.Nodes)
	nodes("request load", d.loadN, p.Nodes)
	nodes("replication", d.replN, p.Nodes)
	if d.replR > 0 && d.replR != float64(p.Replicas) {
		out = append(out, fmt.Sprintf("replication at R = %s (asked %d)", count(d.replR), p.Replicas))
	}
	if d.loadN > 0 && math.Abs(d.loadZipf-p.Zipf) > 0.05 {
		out = append(out, fmt.Sprintf("request load at Zipf s = %s (asked %s)", strconv.FormatFloat(d.loadZipf, 'g', -1, 64), strconv.FormatFloat(p.Zipf, 'g', -1, 64)))
	}
	return out
}

func keySources(d *Data) string {
	src := mdList(d.keySources)
	if src == "generated" {
		src = "generated `user:<16 hex>` keys"
	}
	if len(d.keysPerFile) > 0 {
		src += "; " + strings.Join(d.keysPerFile, "; ")
	}
	return src
}

// mdList returns the texts of list, each through md, joined by ", ".
func mdList(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = md(s)
	}
	return strings.Join(out, ", ")
}

func counts(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = count(x)
	}
	return strings.Join(parts, ", ")
}

func usedValues(d *Data) string {
	var parts []string
	add := func(ok bool, s string, args ...any) {
		if ok {
			parts = append(parts, fmt.Sprintf(s, args...))
		}
	}
	add(d.lookupLoN > 0, "lookup at %s and %s nodes", count(d.lookupLoN), count(d.lookupHiN))
	add(d.buildN > 0, "build at %s", count(d.buildN))
	add(d.moveN > 0, "movement from %s", count(d.moveN))
	add(d.spreadNUsed > 0, "spread at %s", count(d.spreadNUsed))
	add(d.loadN > 0, "request load at %s nodes and s = %s", count(d.loadN), strconv.FormatFloat(d.loadZipf, 'g', -1, 64))
	add(d.replN > 0, "replication at %s nodes and R = %s", count(d.replN), count(replR(d)))
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

type section struct {
	title string
	plots []string
	text  []string
}

// variantNames returns the variant rows of d as "`a`, `b`" ("" if none).
func variantNames(d *Data) string {
	var vs []string
	for _, r := range d.rows {
		if r.Variant {
			vs = append(vs, "`"+r.Info.Name+"`")
		}
	}
	return strings.Join(vs, ", ")
}

// containsIdeal reports whether v's interval contains 1 (moved/ideal).
func containsIdeal(v value) bool { return v.CI && v.Lo <= 1 && 1 <= v.Hi }

// sections returns the report's sections, one per question a review asks,
// in order.
func sections(d *Data) []section {
	return []section{movementSection(d), evennessSection(d), hotKeySection(d), lookupSection(d), replicationSection(d), stormSection(d),
		simulateSection(d), switchingSection(d), conformanceSection(d), domainsSection(d)}
}

// notIn is the text of a section whose file is not in the run.
func notIn(what, file string) string { return what + ": not in this run (no " + file + ")." }

// catalogOnly keeps the catalog's algorithms, not the forms of bounded
// loads beside them.
func catalogOnly(r algoRow) bool { return !r.Variant }

// movementSection is "How much moves when we scale?": moved/ideal on a
// join and a random leave, and the algorithms whose leave varies with the
// fleet size.
func movementSection(d *Data) section {
	s := section{title: "How much moves when we scale?", plots: []string{"movement-ratio-add", "movement-ratio-remove-random"}}
	join, leave := ranked(d, joinRatio, catalogOnly), ranked(d, leaveRatio, catalogOnly)
	near := func(v float64) bool { return v <= nearIdeal }
	if len(join) == 0 {
		s.text = append(s.text, notIn("Movement", schema.MovementFile.Name))
	} else {
		ci := countIf(join, func(n named) bool { return containsIdeal(n.Val) })
		t := fmt.Sprintf("**Takeaway:** when one node joins %s nodes, %d of %d algorithms move at most %sx the ideal fraction (for %d of %d the 95%% interval contains the ideal itself)",
			count(d.moveN), countIf(join, func(n named) bool { return near(n.V) }), len(join), fixed2(nearIdeal), ci, len(join))
		if far := lastK(join, top, func(v float64) bool { return !near(v) }); len(far) > 0 {
			t += "; most: " + list(far, fixed2, "x")
		}
		t += "."
		if len(leave) > 0 {
			t += fmt.Sprintf(" When a random node leaves, %d of %d algorithms do", countIf(leave, func(n named) bool { return near(n.V) }), len(leave))
			if far := lastK(leave, top, func(v float64) bool { return !near(v) }); len(far) > 0 {
				t += "; most: " + list(far, fixed2, "x")
			}
			t += "."
		}
		if len(d.leaveSpan) > 0 {
			parts := make([]string, len(d.leaveSpan))
			for i, sp := range d.leaveSpan {
				parts[i] = fmt.Sprintf("`%s` (%sx at %s nodes to %sx at %s)", sp.Name, fixed2(sp.Lo), count(sp.LoAtN), fixed2(sp.Hi), count(sp.HiAtN))
			}
			t += fmt.Sprintf(" One fleet size does not speak for the others where a random leave's moved/ideal varies more than %sx across the sizes measured: %s; see the plot.", fixed2(spanFactor), strings.Join(parts, ", "))
		}
		s.text = append(s.text, t)
	}

	return s
}

// evennessSection is "How even is it?": the busiest node's keys against
// the sampling-noise floor.
func evennessSection(d *Data) section {
	s := section{title: "How even is it?", plots: []string{"spread-peak-to-mean"}}
	keys := ranked(d, keyPeak, catalogOnly)
	if len(keys) == 0 {
		s.text = append(s.text, notIn("Key spread", schema.SpreadFile.Name))
	} else {
		t := fmt.Sprintf("**Takeaway:** at %s nodes the busiest node holds from %sx to %s the mean number of keys.",
			count(d.spreadNUsed), fixed2(keys[0].V), list(keys[len(keys)-1:], fixed2, "x"))
		if d.noisePeak.OK {
			t += fmt.Sprintf(" Key sampling alone would give %sx (the noise floor)", fixed2(d.noisePeak.V))
			in := countIf(keys, func(n named) bool { return n.Val.CI && n.Val.Lo <= d.noisePeak.V && d.noisePeak.V <= n.Val.Hi })
			if in > 0 {
				t += fmt.Sprintf("; for %d of %d algorithms the 95%% interval contains it, so at this key count they cannot be told apart from a perfectly even placement", in, len(keys))
			}
			t += "."
		}
		if far := lastK(keys, top, func(v float64) bool { return d.noisePeak.OK && v > d.noisePeak.V*nearIdeal }); len(far) > 0 {
			t += fmt.Sprintf(" More than %sx the noise floor: %s.", fixed2(nearIdeal), list(far, fixed2, "x"))
		}
		s.text = append(s.text, t)
	}

	return s
}

// hotKeySection is "What do hot keys do?": the request load under Zipf
// popularity against the hot-key floor, and what bounded-request pays.
func hotKeySection(d *Data) section {
	s := section{title: "What do hot keys do?", plots: []string{"load-peak-to-mean"}}
	wholeKey := func(r algoRow) bool { return r.Info.Name != schema.VariantRequest }
	zipf := ranked(d, zipfPeak, wholeKey)
	if len(zipf) == 0 {
		s.text = append(s.text, notIn("Request load under Zipf popularity", schema.LoadFile.Name+"; `chbench load` writes it"))
	} else {
		zs := strconv.FormatFloat(d.loadZipf, 'g', -1, 64)
		t := fmt.Sprintf("**Takeaway:** under Zipf s = %s at %s nodes", zs, count(d.loadN))
		if d.hotShare.OK && d.floor.OK {
			t += fmt.Sprintf(" the hottest key alone is %s of requests, a floor of %sx the mean load for any placement that keeps a key on one node;", percent(d.hotShare.V), fixed2(d.floor.V))
		}
		tied, rest := tiedWithFirst(zipf)
		t += fmt.Sprintf(" the whole-key placements' busiest node serves from %s to %s the mean.", interval(zipf[0].Val, fixed2, "x"), interval(zipf[len(zipf)-1].Val, fixed2, "x"))
		t += fmt.Sprintf(" For %d of these %d the 95%% interval (over request streams) overlaps the lowest's, so this run cannot rank them: at this skew the hot key, not the algorithm, sets the peak", len(tied), len(zipf))
		if len(rest) > 0 {
			t += "; clearly above: " + list(rest, fixed2, "x")
		}
		t += "."
		if v, ok := valueOf(d, schema.VariantRequest, zipfPeak); ok {
			t += fmt.Sprintf(" `%s` serves %s by sending a hot key's overflow requests to other nodes", schema.VariantRequest, interval(v, fixed2, "x"))
			if j, ok := valueOf(d, schema.VariantRequest, joinRatio); ok {
				t += fmt.Sprintf(", at a price: a join re-routes %sx the ideal fraction of requests (eps %s)", fixed2(j.V), strconv.FormatFloat(d.loadEps, 'g', -1, 64))
			}
			t += "."
		}
		s.text = append(s.text, t)
	}

	return s
}

// lookupSection is "How fast is a lookup?".
func lookupSection(d *Data) section {
	s := section{title: "How fast is a lookup?", plots: []string{"lookup-from-key"}}
	lo, hi := ranked(d, lookupLo, nil), ranked(d, lookupHi, nil)
	if len(lo) == 0 {
		s.text = append(s.text, notIn("Lookup time", schema.LookupFile))
	} else {
		t := fmt.Sprintf("**Takeaway:** from a key string at %s nodes the fastest are %s and the slowest %s.",
			count(d.lookupLoN), list(head(lo, top), sig3, " ns"), list(lo[len(lo)-1:], sig3, " ns"))
		if len(hi) > 0 && d.lookupHiN != d.lookupLoN {
			t += fmt.Sprintf(" At %s nodes: fastest %s, slowest %s.", count(d.lookupHiN), list(head(hi, top), sig3, " ns"), list(hi[len(hi)-1:], sig3, " ns"))
		}
		t += " Measured on " + md(d.machine) + "."
		s.text = append(s.text, t)
	}

	return s
}

// replicationSection is "What does a node failure cost with replicas?":
// key-replica pairs re-homed against the ideal, and keys re-homed
// entirely.
func replicationSection(d *Data) section {
	n := count(d.replN)
	s := section{title: "What does a node failure cost with replicas?"}
	if d.replN > 0 {
		s.plots = []string{"replication-remove-random-n" + strings.ReplaceAll(n, ",", ""), "replication-lost-remove-random-n" + strings.ReplaceAll(n, ",", "")}
	}
	repl := ranked(d, replicaMoved, nil)
	switch {
	case d.replNoLeave:
		s.text = append(s.text, "Replication: not in this run ("+schema.ReplicationFile.Name+" has no remove-random rows; `chbench replication -op remove-random` writes them).")
	case len(repl) == 0:
		s.text = append(s.text, notIn("Replication", schema.ReplicationFile.Name))
	default:
		ideal := d.replIdeal.V
		at := func(nm named) bool { return nm.Val.CI && nm.Val.Lo <= ideal && ideal <= nm.Val.Hi }
		var atIdeal, above []named
		for _, nm := range repl {
			switch {
			case at(nm):
				atIdeal = append(atIdeal, nm)
			case nm.V > ideal:
				above = append(above, nm)
			}
		}
		t := fmt.Sprintf("**Takeaway:** with R = %s replicas on %s nodes, a random node failure must re-home %s of key-replica pairs (the ideal). For %d of %d algorithms the 95%% interval (over key sets, failing nodes and layouts) contains the ideal",
			count(d.replR), n, percent(ideal), len(atIdeal), len(repl))
		if len(atIdeal) > 0 {
			t += ": " + list(atIdeal, percent, "")
		}
		t += "."
		if len(above) > 0 {
			slices.Reverse(above)
			t += " Most above it: " + list(head(above, top), percent, "") + "."
		}
		lost := ranked(d, replicaLost, nil)
		t += fmt.Sprintf(" %d of %d algorithms re-home no key entirely (every one of its R replicas moved)", countIf(lost, func(nm named) bool { return nm.V == 0 }), len(lost))
		if some := lastK(lost, top, func(v float64) bool { return v > 0 }); len(some) > 0 {
			t += "; the most keys re-homed entirely: " + list(some, percent, "")
		}
		s.text = append(s.text, t+".")
	}

	return s
}

// stormSection is "What does a resize cost a cache?".
func stormSection(d *Data) section {
	s := section{title: "What does a resize cost a cache?", plots: []string{"storm"}}
	storm := ranked(d, stormMultiple, nil)
	if len(storm) == 0 {
		s.text = append(s.text, notIn("Miss storm", schema.StormFile.Name))
	} else {
		t := fmt.Sprintf("**Takeaway:** a cache fleet resize %s, multiplies database reads by %s up to %s.",
			d.storm, list(head(storm, top), fixed2, "x"), list(storm[len(storm)-1:], fixed2, "x"))
		if tied, _ := tiedWithFirst(storm); len(tied) > 1 {
			t += fmt.Sprintf(" For %d of %d algorithms the 95%% interval overlaps the lowest's: they differ by noise, not by design.", len(tied), len(storm))
		}
		s.text = append(s.text, t)
	}
	return s
}

// conformanceSection is "Does an implementation keep its promises?": each
// placement of conformance.csv with the properties it passed and failed.
func conformanceSection(d *Data) section {
	s := section{title: "Does an implementation keep its promises?"}
	if len(d.conformance) == 0 {
		s.text = append(s.text, notIn("Conformance verdicts", schema.ConformanceFile.Name)+" `chbench conformance -algo exec:COMMAND` gives a program of yours the same verdicts.")
		return s
	}
	s.text = append(s.text, "`chbench conformance` checks what a placement promises (its handshake, or the catalog) against a threshold per check; docs/external.md says what each property measures.")
	var items []string
	for _, v := range d.conformance {
		t := fmt.Sprintf("- `%s` (%s; %s keys on %s nodes): ", v.name, v.facts, count(float64(v.keys)), count(float64(v.nodes)))
		if len(v.fail) == 0 {
			t += fmt.Sprintf("**passes** every check that applies (%d of its %d checks apply", v.measured, v.checks)
		} else {
			t += fmt.Sprintf("**fails** %s (%d of its %d checks failed", strings.Join(v.fail, "; "), len(v.fail), v.checks)
		}
		if len(v.pass) > 0 {
			t += "; passed: " + strings.Join(v.pass, ", ")
		}
		if len(v.na) > 0 {
			t += "; not applicable: " + strings.Join(v.na, ", ")
		}
		items = append(items, t+").")
	}
	s.text = append(s.text, strings.Join(items, "\n"))
	return s
}

// replR returns the replication factor the report shows: the one read
// from replication.csv, else the profile's.
func replR(d *Data) float64 {
	if d.replR > 0 {
		return d.replR
	}
	return float64(d.profile.Replicas)
}

// valueOf returns metric m of the row called name.
func valueOf(d *Data, name string, m metric) (value, bool) {
	for _, r := range d.rows {
		if r.Info.Name == name && r.Vals[m].OK {
			return r.Vals[m], true
		}
	}
	return value{}, false
}

// lastK returns up to k of the highest values of ns (sorted ascending)
// that keep accepts, highest first.
func lastK(ns []named, k int, keep func(float64) bool) []named {
	var out []named
	for i := len(ns) - 1; i >= 0 && len(out) < k; i-- {
		if keep(ns[i].V) {
			out = append(out, ns[i])
		}
	}
	return out
}

// rule is one "pick this if" line: the need, the rule as stated, the
// algorithms it keeps (formatted), those it left out and why, and the
// first pick with the reason it is first (for the verdicts).
type rule struct{ need, rule, pick, out, first, why string }

// A criterion is one measured condition of a rule: it keeps a row whose
// metric m is OK and at most limit; a row without the metric is left out.
type criterion struct {
	m     metric
	limit func(algoRow) float64
	what  string // e.g. "random leave moved/ideal"
}

// rules derives the "pick this if" guidance from the table: every
// condition is a measured number of the row against a stated limit, except
// weights (a capability: the catalog's Weighted).
func rules(d *Data, mi [numMetrics]metricInfo) []rule {
	upTo := func(x float64) func(algoRow) float64 { return func(algoRow) float64 { return x } }
	join := criterion{joinRatio, upTo(nearIdeal), "join moved/ideal"}
	leave := criterion{leaveRatio, upTo(nearIdeal), "random leave moved/ideal"}
	last := criterion{lastLeaveRatio, upTo(nearIdeal), "last-node leave moved/ideal"}
	rehomed := criterion{replicaLost, upTo(lossLimit), "keys re-homed entirely"}
	pairs := criterion{replicaMoved, upTo(nearIdeal * d.replIdeal.V), "pairs re-homed"}
	even := criterion{keyPeak, upTo(nearIdeal * d.noisePeak.V), "key peak-to-mean"}
	flat := criterion{lookupHi, func(r algoRow) float64 { return 2 * r.Vals[lookupLo].V }, fmt.Sprintf("lookup ns @%s over @%s", count(d.lookupHiN), count(d.lookupLoN))}
	hot := zipfPeak
	hotWhat := fmt.Sprintf("request peak-to-mean under Zipf s = %s (load.csv)", strconv.FormatFloat(d.loadZipf, 'g', -1, 64))
	if len(ranked(d, zipfPeak, nil)) == 0 {
		hot, hotWhat = keyPeak, "key peak-to-mean (spread.csv; load.csv is not in this run)"
	}
	rs := ruleSet{d: d, mi: mi}
	add := rs.add
	nodes := count(d.moveN)
	evenText := fmt.Sprintf("the busiest node holds at most %sx the noise floor's %sx the mean keys at %s nodes (memory headroom)", fixed2(nearIdeal), fixed2(d.noisePeak.V), count(d.spreadNUsed))
	add("A cache fleet that scales up and down, with hot keys",
		fmt.Sprintf("a join and a random leave each move at most %sx the ideal at %s nodes, and %s; ordered by %s, lowest first", fixed2(nearIdeal), nodes, evenText, hotWhat),
		hot, nil, join, leave, even)
	storeText, storeCs := domainCriterion(d, fmt.Sprintf("when a random node of %s fails at R = %s, at most %sx the ideal %s of key-replica pairs are re-homed and at most %s of keys have every replica re-homed (replication.csv), and %s",
		count(d.replN), count(replR(d)), fixed2(nearIdeal), percent(d.replIdeal.V), percent(lossLimit), evenText), pairs, rehomed, even)
	add(fmt.Sprintf("A sharded store with %s replicas", count(replR(d))), storeText+"; ordered by pairs re-homed, fewest first",
		replicaMoved, nil, storeCs...)
	add("Arbitrary removal and a lookup that does not slow down as the fleet grows",
		fmt.Sprintf("a random leave moves at most %sx the ideal, and a lookup at %s nodes takes at most 2x its time at %s; fastest at %s nodes first",
			fixed2(nearIdeal), count(d.lookupHiN), count(d.lookupLoN), count(d.lookupHiN)),
		lookupHi, nil, leave, flat)
	wtext := "the algorithm takes weights (catalog) and was measured with them; ordered by the busiest node's share over its weight's share"
	if d.weights != "" {
		wtext += " on " + d.weights
	}
	add("Nodes of different sizes (weights)", wtext+", lowest first", weightPeak,
		func(r algoRow) bool { return r.Info.Weighted && !r.Variant })
	add("Nodes only join or leave at the end (a numbered shard list)",
		fmt.Sprintf("a join and a last-node leave each move at most %sx the ideal at %s nodes; fastest lookup at %s nodes first", fixed2(nearIdeal), nodes, count(d.lookupHiN)),
		lookupHi, nil, join, last)
	add("Memory is tight",
		fmt.Sprintf("a join and a random leave each move at most %sx the ideal at %s nodes; ordered by bytes retained per node at %s nodes, fewest first", fixed2(nearIdeal), nodes, count(d.buildN)),
		retainedPerNode, nil, join, leave)
	return rs.out
}

// ruleSet applies rules to the table of d, formatting numbers with mi,
// and collects them in out.
type ruleSet struct {
	d   *Data
	mi  [numMetrics]metricInfo
	out []rule
}

// add applies the rule that keeps the rows passing every criterion of cs
// (and keep, when not nil), ordered by metric m, and adds it as need with
// its text.
func (rs *ruleSet) add(need, text string, m metric, keep func(algoRow) bool, cs ...criterion) {
	r := rs.apply(m, keep, cs...)
	r.need, r.rule = need, text
	rs.out = append(rs.out, r)
}

// fails reports whether row r fails criterion c: its value is missing,
// or its whole 95% interval (its value, without one) is above the limit,
// so that a value within noise of the limit is kept.
func fails(r algoRow, c criterion) bool {
	v := r.Vals[c.m]
	if !v.OK || (c.m == lookupHi && !r.Vals[lookupLo].OK) {
		return true
	}
	lo := v.V
	if v.CI {
		lo = v.Lo
	}
	return lo > c.limit(r)
}

// kept reports whether row r passes keep and every criterion of cs and
// has metric m; a row a measured condition drops is named in *outs, with
// the number that failed it or as not measured.
func (rs *ruleSet) kept(r algoRow, m metric, keep func(algoRow) bool, cs []criterion, outs *[]string) bool {
	if keep != nil && !keep(r) {
		return false
	}
	mi := rs.mi
	for _, c := range cs {
		if !fails(r, c) {
			continue
		}
		v := r.Vals[c.m]
		shown := "not in this run"
		switch {
		case c.m == lookupHi && v.OK && r.Vals[lookupLo].OK:
			shown = fixed2(v.V/r.Vals[lookupLo].V) + "x"
		case c.m == lookupHi:
		case v.OK:
			shown = mi[c.m].format(v.V) + mi[c.m].unit
		}
		*outs = append(*outs, fmt.Sprintf("`%s` (%s %s)", r.Info.Name, c.what, shown))
		return false
	}
	if !r.Vals[m].OK {
		*outs = append(*outs, fmt.Sprintf("`%s` (%s not in this run)", r.Info.Name, mi[m].short))
		return false
	}
	return true
}

// apply returns the rule's pick: the rows kept, ordered by m, the first
// (or the tied group), why, and what was left out.
func (rs *ruleSet) apply(m metric, keep func(algoRow) bool, cs ...criterion) (r rule) {
	var outs []string
	ns := ranked(rs.d, m, func(row algoRow) bool { return rs.kept(row, m, keep, cs, &outs) })
	r.out = strings.Join(outs, ", ")
	if len(ns) == 0 {
		r.pick = "none in this run"
		return r
	}
	mi := rs.mi
	tied, rest := tiedWithFirst(ns)
	if len(tied) == 1 || m == lookupHi {
		r.pick = ranking(ns, mi[m].format, mi[m].unit)
		r.first = "`" + ns[0].Name + "`"
		r.why = fmt.Sprintf("the lowest %s of the %d the rule keeps", mi[m].short, len(ns))
		if len(tied) > 1 {
			r.first = names(tied)
			r.why = fmt.Sprintf("tie on %s (of the %d the rule keeps); the first has the lowest median", mi[m].short, len(ns))
		}
		return r
	}
	r.pick = rs.tiedPick(m, tied, rest)
	r.first = names(tied)
	r.why = fmt.Sprintf("tie on %s (of the %d the rule keeps), so this run does not pick one; listed by %s, which matters little behind a network hop", mi[m].short, len(ns), mi[lookupHi].short)
	return r
}

// tiedPick lists a group that metric m cannot separate by lookup time at
// the largest fleet (rows without one last), each with both numbers, and
// then the rows clearly above it.
func (rs *ruleSet) tiedPick(m metric, tied, rest []named) string {
	mi := rs.mi
	tv := func(n named) value { v, _ := valueOf(rs.d, n.Name, lookupHi); return v }
	slices.SortStableFunc(tied, func(a, b named) int {
		va, vb := tv(a), tv(b)
		if va.OK != vb.OK {
			if va.OK {
				return -1
			}
			return 1
		}
		return cmp.Compare(va.V, vb.V)
	})
	parts := make([]string, len(tied))
	for i, n := range tied {
		sec := "no " + mi[lookupHi].short
		if v := tv(n); v.OK {
			sec = mi[lookupHi].format(v.V) + mi[lookupHi].unit
		}
		parts[i] = fmt.Sprintf("`%s` (%s%s, %s)", n.Name, mi[m].format(n.V), mi[m].unit, sec)
	}
	pick := fmt.Sprintf("tied on %s, listed by %s: %s", mi[m].short, mi[lookupHi].short, strings.Join(parts, " ≈ "))
	if len(rest) > 0 {
		pick += "; clearly above the lowest: " + list(rest, mi[m].format, mi[m].unit)
	}
	return pick
}

// names formats ns as "`a`, `b` and `c`".
func names(ns []named) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = "`" + n.Name + "`"
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
