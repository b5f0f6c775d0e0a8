package report

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/fleet"
	"github.com/chbench/chbench/schema"
)

// testdata/run holds real results: a clean-clone `make bench` of the
// report's measured-rules commit, trimmed by testdata/trim.sh to what the
// report reads (see the script for the rows kept).
const runDir = "testdata/run"

func render(t *testing.T, dir string, p Profile) string {
	t.Helper()
	d, err := Load(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// allowed collects every number the report may show: each numeric cell
// of the CSV files, each sample of lookup.txt and the median of each
// benchmark cell (computed here by sorting, independently of benchmath),
// the sample counts and GOMAXPROCS, the profile's values, the rules'
// thresholds, and the numbers in the catalog's descriptions.
func allowed(t *testing.T, dir string, p Profile) []float64 {
	t.Helper()
	var vals []float64
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(fh).ReadAll()
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs[1:] {
			for _, c := range rec {
				if v, err := strconv.ParseFloat(c, 64); err == nil {
					vals = append(vals, v)
				}
			}
		}
	}
	fh, err := os.Open(filepath.Join(dir, "lookup.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	cells := map[string][]float64{}
	var order []string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			procs, _ := strconv.ParseFloat(name[i+1:], 64)
			vals = append(vals, procs)
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				t.Fatal(err)
			}
			k := name + " " + f[i+1]
			if cells[k] == nil {
				order = append(order, k)
			}
			cells[k] = append(cells[k], v)
			vals = append(vals, v)
		}
	}
	// Medians, and the ratio of an algorithm's lookup medians at two
	// node counts (the lookup-growth rule quotes it).
	lookup := map[string][]float64{} // algo -> medians of Lookup from=key
	for _, k := range order {
		xs := slices.Clone(cells[k])
		slices.Sort(xs)
		n := len(xs)
		med := (xs[(n-1)/2] + xs[n/2]) / 2
		vals = append(vals, float64(n), med)
		if m := lookupName.FindStringSubmatch(k); m != nil {
			lookup[m[1]] = append(lookup[m[1]], med)
		}
	}
	for _, meds := range lookup {
		for _, a := range meds {
			for _, b := range meds {
				vals = append(vals, a/b)
			}
		}
	}
	// boundedloads.csv's moved/ideal ratios (and their intervals).
	if t, err := schemaTable(filepath.Join(dir, schema.BoundedFile.Name)); err == nil {
		for _, r := range t[1:] {
			for _, c := range [][2]string{{"moved_join_frac", "ideal_join_frac"}, {"moved_leave_frac", "ideal_leave_frac"}} {
				ideal, _ := strconv.ParseFloat(r[slices.Index(t[0], c[1])], 64)
				for _, suf := range []string{"", "_lo", "_hi"} {
					v, _ := strconv.ParseFloat(r[slices.Index(t[0], c[0]+suf)], 64)
					vals = append(vals, v/ideal)
				}
			}
		}
	}
	vals = append(vals, propagationValues(t, dir)...)
	vals = append(vals, float64(p.Nodes), float64(p.MaxNodes), float64(p.Replicas), p.Zipf, nearIdeal, lossLimit,
		switchNear)
	num := regexp.MustCompile(`\d+(?:,\d{3})*(?:\.\d+)?`)
	for _, name := range catalog.Names() {
		in, _ := catalog.Describe(name)
		for _, s := range []string{in.Lookup, in.Memory, in.Removal, in.Weights, in.Source} {
			for _, m := range num.FindAllString(s, -1) {
				v, _ := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64)
				vals = append(vals, v)
			}
		}
	}
	return vals
}

// schemaTable reads the CSV file at path: header, then rows.
func schemaTable(path string) ([][]string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return csv.NewReader(fh).ReadAll()
}

var (
	lookupName = regexp.MustCompile(`^BenchmarkLookup/algo=([^/]+)/nodes=\d+/from=key-\d+ ns/op$`)
	codeSpan   = regexp.MustCompile("`[^`]*`")
	plotLink   = regexp.MustCompile(`!\[[^\]]*\]\([^)]*\)`)
	kOfN       = regexp.MustCompile(`\b(\d+) of (\d+) algorithms`)
	numberTok  = regexp.MustCompile(`^(\d+(?:,\d{3})*(?:\.\d+)?)(%|x)?$`)
)

// numbers returns the numeric tokens of a report: words that are a number,
// optionally followed by % or x, outside code spans and plot links; "k of
// n algorithms" counts are returned apart.
func numbers(report string) (toks []string, counts [][2]int) {
	for _, m := range kOfN.FindAllStringSubmatch(report, -1) {
		k, _ := strconv.Atoi(m[1])
		n, _ := strconv.Atoi(m[2])
		counts = append(counts, [2]int{k, n})
	}
	s := kOfN.ReplaceAllString(report, "")
	s = plotLink.ReplaceAllString(s, "")
	s = codeSpan.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "..", " ")
	words := strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '.' || r == ',' || r == '%' || r == '_' || r == '/')
	})
	for _, w := range words {
		w = strings.TrimRight(w, ".,")
		if numberTok.MatchString(w) {
			toks = append(toks, w)
		}
	}
	return toks, counts
}

// explained reports whether tok, shown with its number of decimals, is
// some v of vals (or 100 v for a percentage).
func explained(tok string, vals []float64) bool {
	m := numberTok.FindStringSubmatch(tok)
	digits := strings.ReplaceAll(m[1], ",", "")
	dec := 0
	if i := strings.IndexByte(digits, '.'); i >= 0 {
		dec = len(digits) - i - 1
	}
	scale := 1.0
	if m[2] == "%" {
		scale = 100
	}
	for _, v := range vals {
		// A median computed in seconds and shown in ns may differ from
		// ours in the last bits, which decides a rounding at .5.
		for _, eps := range []float64{0, 1e-12, -1e-12} {
			if strconv.FormatFloat(scale*v*(1+eps), 'f', dec, 64) == digits {
				return true
			}
		}
	}
	return false
}

// Every number of the report is one of the results' numbers (as shown,
// rounded), and every "k of n algorithms" count is at most n, n at most
// the catalog size.
func TestEveryNumberComesFromTheResults(t *testing.T) {
	for _, p := range []Profile{DefaultProfile(), {Nodes: 10, MaxNodes: 100, Replicas: 2, Zipf: 1.2, Source: "test"}} {
		rep := render(t, runDir, p)
		toks, counts := numbers(rep)
		if len(toks) < 200 {
			t.Fatalf("profile %+v: only %d numbers found in the report; the tokenizer lost them:\n%s", p, len(toks), rep)
		}
		vals := allowed(t, runDir, p)
		for _, tok := range toks {
			if !explained(tok, vals) {
				t.Errorf("profile %+v: %q in the report is in no result file", p, tok)
			}
		}
		if len(counts) < 3 {
			t.Errorf("profile %+v: %d \"k of n algorithms\" counts, want at least 3", p, len(counts))
		}
		for _, c := range counts {
			if c[0] > c[1] || c[1] > len(catalog.Names()) {
				t.Errorf("profile %+v: count %d of %d algorithms", p, c[0], c[1])
			}
		}
	}
}

// The numbers a sentence quotes follow the input: the test's own
// computation of the storm takeaway from storm.csv, and a change of one
// cell of storm.csv moves that algorithm to the front of the sentence.
func TestSentenceFollowsInput(t *testing.T) {
	p := DefaultProfile()
	before := render(t, runDir, p)
	stormLine := func(rep string) string {
		for l := range strings.SplitSeq(rep, "\n") {
			if strings.Contains(l, "multiplies database reads by") {
				return l
			}
		}
		t.Fatalf("no storm takeaway in:\n%s", rep)
		return ""
	}
	// The lowest db_multiple of storm.csv, computed here, leads the sentence.
	fh, err := os.Open(filepath.Join(runDir, schema.StormFile.Name))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(fh).ReadAll()
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(recs[0], "db_multiple")
	best, bestV, worst, worstV := "", 1e308, "", -1.0
	for _, r := range recs[1:] {
		v, _ := strconv.ParseFloat(r[col], 64)
		if v < bestV {
			best, bestV = r[0], v
		}
		if v > worstV {
			worst, worstV = r[0], v
		}
	}
	want := "by `" + best + "` (" + strconv.FormatFloat(bestV, 'f', 2, 64) + "x)"
	wantEnd := "up to `" + worst + "` (" + strconv.FormatFloat(worstV, 'f', 2, 64) + "x)."
	if l := stormLine(before); !strings.Contains(l, want) || !strings.Contains(l, wantEnd) {
		t.Errorf("storm takeaway %q: want it to contain %q and %q", l, want, wantEnd)
	}

	// Make ring's multiple the lowest: the sentence must name it first.
	dir := t.TempDir()
	for _, f := range []string{schema.LookupFile, schema.MovementFile.Name, schema.SpreadFile.Name, schema.StormFile.Name, schema.ReplicationFile.Name, schema.LoadFile.Name} {
		b, err := os.ReadFile(filepath.Join(runDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == schema.StormFile.Name {
			for _, r := range recs[1:] {
				if r[0] == "ring" { // db_multiple (1 - h (1-f)) / (1-h) = 1.5
					h, _ := strconv.ParseFloat(r[slices.Index(recs[0], "hit_ratio")], 64)
					setWarmUp(t, recs[0], r, "moved_frac", 1-(1-1.5*(1-h))/h)
				}
			}
			var sb strings.Builder
			w := csv.NewWriter(&sb)
			w.WriteAll(recs)
			b = []byte(sb.String())
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	after := render(t, dir, p)
	if l := stormLine(after); !strings.Contains(l, "by `ring` (1.50x)") {
		t.Errorf("after setting ring's db_multiple to 1.5, storm takeaway %q does not name ring first at 1.50x", l)
	}
	if row := tableRow(t, after, "ring"); !strings.Contains(row, "| **1.50** |") {
		t.Errorf("ring's table row %q lacks its new storm multiple 1.50", row)
	}
	// Everything else is unchanged.
	if strings.ReplaceAll(before, stormLine(before), "") == strings.ReplaceAll(after, stormLine(after), "") {
		t.Errorf("only the storm sentence changed; the table should have changed too")
	}
}

func tableRow(t *testing.T, rep, algo string) string {
	t.Helper()
	for l := range strings.SplitSeq(rep, "\n") {
		if strings.HasPrefix(l, "| `"+algo+"` |") {
			return l
		}
	}
	t.Fatalf("no table row for %s", algo)
	return ""
}

// Absent files are said to be absent, in the run section and in the
// sections that need them, and their cells stay blank.
func TestAbsentFilesAreNotInThisRun(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{schema.MovementFile.Name, schema.SpreadFile.Name} {
		b, err := os.ReadFile(filepath.Join(runDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := render(t, dir, DefaultProfile())
	for _, want := range []string{
		"**Not in this run**: lookup.txt, load.csv, storm.csv, replication.csv",
		"Request load under Zipf popularity: not in this run (no load.csv",
		"Lookup time: not in this run (no lookup.txt).",
		"Replication: not in this run (no replication.csv).",
		"Miss storm: not in this run (no storm.csv).",
		"**Machine**: not in this run",
		"(plot `plots/lookup-from-key.png`: not in this run)",
		"ordered by key peak-to-mean (spread.csv; load.csv is not in this run)",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	row := tableRow(t, rep, "ring")
	blank := 0
	for c := range strings.SplitSeq(strings.Trim(row, "|"), "|") {
		if strings.TrimSpace(c) == "" {
			blank++
		}
	}
	if blank != 7 {
		t.Errorf("ring row %q: %d blank cells, want 7 (one lookup column without lookup.txt, build x2, replication x2, Zipf, storm)", row, blank)
	}
	// A plot that exists but that no plot run's index lists (an old
	// image) is not shown as current; once the index lists it, it is
	// linked, relative to the report.
	if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plots", "spread-peak-to-mean.png"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := render(t, dir, DefaultProfile()); strings.Contains(rep, "![spread-peak-to-mean]") || !strings.Contains(rep, "(plot `plots/spread-peak-to-mean.png`: not in this run)") {
		t.Errorf("a plot the index does not list is shown:\n%s", rep)
	}
	if err := schema.WritePlotIndex(dir, []string{"spread-peak-to-mean"}); err != nil {
		t.Fatal(err)
	}
	if rep := render(t, dir, DefaultProfile()); !strings.Contains(rep, "![spread-peak-to-mean](plots/spread-peak-to-mean.png)") {
		t.Errorf("no link to the plot the index lists:\n%s", rep)
	}
	if _, err := Load(t.TempDir(), DefaultProfile()); err == nil {
		t.Error("Load of an empty directory: no error")
	}
}

// The profile picks the rows: at 10 nodes the movement comes from its
// nearest grid point (9 nodes) and the spread from the 10-node rows, the
// lookup from 100 (the nearest of 100 and
// 10,000), the load from its only node count; and it says so.
func TestProfilePicksRows(t *testing.T) {
	fp, err := fleet.Parse(strings.NewReader("# small fleet\nname = \"tiny\"\nnodes = 10\nreplicas = 2\n[traffic]\nzipf = 1.2\n[[change]]\nname = \"big\"\ngrow_to = 100\n"), "tiny.toml")
	if err != nil {
		t.Fatal(err)
	}
	p := FromFleet(fp)
	rep := render(t, runDir, p)
	for _, want := range []string{
		"# chbench design review: tiny",
		"profile `tiny.toml` asks for 10..100 nodes, R = 2, Zipf s = 1.2",
		"lookup at 100 and 100 nodes, build at 100, movement from 9, spread at 10, request load at 100 nodes and s = 1.2, replication at 10 nodes and R = 2",
		"join moved/ideal @9", "R=2 random leave: pairs moved @10", "Zipf s=1.2 requests peak/mean @100",
		"when one node joins 9 nodes",
		// Read far from the profile's values: said so.
		"- **Warning**: these results do not hold the profile's values; the report reads the nearest: lookup at 100 nodes (asked 10; the bench package's node grid, bench.NodeCounts)",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(rep, "At 100 nodes: fastest") {
		t.Error("lookup takeaway repeats the same node count twice")
	}
	if strings.Count(rep, "lookup ns @100") != 1 {
		t.Error("the table has two lookup columns for one node count")
	}
}

// The report's case comes from the fleet profile: today's members as the
// working size, the largest planned membership as the largest, and the
// profile's R, Zipf exponent and key file.
func TestFromFleet(t *testing.T) {
	fp, err := fleet.Parse(strings.NewReader("nodes = 50\nreplicas = 2\n[traffic]\nzipf = 0.8\nkey_file = \"/k.txt\"\n[[change]]\nname = \"out\"\nleave = [\"node-3\"]\n[[change]]\nname = \"up\"\ngrow_to = 80\n"), "f.toml")
	if err != nil {
		t.Fatal(err)
	}
	p := FromFleet(fp)
	if p.Nodes != 50 || p.MaxNodes != 80 || p.Replicas != 2 || p.Zipf != 0.8 || p.KeyFile != "/k.txt" || p.Source != "f.toml" || p.Fleet != fp {
		t.Errorf("FromFleet = %+v; want 50..80 nodes, R = 2, s = 0.8, key file /k.txt from f.toml", p)
	}
	// The former key = value profile is refused, saying how to convert it.
	dir := t.TempDir()
	old := filepath.Join(dir, "old.txt")
	if err := os.WriteFile(old, []byte("nodes = 100..10000\nreplicas = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadProfile(old); err == nil || !strings.Contains(err.Error(), "replaced by the TOML fleet profile") {
		t.Errorf("ReadProfile(former format) = %v, want the conversion advice", err)
	}
}

// A profile key file other than the results' is a warning in the report.
func TestKeyFileMismatchWarns(t *testing.T) {
	p := DefaultProfile()
	p.KeyFile = "/data/keys.txt"
	rep := render(t, runDir, p)
	if !strings.Contains(rep, "**Warning**: the profile names key file `/data/keys.txt`; none of the result files were made on it; made on other keys: movement.csv (generated keys)") {
		t.Errorf("no key-file warning in:\n%s", rep)
	}
}

// Compare lists the cells that differ, and nothing for a run against itself.
func TestCompare(t *testing.T) {
	p := DefaultProfile()
	d, err := Load(runDir, p)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Compare(&b, d, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\n0 cells differ,") {
		t.Errorf("a run against itself:\n%s", b.String())
	}
	d2, _ := Load(runDir, p)
	for i := range d2.rows {
		if d2.rows[i].Info.Name == "jump" {
			v := &d2.rows[i].Vals[joinRatio]
			v.V, v.Lo, v.Hi = 2*v.V, 2*v.Lo, 2*v.Hi
		}
	}
	b.Reset()
	if err := Compare(&b, d, d2); err != nil {
		t.Fatal(err)
	}
	want := "| `jump` | join moved/ideal @95 | " + fixed2(d.rows[3].Vals[joinRatio].V) + " | " + fixed2(2*d.rows[3].Vals[joinRatio].V) + " | +100.0% | yes |"
	if d.rows[3].Info.Name != "jump" || !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "\n1 cells differ,") {
		t.Errorf("compare after doubling jump's join ratio:\n%s\nwant a line %q", b.String(), want)
	}
	// A value near the float64 limit (1e308 against ~1) gives a change
	// whose percentage is not a float64: said so, never "+Inf%".
	d4, _ := Load(runDir, p)
	huge := &d4.rows[3].Vals[joinRatio]
	huge.V, huge.Lo, huge.Hi = 1e308, 1e308, 1e308
	b.Reset()
	if err := Compare(&b, d, d4); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "Inf") || !strings.Contains(out, "| beyond a float64 |") {
		t.Errorf("compare with a value of 1e308:\n%s", out)
	}
	// A change inside both intervals is not beyond noise.
	d3, _ := Load(runDir, p)
	v := &d3.rows[3].Vals[joinRatio]
	if !v.CI || v.Hi <= v.V {
		t.Fatalf("jump's join ratio has no interval to move inside: %+v", *v)
	}
	v.V = (v.V + v.Hi) / 2
	b.Reset()
	if err := Compare(&b, d, d3); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| no (95% intervals overlap) |") {
		t.Errorf("a change inside the interval is said to be beyond noise:\n%s", b.String())
	}
	// Runs from two machines and commits say so before the numbers.
	d3.machine, d3.commits = "linux/arm64, cpu other", []string{"abc1234"}
	b.Reset()
	if err := Compare(&b, d, d3); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "Different machines") || !strings.Contains(out, "- new: linux/arm64, cpu other") || !strings.Contains(out, "- commit: "+strings.Join(d.commits, ", ")+" -> abc1234\n\n") {
		t.Errorf("compare across machines and commits (the list of what differs ends in a blank line, or Markdown takes the table into it):\n%s", out)
	}
}

// The storm takeaway names the costliest algorithm once: "by a, b, c up
// to d", never "a, b up to b" when few algorithms are in the run.
func TestStormTakeawayNamesEachOnce(t *testing.T) {
	d, err := Load(runDir, DefaultProfile())
	if err != nil {
		t.Fatal(err)
	}
	keep := map[string]bool{"jump": true, "modulo": true}
	for i := range d.rows {
		if !keep[d.rows[i].Info.Name] {
			d.rows[i].Vals[stormMultiple] = value{}
		}
	}
	text := strings.Join(stormSection(d).text, " ")
	if strings.Count(text, "`modulo`") != 1 || !strings.Contains(text, "`jump` (") {
		t.Errorf("storm takeaway of jump and modulo:\n%s", text)
	}
}

// copyRun copies the files of runDir into a new directory, passing each
// CSV through edit (nil: unchanged), and returns the directory.
// setWarmUp sets the fraction column fCol of storm or switching record r
// (header h) to f, its interval to [f, f], and the columns the warm-up
// model derives from it as analysis.StormModel does, so the row stays
// consistent (schema.Check refuses one edited alone).
func setWarmUp(t *testing.T, h, r []string, fCol string, f float64) {
	t.Helper()
	num := func(c string) float64 {
		v, err := strconv.ParseFloat(r[slices.Index(h, c)], 64)
		if err != nil {
			t.Fatalf("column %s: %v", c, err)
		}
		return v
	}
	q, hit, k := num("reads"), num("hit_ratio"), num("working_set")
	set := func(c string, v float64) {
		s := strconv.FormatFloat(v, 'g', -1, 64)
		for _, name := range []string{c, c + "_lo", c + "_hi"} {
			r[slices.Index(h, name)] = s
		}
	}
	set(fCol, f)
	set("hit_after", hit*(1-f))
	set("db_reads", q*(1-hit*(1-f)))
	set("db_multiple", q*(1-hit*(1-f))/(q*(1-hit)))
	set("extra_db_reads", hit*f*k)
}

func copyRun(t *testing.T, edit func(file string, recs [][]string)) string {
	t.Helper()
	dir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(runDir, "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".csv") && edit != nil {
			recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			edit(filepath.Base(f), recs)
			var sb strings.Builder
			w := csv.NewWriter(&sb)
			w.WriteAll(recs)
			b = []byte(sb.String())
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// ruleLines returns the pick and left-out lines of the rule whose need
// starts with need.
func ruleLines(t *testing.T, rep, need string) (pick, out string) {
	t.Helper()
	_, picks, _ := strings.Cut(rep, "## Pick this if")
	lines := strings.Split(picks, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "- **"+need) {
			pick = lines[i+1]
			if i+2 < len(lines) && strings.HasPrefix(lines[i+2], "  Left out:") {
				out = lines[i+2]
			}
			return pick, out
		}
	}
	t.Fatalf("no rule %q in:\n%s", need, rep)
	return "", ""
}

// The rules read measurements, not catalog prose: dx's random leave made
// 3x the ideal in movement.csv (interval included) takes it out of the
// cache-fleet rule, with that number as the reason.
func TestRulesFollowMeasurements(t *testing.T) {
	const need = "A cache fleet that scales up and down"
	pick, _ := ruleLines(t, render(t, runDir, DefaultProfile()), need)
	if !strings.Contains(pick, "`dx`") {
		t.Fatalf("dx is not picked before the edit: %s", pick)
	}
	d, err := Load(runDir, DefaultProfile())
	if err != nil {
		t.Fatal(err)
	}
	from := strconv.FormatFloat(d.moveN, 'f', -1, 64)
	dir := copyRun(t, func(file string, recs [][]string) {
		if file != schema.MovementFile.Name {
			return
		}
		h := recs[0]
		for _, r := range recs[1:] {
			if r[0] == "dx" && r[slices.Index(h, "op")] == "remove-random" && r[slices.Index(h, "from")] == from {
				ideal, _ := strconv.ParseFloat(r[slices.Index(h, "ideal_frac")], 64)
				for _, c := range []string{"moved_frac", "moved_frac_lo", "moved_frac_hi"} {
					r[slices.Index(h, c)] = strconv.FormatFloat(3*ideal, 'g', -1, 64)
				}
				r[slices.Index(h, "moved_over_ideal")] = "3"
			}
		}
	})
	pick, out := ruleLines(t, render(t, dir, DefaultProfile()), need)
	if strings.Contains(pick, "`dx`") || !strings.Contains(out, "`dx` (random leave moved/ideal 3.00x)") {
		t.Errorf("dx's random leave at 3x: pick %q, left out %q; want dx left out with 3.00x", pick, out)
	}
}

// When every algorithm's join moves at most nearIdeal x the ideal, the
// movement takeaway ends after the count: no "most:" with an empty list.
func TestMovementTakeawayWithoutFarJoins(t *testing.T) {
	dir := copyRun(t, func(file string, recs [][]string) {
		if file != schema.MovementFile.Name {
			return
		}
		h := recs[0]
		for _, r := range recs[1:] {
			if r[slices.Index(h, "op")] == "add" {
				ideal := r[slices.Index(h, "ideal_frac")]
				for _, c := range []string{"moved_frac", "moved_frac_lo", "moved_frac_hi"} {
					r[slices.Index(h, c)] = ideal
				}
				r[slices.Index(h, "moved_over_ideal")] = "1"
			}
		}
	})
	rep := render(t, dir, DefaultProfile())
	i := strings.Index(rep, "when one node joins")
	if i < 0 {
		t.Fatal("no movement takeaway")
	}
	line := rep[i : i+strings.Index(rep[i:], "\n")]
	if strings.Contains(line, "most: .") || strings.Contains(line, "most: ;") {
		t.Errorf("takeaway lists no algorithm after most: %q", line)
	}
	if !strings.Contains(line, "the 95% interval contains the ideal itself).") {
		t.Errorf("takeaway %q: want the join count ended by a full stop", line)
	}
}

// ranking joins the values whose intervals overlap the lowest's with ≈
// and lists the others after "clearly above the lowest", in value order.
func TestRanking(t *testing.T) {
	iv := func(name string, v, lo, hi float64) named {
		return named{name, v, value{V: v, OK: true, Lo: lo, Hi: hi, CI: true}}
	}
	ns := []named{iv("a", 1.0, 0.9, 1.1), iv("b", 1.1, 1.08, 1.3), iv("c", 1.2, 1.15, 1.25), iv("d", 1.3, 0.5, 2)}
	got := ranking(ns, fixed2, "x")
	want := "`a` (1.00x) ≈ `b` (1.10x) ≈ `d` (1.30x); clearly above the lowest: `c` (1.20x)"
	if got != want {
		t.Errorf("ranking = %q, want %q", got, want)
	}
	// Without intervals only equal values tie.
	plain := []named{{"a", 1, value{V: 1, OK: true}}, {"b", 1, value{V: 1, OK: true}}, {"c", 2, value{V: 2, OK: true}}}
	if got, want := ranking(plain, fixed2, "x"), "`a` (1.00x) ≈ `b` (1.00x); clearly above the lowest: `c` (2.00x)"; got != want {
		t.Errorf("ranking without intervals = %q, want %q", got, want)
	}
}

// Every verdict names the first algorithm of its rule's list.
func TestVerdictsAreFirstPicks(t *testing.T) {
	rep := render(t, runDir, DefaultProfile())
	verdicts, _, _ := strings.Cut(rep, "## Trade-offs")
	_, verdicts, _ = strings.Cut(verdicts, "## Verdicts")
	n := 0
	name := regexp.MustCompile("`([^`]+)`")
	for l := range strings.SplitSeq(verdicts, "\n") {
		need, rest, ok := strings.Cut(strings.TrimPrefix(l, "- **"), "**: ")
		if !ok {
			continue
		}
		n++
		pick, _ := ruleLines(t, rep, need)
		if rest == "none in this run." {
			if !strings.Contains(pick, "none in this run") {
				t.Errorf("verdict %q, but its rule keeps %s", l, pick)
			}
			continue
		}
		want := name.FindStringSubmatch(pick)
		got := name.FindStringSubmatch(rest)
		if want == nil || got == nil || got[1] != want[1] {
			t.Errorf("verdict %q: names %v, its rule's list starts with %v", l, got, want)
		}
	}
	if n != 6 {
		t.Errorf("%d verdicts, want one per rule (6):\n%s", n, verdicts)
	}
}

// A result file whose values the report cannot honestly use is an error
// naming the file, never a silently dropped row or a nonsense sentence.
func TestBadResultFiles(t *testing.T) {
	cell := func(file, algo, col, v string) func(string, [][]string) {
		return func(f string, recs [][]string) {
			if f != file {
				return
			}
			c := slices.Index(recs[0], col)
			for _, r := range recs[1:] {
				if r[0] == algo {
					r[c] = v
				}
			}
		}
	}
	for _, c := range []struct {
		name string
		edit func(string, [][]string)
		want string
	}{
		{"replica load", cell(schema.ReplicationFile.Name, "ring", "load_peak_to_mean", "abc"), "load_peak_to_mean"},
		{"replicas", cell(schema.ReplicationFile.Name, "ring", "replicas", "2.5"), `column replicas (4): "2.5" is not a whole number`},
		{"replicas > 5", cell(schema.ReplicationFile.Name, "ring", "replicas", "9"), "9, want 1 to 5"},
		{"from", cell(schema.MovementFile.Name, "ring", "from", "95.5"), `column from (5): "95.5" is not a whole number`},
		{"ideal", cell(schema.ReplicationFile.Name, "ring", "ideal_frac", "0"), `column ideal_frac (17): "0" must be > 0`},
		{"control", cell(schema.MovementFile.Name, "ring", "commit", "a\x1b[31m"), "control characters"},
		// A label would be an external placement's name; "evil/x" is none.
		{"algo", cell(schema.LoadFile.Name, "ring", "algo", "evil/x"), `load.csv:3: column algo: "evil/x" is not a catalog algorithm`},
		{"algo in movement", cell(schema.MovementFile.Name, "ring", "algo", "ring v2"), `movement.csv:35: column algo: "ring v2" is not a catalog algorithm`},
		// An op must be one chbench writes: a label alone is not enough.
		{"op", cell(schema.MovementFile.Name, "ring", "op", "bogus"), `movement.csv:35: column op: "bogus" is not an op chbench writes`},
		{"op in storm", cell(schema.StormFile.Name, "ring", "op", "join-0"), `storm.csv:3: column op: "join-0" is not an op chbench writes`},
		{"placement", cell(schema.SpreadFile.Name, "ring", "placement", "p"), `spread.csv:5: column placement: "p" is not a placement mode (per-set, fixed)`},
	} {
		dir := copyRun(t, c.edit)
		_, err := Load(dir, DefaultProfile())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one containing %q", c.name, err, c.want)
		}
	}
	// Two rows for the same algorithm and scenario: an error, not the first.
	dir := copyRun(t, nil)
	b, _ := os.ReadFile(filepath.Join(dir, schema.StormFile.Name))
	lines := strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(filepath.Join(dir, schema.StormFile.Name), []byte(string(b)+lines[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, DefaultProfile()); err == nil || !strings.Contains(err.Error(), "two rows give modulo's storm database multiple") {
		t.Errorf("duplicate storm row: err = %v", err)
	}
	// A lookup.txt with no benchmark lines is not silently "absent".
	dir = copyRun(t, nil)
	if err := os.WriteFile(filepath.Join(dir, schema.LookupFile), []byte("# notes\nnot a benchmark\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, DefaultProfile()); err == nil || !strings.Contains(err.Error(), "no benchmark results") {
		t.Errorf("lookup.txt without benchmarks: err = %v", err)
	}
	// lookup.txt lines the report would drop or pool: a Lookup time in
	// ms/op, an algorithm the bench package never measures, and a second
	// machine (goos, cpu) are errors naming the line and the value.
	for _, c := range []struct{ name, line, want string }{
		{"ms/op", "BenchmarkLookup/algo=ring/nodes=100/from=key-2 \t 100 \t 7.5 ms/op", "lookup.txt:293: BenchmarkLookup in ms/op: want ns/op"},
		{"algo", "BenchmarkLookup/algo=bogus/nodes=100/from=key-2 \t 100 \t 7.5 ns/op", "lookup.txt:293: BenchmarkLookup algo=bogus: not a catalog algorithm"},
		{"goos", "goos: windows\nBenchmarkLookup/algo=ring/nodes=100/from=key-2 \t 100 \t 7.5 ns/op", `lookup.txt:294: goos "windows", but the result on line 5 ran with goos "linux"`},
		{"cpu", "cpu: Other\nBenchmarkLookup/algo=ring/nodes=100/from=key-2 \t 100 \t 7.5 ns/op", `lookup.txt:294: cpu "Other", but the result on line 5 ran with cpu "Intel(R) Xeon(R) Processor"`},
	} {
		dir = copyRun(t, nil)
		path := filepath.Join(dir, schema.LookupFile)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n != 292 {
			t.Fatalf("lookup.txt has %d lines, the cases' line numbers assume 292", n)
		}
		if err := os.WriteFile(path, append(b, c.line+"\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir, DefaultProfile()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("lookup.txt with %s: err = %v, want one containing %q", c.name, err, c.want)
		}
	}
	// replication.csv without remove-random rows says so, at the profile's R.
	dir = copyRun(t, func(f string, recs [][]string) {
		if f == schema.ReplicationFile.Name {
			for _, r := range recs[1:] {
				r[slices.Index(recs[0], "op")] = "add"
			}
		}
	})
	rep := render(t, dir, DefaultProfile())
	if !strings.Contains(rep, "replication.csv has no remove-random rows") || strings.Contains(rep, "0 replicas") || strings.Contains(rep, "-n0") {
		t.Errorf("replication.csv without remove-random rows:\n%s", rep)
	}
	// A profile exponent far beyond the file's reads its largest, not s = 0.
	p := DefaultProfile()
	p.Zipf = 1e17
	if rep := render(t, runDir, p); !strings.Contains(rep, "request load at 100 nodes and s = 1.2") {
		t.Errorf("zipf 1e17 does not read the largest exponent, 1.2")
	}
}

// A random leave's moved/ideal that varies across fleet sizes is named
// with its least and most, read from movement.csv.
func TestLeaveSpan(t *testing.T) {
	d, err := Load(runDir, DefaultProfile())
	if err != nil {
		t.Fatal(err)
	}
	var ketama *leaveSpread
	for i, sp := range d.leaveSpan {
		if sp.Hi/sp.Lo <= spanFactor {
			t.Errorf("%+v spans at most %v", sp, spanFactor)
		}
		if sp.Name == "ketama" {
			ketama = &d.leaveSpan[i]
		}
		if sp.Name == "rendezvous" || sp.Name == "anchor" {
			t.Errorf("%s's random leave is named as varying with n: %+v", sp.Name, sp)
		}
	}
	if ketama == nil {
		t.Fatalf("ketama (twemproxy's float32 point counts) not named: %+v", d.leaveSpan)
	}
	want := fmt.Sprintf("`ketama` (%sx at %s nodes to %sx at %s)", fixed2(ketama.Lo), count(ketama.LoAtN), fixed2(ketama.Hi), count(ketama.HiAtN))
	if rep := render(t, runDir, DefaultProfile()); !strings.Contains(rep, want) {
		t.Errorf("report lacks %q", want)
	}
}

// A report written elsewhere links the plots relative to where it is, and
// an algorithm without the lookup a rule needs is named, never as +Inf.
func TestLinksAndMissingLookup(t *testing.T) {
	dir := copyRun(t, nil)
	if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plots", "storm.png"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := schema.WritePlotIndex(dir, []string{"storm"}); err != nil {
		t.Fatal(err)
	}
	d, err := Load(dir, DefaultProfile())
	if err != nil {
		t.Fatal(err)
	}
	d.LinkTo(filepath.Join(dir, "sub"))
	var b strings.Builder
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "![storm](../plots/storm.png)") || !strings.Contains(b.String(), "from the result files in `..`") {
		t.Errorf("report written to %s/sub: no relative link ../plots/storm.png or source line", dir)
	}
	src, _ := os.ReadFile(filepath.Join(dir, schema.LookupFile))
	var kept []string
	for l := range strings.SplitSeq(string(src), "\n") {
		if !strings.HasPrefix(l, "BenchmarkLookup/algo=anchor/nodes=100/") {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, schema.LookupFile), []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := render(t, dir, DefaultProfile())
	if strings.Contains(rep, "Inf") || !strings.Contains(rep, "`anchor` (lookup ns @10,000 over @100 not in this run)") {
		t.Errorf("anchor without lookup at 100 nodes: Inf, or not named as not in this run")
	}
}

// Rows of a placement the catalog does not know (a program speaking the
// external protocol, named by its handshake) get their own line in the
// trade-off table after chbench's algorithms, of family external, with
// the numbers of their rows: ring's movement, spread and load rows copied
// under the name my-ring show ring's numbers in my-ring's line.
func TestExternalRowsBesideCatalog(t *testing.T) {
	dir := copyRun(t, nil)
	for _, f := range []string{schema.MovementFile.Name, schema.SpreadFile.Name, schema.LoadFile.Name} {
		path := filepath.Join(dir, f)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		algo, label := slices.Index(recs[0], "algo"), slices.Index(recs[0], "label")
		for _, r := range recs[1:] {
			if r[algo] == "ring" {
				c := slices.Clone(r)
				c[algo] = "my-ring"
				if label >= 0 {
					c[label] = "my-ring"
				}
				recs = append(recs, c)
			}
		}
		var sb strings.Builder
		w := csv.NewWriter(&sb)
		w.WriteAll(recs)
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := render(t, dir, DefaultProfile())
	ring, mine := tableRow(t, rep, "ring"), tableRow(t, rep, "my-ring")
	cells := func(row string) []string { return strings.Split(row, " | ") }
	rc, mc := cells(ring), cells(mine)
	if mc[1] != "external" || !strings.HasSuffix(mine, "| as its handshake declares | as its handshake declares |") {
		t.Errorf("my-ring's row %q: want family external, and leave and weights as declared", mine)
	}
	// Columns 6 and 7 are join and random leave moved/ideal, 10 keys
	// peak/mean and 11 requests peak/mean; lookup and build cells (2 to
	// 5) are blank: lookup.txt has no my-ring.
	for _, i := range []int{6, 7, 10, 11} {
		if strings.Trim(mc[i], "*") != strings.Trim(rc[i], "*") || mc[i] == "" {
			t.Errorf("column %d: my-ring %q, ring %q: want ring's number", i, mc[i], rc[i])
		}
	}
	if mc[2] != "" {
		t.Errorf("my-ring has a lookup cell %q without a lookup benchmark", mc[2])
	}
	if strings.Index(rep, "| `my-ring` |") < strings.Index(rep, "| `dx` |") {
		t.Error("my-ring's row comes before the catalog's last algorithm")
	}
}

// load.csv names the catalog's bounded by its form, bounded-partition:
// its request peak-to-mean belongs in bounded's row (column 11), and no
// row of its own (external or variant) may appear for it.
func TestBoundedPartitionIsBoundedsRow(t *testing.T) {
	rep := render(t, copyRun(t, nil), DefaultProfile())
	if strings.Contains(rep, "| `bounded-partition` |") {
		t.Error("bounded-partition has a trade-off row of its own; load.csv's rows for it are bounded's")
	}
	cells := strings.Split(tableRow(t, rep, "bounded"), " | ")
	if len(cells) < 12 || strings.Trim(cells[11], "* ") == "" {
		t.Errorf("bounded's row %q has no request peak-to-mean", tableRow(t, rep, "bounded"))
	}
}

// The conformance section states each placement's verdicts from
// conformance.csv: the shipped run's two example programs pass, and
// turning one of c-jump's checks into a FAIL (its value above its
// threshold) makes the section say so, with both numbers.
func TestConformanceSectionFollowsVerdicts(t *testing.T) {
	line := func(rep, name string) string {
		for l := range strings.SplitSeq(rep, "\n") {
			if strings.HasPrefix(l, "- `"+name+"` (") {
				return l
			}
		}
		t.Fatalf("no conformance line for %s in:\n%s", name, rep)
		return ""
	}
	rep := render(t, runDir, DefaultProfile())
	for _, name := range []string{"textbook-ring", "c-jump"} {
		if l := line(rep, name); !strings.Contains(l, "**passes** every check that applies") {
			t.Errorf("%s: %q", name, l)
		}
	}
	dir := copyRun(t, func(f string, recs [][]string) {
		if f != schema.ConformanceFile.Name {
			return
		}
		col := func(name string) int { return slices.Index(recs[0], name) }
		for _, r := range recs[1:] {
			if r[col("algo")] == "c-jump" && r[col("property")] == "reference" {
				r[col("value")], r[col("verdict")] = "0.25", schema.VerdictFail
			}
		}
	})
	l := line(render(t, dir, DefaultProfile()), "c-jump")
	if !strings.Contains(l, "**fails** reference (fraction of keys placed otherwise 0.250, threshold 0)") || strings.Contains(l, "passed: determinism, balance, join, leave, replicas, churn, reference") {
		t.Errorf("after failing c-jump's reference check: %q", l)
	}
}
