package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// switchingLines returns the takeaway of the section "Switching clients"
// and the sentence on the other pairs.
func switchingLines(t *testing.T, rep string) (takeaway, pairs string) {
	t.Helper()
	i := strings.Index(rep, "## Switching clients")
	if i < 0 {
		t.Fatalf("no section Switching clients in:\n%s", rep)
	}
	for l := range strings.SplitSeq(rep[i:], "\n") {
		switch {
		case strings.HasPrefix(l, "**Takeaway:**") && takeaway == "":
			takeaway = l
		case strings.HasPrefix(l, "Across the pairs") && pairs == "":
			pairs = l
		}
	}
	return takeaway, pairs
}

// The section answers "we run libmemcached today and want twemproxy" from
// switching.csv: the cheapest pair and the two defaults with their storm;
// changing the cheapest pair's fraction in the file moves another pair to
// the front and changes the numbers quoted, and the pairs sentence
// follows the same cells.
func TestSwitchingSection(t *testing.T) {
	p := DefaultProfile()
	take, pairs := switchingLines(t, render(t, runDir, p))
	for _, want := range []string{
		"loses least with `libmemcached-ketama-weighted` -> `twemproxy-ketama-md5`: 0% of keys routed differently [0%, 0%]; the database stays at its steady 2,500 reads/s",
		"With the two systems' defaults, `libmemcached-modula` -> `twemproxy-ketama-fnv1a-64`, 90.1% of keys routed differently",
		"18.11x its steady 2,500",
	} {
		if !strings.Contains(take, want) {
			t.Errorf("takeaway %q lacks %q", take, want)
		}
	}
	if !strings.Contains(pairs, "`hashring-js` and `spymemcached-ketama`") || !strings.Contains(pairs, "`python-memcached` and `nginx-hash` (0.00440%)") {
		t.Errorf("pairs sentence %q: want the pairs that agree", pairs)
	}

	// The libketama pair now differs by 95%: the cheapest switch is
	// another pair, and the libketama pair moves out of "every key alike".
	dir := copyRun(t, func(file string, recs [][]string) {
		if file != schema.SwitchingFile.Name {
			return
		}
		h := recs[0]
		algo, to := slices.Index(h, "algo"), slices.Index(h, "to_algo")
		for _, r := range recs[1:] {
			if r[algo] == "libmemcached-ketama-weighted" && r[to] == "twemproxy-ketama-md5" || r[algo] == "twemproxy-ketama-md5" && r[to] == "libmemcached-ketama-weighted" {
				setWarmUp(t, h, r, "differ_frac", 0.95)
			}
		}
	})
	take2, pairs2 := switchingLines(t, render(t, dir, p))
	if strings.Contains(take2, "`libmemcached-ketama-weighted` -> `twemproxy-ketama-md5`:") || !strings.Contains(take2, "loses least with `libmemcached-ketama-weighted` -> `twemproxy-ketama-fnv1a-64`: 89.9%") {
		t.Errorf("after the libketama pair moves to 95%%, takeaway %q", take2)
	}
	if strings.Contains(pairs2, "`libmemcached-ketama-weighted` and `twemproxy-ketama-md5`,") {
		t.Errorf("after the libketama pair moves to 95%%, pairs sentence %q still has it alike", pairs2)
	}
}

// Without switching.csv the section says so, and so does the run's list
// of missing files.
func TestSwitchingSectionAbsent(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{schema.MovementFile.Name, schema.StormFile.Name} {
		b, err := os.ReadFile(filepath.Join(runDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := render(t, dir, DefaultProfile())
	if !strings.Contains(rep, "Switching clients: not in this run (no switching.csv; `chbench switch` writes it).") {
		t.Errorf("report without switching.csv:\n%s", rep)
	}
}
