package command

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
)

// chbench load writes one CSV row per exponent and placement with the
// schema's columns, and a request log replaces the Zipf draws.
func TestLoadCommand(t *testing.T) {
	out, _, err := runCLI(t, "load", "-nodes", "8", "-keys", "500", "-requests", "4000", "-sets", "2", "-zipf", "0,1.1", "-format", "csv", "-commit", "x")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(recs), 1+2*len(schema.LoadPlacements()); got != want {
		t.Fatalf("%d records, want %d", got, want)
	}
	if strings.Join(recs[0], ",") != strings.Join(schema.Columns[schema.Load](), ",") {
		t.Errorf("header %v", recs[0])
	}
	// Rows of the first exponent: the catalog's algorithms in catalog
	// order, bounded as bounded-partition, then the key and request forms.
	var algos, want []string
	for _, r := range recs[1 : 1+len(schema.LoadPlacements())] {
		algos = append(algos, r[0])
	}
	for _, a := range schema.LoadPlacements() {
		if a == "bounded" {
			a = schema.VariantPartition
		}
		want = append(want, a)
	}
	if !slices.Equal(algos, want) || want[len(want)-2] != schema.VariantKey || want[len(want)-1] != schema.VariantRequest {
		t.Errorf("placements %v, want %v", algos, want)
	}
	// Same flags, same bytes.
	again, _, _ := runCLI(t, "load", "-nodes", "8", "-keys", "500", "-requests", "4000", "-sets", "2", "-zipf", "0,1.1", "-format", "csv", "-commit", "x")
	if again != out {
		t.Error("two runs with the same seed differ")
	}
	// bounded-partition is accepted as the catalog's bounded.
	if out, _, err := runCLI(t, "load", "-algo", "bounded-partition,bounded-request", "-nodes", "4", "-keys", "100", "-requests", "500", "-sets", "1", "-zipf", "1"); err != nil || !strings.Contains(out, "bounded-partition") {
		t.Errorf("load -algo bounded-partition: %v\n%s", err, out)
	}
	log := filepath.Join(t.TempDir(), "requests.txt")
	os.WriteFile(log, []byte("a\nb\na\nc\na\n"), 0o644)
	if out, _, err := runCLI(t, "load", "-algo", "ring", "-nodes", "2", "-sets", "1", "-requestlog", log); err != nil || !strings.Contains(out, "log") || !strings.Contains(out, "60.00%") {
		t.Errorf("request log: %v\n%s", err, out)
	}
}

// chbench bounded writes one row per eps and form, every bounded form's
// max load / cap at most 1.
func TestBoundedCommand(t *testing.T) {
	out, _, err := runCLI(t, "bounded", "-nodes", "6", "-keys", "600", "-requests", "2000", "-sets", "2", "-eps", "0.1,1", "-format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 1+2*4 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for _, r := range recs[1:] {
		if r[0] != "ring" && r[10] != "1" && !strings.HasPrefix(r[10], "0.") {
			t.Errorf("%s eps %s: max load/cap %q", r[0], r[4], r[10])
		}
	}
}

// The default key kind leaves move's output byte-identical, and another
// kind changes it.
func TestKeysKindDefault(t *testing.T) {
	base := []string{"move", "-algo", "ring,jump", "-from", "5", "-to", "6", "-keys", "2000", "-sets", "2", "-format", "csv", "-commit", "x"}
	plain, _, err := runCLI(t, base...)
	if err != nil {
		t.Fatal(err)
	}
	random, _, _ := runCLI(t, append(base, "-keys-kind", "random")...)
	if random != plain {
		t.Error("-keys-kind random changes the output")
	}
	seq, _, err := runCLI(t, append(base, "-keys-kind", "sequential")...)
	if err != nil || seq == plain {
		t.Errorf("-keys-kind sequential: %v, same output as random", err)
	}
}

// Bad load and bounded flags are usage errors naming the value, before
// any work.
func TestTrafficBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"load", "-zipf", "0,-1"}, "zipf -1"},
		{[]string{"load", "-zipf", "0.5,NaN"}, `zipf "NaN"`},
		{[]string{"load", "-zipf", "1,1"}, "zipf 1"},
		{[]string{"load", "-algo", "bounded-all"}, `"bounded-all"`},
		{[]string{"load", "-algo", "ring,ring"}, `algo "ring"`},
		{[]string{"load", "-eps", "0"}, "eps 0"},
		{[]string{"load", "-requests", "0"}, "requests 0"},
		{[]string{"load", "-inflight", "-5"}, "inflight -5"},
		{[]string{"load", "-keys-kind", "words"}, `"words"`},
		{[]string{"load", "-format", "xml"}, `"xml"`},
		{[]string{"load", "-nodes", "0"}, "nodes 0"},
		{[]string{"load", "-requestlog", "/nonexistent/requests.txt"}, "requests.txt"},
		{[]string{"bounded", "-eps", "0.1,0"}, "eps 0"},
		{[]string{"bounded", "-eps", "0.1,abc"}, `eps "abc"`},
		{[]string{"bounded", "-sets", "0"}, "sets 0"},
		{[]string{"move", "-algo", "ring", "-from", "10", "-keys-kind", "guid"}, `"guid"`},
	} {
		out, _, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("chbench %s: error %v, want one naming %s", strings.Join(c.args, " "), err, c.want)
		}
		if out != "" {
			t.Errorf("chbench %s: wrote %q before failing", strings.Join(c.args, " "), out)
		}
		// Exit status 2 for a bad command line; a missing request log is
		// an error while running (1), found when the run reads it.
		usage := cli.IsUsage(err)
		if want := c.want != "requests.txt"; usage != want {
			t.Errorf("chbench %s: usage error %v, want %v", strings.Join(c.args, " "), usage, want)
		}
	}
}

// -format with several formats and -o writes one file per format from one
// run, the CSV and bench files agreeing on the rows.
func TestTrafficMultiFormat(t *testing.T) {
	prefix := filepath.Join(t.TempDir(), "bl")
	out, _, err := runCLI(t, "bounded", "-nodes", "6", "-keys", "300", "-requests", "2000", "-sets", "2", "-eps", "0.25,1",
		"-format", "csv,bench,json", "-o", prefix, "-commit", "x")
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".csv", ".txt", ".json"} {
		if !strings.Contains(out, prefix+ext) {
			t.Errorf("output %q does not name %s", out, prefix+ext)
		}
	}
	f, err := os.Open(prefix + ".json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := schema.ReadJSON[schema.Bounded](f)
	if err != nil || len(rows) != 2*len(schema.BoundedVariants()) {
		t.Fatalf("%d JSON rows, %v; want %d", len(rows), err, 2*len(schema.BoundedVariants()))
	}
	b, _ := os.ReadFile(prefix + ".txt")
	if got := strings.Count(string(b), "\nBenchmarkBounded/"); got != 2*len(rows) { // 2 streams per row
		t.Errorf("%d bench lines, want %d", got, 2*len(rows))
	}
	if _, _, err := runCLI(t, "load", "-format", "csv,bench"); err == nil || !cli.IsUsage(err) || !strings.Contains(err.Error(), "-o") {
		t.Errorf("several formats without -o: %v", err)
	}
}

// load's -algo takes all,-NAME like the other commands: every placement
// of load (the catalog's and the two request-level forms of bounded
// loads) but those left out, in order; an entry that is not -NAME, an
// unknown or repeated NAME, and a list leaving none are errors naming it.
func TestLoadAllExcept(t *testing.T) {
	got, err := placementList("all,-crush,-bounded-key")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, n := range schema.LoadPlacements() {
		if n != "crush" && n != "bounded-key" {
			want = append(want, n)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("all,-crush,-bounded-key = %v, want %v", got, want)
	}
	for list, msg := range map[string]string{
		"all,ring":        `entry "ring": after all, give only placements to leave out`,
		"all,-nosuch":     `"nosuch" is not a placement`,
		"all,-ring,-ring": `"ring" is left out twice`,
	} {
		if _, err := placementList(list); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want an error containing %q", list, err, msg)
		}
	}
	all := "all"
	for _, n := range schema.LoadPlacements() {
		all += ",-" + n
	}
	if _, err := placementList(all); err == nil || !strings.Contains(err.Error(), "leaves no placement") {
		t.Errorf("every placement left out: %v", err)
	}
}
