package report

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// propagationValues are the numbers the propagation section computes
// from the files of dir rather than copies: the ratio of two algorithms'
// requests astray in propagate.csv, and the live check's band, the
// model's bracket widened by 4 binomial sd (and the 4).
func propagationValues(t *testing.T, dir string) []float64 {
	t.Helper()
	vals := []float64{4}
	if tab, err := schemaTable(filepath.Join(dir, schema.PropagateFile.Name)); err == nil {
		col := slices.Index(tab[0], "misrouted")
		for _, a := range tab[1:] {
			for _, b := range tab[1:] {
				x, _ := strconv.ParseFloat(a[col], 64)
				y, _ := strconv.ParseFloat(b[col], 64)
				vals = append(vals, x/y)
			}
		}
	}
	if tab, err := schemaTable(filepath.Join(dir, schema.PropagateRedisFile.Name)); err == nil {
		get := func(r []string, c string) float64 {
			v, _ := strconv.ParseFloat(r[slices.Index(tab[0], c)], 64)
			return v
		}
		for _, r := range tab[1:] {
			vals = append(vals, get(r, "ask_model_lo")-4*get(r, "ask_sd"), get(r, "ask_model_hi")+4*get(r, "ask_sd"))
		}
	}
	return vals
}

// editCSV copies runDir to a new directory with file's rows passed
// through edit (header and row, by column name).
func editCSV(t *testing.T, file string, edit func(col func(string) int, row []string)) string {
	t.Helper()
	dir := t.TempDir()
	ents, err := os.ReadDir(runDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(runDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == file {
			recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := func(name string) int { return slices.Index(recs[0], name) }
			for _, r := range recs[1:] {
				edit(col, r)
			}
			var sb strings.Builder
			w := csv.NewWriter(&sb)
			w.WriteAll(recs)
			b = []byte(sb.String())
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sectionOf returns the text of the report section titled title.
func sectionOf(t *testing.T, rep, title string) string {
	t.Helper()
	_, after, ok := strings.Cut(rep, "## "+title+"\n")
	if !ok {
		t.Fatalf("no section %q in:\n%s", title, rep)
	}
	sec, _, _ := strings.Cut(after, "\n## ")
	return sec
}

// The propagation section quotes the headline of propagate.csv: the
// rollout, the stale requests, the most astray first with the model
// beside, one table row per algorithm; the cache-aside counts of
// propagate-cache.csv; the live check's counts against its band. One
// cell changed in a file changes the sentence that quotes it.
func TestPropagationSection(t *testing.T) {
	sec := sectionOf(t, render(t, runDir, DefaultProfile()), "While the change propagates")
	for _, want := range []string{
		"during a 30-second rollout (`linear:T=30s`) of one join at 100 nodes to 100 clients sending 10,000 requests/s together (300,000 requests)",
		"routed by a stale view whatever the algorithm (model 150,000)",
		": `modulo` 148,404 (model 148,436), `ketama` 5,248 (model 5,259), `maglev` 2,364 (model 2,353), down to `ring` 1,435 (model 1,442)",
		"`modulo` sends 103x as many astray as the fewest, `ring`.",
		"for 16 of 16 algorithms",
		"| `ring` | 0.962% | 1,435 [1,405, 1,466] | 1,442 |",
		"In the 1 s from 0 s on, while one join at 100 nodes reaches 100 clients by `gossip:k=3,p=0.2s`,",
		"stale reads (a hit returning a value an invalidation should have removed): most `modulo`",
		"met 547 ASK redirects against the model's 554.6 (bracket ± 4 sd: 457.9..653.5; it agrees) and 8 MOVED against 8..8 (it agrees)",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("section lacks %q:\n%s", want, sec)
		}
	}
	if n := strings.Count(sec, "\n| `"); n != 16 {
		t.Errorf("%d table rows, want one per algorithm (16)", n)
	}

	// ring sends the most astray: it leads the sentence.
	dir := editCSV(t, schema.PropagateFile.Name, func(col func(string) int, r []string) {
		if r[0] == "ring" {
			r[col("misrouted")], r[col("misrouted_lo")], r[col("misrouted_hi")] = "200000", "199000", "201000"
			r[col("stale")], r[col("stale_lo")], r[col("stale_hi")] = "200000", "199000", "201000"
		}
	})
	if sec := sectionOf(t, render(t, dir, DefaultProfile()), "While the change propagates"); !strings.Contains(sec, "at work: `ring` 200,000 (model 1,442), `modulo` 148,404") ||
		!strings.Contains(sec, "down to `dx` 1,454") || !strings.Contains(sec, "for 15 of 16 algorithms") {
		t.Errorf("after ring's 200,000 astray, the section does not name it first, dx last and 15 of 16 within the model:\n%s", sec)
	}
	// An ASK count far off the model disagrees.
	dir = editCSV(t, schema.PropagateRedisFile.Name, func(col func(string) int, r []string) { r[col("ask")] = "9000" })
	if sec := sectionOf(t, render(t, dir, DefaultProfile()), "While the change propagates"); !strings.Contains(sec, "met 9,000 ASK redirects") || !strings.Contains(sec, "it DISAGREES") {
		t.Errorf("an ASK count of 9,000: the section does not say it disagrees:\n%s", sec)
	}
	// Without the files, the section says what is not in the run.
	dir = t.TempDir()
	b, _ := os.ReadFile(filepath.Join(runDir, schema.MovementFile.Name))
	os.WriteFile(filepath.Join(dir, schema.MovementFile.Name), b, 0o644)
	sec = sectionOf(t, render(t, dir, DefaultProfile()), "While the change propagates")
	for _, want := range []string{"Requests routed by stale views: not in this run (no propagate.csv", "The live Redis resharding: not in this run (no propagate-redis.csv"} {
		if !strings.Contains(sec, want) {
			t.Errorf("section lacks %q:\n%s", want, sec)
		}
	}
}

// mostAndRest names the most and the range of the others as whole
// requests: a range whose ends round alike is one number, and the low end
// names its algorithm unless several share it.
func TestMostAndRest(t *testing.T) {
	for _, c := range []struct {
		vals []named
		want string
	}{
		{[]named{{Name: "modulo", V: 436}}, "most `modulo` 436"},
		{[]named{{Name: "modulo", V: 436}, {Name: "ring", V: 2.4}}, "most `modulo` 436, `ring` 2"},
		{[]named{{Name: "modulo", V: 436}, {Name: "maglev", V: 22}, {Name: "ring", V: 0.2}, {Name: "jump", V: 0}},
			"most `modulo` 436; the other 3 from 0 (2 of them) to 22 (`maglev`)"},
		{[]named{{Name: "modulo", V: 436}, {Name: "maglev", V: 22}, {Name: "ring", V: 3}, {Name: "jump", V: 1}},
			"most `modulo` 436; the other 3 from 1 (`jump`) to 22 (`maglev`)"},
		{[]named{{Name: "modulo", V: 18}, {Name: "powerch", V: 0.4}, {Name: "ring", V: 0.2}, {Name: "jump", V: 0}},
			"most `modulo` 18; the other 3 all 0"},
	} {
		if got := mostAndRest(c.vals); got != c.want {
			t.Errorf("mostAndRest(%v) = %q, want %q", c.vals, got, c.want)
		}
	}
}
