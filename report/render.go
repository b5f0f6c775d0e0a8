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
		lookupMin:       {"", "lookup time" + atN(d.lookupMinN), " ns", sig3, true},
		lookupMax:       {"", "lookup time" + atN(d.lookupMaxN), " ns", sig3, true},
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
	switch {
	case len(rest) > 0 && single(ns):
		out += "; above the lowest, by values without intervals: " + list(rest, f, unit)
	case len(rest) > 0:
		out += "; clearly above the lowest: " + list(rest, f, unit)
	}
	return out
}

// interval formats v as "7.22x [7.08, 7.35]": "7.22x [no interval]" for
// a single draw, "7.22x" for a value that has no interval to give (an
// exact one).
func interval(v value, f func(float64) string, unit string) string {
	switch {
	case v.Single:
		return f(v.V) + unit + " " + numfmt.NoInterval
	case !v.CI:
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
	writeFleet(&b, d)
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
		item("Ring and bounded layouts", layouts(d.placements))
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
		fmt.Fprintf(b, "- **Warning**: these results do not hold the profile's values; the report reads the nearest: %s. Numbers read far from your fleet describe another fleet: describe it in a fleet profile and run `make bench PROFILE=...`, whose \"Your fleet\" section measures its planned changes and per-node shares on its own members, keys and traffic ([docs/fleet-profile.md](docs/fleet-profile.md)), and set the knobs named (README, \"Knobs\") for the sections here.\n", strings.Join(off, "; "))
	}
	if w := keyFileWarning(d); w != "" {
		fmt.Fprintf(b, "- **Warning**: %s\n", w)
	}
	if len(d.noIntervals) > 0 {
		fmt.Fprintf(b, "- **Warning**: no 95%% intervals in %s: they were measured on one key set (or one replay), and a Student-t interval needs two. Their values are single draws, shown with %s; where the text below weighs intervals (ties, \"contains the ideal\", \"within the 95%% intervals\") those values have none, so only equal values tie and none contains a target. Run with `SETS` (and `PROPAGATE_REPLAYS`) of 2 or more, the default 5, for intervals.\n", codeList(d.noIntervals), code(numfmt.NoInterval))
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
	changed, err := schema.ChangedPlotInputs(d.dir)
	switch {
	case err != nil:
		fmt.Fprintf(b, "(the plot index: %s; no plot is shown)\n\n", md(err.Error()))
		drawn = nil
	case len(changed) > 0:
		fmt.Fprintf(b, "(No plot is shown: the plots in `plots/` were drawn from other result files than these (%s since `chbench plot` ran). Run `chbench plot -dir %s`, then the report again.)\n\n", md(strings.Join(changed, ", ")), md(d.dir))
		drawn = nil
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
	b.WriteString("Each rule is applied to the measurements (the table above, and the files a rule names); the algorithms it keeps are listed best first, with the number that orders them. `a` ≈ `b`: their 95% intervals overlap the lowest's, so this run cannot order them on that number; such a tied group is listed by the rule's tie-breakers (its own next conditions, never lookup time unless the rule is about lookups), and the verdict names the algorithms the tie-breakers do not separate. \"Clearly above the lowest\" lists those whose intervals do not overlap. A condition excludes an algorithm when its whole 95% interval is past the limit; one whose measured value is past the limit but whose interval crosses it stays, flagged wherever it is listed, after the unflagged. \"Left out\" names each algorithm a measured condition excluded, with the number that failed it.\n\n")
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
	nodes := func(what string, got float64, want int, knob string) {
		if got > 0 && (got > farOff*float64(want) || got*farOff < float64(want)) {
			out = append(out, fmt.Sprintf("%s at %s nodes (asked %s; %s)", what, count(got), count(float64(want)), knob))
		}
	}
	const grid = "the bench package's node grid, bench.NodeCounts"
	nodes("lookup", d.lookupLoN, p.Nodes, grid)
	nodes("lookup for the largest fleet", d.lookupHiN, p.MaxNodes, grid)
	nodes("build", d.buildN, p.Nodes, grid)
	nodes("movement", d.moveN, p.Nodes, "MOVE_NODES")
	nodes("spread", d.spreadNUsed, p.Nodes, "SPREAD_NODES")
	nodes("request load", d.loadN, p.Nodes, "LOAD_NODES")
	nodes("replication", d.replN, p.Nodes, "REPL_NODES")
	if d.replR > 0 && d.replR != float64(p.Replicas) {
		out = append(out, fmt.Sprintf("replication at R = %s (asked %d; REPL_R)", count(d.replR), p.Replicas))
	}
	if d.loadN > 0 && math.Abs(d.loadZipf-p.Zipf) > 0.05 {
		out = append(out, fmt.Sprintf("request load at Zipf s = %s (asked %s; ZIPF)", strconv.FormatFloat(d.loadZipf, 'g', -1, 64), strconv.FormatFloat(p.Zipf, 'g', -1, 64)))
	}
	return out
}

// layouts explains the placement modes of the results: what the numbers
// of ring, bounded, ketama, maglev and multiprobe (the algorithms whose
// layout is a random draw from the node IDs) describe under each.
func layouts(modes []string) string {
	var parts []string
	for _, m := range modes {
		switch m {
		case schema.PlacementPerSet:
			parts = append(parts, "per-set (each key set on its own random layout: set 1 on the node IDs, the others on salted IDs r<s>/ID), so means and intervals cover layouts like these nodes', not one exact layout")
		case schema.PlacementFixed:
			parts = append(parts, "fixed (every key set on the node IDs as given, unsalted), so the numbers are that exact layout: the one a client builds from these IDs")
		default:
			parts = append(parts, m)
		}
	}
	return strings.Join(parts, "; and ")
}

func keySources(d *Data) string {
	src := mdList(d.keySources)
	if src == "generated" {
		src = "generated `user:<16 hex>` keys"
	}
	for _, fk := range d.keyFiles {
		src += "; " + fk.file + " " + schema.DescribeKeys(fk.counts)
	}
	return src
}

// keyFileWarning compares the key file the profile names with the key
// source of every result file, file by file, and says which were made on
// it and which were not (with what), and how to measure the others on
// it; "" when the profile names none or every file was made on it.
// Paths are compared after filepath.Clean, and as the same file when
// both can be found.
func keyFileWarning(d *Data) string {
	want := d.profile.KeyFile
	if want == "" {
		return ""
	}
	var on, off []string
	for _, fk := range d.keyFiles {
		var other []string
		for _, src := range fk.sources {
			switch {
			case src == "":
				other = append(other, "generated keys")
			case !sameKeyFile(src, want):
				other = append(other, "`"+src+"`")
			}
		}
		if len(other) == 0 {
			on = append(on, fk.file)
		} else {
			off = append(off, fk.file+" ("+strings.Join(other, " and ")+")")
		}
	}
	if len(off) == 0 {
		return ""
	}
	made := "none of the result files were made on it"
	if len(on) > 0 {
		made = "made on it: " + strings.Join(on, ", ")
	}
	return fmt.Sprintf("the profile names key file `%s`; %s; made on other keys: %s. Their numbers describe those keys, not yours: `make bench KEYFILE=%s` passes the key file to every analysis (load included: its Zipf law then spans the file's keys).",
		want, made, strings.Join(off, ", "), want)
}

// sameKeyFile reports whether key file paths a and b name the same file:
// equal after filepath.Clean, or the same file on disk.
func sameKeyFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// mdList returns the texts of list, each through md, joined by ", ".
// codeList formats list as code spans joined by ", ".
func codeList(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = code(s)
	}
	return strings.Join(out, ", ")
}

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

// sizeOr returns the node count n as a rule states it, or "N (FILE is not
// in this run)" when the run has no file to take it from (n = 0).
func sizeOr(n float64, file string) string {
	if n > 0 {
		return count(n)
	}
	return "N (" + file + " is not in this run)"
}

// idealOr returns the ideal fraction v as a percentage, or "(the ideal
// of the run's replication.csv)" when the run has none.
func idealOr(v value) string {
	if !v.OK {
		return "(the ideal of " + schema.ReplicationFile.Name + ")"
	}
	return percent(v.V)
}

// noIntervals says why a takeaway weighs no intervals: the run had one
// key set (one request stream, one replay) for them.
const noIntervals = "no 95% intervals (one key set)"

// single reports whether a value of ns is a single draw, its 95%
// interval missing ([value]).
func single(ns []named) bool {
	return slices.ContainsFunc(ns, func(n named) bool { return n.Val.Single })
}

// containsIdeal reports whether v's interval contains 1 (moved/ideal).
func containsIdeal(v value) bool { return v.CI && v.Lo <= 1 && 1 <= v.Hi }

// sections returns the report's sections, one per question a review asks,
// in order.
func sections(d *Data) []section {
	return []section{movementSection(d), evennessSection(d), hotKeySection(d), lookupSection(d), replicationSection(d), stormSection(d),
		simulateSection(d), switchingSection(d), conformanceSection(d), domainsSection(d), propagationSection(d)}
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
	leftOut := ""
	if len(d.moveLeftOut) > 0 {
		leftOut = fmt.Sprintf("Left out here as in the plots, for expecting fewer than %s moved keys per key set (a moved fraction below that is mostly counting noise): %s; more keys per set (`-keys`, or a larger key file) bring them in.",
			count(schema.MinExpectedMoves), strings.Join(d.moveLeftOut, ", "))
	}
	if len(join) == 0 {
		if leftOut != "" && d.moveN == 0 {
			s.text = append(s.text, "Movement: no point of "+schema.MovementFile.Name+" is quoted. "+leftOut)
			return s
		}
		s.text = append(s.text, notIn("Movement", schema.MovementFile.Name))
	} else {
		ci := countIf(join, func(n named) bool { return containsIdeal(n.Val) })
		inIdeal := fmt.Sprintf("for %d of %d the 95%% interval contains the ideal itself", ci, len(join))
		if single(join) {
			inIdeal = "one key set: no 95% intervals"
		}
		t := fmt.Sprintf("**Takeaway:** when one node joins %s nodes, %d of %d algorithms move at most %sx the ideal fraction (%s)",
			count(d.moveN), countIf(join, func(n named) bool { return near(n.V) }), len(join), fixed2(nearIdeal), inIdeal)
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
	if leftOut != "" {
		s.text = append(s.text, leftOut)
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
	if w := weightedPeaks(d); w != "" {
		s.text = append(s.text, w)
	}

	return s
}

// weightedPeaks says, for the weighted fleet of weights.csv, each
// algorithm's node most over its weight's share, with its weight, from
// the most even to the least: which node and which weight class the
// weights rule's number comes from.
func weightedPeaks(d *Data) string {
	ws := ranked(d, weightPeak, nil)
	if len(ws) == 0 || d.weights == "" {
		return ""
	}
	parts := make([]string, len(ws))
	for i, n := range ws {
		parts[i] = fmt.Sprintf("`%s` %sx (%s)", n.Name, fixed2(n.V), d.weightPeakAt[n.Name])
	}
	return fmt.Sprintf("On %s, the node most over its weight's share of keys (share / weight share): %s.", d.weights, strings.Join(parts, ", "))
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
			t += fmt.Sprintf(" the hottest key alone is %s of requests, a floor of %sx the mean load for any placement that keeps a key on one node", percent(d.hotShare.V), fixed2(d.floor.V))
			if d.floorMin.OK && d.floorMin.V > d.floor.V {
				t += fmt.Sprintf(" if it lands on the largest node, %sx if on the smallest (weights set where the floor lies; see below where each placement put it)", fixed2(d.floorMin.V))
			} else {
				t += " (the nodes weigh the same, so wherever it lands)"
			}
			t += ";"
		}
		tied, rest := tiedWithFirst(zipf)
		t += fmt.Sprintf(" the whole-key placements' busiest node serves from %s to %s the mean.", interval(zipf[0].Val, fixed2, "x"), interval(zipf[len(zipf)-1].Val, fixed2, "x"))
		if !single(zipf) {
			t += fmt.Sprintf(" For %d of these %d the 95%% interval (over request streams) overlaps the lowest's, so this run cannot rank them: at this skew the hot key, not the algorithm, sets the peak", len(tied), len(zipf))
		} else {
			t += " With " + noIntervals + ", this run cannot say which of them differ by noise"
			rest = nil
		}
		if len(rest) > 0 {
			t += "; clearly above: " + list(rest, fixed2, "x")
		}
		t += "."
		if d.floorMin.OK && d.floorMin.V > d.floor.V {
			t += " " + hotNodeSentence(d, zipf)
		}
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

// hotNodeSentence says, for a fleet of unequal weights, where the
// whole-key placements zipf (sorted by request peak-to-mean) put the
// hottest key and the floor that sets: the placements whose hot key
// landed above the best-case floor, with their node, floor and peak.
func hotNodeSentence(d *Data, zipf []named) string {
	var parts []string
	for _, n := range zipf {
		h, ok := d.hotNodes[n.Name]
		if !ok || h.Floor <= d.floor.V*(1+1e-9) {
			continue
		}
		parts = append(parts, fmt.Sprintf("`%s` (on `%s`: floor %sx, peak %sx)", n.Name, h.ID, fixed2(h.Floor), fixed2(n.V)))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("Every placement put the hottest key on a node of the largest weight, so %sx is the floor for each.", fixed2(d.floor.V))
	}
	return fmt.Sprintf("%d of %d placements put the hottest key on a smaller node, which raises their own floor: %s.", len(parts), len(zipf), strings.Join(parts, ", "))
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
		if single(repl) {
			t = fmt.Sprintf("**Takeaway:** with R = %s replicas on %s nodes, a random node failure must re-home %s of key-replica pairs (the ideal); with %s, none can be said to contain it",
				count(d.replR), n, percent(ideal), noIntervals)
		}
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
			d.storm, list(head(storm[:len(storm)-1], top), fixed2, "x"), list(storm[len(storm)-1:], fixed2, "x"))
		if len(storm) == 1 {
			t = fmt.Sprintf("**Takeaway:** a cache fleet resize %s multiplies database reads by %s.", d.storm, list(storm, fixed2, "x"))
		}
		switch tied, _ := tiedWithFirst(storm); {
		case single(storm):
			t += " With " + noIntervals + ", this run cannot say which of them differ by noise."
		case len(tied) > 1:
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

// noMetric marks a criterion compared with a constant, not with another
// metric of the row.
const noMetric metric = -1

// A criterion is one measured condition of a rule: a row's metric m (or,
// with base set, m over the row's base metric) at most limit. Against the
// 95% interval a row passes (hi <= limit), fails (lo > limit: left out,
// with the number that failed it) or is uncertain (the interval crosses
// the limit): an uncertain row stays, and when its measured value itself
// is past the limit it is flagged wherever it is listed. A row without
// the metric is left out as not measured.
type criterion struct {
	m     metric
	base  metric // noMetric, or the metric m is divided by (lookup growth)
	limit float64
	what  string // e.g. "random leave moved/ideal"
}

// spec is one rule before it is applied: the rows it considers (keep, nil
// for all), its criteria, the metric it orders the kept rows by, and the
// tie-breakers that order a group the first metric cannot separate (each
// a criterion of the rule itself, never lookup time unless the rule is
// about lookups).
type spec struct {
	need, text string
	order      metric
	ties       []metric
	keep       func(algoRow) bool
	cs         []criterion
}

// growthSpan is the least factor between the two fleet sizes of the lookup
// growth condition: closer sizes cannot show a lookup slowing down as the
// fleet grows, so the condition then reads lookup.txt's own smallest and
// largest sizes.
const growthSpan = 10

// growth returns the lookup-growth criterion and its text: the profile's
// largest size over its working size when they are at least growthSpan
// apart, else lookup.txt's largest over its smallest (said so), and ok
// false when lookup.txt holds one size only (the condition is then not
// measured, and the text says why).
func growth(d *Data) (c criterion, text string, ok bool) {
	hi, lo, mHi, mLo := d.lookupHiN, d.lookupLoN, lookupHi, lookupLo
	text = fmt.Sprintf("a lookup at %s nodes takes at most 2x its time at %s", count(hi), count(lo))
	if lo == 0 || hi/lo < growthSpan {
		if d.lookupMinN == 0 || d.lookupMaxN/d.lookupMinN < growthSpan {
			return criterion{}, fmt.Sprintf("lookup growth is not measured: lookup.txt has no two fleet sizes %dx apart (the profile's range reads %s nodes)", growthSpan, count(lo)), false
		}
		hi, lo, mHi, mLo = d.lookupMaxN, d.lookupMinN, lookupMax, lookupMin
		text = fmt.Sprintf("a lookup at %s nodes takes at most 2x its time at %s (lookup.txt's largest and smallest sizes: the profile's range reads %s..%s nodes, too close to show growth)",
			count(hi), count(lo), count(d.lookupLoN), count(d.lookupHiN))
	}
	return criterion{mHi, mLo, 2, fmt.Sprintf("lookup ns @%s over @%s", count(hi), count(lo))}, text, true
}

// rules derives the "pick this if" guidance from the table: every
// condition is a measured number of the row against a stated limit, except
// weights (a capability: the catalog's Weighted).
func rules(d *Data, mi [numMetrics]metricInfo) []rule {
	c := func(m metric, limit float64, what string) criterion { return criterion{m, noMetric, limit, what} }
	join := c(joinRatio, nearIdeal, "join moved/ideal")
	leave := c(leaveRatio, nearIdeal, "random leave moved/ideal")
	last := c(lastLeaveRatio, nearIdeal, "last-node leave moved/ideal")
	pairs := c(replicaMoved, nearIdeal*d.replIdeal.V, "pairs re-homed")
	even := c(keyPeak, nearIdeal*d.noisePeak.V, "key peak-to-mean")
	hot := zipfPeak
	hotWhat := fmt.Sprintf("request peak-to-mean under Zipf s = %s (load.csv)", strconv.FormatFloat(d.loadZipf, 'g', -1, 64))
	if len(ranked(d, zipfPeak, nil)) == 0 {
		hot, hotWhat = keyPeak, "key peak-to-mean (spread.csv; load.csv is not in this run)"
	}
	rs := ruleSet{d: d, mi: mi}
	nodes := count(d.moveN) + " nodes"
	if d.moveN == 0 {
		nodes = "the sizes movement.csv draws (none here)"
	}
	evenText := fmt.Sprintf("the busiest node holds at most %sx the noise floor's %sx the mean keys at %s nodes (memory headroom)", fixed2(nearIdeal), fixed2(d.noisePeak.V), count(d.spreadNUsed))
	if !d.noisePeak.OK {
		evenText = fmt.Sprintf("the busiest node holds at most %sx the noise floor of the mean keys at N nodes (memory headroom; %s is not in this run)", fixed2(nearIdeal), schema.SpreadFile.Name)
	}
	hotTies := []metric{keyPeak, leaveRatio, joinRatio}
	if hot == keyPeak {
		hotTies = hotTies[1:]
	}
	rs.add(spec{need: "A cache fleet that scales up and down, with hot keys",
		text: fmt.Sprintf("a join and a random leave each move at most %sx the ideal at %s, and %s; ordered by %s, lowest first; a tie broken by key peak-to-mean (memory headroom), then random-leave and join moved/ideal",
			fixed2(nearIdeal), nodes, evenText, hotWhat),
		order: hot, ties: hotTies, cs: []criterion{join, leave, even}})
	rs.add(withDomains(d, storeRule(d, pairs, even, evenText)))
	flat, flatText, measured := growth(d)
	arb := spec{need: "Arbitrary removal and a lookup that does not slow down as the fleet grows",
		text:  fmt.Sprintf("a random leave moves at most %sx the ideal, and %s; fastest at %s nodes first, a tie broken by random-leave moved/ideal", fixed2(nearIdeal), flatText, sizeOr(d.lookupHiN, schema.LookupFile)),
		order: lookupHi, ties: []metric{leaveRatio}, cs: []criterion{leave, flat}}
	if !measured {
		arb.cs = arb.cs[:1]
		arb.text = fmt.Sprintf("a random leave moves at most %sx the ideal (%s); fastest at %s nodes first, a tie broken by random-leave moved/ideal", fixed2(nearIdeal), flatText, sizeOr(d.lookupHiN, schema.LookupFile))
	}
	rs.add(arb)
	wtext := "the algorithm takes weights (catalog) and was measured with them; ordered by the busiest node's share over its weight's share"
	if d.weights != "" {
		wtext += " on " + d.weights
	}
	rs.add(spec{need: "Nodes of different sizes (weights)", text: wtext + ", lowest first; a tie broken by key peak-to-mean, then random-leave moved/ideal",
		order: weightPeak, ties: []metric{keyPeak, leaveRatio}, keep: func(r algoRow) bool { return r.Info.Weighted && !r.Variant }})
	rs.add(spec{need: "Nodes only join or leave at the end (a numbered shard list)",
		text:  fmt.Sprintf("a join and a last-node leave each move at most %sx the ideal at %s; fastest lookup at %s nodes first, a tie broken by join moved/ideal", fixed2(nearIdeal), nodes, sizeOr(d.lookupHiN, schema.LookupFile)),
		order: lookupHi, ties: []metric{joinRatio, lastLeaveRatio}, cs: []criterion{join, last}})
	rs.add(spec{need: "Memory is tight",
		text:  fmt.Sprintf("a join and a random leave each move at most %sx the ideal at %s; ordered by bytes retained per node at %s nodes, fewest first, a tie broken by join and random-leave moved/ideal", fixed2(nearIdeal), nodes, sizeOr(d.buildN, schema.LookupFile)),
		order: retainedPerNode, ties: []metric{joinRatio, leaveRatio}, cs: []criterion{join, leave}})
	return rs.out
}

// storeRule is the replicated-store rule at the replication factor read.
// Keys re-homed entirely (no replica stays) must be at most lossLimit at
// R >= 2, where a placement can keep one copy of every key; at R = 1
// every key of the failed node loses its only copy, so that fraction is
// the ideal 1/n itself and already bounded by the pairs condition: the
// rule then leaves it out and says why, instead of a limit no
// algorithm can meet.
func storeRule(d *Data, pairs, even criterion, evenText string) spec {
	r := replR(d)
	sp := spec{need: fmt.Sprintf("A sharded store with %s replicas", count(r)), order: replicaMoved, ties: []metric{replicaLost, keyPeak}}
	if r == 1 {
		sp.ties = []metric{keyPeak}
		sp.cs = []criterion{pairs, even}
		sp.text = fmt.Sprintf("when a random node of %s fails at R = 1, at most %sx the ideal %s of keys are re-homed (replication.csv; at R = 1 each of the failed node's keys loses its only copy, so keys re-homed entirely equal that fraction and the 1-in-10,000 limit of R >= 2 does not apply), and %s; ordered by keys re-homed, fewest first, a tie broken by key peak-to-mean",
			sizeOr(d.replN, schema.ReplicationFile.Name), fixed2(nearIdeal), idealOr(d.replIdeal), evenText)
		return sp
	}
	sp.cs = []criterion{pairs, {replicaLost, noMetric, lossLimit, "keys re-homed entirely"}, even}
	sp.text = fmt.Sprintf("when a random node of %s fails at R = %s, at most %sx the ideal %s of key-replica pairs are re-homed and at most %s of keys have every replica re-homed (replication.csv), and %s; ordered by pairs re-homed, fewest first, a tie broken by keys re-homed entirely, then key peak-to-mean",
		sizeOr(d.replN, schema.ReplicationFile.Name), count(r), fixed2(nearIdeal), idealOr(d.replIdeal), percent(lossLimit), evenText)
	return sp
}

// ruleSet applies rules to the table of d, formatting numbers with mi,
// and collects them in out.
type ruleSet struct {
	d   *Data
	mi  [numMetrics]metricInfo
	out []rule
}

// add applies sp and adds its rule.
func (rs *ruleSet) add(sp spec) {
	r := rs.apply(sp)
	r.need, r.rule = sp.need, sp.text
	rs.out = append(rs.out, r)
}

// verdict is a row's standing against one criterion.
type verdict int

const (
	passes    verdict = iota // the whole 95% interval (the value, without one) is within the limit
	uncertain                // the interval crosses the limit
	fails                    // the whole interval is past the limit, or the value is not measured
)

// against returns the value of criterion c for row r (m, or m over base)
// with its interval when it has one, and false when r lacks it.
func against(r algoRow, c criterion) (value, bool) {
	v := r.Vals[c.m]
	if !v.OK {
		return v, false
	}
	if c.base == noMetric {
		return v, true
	}
	b := r.Vals[c.base]
	if !b.OK || b.V <= 0 {
		return value{}, false
	}
	return value{V: v.V / b.V, OK: true}, true
}

// judge returns r's standing against c.
func judge(r algoRow, c criterion) verdict {
	v, ok := against(r, c)
	if !ok {
		return fails
	}
	lo, hi := v.V, v.V
	if v.CI {
		lo, hi = v.Lo, v.Hi
	}
	switch {
	case lo > c.limit:
		return fails
	case hi <= c.limit:
		return passes
	}
	return uncertain
}

// shown formats r's value of criterion c for a reason, "not in this run"
// when it has none.
func (rs *ruleSet) shown(r algoRow, c criterion) string {
	v, ok := against(r, c)
	switch {
	case !ok:
		return "not in this run"
	case c.base != noMetric:
		return fixed2(v.V) + "x"
	}
	return rs.mi[c.m].format(v.V) + rs.mi[c.m].unit
}

// kept reports whether row r passes keep and no criterion of sp fails it
// and has the metric sp orders by; a row a measured condition drops is
// named in *outs, with the number that failed it or as not measured. A
// kept row whose measured value is past a limit (its interval crossing
// it) gets that said in flags[name].
func (rs *ruleSet) kept(r algoRow, sp spec, outs *[]string, flags map[string]string) bool {
	if sp.keep != nil && !sp.keep(r) {
		return false
	}
	var warn []string
	for _, c := range sp.cs {
		switch judge(r, c) {
		case fails:
			*outs = append(*outs, fmt.Sprintf("`%s` (%s %s)", r.Info.Name, c.what, rs.shown(r, c)))
			return false
		case uncertain:
			if v, _ := against(r, c); v.V > c.limit {
				limit := fixed2(c.limit) + "x"
				if c.base == noMetric {
					limit = rs.mi[c.m].format(c.limit) + rs.mi[c.m].unit
				}
				warn = append(warn, fmt.Sprintf("%s %s is past the %s limit; kept because its 95%% interval crosses it", c.what, rs.shown(r, c), limit))
			}
		}
	}
	if !r.Vals[sp.order].OK {
		*outs = append(*outs, fmt.Sprintf("`%s` (%s not in this run)", r.Info.Name, rs.mi[sp.order].short))
		return false
	}
	if len(warn) > 0 {
		flags[r.Info.Name] = strings.Join(warn, "; ")
	}
	return true
}

// apply returns the rule's pick: the rows kept, ordered by sp.order, the
// first (or the group no criterion of the rule separates), why, and what
// was left out. A group tied on sp.order (95% intervals overlapping the
// lowest's) is ordered by the tie-breakers, flagged rows last, and
// narrowed by them in turn: the verdict names the rows no tie-breaker
// separates.
func (rs *ruleSet) apply(sp spec) (r rule) {
	var outs []string
	flags := map[string]string{}
	ns := ranked(rs.d, sp.order, func(row algoRow) bool { return rs.kept(row, sp, &outs, flags) })
	r.out = strings.Join(outs, ", ")
	if len(ns) == 0 {
		r.pick = "none in this run"
		return r
	}
	mi := rs.mi
	tied, rest := tiedWithFirst(ns)
	if len(tied) == 1 {
		r.pick = rs.flagged(ranking(ns, mi[sp.order].format, mi[sp.order].unit), ns, flags)
		r.first = "`" + ns[0].Name + "`"
		r.why = fmt.Sprintf("the lowest %s of the %d the rule keeps", mi[sp.order].short, len(ns))
		r.why += flagNote(ns[:1], flags)
		return r
	}
	rs.orderTies(tied, sp.ties, flags)
	first, by := rs.narrow(tied, sp.ties, flags)
	r.pick = rs.tiedPick(sp, tied, rest, flags)
	r.first = names(first)
	switch {
	case len(first) == 1 && len(by) > 0:
		r.why = fmt.Sprintf("%d of the %d the rule keeps tie on %s; of those it has the lowest %s", len(tied), len(ns), mi[sp.order].short, strings.Join(by, ", then "))
	case len(first) == 1:
		r.why = fmt.Sprintf("%d of the %d the rule keeps tie on %s; the others are flagged", len(tied), len(ns), mi[sp.order].short)
	case len(by) > 0:
		r.why = fmt.Sprintf("%d of the %d the rule keeps tie on %s; the lowest %s narrows them to these, which no tie-breaker of the rule separates, so this run does not pick one",
			len(tied), len(ns), mi[sp.order].short, strings.Join(by, ", then "))
	default:
		r.why = fmt.Sprintf("%d of the %d the rule keeps tie on %s", len(tied), len(ns), mi[sp.order].short)
		if len(sp.ties) > 0 {
			r.why += " and its tie-breakers (" + rs.shorts(sp.ties) + ") do not separate them, so this run does not pick one"
		}
	}
	if nf := countIf(tied, func(n named) bool { return flags[n.Name] != "" }); nf > 0 && nf < len(tied) {
		var fl []named
		for _, n := range tied {
			if flags[n.Name] != "" {
				fl = append(fl, n)
			}
		}
		r.why += "; " + names(fl) + ", flagged, come after them"
	}
	r.why += flagNote(first, flags)
	return r
}

// orderTies sorts a tied group: unflagged rows first, then by each
// tie-breaker's value (rows without it after those with it), stably.
func (rs *ruleSet) orderTies(tied []named, ties []metric, flags map[string]string) {
	slices.SortStableFunc(tied, func(a, b named) int {
		if fa, fb := flags[a.Name] != "", flags[b.Name] != ""; fa != fb {
			if fa {
				return 1
			}
			return -1
		}
		for _, m := range ties {
			va, _ := rs.tieValue(a.Name, m)
			vb, _ := rs.tieValue(b.Name, m)
			if va.OK != vb.OK {
				if va.OK {
					return -1
				}
				return 1
			}
			if c := cmp.Compare(va.V, vb.V); c != 0 && va.OK {
				return c
			}
		}
		return 0
	})
}

// narrow returns the rows of a tied group that the tie-breakers do not
// separate: unflagged rows when there are any, then, for each tie-breaker
// in turn, those whose 95% intervals overlap the lowest's on it; and the
// tie-breakers that narrowed the group.
func (rs *ruleSet) narrow(tied []named, ties []metric, flags map[string]string) ([]named, []string) {
	cur := slices.DeleteFunc(slices.Clone(tied), func(n named) bool { return flags[n.Name] != "" })
	if len(cur) == 0 {
		cur = slices.Clone(tied)
	}
	var by []string
	for _, m := range ties {
		if len(cur) == 1 {
			break
		}
		var withM []named
		for _, n := range cur {
			if v, ok := rs.tieValue(n.Name, m); ok {
				withM = append(withM, named{n.Name, v.V, v})
			}
		}
		if len(withM) == 0 {
			continue
		}
		slices.SortStableFunc(withM, func(a, b named) int { return cmp.Compare(a.V, b.V) })
		t, _ := tiedWithFirst(withM)
		if len(t) < len(cur) {
			by = append(by, rs.mi[m].short)
		}
		cur = cur[:0]
		for _, n := range t {
			cur = append(cur, named{n.Name, n.V, n.Val})
		}
	}
	// In the tied group's order (orderTies).
	var out []named
	for _, n := range tied {
		if slices.ContainsFunc(cur, func(c named) bool { return c.Name == n.Name }) {
			out = append(out, n)
		}
	}
	return out, by
}

// tieValue returns name's value of tie-breaker m as it orders a tie:
// lower is better, and for moved/ideal a value below 1 counts as 1 (a
// placement that moved less than the ideal did so because its shares are
// uneven, which the evenness conditions weigh, not because it moves less).
func (rs *ruleSet) tieValue(name string, m metric) (value, bool) {
	v, ok := valueOf(rs.d, name, m)
	if ok && (m == joinRatio || m == leaveRatio || m == lastLeaveRatio) {
		v.V, v.Lo, v.Hi = max(v.V, 1), max(v.Lo, 1), max(v.Hi, 1)
	}
	return v, ok
}

// tiedPick lists a group that the rule's metric cannot separate, ordered
// by its tie-breakers, each with the rule's number and the tie-breakers',
// flagged rows marked, then the rows clearly above it.
func (rs *ruleSet) tiedPick(sp spec, tied, rest []named, flags map[string]string) string {
	mi := rs.mi
	parts := make([]string, len(tied))
	for i, n := range tied {
		vals := []string{mi[sp.order].format(n.V) + mi[sp.order].unit}
		for _, m := range sp.ties {
			if v, ok := valueOf(rs.d, n.Name, m); ok {
				vals = append(vals, mi[m].short+" "+mi[m].format(v.V)+mi[m].unit)
			}
		}
		if f := flags[n.Name]; f != "" {
			vals = append(vals, "flagged: "+f)
		}
		parts[i] = fmt.Sprintf("`%s` (%s)", n.Name, strings.Join(vals, ", "))
	}
	listed := "listed by " + rs.shorts(sp.ties)
	if len(sp.ties) == 0 {
		listed = "in table order"
	}
	pick := fmt.Sprintf("tied on %s, %s: %s", mi[sp.order].short, listed, strings.Join(parts, " ≈ "))
	if len(rest) > 0 {
		pick += "; clearly above the lowest: " + rs.flagged(list(rest, mi[sp.order].format, mi[sp.order].unit), rest, flags)
	}
	return pick
}

// shorts names metrics ms for sentences: "a, then b".
func (rs *ruleSet) shorts(ms []metric) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = rs.mi[m].short
	}
	return strings.Join(parts, ", then ")
}

// flagged appends to a formatted list of ns the flags of its flagged rows.
func (rs *ruleSet) flagged(s string, ns []named, flags map[string]string) string {
	var fs []string
	for _, n := range ns {
		if f := flags[n.Name]; f != "" {
			fs = append(fs, "`"+n.Name+"`: "+f)
		}
	}
	if len(fs) == 0 {
		return s
	}
	return s + " (flagged: " + strings.Join(fs, "; ") + ")"
}

// flagNote is the verdict's note on the flagged rows among ns.
func flagNote(ns []named, flags map[string]string) string {
	var fs []string
	for _, n := range ns {
		if f := flags[n.Name]; f != "" {
			fs = append(fs, "`"+n.Name+"`'s "+f)
		}
	}
	if len(fs) == 0 {
		return ""
	}
	return " (flagged: " + strings.Join(fs, "; ") + ")"
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
