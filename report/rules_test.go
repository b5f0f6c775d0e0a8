package report

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// verdictOf returns the verdict line of the rule whose need starts with need.
func verdictOf(t *testing.T, rep, need string) string {
	t.Helper()
	for l := range strings.SplitSeq(rep, "\n") {
		if strings.HasPrefix(l, "- **"+need) && strings.Contains(l, "**: ") {
			return l
		}
	}
	t.Fatalf("no verdict %q", need)
	return ""
}

// The store rule can be met at every replication factor the results
// hold: at R = 1 a failed node's keys lose their only copy, so keys
// re-homed entirely equal the moved fraction (about 1/n) and a 1-in-10,000
// limit on them would exclude every algorithm; the rule then leaves that
// limit out and says why. At R >= 2 the limit applies and is stated.
func TestStoreRuleAtEveryR(t *testing.T) {
	for _, r := range []int{1, 2, 3, 5} {
		p := DefaultProfile()
		p.Replicas = r
		rep := render(t, runDir, p)
		need := "A sharded store with " + strconv.Itoa(r) + " replicas"
		if v := verdictOf(t, rep, need); strings.HasSuffix(v, "none in this run.") {
			t.Errorf("R = %d: %s", r, v)
		}
		pick, _ := ruleLines(t, rep, need)
		if !strings.Contains(pick, "`rendezvous`") {
			t.Errorf("R = %d: rendezvous (ideal movement, salted replicas) is not kept: %s", r, pick)
		}
		text := ruleText(t, rep, need)
		limit := strings.Contains(text, "at most 0.0100% of keys have every replica re-homed")
		if r == 1 && (limit || !strings.Contains(text, "the 1-in-10,000 limit of R >= 2 does not apply")) {
			t.Errorf("R = 1: the rule applies the loss limit or does not say why it does not: %s", text)
		}
		if r > 1 && !limit {
			t.Errorf("R = %d: the rule does not state the loss limit: %s", r, text)
		}
	}
}

// ruleText returns the stated rule of need.
func ruleText(t *testing.T, rep, need string) string {
	t.Helper()
	for l := range strings.SplitSeq(rep, "\n") {
		if strings.HasPrefix(l, "- **"+need) && strings.Contains(l, "Rule: ") {
			return l
		}
	}
	t.Fatalf("no rule %q", need)
	return ""
}

var growthSizes = regexp.MustCompile(`a lookup at ([\d,]+) nodes takes at most 2x its time at ([\d,]+)`)

// The lookup-growth condition never compares a size with itself: when the
// profile's range reads one lookup size (or two closer than 10x), it reads
// lookup.txt's own smallest and largest and says so; with one size in
// lookup.txt it is not measured and the rule says so.
func TestLookupGrowthComparesTwoSizes(t *testing.T) {
	const need = "Arbitrary removal"
	for _, rng := range [][2]int{{100, 100}, {40, 60}, {100, 10000}, {10, 100}, {5000, 20000}} {
		p := DefaultProfile()
		p.Nodes, p.MaxNodes = rng[0], rng[1]
		text := ruleText(t, render(t, runDir, p), need)
		m := growthSizes.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("profile %d..%d: no lookup-growth condition in %q", rng[0], rng[1], text)
			continue
		}
		if m[1] == m[2] {
			t.Errorf("profile %d..%d: the condition compares %s nodes with itself: %s", rng[0], rng[1], m[1], text)
		}
		if rng[0] == rng[1] && !strings.Contains(text, "lookup.txt's largest and smallest sizes") {
			t.Errorf("profile %d..%d: the rule does not say it read lookup.txt's own range: %s", rng[0], rng[1], text)
		}
	}
	// lookup.txt with one node count: the condition is not measured.
	dir := copyRun(t, nil)
	src, err := os.ReadFile(filepath.Join(dir, schema.LookupFile))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for l := range strings.SplitSeq(string(src), "\n") {
		if !strings.Contains(l, "/nodes=10000/") {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, schema.LookupFile), []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	text := ruleText(t, render(t, dir, DefaultProfile()), need)
	if growthSizes.MatchString(text) || !strings.Contains(text, "lookup growth is not measured") {
		t.Errorf("one lookup size: %s", text)
	}
}

// An algorithm whose measured value is past a limit, its interval
// crossing it, stays in the rule but is flagged in the pick and the
// verdict and comes after the unflagged; a tie is ordered by the rule's
// own next conditions, never by lookup time in the rules that are not
// about lookups.
func TestTiesAndFlags(t *testing.T) {
	d, err := Load(runDir, DefaultProfile())
	if err != nil {
		t.Fatal(err)
	}
	limit := nearIdeal * d.noisePeak.V
	peak := limit * 1.06 // past the limit, with an interval that crosses it
	n := strconv.FormatFloat(d.spreadNUsed, 'f', -1, 64)
	dir := copyRun(t, func(f string, recs [][]string) {
		if f != schema.SpreadFile.Name {
			return
		}
		h := recs[0]
		for _, r := range recs[1:] {
			if (r[0] == "rendezvous" || r[0] == "memento") && r[slices.Index(h, "nodes")] == n {
				r[slices.Index(h, "peak_to_mean")] = strconv.FormatFloat(peak, 'g', -1, 64)
				r[slices.Index(h, "peak_to_mean_lo")] = strconv.FormatFloat(limit*0.9, 'g', -1, 64)
				r[slices.Index(h, "peak_to_mean_hi")] = strconv.FormatFloat(limit*1.2, 'g', -1, 64)
			}
		}
	})
	rep := render(t, dir, DefaultProfile())
	const cache = "A cache fleet that scales up and down"
	pick, _ := ruleLines(t, rep, cache)
	for _, a := range []string{"rendezvous", "memento"} {
		if !regexp.MustCompile("`" + a + "` \\([^`]*flagged: key peak-to-mean [0-9.]+x is past the [0-9.]+x limit").MatchString(pick) {
			t.Errorf("%s (key peak %.3f past the %.3f limit, interval crossing it) is not flagged in the pick: %s", a, peak, limit, pick)
		}
	}
	v := verdictOf(t, rep, cache)
	first, why, _ := strings.Cut(strings.SplitN(v, "**: ", 2)[1], "; ")
	if strings.Contains(first, "`rendezvous`") || strings.Contains(first, "`memento`") || !strings.Contains(why, "`rendezvous` and `memento`, flagged, come after them") {
		t.Errorf("a flagged algorithm is among the verdict's first, or the verdict does not say they come after: %s", v)
	}
	for _, need := range []string{cache, "A sharded store", "Nodes of different sizes"} {
		pick, _ := ruleLines(t, rep, need)
		if strings.Contains(pick, "lookup time") || strings.Contains(verdictOf(t, rep, need), "lookup time") {
			t.Errorf("%s: a tie listed by lookup time: %s", need, pick)
		}
	}
	if !strings.Contains(pick, "listed by key peak-to-mean, then random leave moved/ideal") {
		t.Errorf("the cache rule's tie is not listed by its own next conditions: %s", pick)
	}
}

// The hot-key floor is stated with its assumption: on a fleet of unequal
// weights the report gives the floor with the hottest key on the largest
// node and on the smallest, and names the placements whose hot key landed
// on a smaller node with the floor there; at equal weights it says the
// floor holds wherever the key lands.
func TestHotKeyFloorAssumption(t *testing.T) {
	rep := render(t, runDir, DefaultProfile())
	if !strings.Contains(rep, "(the nodes weigh the same, so wherever it lands)") {
		t.Errorf("equal weights: the floor's assumption is not stated")
	}
	dir := copyRun(t, func(f string, recs [][]string) {
		if f != schema.LoadFile.Name {
			return
		}
		h := recs[0]
		for _, r := range recs[1:] {
			r[slices.Index(h, "floor")] = "1.71"
			r[slices.Index(h, "floor_min_node")] = "3.42"
			r[slices.Index(h, "floor_hot_node")] = "1.71"
			if r[0] == "rendezvous" {
				r[slices.Index(h, "floor_hot_node")] = "3.42"
				r[slices.Index(h, "hot_key_node")] = "node-17"
			}
		}
	})
	rep = render(t, dir, DefaultProfile())
	for _, want := range []string{
		"a floor of 1.71x the mean load for any placement that keeps a key on one node if it lands on the largest node, 3.42x if on the smallest",
		"put the hottest key on a smaller node, which raises their own floor: `rendezvous` (on `node-17`: floor 3.42x, peak ",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
