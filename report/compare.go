package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Compare writes, as Markdown, the headline numbers (the trade-off table's
// metric cells) that differ between the reports of two runs, old and new:
// one line per algorithm and metric whose shown value changed, with the
// relative change and whether the change is beyond noise (the two 95%
// intervals do not overlap; blank when either value has none), plus cells
// present in only one run. Metrics the table does not show (the rules'
// own) are named by their short name. It first lists the
// node counts, replication factor and Zipf exponent each run was read at
// when they differ, since cells read at different sizes are not
// comparable. It reports how many cells are unchanged.
func Compare(w io.Writer, old, new *Data) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Headline numbers: %s -> %s\n\n", old.dir, new.dir)
	if old.machine != new.machine {
		fmt.Fprintf(&b, "Different machines, so lookup and build differences include the hardware:\n- old: %s\n- new: %s\n\n", orNone(old.machine), orNone(new.machine))
	}
	listed := false
	for _, c := range []struct {
		what     string
		old, new []string
	}{{"Go", old.goVersions, new.goVersions}, {"commit", old.commits, new.commits}, {"seed", old.seeds, new.seeds}, {"keys", old.keySources, new.keySources}} {
		if o, n := strings.Join(c.old, ", "), strings.Join(c.new, ", "); o != n {
			fmt.Fprintf(&b, "- %s: %s -> %s\n", c.what, orNone(o), orNone(n))
			listed = true
		}
	}
	if listed { // a blank line ends the list, or Markdown takes what follows into it
		b.WriteString("\n")
	}
	if uo, un := usedValues(old), usedValues(new); uo != un {
		fmt.Fprintf(&b, "Read at different sizes, compare with care:\n- old: %s\n- new: %s\n\n", uo, un)
	}
	mo, mn := metricInfos(old), metricInfos(new)
	rowsOf := func(d *Data) map[string]algoRow {
		m := map[string]algoRow{}
		for _, r := range d.rows {
			m[r.Info.Name] = r
		}
		return m
	}
	ro, rn := rowsOf(old), rowsOf(new)
	var names []string // catalog order: new rows, then old-only rows
	for _, d := range []*Data{new, old} {
		for _, r := range d.rows {
			if !slices.Contains(names, r.Info.Name) {
				names = append(names, r.Info.Name)
			}
		}
	}
	b.WriteString("| algorithm | metric | old | new | change | beyond noise |\n|---|---|---|---|---|---|\n")
	same, changed := 0, 0
	for _, name := range names {
		for m := range numMetrics {
			o, n := ro[name].Vals[m], rn[name].Vals[m]
			if !o.OK && !n.OK {
				continue
			}
			os, ns, ch, noise := "not in this run", "not in this run", "", ""
			if o.OK {
				os = mo[m].format(o.V)
			}
			if n.OK {
				ns = mn[m].format(n.V)
			}
			if o.OK && n.OK {
				if os == ns {
					same++
					continue
				}
				// The ratio first: n-o and 100*(n-o) overflow for values
				// near the float64 limit where n/o does not; a change that
				// is still not finite is said to be so, never "+Inf%".
				if o.V != 0 {
					if pct := (n.V/o.V - 1) * 100; math.IsInf(pct, 0) || math.IsNaN(pct) {
						ch = "beyond a float64"
					} else {
						ch = fmt.Sprintf("%+.1f%%", pct)
					}
				}
				if o.CI && n.CI {
					noise = "no (95% intervals overlap)"
					if !overlap(o, n) {
						noise = "yes"
					}
				}
			}
			changed++
			head := mn[m].head
			if head == "" {
				head = mn[m].short
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", name, head, os, ns, ch, noise)
		}
	}
	fmt.Fprintf(&b, "\n%d cells differ, %d are the same as shown.\n", changed, same)
	_, err := io.WriteString(w, b.String())
	return err
}

func orNone(s string) string {
	if s == "" {
		return "not in this run"
	}
	return s
}
