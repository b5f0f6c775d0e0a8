package schema

import (
	"fmt"
	"strconv"
	"strings"
)

// The rows of a fleet simulation (chbench simulate, package
// analysis/simulate): per placement a time series ([SimWindow], and per
// node [SimNode]), the storm of each membership event ([SimEvent]) and the
// replay's totals ([SimSummary]); and what the trace held ([TraceStats]).
// Every row's algo is the placement's label; its Config records the
// placements' settings, the trace (key_file; empty for a generated
// workload) and the seed. The columns are documented in the package
// documentation (Fleet simulation).

// SimWindow is one window of one placement's replay: one row of
// sim-window.csv.
type SimWindow struct {
	Window        int      `json:"window"`
	StartS        float64  `json:"start_s"`
	EndS          float64  `json:"end_s"`
	Partial       bool     `json:"partial"`
	Requests      int      `json:"requests"`
	Gets          int      `json:"gets"`
	Hits          int      `json:"hits"`
	DBReads       int      `json:"db_reads"`
	Writes        int      `json:"writes"`
	Deletes       int      `json:"deletes"`
	HitRatio      *float64 `json:"hit_ratio"` // nil when the window has no gets
	DBReadsPerS   float64  `json:"db_reads_per_s"`
	Bytes         int      `json:"bytes"`
	Items         int      `json:"items"`
	Evictions     int      `json:"evictions"`
	Expired       int      `json:"expired"`
	Members       int      `json:"members"`
	CapacityBytes int      `json:"capacity_bytes"` // the members' memory at the window's end
	Config        `json:"config"`
}

func (SimWindow) columns() []string {
	return []string{
		"algo", "window", "start_s", "end_s", "partial", "requests", "gets", "hits", "db_reads", "writes", "deletes",
		"hit_ratio", "db_reads_per_s", "bytes", "items", "evictions", "expired", "members", "capacity_bytes",
		"~hash", "~vnodes", "~seed", "~key_file", "~go_version", "~commit",
	}
}

// check: counts are not negative, hits at most gets, db reads at most
// gets (a read that misses reads the database once), the window ends
// after it starts.
func (r SimWindow) check() error {
	if err := notNegative(map[string]float64{"window": float64(r.Window), "start_s": r.StartS, "requests": float64(r.Requests), "gets": float64(r.Gets),
		"hits": float64(r.Hits), "db_reads": float64(r.DBReads), "writes": float64(r.Writes), "deletes": float64(r.Deletes), "db_reads_per_s": r.DBReadsPerS,
		"bytes": float64(r.Bytes), "items": float64(r.Items), "evictions": float64(r.Evictions), "expired": float64(r.Expired), "capacity_bytes": float64(r.CapacityBytes)}); err != nil {
		return err
	}
	if err := fractions(map[string]*float64{"hit_ratio": r.HitRatio}); err != nil {
		return err
	}
	switch {
	case r.EndS < r.StartS:
		return columnErr("end_s", "%v before start_s %v", r.EndS, r.StartS)
	case r.Hits+r.DBReads > r.Gets:
		return columnErr("hits", "%d hits and %d database reads of %d gets", r.Hits, r.DBReads, r.Gets)
	case (r.HitRatio == nil) != (r.Gets == 0):
		return columnErr("hit_ratio", "must be missing exactly when gets is 0 (gets %d)", r.Gets)
	}
	return nil
}

// SimNode is one node's row of one window of one placement's replay: one
// row of sim-node.csv, for every node that was a member at some time in
// the window.
type SimNode struct {
	Window        int      `json:"window"`
	Node          string   `json:"node"`
	Member        bool     `json:"member"` // in the membership at the window's end
	Down          bool     `json:"down"`   // failed and not yet detected at the window's end
	CapacityBytes int      `json:"capacity_bytes"`
	Bytes         int      `json:"bytes"`
	Items         int      `json:"items"`
	Gets          int      `json:"gets"`
	Hits          int      `json:"hits"`
	HitRatio      *float64 `json:"hit_ratio"` // nil when the node had no gets in the window
	Config        `json:"config"`
}

func (SimNode) columns() []string {
	return []string{
		"algo", "window", "node", "member", "down", "capacity_bytes", "bytes", "items", "gets", "hits", "hit_ratio",
		"~hash", "~vnodes", "~seed", "~key_file", "~go_version", "~commit",
	}
}

// check: counts are not negative, hits at most gets, a node holds at
// most its capacity.
func (r SimNode) check() error {
	if err := notNegative(map[string]float64{"window": float64(r.Window), "capacity_bytes": float64(r.CapacityBytes), "bytes": float64(r.Bytes),
		"items": float64(r.Items), "gets": float64(r.Gets), "hits": float64(r.Hits)}); err != nil {
		return err
	}
	if err := fractions(map[string]*float64{"hit_ratio": r.HitRatio}); err != nil {
		return err
	}
	switch {
	case r.Hits > r.Gets:
		return columnErr("hits", "%d hits of %d gets", r.Hits, r.Gets)
	case r.Bytes > r.CapacityBytes:
		return columnErr("bytes", "%d bytes held, over the node's capacity of %d", r.Bytes, r.CapacityBytes)
	case (r.HitRatio == nil) != (r.Gets == 0):
		return columnErr("hit_ratio", "must be missing exactly when gets is 0 (gets %d)", r.Gets)
	}
	return nil
}

// SimEvent is the storm one membership event caused in one placement's
// replay: one row of sim-event.csv. Events at the same time share one
// storm, so their rows repeat it.
type SimEvent struct {
	Event             int      `json:"event"` // the event's position in the script, 0-based
	AtS               float64  `json:"at_s"`
	Kind              string   `json:"kind"` // join, leave, fail, reweight
	Node              string   `json:"node"`
	Weight            *float64 `json:"weight"`   // join's and reweight's weight; missing for leave and fail
	DetectS           float64  `json:"detect_s"` // fail: seconds until clients drop the node
	Reached           bool     `json:"reached"`  // false: the trace ended first (the storm columns are then missing)
	BaselineMissRatio *float64 `json:"baseline_miss_ratio"`
	BaselineDBReadsS  *float64 `json:"baseline_db_reads_per_s"`
	PeakDBReadsS      *float64 `json:"peak_db_reads_per_s"`
	PeakWindow        *int     `json:"peak_window"`
	PeakMultiple      *float64 `json:"peak_multiple"` // missing without a baseline above 0
	MinHitRatio       *float64 `json:"min_hit_ratio"`
	ExtraDBReads      *float64 `json:"extra_db_reads"` // to the next event or the end; may be negative: an event that adds memory lowers the miss ratio
	ExtraToRefill     *float64 `json:"extra_db_reads_to_refill"`
	Refilled          bool     `json:"refilled"`
	RefillS           *float64 `json:"refill_s"` // missing when not refilled
	RefillWindow      *int     `json:"refill_window"`
	Config            `json:"config"`
}

func (SimEvent) columns() []string {
	return []string{
		"algo", "event", "at_s", "kind", "node", "weight", "detect_s", "reached",
		"baseline_miss_ratio", "baseline_db_reads_per_s", "peak_db_reads_per_s", "peak_window", "peak_multiple",
		"min_hit_ratio", "extra_db_reads", "extra_db_reads_to_refill", "refilled", "refill_s", "refill_window",
		"~hash", "~vnodes", "~seed", "~key_file", "~go_version", "~commit",
	}
}

// check: the kind is an event kind, a refill has a time, a storm that was
// not reached has no columns.
func (r SimEvent) check() error {
	if err := fractions(map[string]*float64{"baseline_miss_ratio": r.BaselineMissRatio, "min_hit_ratio": r.MinHitRatio}); err != nil {
		return err
	}
	switch {
	case !strings.Contains(" join leave fail reweight ", " "+r.Kind+" "):
		return columnErr("kind", "%q: want join, leave, fail or reweight", r.Kind)
	case r.AtS < 0 || r.DetectS < 0:
		return columnErr("at_s", "%v and detect_s %v must be >= 0", r.AtS, r.DetectS)
	case r.Refilled != (r.RefillS != nil):
		return columnErr("refill_s", "must be given exactly when refilled")
	case !r.Reached && (r.PeakDBReadsS != nil || r.Refilled):
		return columnErr("reached", "false, but the storm has values")
	}
	return nil
}

// SimSummary is one placement's whole replay: one row of sim-summary.csv.
type SimSummary struct {
	Nodes         int      `json:"nodes"` // members at the first request
	Events        int      `json:"events"`
	Requests      int      `json:"requests"`
	Gets          int      `json:"gets"`
	Hits          int      `json:"hits"`
	HitRatio      *float64 `json:"hit_ratio"` // nil without gets
	DBReads       int      `json:"db_reads"`
	Writes        int      `json:"writes"`
	Deletes       int      `json:"deletes"`
	Evictions     int      `json:"evictions"`
	Expired       int      `json:"expired"`
	TooLarge      int      `json:"too_large"`
	DownReads     int      `json:"down_reads"`
	ZeroSizeFills int      `json:"zero_size_fills"`
	PeakNodeBytes int      `json:"peak_node_bytes"`
	WindowS       float64  `json:"window_s"`
	ItemOverhead  int      `json:"item_overhead"`
	Fill          bool     `json:"fill"` // misses fill the cache (look-aside); false with -no-fill
	Config        `json:"config"`
}

func (SimSummary) columns() []string {
	return []string{
		"algo", "nodes", "events", "requests", "gets", "hits", "hit_ratio", "db_reads", "writes", "deletes",
		"evictions", "expired", "too_large", "down_reads", "zero_size_fills", "peak_node_bytes", "window_s", "item_overhead", "fill",
		"hash", "vnodes", "seed", "key_file", "~go_version", "~commit",
	}
}

// check: hits and database reads fit in the gets.
func (r SimSummary) check() error {
	if err := fractions(map[string]*float64{"hit_ratio": r.HitRatio}); err != nil {
		return err
	}
	if r.Hits+r.DBReads > r.Gets || r.Hits < 0 || r.DBReads < 0 {
		return columnErr("hits", "%d hits and %d database reads of %d gets", r.Hits, r.DBReads, r.Gets)
	}
	if (r.HitRatio == nil) != (r.Gets == 0) {
		return columnErr("hit_ratio", "must be missing exactly when gets is 0 (gets %d)", r.Gets)
	}
	return nil
}

// TraceStats is what a trace reader read (trace.Stats): one row of
// sim-trace.csv, and the output of chbench trace.
type TraceStats struct {
	Format        string  `json:"format"`
	Compressed    bool    `json:"compressed"`
	InputBytes    int     `json:"input_bytes"`
	Records       int     `json:"records"`
	Requests      int     `json:"requests"`
	BadRecords    int     `json:"bad_records"`
	DistinctKeys  int     `json:"distinct_keys"`
	DistinctExact bool    `json:"distinct_exact"`
	Bytes         int     `json:"bytes"`
	HasTime       bool    `json:"has_time"`
	FirstS        float64 `json:"first_s"`
	LastS         float64 `json:"last_s"`
	OpGet         int     `json:"op_get"`
	OpGets        int     `json:"op_gets"`
	OpSet         int     `json:"op_set"`
	OpAdd         int     `json:"op_add"`
	OpReplace     int     `json:"op_replace"`
	OpCas         int     `json:"op_cas"`
	OpAppend      int     `json:"op_append"`
	OpPrepend     int     `json:"op_prepend"`
	OpDelete      int     `json:"op_delete"`
	OpIncr        int     `json:"op_incr"`
	OpDecr        int     `json:"op_decr"`
	Clients       int     `json:"clients"`
	ZeroSizeReads int     `json:"zero_size_reads"`
	Warnings      string  `json:"warnings"` // the reader's warnings, joined by WarningSep
	Config        `json:"config"`
}

// WarningSep separates the warnings in TraceStats.Warnings.
const WarningSep = " | "

// WarningList returns the warnings of r, one per entry.
func (r TraceStats) WarningList() []string {
	if r.Warnings == "" {
		return nil
	}
	return strings.Split(r.Warnings, WarningSep)
}

func (TraceStats) columns() []string {
	return []string{
		"format", "compressed", "input_bytes", "records", "requests", "bad_records", "distinct_keys", "distinct_exact", "bytes",
		"has_time", "first_s", "last_s",
		"op_get", "op_gets", "op_set", "op_add", "op_replace", "op_cas", "op_append", "op_prepend", "op_delete", "op_incr", "op_decr",
		"clients", "zero_size_reads", "warnings", "key_file", "seed", "~go_version", "~commit",
	}
}

// check: counts are not negative, the clock does not end before it
// starts.
func (r TraceStats) check() error {
	if err := notNegative(map[string]float64{"input_bytes": float64(r.InputBytes), "records": float64(r.Records), "requests": float64(r.Requests),
		"bad_records": float64(r.BadRecords), "distinct_keys": float64(r.DistinctKeys), "bytes": float64(r.Bytes), "clients": float64(r.Clients),
		"zero_size_reads": float64(r.ZeroSizeReads)}); err != nil {
		return err
	}
	if r.LastS < r.FirstS {
		return columnErr("last_s", "%v before first_s %v", r.LastS, r.FirstS)
	}
	return nil
}

// fractions returns a *ColumnError for the first column of cols, in
// name order, that is given and outside 0..1.
func fractions(cols map[string]*float64) error {
	var bad string
	for name, v := range cols {
		if v != nil && (*v < 0 || *v > 1) && (bad == "" || name < bad) {
			bad = name
		}
	}
	if bad != "" {
		return columnErr(bad, "%v is not a fraction in 0..1", *cols[bad])
	}
	return nil
}

// notNegative returns a *ColumnError for the first column of cols, in
// name order, whose value is negative.
func notNegative(cols map[string]float64) error {
	var bad string
	for name, v := range cols {
		if v < 0 && (bad == "" || name < bad) {
			bad = name
		}
	}
	if bad != "" {
		return columnErr(bad, "%v is negative", cols[bad])
	}
	return nil
}

// SimEventGroup is the events of one placement at one time: one storm.
type SimEventGroup struct {
	First  SimEvent // the first event's row (its storm is the group's)
	Count  int
	Change string // "join node-40 ... node-59 (20 nodes)", "fail node-7 (detected after 5s)"
}

// SimEventGroups groups rows (in a run's order) by placement and time.
func SimEventGroups(rows []SimEvent) []SimEventGroup {
	var out []SimEventGroup
	var ids []string
	flush := func() {
		g := &out[len(out)-1]
		g.Change = change(g.First, ids)
	}
	for _, e := range rows {
		if n := len(out); n > 0 && out[n-1].First.Algo == e.Algo && out[n-1].First.AtS == e.AtS {
			out[n-1].Count++
			if e.Kind == out[n-1].First.Kind {
				ids = append(ids, e.Node)
			} else {
				ids = append(ids, e.Kind+" "+e.Node)
			}
			flush()
			continue
		}
		out = append(out, SimEventGroup{First: e, Count: 1})
		ids = []string{e.Node}
		flush()
	}
	return out
}

// change describes the events of a group whose first event is e and
// whose nodes are ids.
func change(e SimEvent, ids []string) string {
	s := e.Kind + " " + ids[0]
	if len(ids) > 1 {
		s = fmt.Sprintf("%s %s ... %s (%d nodes)", e.Kind, ids[0], ids[len(ids)-1], len(ids))
	}
	switch {
	case e.Kind == "fail" && e.DetectS > 0:
		s += " (detected after " + formatFloat(e.DetectS) + "s)"
	case e.Weight != nil && (e.Kind == "reweight" || *e.Weight != 1):
		s += " weight " + formatFloat(*e.Weight)
	}
	return s
}

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
