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
	"github.com/chbench/chbench/schema"
)

// Thresholds of the takeaways and rules; the report states them where it
// uses them.
const (
	// NearIdeal is the moved/ideal ratio up to which a change counts as
	// moving about the minimum.
	NearIdeal = 1.1
	// Top is how many algorithms a takeaway names at each end.
	Top = 3
	// LossLimit is the fraction of keys (1 in 10,000) that may lose every
	// replica to one node failure in the replicated-store rule. Schemes that
	// rehash with a salt lose the rare key whose first probes all hit the
	// failed node (about 1 in 100,000 at 100 nodes), a layout in slot
	// order about 1 in 100: the limit tells the two apart.
	LossLimit = 1e-4
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
	z := d.LoadZipf
	if d.LoadN == 0 {
		z = d.Profile.Zipf
	}
	r := replR(d)
	return [numMetrics]metricInfo{
		LookupLo:        {"lookup ns" + at(d.LookupLoN), "lookup time" + atN(d.LookupLoN), " ns", sig3, true},
		LookupHi:        {"lookup ns" + at(d.LookupHiN), "lookup time" + atN(d.LookupHiN), " ns", sig3, true},
		BuildNs:         {"build ns" + at(d.BuildN), "build time", " ns", sig3, true},
		RetainedPerNode: {"bytes/node" + at(d.BuildN), "bytes per node", " B", sig3, true},
		JoinRatio:       {"join moved/ideal" + at(d.MoveN), "join moved/ideal", "x", fixed2, false},
		LeaveRatio:      {"random leave moved/ideal" + at(d.MoveN), "random leave moved/ideal", "x", fixed2, false},
		ReplicaMoved:    {"R=" + count(r) + " random leave: pairs moved" + at(d.ReplN), "key-replica pairs re-homed", "", percent, false},
		ReplicaLost:     {"R=" + count(r) + " random leave: keys re-homed entirely" + at(d.ReplN), "keys re-homed entirely", "", percent, true},
		KeyPeak:         {"keys peak/mean" + at(d.SpreadNUsed), "key peak-to-mean", "x", fixed2, true},
		ZipfPeak:        {"Zipf s=" + strconv.FormatFloat(z, 'g', -1, 64) + " requests peak/mean" + at(d.LoadN), "request peak-to-mean", "x", fixed2, true},
		StormMultiple:   {"storm DB reads x" + d.StormShort, "storm database multiple", "x", fixed2, true},
		LastLeaveRatio:  {"", "last-node leave moved/ideal", "x", fixed2, false},
		ReplicaLoadPeak: {"", "replica load peak-to-mean", "x", fixed2, true},
		WeightPeak:      {"", "weighted share peak", "x", fixed2, true},
	}
}

// sig3 formats x with 3 significant digits (all digits of the integer
// part when it has more), with thousands separators.
func sig3(x float64) string {
	if x == 0 {
		return "0"
	}
	if a := math.Abs(x); a >= 1e15 || a < 1e-4 {
		return strconv.FormatFloat(x, 'g', 3, 64) // not hundreds of digits
	}
	dec := max(0, 2-int(math.Floor(math.Log10(math.Abs(x)))))
	s := strconv.FormatFloat(x, 'f', dec, 64)
	if dec == 0 {
		return thousands(s)
	}
	return s
}

func fixed2(x float64) string {
	if math.Abs(x) >= 1e15 {
		return strconv.FormatFloat(x, 'g', 3, 64) // not hundreds of digits
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// percent formats a fraction as a percentage with 3 significant digits.
func percent(x float64) string { return sig3(100*x) + "%" }

// ranked returns the rows of d with metric m, lowest first (ties in
// table order), keeping only those keep accepts (nil: all).
func ranked(d *Data, m Metric, keep func(Row) bool) []Named {
	var out []Named
	for _, r := range d.Rows {
		if r.Vals[m].OK && (keep == nil || keep(r)) {
			out = append(out, Named{r.Info.Name, r.Vals[m].V, r.Vals[m]})
		}
	}
	slices.SortStableFunc(out, func(a, b Named) int { return cmp.Compare(a.V, b.V) })
	return out
}

// overlap reports whether the 95% intervals of a and b overlap; without
// intervals, whether the values are equal.
func overlap(a, b Value) bool {
	if !a.CI || !b.CI {
		return a.V == b.V
	}
	return a.Lo <= b.Hi && b.Lo <= a.Hi
}

// tiedWithFirst splits ns (sorted) into the first and those whose 95%
// intervals overlap the first's, and the rest.
func tiedWithFirst(ns []Named) (tied, rest []Named) {
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
func ranking(ns []Named, f func(float64) string, unit string) string {
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
func interval(v Value, f func(float64) string, unit string) string {
	if !v.CI {
		return f(v.V) + unit
	}
	return fmt.Sprintf("%s%s [%s, %s]", f(v.V), unit, f(v.Lo), f(v.Hi))
}

// list formats ns as "a (1.00x), b (1.01x)" with f and unit.
func list(ns []Named, f func(float64) string, unit string) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("`%s` (%s%s)", n.Name, f(n.V), unit)
	}
	return strings.Join(parts, ", ")
}

func head(ns []Named, k int) []Named { return ns[:min(k, len(ns))] }

func countIf(ns []Named, ok func(Named) bool) int {
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
	p := d.Profile
	title := "chbench design review"
	if p.Name != "" {
		title += ": " + p.Name
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	if link := d.plotsLink(); link == "plots" {
		b.WriteString("Generated by `chbench report` from the result files next to this report.")
	} else {
		fmt.Fprintf(&b, "Generated by `chbench report` from the result files in `%s`.", strings.TrimSuffix(link, "/plots"))
	}
	b.WriteString(" Every number and every ordering below is read or computed from those files; re-running on other keys or fleets rewrites them.\n\n")

	// The run.
	b.WriteString("## The run\n\n")
	item := func(label, val string) {
		if val == "" {
			val = "not in this run"
		}
		fmt.Fprintf(&b, "- **%s**: %s\n", label, val)
	}
	item("Machine", d.Machine)
	item("Go", strings.Join(d.GoVersions, ", "))
	item("Commit", strings.Join(d.Commits, ", "))
	item("Seed", strings.Join(d.Seeds, ", "))
	item("Keys", keySources(d))
	if len(d.Placements) > 0 {
		item("Ring and bounded layouts", strings.Join(d.Placements, ", "))
	}
	shape := []string{}
	if len(d.MoveShape) > 0 {
		shape = append(shape, "movement from "+strings.Join(d.MoveShape, "; "))
	}
	if len(d.SpreadN) > 0 {
		shape = append(shape, fmt.Sprintf("spread at %s nodes", counts(d.SpreadN)))
	}
	if d.Storm != "" {
		shape = append(shape, "miss storm "+d.Storm)
	}
	item("Fleet shape", strings.Join(shape, "; "))
	used := fmt.Sprintf("profile %s asks for %s..%s nodes, R = %d, Zipf s = %s", "`"+p.Source+"`", count(float64(p.Nodes)), count(float64(p.MaxNodes)),
		p.Replicas, strconv.FormatFloat(p.Zipf, 'g', -1, 64))
	if p.KeyFile != "" {
		used += ", key file `" + p.KeyFile + "`"
	}
	used += "; the nearest values the files have are used: " + usedValues(d)
	item("Inputs used", used)
	if off := offProfile(d); len(off) > 0 {
		fmt.Fprintf(&b, "- **Warning**: these results do not hold the profile's values; the report reads the nearest: %s. Numbers read far from your fleet describe another fleet: run the commands at your sizes (README, \"The command line\"), or `make bench` with its size variables (the Makefile's first lines).\n", strings.Join(off, "; "))
	}
	if p.KeyFile != "" && !slices.Equal(d.KeySources, []string{p.KeyFile}) {
		fmt.Fprintf(&b, "- **Warning**: the profile names key file `%s` but these results were made with %s; run `make bench KEYFILE=%s` to measure on it.\n",
			p.KeyFile, keySources(d), p.KeyFile)
	}
	if len(d.Missing) > 0 {
		item("Not in this run", strings.Join(d.Missing, ", "))
	}

	// The verdicts: each rule's first pick.
	rs := rules(d, mi)
	b.WriteString("\n## Verdicts\n\n")
	b.WriteString("What each rule of \"Pick this if\" (at the end, with the rule, the full list and what it left out) keeps first, or, where its measures cannot separate several, that whole group; and why.\n\n")
	for _, r := range rs {
		if r.first == "" {
			fmt.Fprintf(&b, "- **%s**: none in this run.\n", r.need)
			continue
		}
		fmt.Fprintf(&b, "- **%s**: %s; %s.\n", r.need, r.first, r.why)
	}

	// The trade-off table.
	b.WriteString("\n## Trade-offs\n\n")
	b.WriteString("One row per algorithm; a blank cell is not in this run. Lookup: median ns from a key string (lookup.txt); build: median ns and retained bytes per node (BenchmarkBuild); moved/ideal: moved fraction over the minimum (movement.csv; 1.00 = ideal); pairs moved: key-replica pairs re-homed when a random node leaves (replication.csv), and keys re-homed entirely: keys none of whose R replicas stays (the data still exists on the surviving copies, but all R must be copied anew; for a cache, a certain miss); peak/mean: busiest node over the mean, by keys (spread.csv) and by Zipf requests (load.csv); storm: database reads right after the cache resize over the steady rate (storm.csv). Leave and weights are catalog facts. **Bold**: the lowest of a column where lower is better, and every cell whose 95% interval overlaps the lowest's (this run cannot tell them apart).\n\n")
	// One lookup column when both fleet sizes read the same node count.
	shown := func(m Metric) bool { return mi[m].head != "" && (m != LookupHi || d.LookupHiN != d.LookupLoN) }
	hdr := []string{"algorithm", "family"}
	for m := range numMetrics {
		if shown(m) {
			hdr = append(hdr, mi[m].head)
		}
	}
	hdr = append(hdr, "which node may leave", "weights")
	fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(hdr, " | "), strings.Repeat("---|", len(hdr)))
	var best [numMetrics]Value
	for m := range numMetrics {
		if ns := ranked(d, m, nil); len(ns) > 0 {
			best[m] = ns[0].Val
		}
	}
	for _, r := range d.Rows {
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
		leave := r.Info.Removal
		if r.Variant {
			leave = "as `" + bounded.Name + "`"
			weights = "as `" + bounded.Name + "`"
		}
		cells = append(cells, leave, weights)
		fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | "))
	}
	b.WriteString("\n")
	if vs := variantNames(d); len(vs) > 0 {
		fmt.Fprintf(&b, "%s: forms of bounded loads beside the catalog's `%s` (its partition form), from load.csv at eps %s", vs, bounded.Name, strconv.FormatFloat(d.LoadEps, 'g', -1, 64))
		if d.BoundedN > 0 {
			fmt.Fprintf(&b, "; their moved/ideal is boundedloads.csv's at %s nodes, Zipf s = %s (movement.csv does not run them), and for `%s` it counts requests re-routed, not keys", count(d.BoundedN), strconv.FormatFloat(d.BoundedZipf, 'g', -1, 64), schema.VariantRequest)
		}
		b.WriteString(".\n\n")
	}

	for _, sec := range sections(d, mi) {
		fmt.Fprintf(&b, "## %s\n\n", sec.title)
		for _, pl := range sec.plots {
			if _, err := os.Stat(filepath.Join(d.Dir, "plots", pl+".png")); err == nil {
				fmt.Fprintf(&b, "![%s](%s/%s.png)\n\n", pl, d.plotsLink(), pl)
			} else {
				fmt.Fprintf(&b, "(plot `plots/%s.png`: not in this run)\n\n", pl)
			}
		}
		for _, s := range sec.text {
			fmt.Fprintf(&b, "%s\n\n", s)
		}
	}

	b.WriteString("## Pick this if\n\n")
	b.WriteString("Each rule is applied to the measurements (the table above, and the files a rule names); the algorithms it keeps are listed best first, with the number that orders them. `a` ≈ `b`: their 95% intervals overlap the lowest's, so this run cannot order them (a tied group is listed by lookup time, noted where it is); \"clearly above the lowest\" lists those whose intervals do not. A condition excludes an algorithm only when its whole 95% interval is past the limit. \"Left out\" names each algorithm a measured condition excluded, with the number that failed it.\n\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "- **%s.** Rule: %s.\n  -> %s\n", r.need, r.rule, r.pick)
		if r.out != "" {
			fmt.Fprintf(&b, "  Left out: %s.\n", r.out)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// FarOff is the factor by which a node count the report reads may differ
// from the profile's before the report warns.
const FarOff = 1.5

// offProfile lists the values the report read that differ from the
// profile's: node counts more than FarOff apart, another replication
// factor, a Zipf exponent more than 0.05 away.
func offProfile(d *Data) []string {
	p := d.Profile
	var out []string
	nodes := func(what string, got float64, want int) {
		if got > 0 && (got > FarOff*float64(want) || got*FarOff < float64(want)) {
			out = append(out, fmt.Sprintf("%s at %s nodes (asked %s)", what, count(got), count(float64(want))))
		}
	}
	nodes("lookup", d.LookupLoN, p.Nodes)
	nodes("lookup for the largest fleet", d.LookupHiN, p.MaxNodes)
	nodes("build", d.BuildN, p.Nodes)
	nodes("movement", d.MoveN, p.Nodes)
	nodes("spread", d.SpreadNUsed, p.Nodes)
	nodes("request load", d.LoadN, p.Nodes)
	nodes("replication", d.ReplN, p.Nodes)
	if d.ReplR > 0 && d.ReplR != float64(p.Replicas) {
		out = append(out, fmt.Sprintf("replication at R = %s (asked %d)", count(d.ReplR), p.Replicas))
	}
	if d.LoadN > 0 && math.Abs(d.LoadZipf-p.Zipf) > 0.05 {
		out = append(out, fmt.Sprintf("request load at Zipf s = %s (asked %s)", strconv.FormatFloat(d.LoadZipf, 'g', -1, 64), strconv.FormatFloat(p.Zipf, 'g', -1, 64)))
	}
	return out
}

func keySources(d *Data) string {
	src := strings.Join(d.KeySources, ", ")
	if src == "generated" {
		src = "generated `user:<16 hex>` keys"
	}
	if len(d.KeysSets) > 0 {
		src += "; " + strings.Join(d.KeysSets, "; ")
	}
	return src
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
	add(d.LookupLoN > 0, "lookup at %s and %s nodes", count(d.LookupLoN), count(d.LookupHiN))
	add(d.BuildN > 0, "build at %s", count(d.BuildN))
	add(d.MoveN > 0, "movement from %s", count(d.MoveN))
	add(d.SpreadNUsed > 0, "spread at %s", count(d.SpreadNUsed))
	add(d.LoadN > 0, "request load at %s nodes and s = %s", count(d.LoadN), strconv.FormatFloat(d.LoadZipf, 'g', -1, 64))
	add(d.ReplN > 0, "replication at %s nodes and R = %s", count(d.ReplN), count(replR(d)))
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
	for _, r := range d.Rows {
		if r.Variant {
			vs = append(vs, "`"+r.Info.Name+"`")
		}
	}
	return strings.Join(vs, ", ")
}

// containsIdeal reports whether v's interval contains 1 (moved/ideal).
func containsIdeal(v Value) bool { return v.CI && v.Lo <= 1 && 1 <= v.Hi }

func sections(d *Data, mi [numMetrics]metricInfo) []section {
	notIn := func(what, file string) string { return what + ": not in this run (no " + file + ")." }
	catalogOnly := func(r Row) bool { return !r.Variant }
	var out []section

	// Movement.
	s := section{title: "How much moves when we scale?", plots: []string{"movement-ratio-add", "movement-ratio-remove-random"}}
	join, leave := ranked(d, JoinRatio, catalogOnly), ranked(d, LeaveRatio, catalogOnly)
	near := func(v float64) bool { return v <= NearIdeal }
	if len(join) == 0 {
		s.text = append(s.text, notIn("Movement", schema.MovementFile.Name))
	} else {
		ci := countIf(join, func(n Named) bool { return containsIdeal(n.Val) })
		t := fmt.Sprintf("**Takeaway:** when one node joins %s nodes, %d of %d algorithms move at most %sx the ideal fraction (for %d of %d the 95%% interval contains the ideal itself); most: %s.",
			count(d.MoveN), countIf(join, func(n Named) bool { return near(n.V) }), len(join), fixed2(NearIdeal), ci, len(join),
			list(lastK(join, Top, func(v float64) bool { return !near(v) }), fixed2, "x"))
		if len(leave) > 0 {
			t += fmt.Sprintf(" When a random node leaves, %d of %d algorithms do", countIf(leave, func(n Named) bool { return near(n.V) }), len(leave))
			if far := lastK(leave, Top, func(v float64) bool { return !near(v) }); len(far) > 0 {
				t += "; most: " + list(far, fixed2, "x")
			}
			t += "."
		}
		if len(d.LeaveSpan) > 0 {
			parts := make([]string, len(d.LeaveSpan))
			for i, sp := range d.LeaveSpan {
				parts[i] = fmt.Sprintf("`%s` (%sx at %s nodes to %sx at %s)", sp.Name, fixed2(sp.Lo), count(sp.LoAtN), fixed2(sp.Hi), count(sp.HiAtN))
			}
			t += fmt.Sprintf(" One fleet size does not speak for the others where a random leave's moved/ideal varies more than %sx across the sizes measured: %s; see the plot.", fixed2(SpanFactor), strings.Join(parts, ", "))
		}
		s.text = append(s.text, t)
	}
	out = append(out, s)

	// Evenness.
	s = section{title: "How even is it?", plots: []string{"spread-peak-to-mean"}}
	keys := ranked(d, KeyPeak, catalogOnly)
	if len(keys) == 0 {
		s.text = append(s.text, notIn("Key spread", schema.SpreadFile.Name))
	} else {
		t := fmt.Sprintf("**Takeaway:** at %s nodes the busiest node holds from %sx to %s the mean number of keys.",
			count(d.SpreadNUsed), fixed2(keys[0].V), list(keys[len(keys)-1:], fixed2, "x"))
		if d.NoisePeak.OK {
			t += fmt.Sprintf(" Key sampling alone would give %sx (the noise floor)", fixed2(d.NoisePeak.V))
			in := countIf(keys, func(n Named) bool { return n.Val.CI && n.Val.Lo <= d.NoisePeak.V && d.NoisePeak.V <= n.Val.Hi })
			if in > 0 {
				t += fmt.Sprintf("; for %d of %d algorithms the 95%% interval contains it, so at this key count they cannot be told apart from a perfectly even placement", in, len(keys))
			}
			t += "."
		}
		if far := lastK(keys, Top, func(v float64) bool { return d.NoisePeak.OK && v > d.NoisePeak.V*NearIdeal }); len(far) > 0 {
			t += fmt.Sprintf(" More than %sx the noise floor: %s.", fixed2(NearIdeal), list(far, fixed2, "x"))
		}
		s.text = append(s.text, t)
	}
	out = append(out, s)

	// Hot keys.
	s = section{title: "What do hot keys do?", plots: []string{"load-peak-to-mean"}}
	wholeKey := func(r Row) bool { return r.Info.Name != schema.VariantRequest }
	zipf := ranked(d, ZipfPeak, wholeKey)
	if len(zipf) == 0 {
		s.text = append(s.text, notIn("Request load under Zipf popularity", schema.LoadFile.Name+"; `chbench load` writes it"))
	} else {
		zs := strconv.FormatFloat(d.LoadZipf, 'g', -1, 64)
		t := fmt.Sprintf("**Takeaway:** under Zipf s = %s at %s nodes", zs, count(d.LoadN))
		if d.HotShare.OK && d.Floor.OK {
			t += fmt.Sprintf(" the hottest key alone is %s of requests, a floor of %sx the mean load for any placement that keeps a key on one node;", percent(d.HotShare.V), fixed2(d.Floor.V))
		}
		tied, rest := tiedWithFirst(zipf)
		t += fmt.Sprintf(" the whole-key placements' busiest node serves from %s to %s the mean.", interval(zipf[0].Val, fixed2, "x"), interval(zipf[len(zipf)-1].Val, fixed2, "x"))
		t += fmt.Sprintf(" For %d of these %d the 95%% interval (over request streams) overlaps the lowest's, so this run cannot rank them: at this skew the hot key, not the algorithm, sets the peak", len(tied), len(zipf))
		if len(rest) > 0 {
			t += "; clearly above: " + list(rest, fixed2, "x")
		}
		t += "."
		if v, ok := valueOf(d, schema.VariantRequest, ZipfPeak); ok {
			t += fmt.Sprintf(" `%s` serves %s by sending a hot key's overflow requests to other nodes", schema.VariantRequest, interval(v, fixed2, "x"))
			if j, ok := valueOf(d, schema.VariantRequest, JoinRatio); ok {
				t += fmt.Sprintf(", at a price: a join re-routes %sx the ideal fraction of requests (eps %s)", fixed2(j.V), strconv.FormatFloat(d.LoadEps, 'g', -1, 64))
			}
			t += "."
		}
		s.text = append(s.text, t)
	}
	out = append(out, s)

	// Lookup.
	s = section{title: "How fast is a lookup?", plots: []string{"lookup-from-key"}}
	lo, hi := ranked(d, LookupLo, nil), ranked(d, LookupHi, nil)
	if len(lo) == 0 {
		s.text = append(s.text, notIn("Lookup time", schema.LookupFile))
	} else {
		t := fmt.Sprintf("**Takeaway:** from a key string at %s nodes the fastest are %s and the slowest %s.",
			count(d.LookupLoN), list(head(lo, Top), sig3, " ns"), list(lo[len(lo)-1:], sig3, " ns"))
		if len(hi) > 0 && d.LookupHiN != d.LookupLoN {
			t += fmt.Sprintf(" At %s nodes: fastest %s, slowest %s.", count(d.LookupHiN), list(head(hi, Top), sig3, " ns"), list(hi[len(hi)-1:], sig3, " ns"))
		}
		t += " Measured on " + d.Machine + "."
		s.text = append(s.text, t)
	}
	out = append(out, s)

	// Failure with replicas.
	n := count(d.ReplN)
	s = section{title: "What does a node failure cost with replicas?"}
	if d.ReplN > 0 {
		s.plots = []string{"replication-remove-random-n" + strings.ReplaceAll(n, ",", ""), "replication-lost-remove-random-n" + strings.ReplaceAll(n, ",", "")}
	}
	repl := ranked(d, ReplicaMoved, nil)
	switch {
	case d.ReplNoLeave:
		s.text = append(s.text, "Replication: not in this run ("+schema.ReplicationFile.Name+" has no remove-random rows; `chbench replication -op remove-random` writes them).")
	case len(repl) == 0:
		s.text = append(s.text, notIn("Replication", schema.ReplicationFile.Name))
	default:
		ideal := d.ReplIdeal.V
		at := func(nm Named) bool { return nm.Val.CI && nm.Val.Lo <= ideal && ideal <= nm.Val.Hi }
		var atIdeal, above []Named
		for _, nm := range repl {
			switch {
			case at(nm):
				atIdeal = append(atIdeal, nm)
			case nm.V > ideal:
				above = append(above, nm)
			}
		}
		t := fmt.Sprintf("**Takeaway:** with R = %s replicas on %s nodes, a random node failure must re-home %s of key-replica pairs (the ideal). For %d of %d algorithms the 95%% interval (over key sets, failing nodes and layouts) contains the ideal",
			count(d.ReplR), n, percent(ideal), len(atIdeal), len(repl))
		if len(atIdeal) > 0 {
			t += ": " + list(atIdeal, percent, "")
		}
		t += "."
		if len(above) > 0 {
			slices.Reverse(above)
			t += " Most above it: " + list(head(above, Top), percent, "") + "."
		}
		lost := ranked(d, ReplicaLost, nil)
		t += fmt.Sprintf(" %d of %d algorithms re-home no key entirely (every one of its R replicas moved)", countIf(lost, func(nm Named) bool { return nm.V == 0 }), len(lost))
		if some := lastK(lost, Top, func(v float64) bool { return v > 0 }); len(some) > 0 {
			t += "; the most keys re-homed entirely: " + list(some, percent, "")
		}
		s.text = append(s.text, t+".")
	}
	out = append(out, s)

	// The miss storm.
	s = section{title: "What does a resize cost a cache?", plots: []string{"storm"}}
	storm := ranked(d, StormMultiple, nil)
	if len(storm) == 0 {
		s.text = append(s.text, notIn("Miss storm", schema.StormFile.Name))
	} else {
		t := fmt.Sprintf("**Takeaway:** a cache fleet resize %s, multiplies database reads by %s up to %s.",
			d.Storm, list(head(storm, Top), fixed2, "x"), list(storm[len(storm)-1:], fixed2, "x"))
		if tied, _ := tiedWithFirst(storm); len(tied) > 1 {
			t += fmt.Sprintf(" For %d of %d algorithms the 95%% interval overlaps the lowest's: they differ by noise, not by design.", len(tied), len(storm))
		}
		s.text = append(s.text, t)
	}
	out = append(out, s)
	return out
}

// replR returns the replication factor the report shows: the one read
// from replication.csv, else the profile's.
func replR(d *Data) float64 {
	if d.ReplR > 0 {
		return d.ReplR
	}
	return float64(d.Profile.Replicas)
}

// valueOf returns metric m of the row called name.
func valueOf(d *Data, name string, m Metric) (Value, bool) {
	for _, r := range d.Rows {
		if r.Info.Name == name && r.Vals[m].OK {
			return r.Vals[m], true
		}
	}
	return Value{}, false
}

// lastK returns up to k of the highest values of ns (sorted ascending)
// that keep accepts, highest first.
func lastK(ns []Named, k int, keep func(float64) bool) []Named {
	var out []Named
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
	m     Metric
	limit func(Row) float64
	what  string // e.g. "random leave moved/ideal"
}

// rules derives the "pick this if" guidance from the table: every
// condition is a measured number of the row against a stated limit, except
// weights (a capability: the catalog's Weighted).
func rules(d *Data, mi [numMetrics]metricInfo) []rule {
	upTo := func(x float64) func(Row) float64 { return func(Row) float64 { return x } }
	join := criterion{JoinRatio, upTo(NearIdeal), "join moved/ideal"}
	leave := criterion{LeaveRatio, upTo(NearIdeal), "random leave moved/ideal"}
	last := criterion{LastLeaveRatio, upTo(NearIdeal), "last-node leave moved/ideal"}
	rehomed := criterion{ReplicaLost, upTo(LossLimit), "keys re-homed entirely"}
	pairs := criterion{ReplicaMoved, upTo(NearIdeal * d.ReplIdeal.V), "pairs re-homed"}
	even := criterion{KeyPeak, upTo(NearIdeal * d.NoisePeak.V), "key peak-to-mean"}
	flat := criterion{LookupHi, func(r Row) float64 { return 2 * r.Vals[LookupLo].V }, fmt.Sprintf("lookup ns @%s over @%s", count(d.LookupHiN), count(d.LookupLoN))}
	// fails reports whether row r fails criterion c: its value is missing,
	// or its whole 95% interval (its value, without one) is above the
	// limit, so that a value within noise of the limit is kept.
	fails := func(r Row, c criterion) bool {
		v := r.Vals[c.m]
		if !v.OK || (c.m == LookupHi && !r.Vals[LookupLo].OK) {
			return true
		}
		lo := v.V
		if v.CI {
			lo = v.Lo
		}
		return lo > c.limit(r)
	}
	apply := func(m Metric, keep func(Row) bool, cs ...criterion) (r rule) {
		var outs []string
		ok := func(r Row) bool {
			if keep != nil && !keep(r) {
				return false
			}
			for _, c := range cs {
				if !fails(r, c) {
					continue
				}
				// Every algorithm a condition drops is named: with the
				// number that failed it, or as not measured.
				v := r.Vals[c.m]
				shown := "not in this run"
				switch {
				case c.m == LookupHi && v.OK && r.Vals[LookupLo].OK:
					shown = fixed2(v.V/r.Vals[LookupLo].V) + "x"
				case c.m == LookupHi:
				case v.OK:
					shown = mi[c.m].format(v.V) + mi[c.m].unit
				}
				outs = append(outs, fmt.Sprintf("`%s` (%s %s)", r.Info.Name, c.what, shown))
				return false
			}
			if !r.Vals[m].OK {
				outs = append(outs, fmt.Sprintf("`%s` (%s not in this run)", r.Info.Name, mi[m].short))
				return false
			}
			return true
		}
		ns := ranked(d, m, ok)
		r.out = strings.Join(outs, ", ")
		if len(ns) == 0 {
			r.pick = "none in this run"
			return r
		}
		tied, rest := tiedWithFirst(ns)
		if len(tied) == 1 || m == LookupHi {
			r.pick = ranking(ns, mi[m].format, mi[m].unit)
			r.first = "`" + ns[0].Name + "`"
			r.why = fmt.Sprintf("the lowest %s of the %d the rule keeps", mi[m].short, len(ns))
			if len(tied) > 1 {
				r.first = names(tied)
				r.why = fmt.Sprintf("tie on %s (of the %d the rule keeps); the first has the lowest median", mi[m].short, len(ns))
			}
			return r
		}
		// The measure cannot separate the tied group: it is listed by
		// lookup time at the largest fleet (rows without one last), each
		// with both numbers, and the verdict names the whole group.
		tv := func(n Named) Value { v, _ := valueOf(d, n.Name, LookupHi); return v }
		slices.SortStableFunc(tied, func(a, b Named) int {
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
			sec := "no " + mi[LookupHi].short
			if v := tv(n); v.OK {
				sec = mi[LookupHi].format(v.V) + mi[LookupHi].unit
			}
			parts[i] = fmt.Sprintf("`%s` (%s%s, %s)", n.Name, mi[m].format(n.V), mi[m].unit, sec)
		}
		r.pick = fmt.Sprintf("tied on %s, listed by %s: %s", mi[m].short, mi[LookupHi].short, strings.Join(parts, " ≈ "))
		if len(rest) > 0 {
			r.pick += "; clearly above the lowest: " + list(rest, mi[m].format, mi[m].unit)
		}
		r.first = names(tied)
		r.why = fmt.Sprintf("tie on %s (of the %d the rule keeps), so this run does not pick one; listed by %s, which matters little behind a network hop", mi[m].short, len(ns), mi[LookupHi].short)
		return r
	}
	hot := ZipfPeak
	hotWhat := fmt.Sprintf("request peak-to-mean under Zipf s = %s (load.csv)", strconv.FormatFloat(d.LoadZipf, 'g', -1, 64))
	if len(ranked(d, ZipfPeak, nil)) == 0 {
		hot, hotWhat = KeyPeak, "key peak-to-mean (spread.csv; load.csv is not in this run)"
	}
	var out []rule
	add := func(need, text string, m Metric, keep func(Row) bool, cs ...criterion) {
		r := apply(m, keep, cs...)
		r.need, r.rule = need, text
		out = append(out, r)
	}
	nodes := count(d.MoveN)
	evenText := fmt.Sprintf("the busiest node holds at most %sx the noise floor's %sx the mean keys at %s nodes (memory headroom)", fixed2(NearIdeal), fixed2(d.NoisePeak.V), count(d.SpreadNUsed))
	add("A cache fleet that scales up and down, with hot keys",
		fmt.Sprintf("a join and a random leave each move at most %sx the ideal at %s nodes, and %s; ordered by %s, lowest first", fixed2(NearIdeal), nodes, evenText, hotWhat),
		hot, nil, join, leave, even)
	add(fmt.Sprintf("A sharded store with %s replicas", count(replR(d))),
		fmt.Sprintf("when a random node of %s fails at R = %s, at most %sx the ideal %s of key-replica pairs are re-homed and at most %s of keys have every replica re-homed (replication.csv), and %s; ordered by pairs re-homed, fewest first",
			count(d.ReplN), count(replR(d)), fixed2(NearIdeal), percent(d.ReplIdeal.V), percent(LossLimit), evenText),
		ReplicaMoved, nil, pairs, rehomed, even)
	add("Arbitrary removal and a lookup that does not slow down as the fleet grows",
		fmt.Sprintf("a random leave moves at most %sx the ideal, and a lookup at %s nodes takes at most 2x its time at %s; fastest at %s nodes first",
			fixed2(NearIdeal), count(d.LookupHiN), count(d.LookupLoN), count(d.LookupHiN)),
		LookupHi, nil, leave, flat)
	wtext := "the algorithm takes weights (catalog) and was measured with them; ordered by the busiest node's share over its weight's share"
	if d.Weights != "" {
		wtext += " on " + d.Weights
	}
	add("Nodes of different sizes (weights)", wtext+", lowest first", WeightPeak,
		func(r Row) bool { return r.Info.Weighted && !r.Variant })
	add("Nodes only join or leave at the end (a numbered shard list)",
		fmt.Sprintf("a join and a last-node leave each move at most %sx the ideal at %s nodes; fastest lookup at %s nodes first", fixed2(NearIdeal), nodes, count(d.LookupHiN)),
		LookupHi, nil, join, last)
	add("Memory is tight",
		fmt.Sprintf("a join and a random leave each move at most %sx the ideal at %s nodes; ordered by bytes retained per node at %s nodes, fewest first", fixed2(NearIdeal), nodes, count(d.BuildN)),
		RetainedPerNode, nil, join, leave)
	return out
}

// names formats ns as "`a`, `b` and `c`".
func names(ns []Named) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = "`" + n.Name + "`"
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
