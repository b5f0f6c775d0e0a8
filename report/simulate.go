package report

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// simReport is what a fleet simulation's files say (chbench simulate):
// per placement its totals, per placement and change time its storm,
// what the traffic held, and per node memory the nodes' hit ratios.
type simReport struct {
	summary []schema.SimSummary
	groups  []schema.SimEventGroup
	trace   *schema.TraceStats
	classes []memClass // members from the start, by memory, smallest first
	peak    int        // most bytes any node held at a window's end
	peakCap int        // that node's capacity
}

// memClass is the nodes of one memory size among the initial members:
// how many there are (per placement) and their mean hit ratio over every
// placement's replay (hits over gets of those nodes).
type memClass struct {
	bytes, nodes int
	hit          float64
}

// simulation reads sim-summary.csv and, where present, sim-event.csv,
// sim-trace.csv and sim-node.csv of dir.
func (ld *loader) simulation(dir string) error {
	var err error
	s := &simReport{}
	if s.summary, err = schema.SimSummaryFile.Read(dir); err != nil {
		return err
	}
	for i, r := range s.summary {
		if err := plainText(i, "placement", r.Algo); err != nil {
			return fmt.Errorf("%s: %w", schema.SimSummaryFile.Path(dir), err)
		}
	}
	if schema.SimEventFile.Exists(dir) {
		evs, err := schema.SimEventFile.Read(dir)
		if err != nil {
			return err
		}
		s.groups = schema.SimEventGroups(evs)
	}
	if schema.SimTraceFile.Exists(dir) {
		ts, err := schema.SimTraceFile.Read(dir)
		if err != nil {
			return err
		}
		s.trace = &ts[0]
	}
	if schema.SimNodeFile.Exists(dir) {
		nodes, err := schema.SimNodeFile.Read(dir)
		if err != nil {
			return err
		}
		s.nodeClasses(nodes)
	}
	ld.d.sim = s
	return nil
}

// nodeClasses sets s.classes and s.peak from the node rows: a node is an
// initial member when it has a row in window 0.
func (s *simReport) nodeClasses(rows []schema.SimNode) {
	type acc struct{ hits, gets, nodes int }
	initial := map[string]bool{} // algo + node
	by := map[int]*acc{}
	for _, n := range rows {
		k := n.Algo + "\x00" + n.Node
		if n.Window == 0 && !initial[k] {
			initial[k] = true
			if by[n.CapacityBytes] == nil {
				by[n.CapacityBytes] = &acc{}
			}
			by[n.CapacityBytes].nodes++
		}
		if initial[k] {
			by[n.CapacityBytes].hits += n.Hits
			by[n.CapacityBytes].gets += n.Gets
		}
		if n.Bytes > s.peak {
			s.peak, s.peakCap = n.Bytes, n.CapacityBytes
		}
	}
	placements := max(len(s.summary), 1)
	for b, a := range by {
		if a.gets > 0 {
			s.classes = append(s.classes, memClass{bytes: b, nodes: a.nodes / placements, hit: float64(a.hits) / float64(a.gets)})
		}
	}
	slices.SortFunc(s.classes, func(a, b memClass) int { return cmp.Compare(a.bytes, b.bytes) })
}

// simulateSection is "What does the planned change cost your cache
// fleet?": the replay, each change's storm per placement, the hit ratio
// over the run and what the nodes' memory bought.
func simulateSection(d *Data) section {
	s := section{title: "What does the planned change cost your cache fleet?", plots: []string{"sim-db-reads", "sim-storm-extra", "sim-node-hit-ratio"}}
	sim := d.sim
	if sim == nil {
		s.text = append(s.text, notIn("The fleet simulation", schema.SimSummaryFile.Name))
		return s
	}
	s.text = append(s.text, simReplay(sim))
	for _, at := range simTimes(sim.groups) {
		s.text = append(s.text, simStorm(sim.groups, at))
	}
	var hits []named
	for _, r := range sim.summary {
		if r.HitRatio != nil {
			hits = append(hits, named{Name: r.Algo, V: *r.HitRatio})
		}
	}
	slices.SortStableFunc(hits, func(a, b named) int { return cmp.Compare(b.V, a.V) })
	if len(hits) > 0 {
		line := fmt.Sprintf("Over the whole replay the hit ratio is %s down to %s.", list(head(hits, top), pct2, ""), list(hits[len(hits)-1:], pct2, ""))
		if n := len(hits); n >= 3 {
			// One trace, one layout per placement: no interval, so the
			// sentence says how close the rest are rather than ranking them.
			line += fmt.Sprintf(" The other %d lie within %s percentage points of each other: one replay of one trace, with one layout per placement, gives these numbers no interval, so read them as one draw, not a ranking.",
				n-1, strconv.FormatFloat(100*(hits[0].V-hits[n-2].V), 'f', 2, 64))
		}
		s.text = append(s.text, line)
	}
	if m := simMemory(sim); m != "" {
		s.text = append(s.text, m)
	}
	return s
}

func pct2(x float64) string { return numfmt.Percent(x, 2) }

// simReplay describes the traffic and the fleet.
func simReplay(sim *simReport) string {
	var b strings.Builder
	b.WriteString("The replay (`chbench simulate`, sim-*.csv): ")
	if t := sim.trace; t != nil {
		src := "a generated workload"
		if t.KeyFile != "" {
			src = fmt.Sprintf("the %s trace `%s`", t.Format, filepath.Base(t.KeyFile))
		}
		distinct := count(float64(t.DistinctKeys))
		if !t.DistinctExact {
			distinct = "about " + distinct
		}
		fmt.Fprintf(&b, "%s, %s requests over %s s, %s distinct keys, %s of them reads", src, count(float64(t.Requests)),
			strconv.FormatFloat(t.LastS-t.FirstS, 'g', 4, 64), distinct, numfmt.Percent(float64(t.OpGet+t.OpGets)/float64(max(t.Requests, 1)), 1))
		if ws := t.WarningList(); len(ws) > 0 {
			fmt.Fprintf(&b, " (the reader warns: %s)", strings.Join(ws, "; "))
		}
		b.WriteString(". ")
	}
	r := sim.summary[0]
	fmt.Fprintf(&b, "%d LRU caches at the start", r.Nodes)
	if len(sim.classes) > 0 {
		var parts []string
		total := 0
		for _, c := range sim.classes {
			parts = append(parts, fmt.Sprintf("%d of %s", c.nodes, catalog.HumanBytes(int64(c.bytes))))
			total += c.nodes * c.bytes
		}
		fmt.Fprintf(&b, " (%s: %s in all)", strings.Join(parts, ", "), catalog.HumanBytes(int64(total)))
	}
	fill := "a miss reads the database and fills the cache"
	if !r.Fill {
		fill = "misses do not fill"
	}
	fmt.Fprintf(&b, ", %d bytes of overhead per item; %s; %s-second windows; %d placements compared on the same requests.", r.ItemOverhead, fill,
		strconv.FormatFloat(r.WindowS, 'g', -1, 64), len(sim.summary))
	return b.String()
}

// simTimes returns the change times of groups, in order.
func simTimes(groups []schema.SimEventGroup) []float64 {
	var ats []float64
	for _, g := range groups {
		if !slices.Contains(ats, g.First.AtS) {
			ats = append(ats, g.First.AtS)
		}
	}
	slices.Sort(ats)
	return ats
}

// simStorm is the takeaway of the change at time at: the peak database
// load per placement, lowest first, and the extra database reads to the
// refill with the refill time.
func simStorm(groups []schema.SimEventGroup, at float64) string {
	var peaks, extras []named
	refill := map[string]string{}
	change := ""
	for _, g := range groups {
		e := g.First
		if e.AtS != at {
			continue
		}
		change = g.Change
		if e.PeakMultiple != nil {
			peaks = append(peaks, named{Name: e.Algo, V: *e.PeakMultiple})
		}
		if e.ExtraToRefill != nil {
			extras = append(extras, named{Name: e.Algo, V: *e.ExtraToRefill})
		}
		refill[e.Algo] = "not refilled by the end"
		if e.RefillS != nil {
			refill[e.Algo] = "refilled after " + strconv.FormatFloat(*e.RefillS, 'g', -1, 64) + " s"
		}
	}
	t := fmt.Sprintf("**Takeaway:** at %s s, %s", strconv.FormatFloat(at, 'g', -1, 64), change)
	if len(peaks) == 0 {
		return t + ": the replay has no baseline before this change (no gets in the windows before it), so its storm cannot be measured."
	}
	byValue := func(a, b named) int { return cmp.Compare(a.V, b.V) }
	slices.SortStableFunc(peaks, byValue)
	slices.SortStableFunc(extras, byValue)
	t += fmt.Sprintf(": database reads peak at %s up to %s the baseline.", list(head(peaks, top), fixed2, "x"), list(peaks[len(peaks)-1:], fixed2, "x"))
	if len(extras) > 0 {
		shown := slices.Clone(head(extras, top))
		if len(extras) > top {
			shown = append(shown, extras[len(extras)-1])
		}
		parts := make([]string, 0, len(shown))
		for i, n := range shown {
			unit := ""
			if i == 0 {
				unit = " extra database reads"
			}
			parts = append(parts, fmt.Sprintf("`%s` %s%s (%s)", n.Name, numfmt.Thousands(n.V), unit, refill[n.Name]))
		}
		if last := len(parts) - 1; last > 0 {
			t += fmt.Sprintf(" Until the caches refill, the storm costs %s, up to %s.", strings.Join(parts[:last], ", "), parts[last])
		} else {
			t += fmt.Sprintf(" Until the caches refill, the storm costs %s.", parts[0])
		}
	}
	return t
}

// simMemory says what memory bought: the initial members' hit ratio per
// memory size, and the most any node held.
func simMemory(sim *simReport) string {
	if len(sim.classes) < 2 && sim.peak == 0 {
		return ""
	}
	var parts []string
	for i := len(sim.classes) - 1; i >= 0; i-- {
		c := sim.classes[i]
		parts = append(parts, fmt.Sprintf("nodes of %s hit %s of their gets", catalog.HumanBytes(int64(c.bytes)), pct2(c.hit)))
	}
	out := ""
	if len(parts) > 1 {
		out = "Memory: " + strings.Join(parts, ", ") + " (members from the start, over every placement's replay). "
	}
	if sim.peak > 0 {
		out += fmt.Sprintf("The most any node held at a window's end was %s of its %s.", catalog.HumanBytes(int64(sim.peak)), catalog.HumanBytes(int64(sim.peakCap)))
	}
	return out
}
