package simulate

import (
	"math"
	"strings"

	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/trace"
)

// Rows are a run's result rows (package schema), in the order of the
// placements and, within one, of windows, nodes and events.
type Rows struct {
	Windows []schema.SimWindow
	Nodes   []schema.SimNode
	Events  []schema.SimEvent
	Summary []schema.SimSummary
	Trace   []schema.TraceStats // one row: what the trace held
}

// Rows returns the rows of out, a run of cfg; rc is the configuration
// every row records (its Algo is set to each placement's label). A hit
// ratio is missing where there were no gets, an event's storm where the
// trace ended before it, its peak multiple without a baseline above 0,
// its refill time where the miss ratio never came back.
func (out *Outcome) Rows(cfg Config, rc schema.Config) Rows {
	var rs Rows
	for _, res := range out.Results {
		c := rc
		c.Algo = res.Placement
		capacity := map[int]int64{} // members' memory per window, from the node rows
		for _, nw := range res.Nodes {
			if nw.Member {
				capacity[nw.Window] += nw.Capacity
			}
			rs.Nodes = append(rs.Nodes, schema.SimNode{Window: nw.Window, Node: nw.Node, Member: nw.Member, Down: nw.Down,
				CapacityBytes: int(nw.Capacity), Bytes: int(nw.Bytes), Items: int(nw.Items), Gets: int(nw.Gets), Hits: int(nw.Hits),
				HitRatio: ratio(nw.Hits, nw.Gets), Config: c})
		}
		for _, w := range res.Windows {
			rs.Windows = append(rs.Windows, schema.SimWindow{Window: w.Index, StartS: w.Start.Seconds(), EndS: w.End.Seconds(), Partial: w.Partial,
				Requests: int(w.Requests), Gets: int(w.Gets), Hits: int(w.Hits), DBReads: int(w.DBReads), Writes: int(w.Writes), Deletes: int(w.Deletes),
				HitRatio: ratio(w.Hits, w.Gets), DBReadsPerS: w.DBReadsPerSec, Bytes: int(w.Bytes), Items: int(w.Items),
				Evictions: int(w.Evictions), Expired: int(w.Expired), Members: w.Members, CapacityBytes: int(capacity[w.Index]), Config: c})
		}
		for _, e := range res.Events {
			rs.Events = append(rs.Events, eventRow(e, c))
		}
		t := res.Totals
		rs.Summary = append(rs.Summary, schema.SimSummary{Nodes: len(cfg.Nodes), Events: len(cfg.Events),
			Requests: int(t.Requests), Gets: int(t.Gets), Hits: int(t.Hits), HitRatio: ratio(t.Hits, t.Gets), DBReads: int(t.DBReads),
			Writes: int(t.Writes), Deletes: int(t.Deletes), Evictions: int(t.Evictions), Expired: int(t.Expired), TooLarge: int(t.TooLarge),
			DownReads: int(t.DownReads), ZeroSizeFills: int(t.ZeroSizeFills), PeakNodeBytes: int(t.PeakBytes),
			WindowS: cfg.Window.Seconds(), ItemOverhead: int(cfg.ItemOverhead), Fill: !cfg.NoFill, Config: c})
	}
	if out.Stats != nil {
		rs.Trace = []schema.TraceStats{StatsRow(out.Stats, schema.Config{KeyFile: rc.KeyFile, Seed: rc.Seed, GoVersion: rc.GoVersion, Commit: rc.Commit})}
	}
	return rs
}

// eventRow is the row of one event's storm.
func eventRow(e EventResult, c schema.Config) schema.SimEvent {
	r := schema.SimEvent{Event: e.Index, AtS: e.Event.At.Seconds(), Kind: e.Event.Kind.String(), Node: e.Event.Node.ID,
		DetectS: e.Event.Detect.Seconds(), Reached: e.Reached, Refilled: e.Refilled, Config: c}
	if e.Event.Kind == Join || e.Event.Kind == Reweight {
		w := e.Event.Node.Weight
		r.Weight = &w
	}
	if !e.Reached {
		return r
	}
	peak, win, minHit := e.PeakDBReadsPerSec, e.PeakWindow, e.MinHitRatio
	r.PeakDBReadsS, r.PeakWindow, r.MinHitRatio = &peak, &win, &minHit
	if e.BaselineKnown {
		miss, dbs, extra, toRefill := e.BaselineMissRatio, e.BaselineDBs, e.ExtraDBReads, e.ExtraToRefill
		r.BaselineMissRatio, r.BaselineDBReadsS, r.ExtraDBReads, r.ExtraToRefill = &miss, &dbs, &extra, &toRefill
		if e.BaselineDBs > 0 {
			m := e.PeakMultiple
			r.PeakMultiple = &m
		}
	}
	if e.Refilled {
		s, w := e.RefillTime.Seconds(), e.RefillWindow
		r.RefillS, r.RefillWindow = &s, &w
	}
	return r
}

// ratio returns hits/gets, nil when gets is 0.
func ratio(hits, gets int64) *float64 {
	if gets == 0 {
		return nil
	}
	r := float64(hits) / float64(gets)
	return &r
}

// StatsRow is the row of what a trace reader read; rc gives the trace's
// path (key_file), seed and build.
func StatsRow(st *trace.Stats, rc schema.Config) schema.TraceStats {
	r := schema.TraceStats{Format: st.Format, Compressed: st.Compressed, InputBytes: clampInt(st.InputBytes), Records: clampInt(st.Records),
		Requests: clampInt(st.Requests), BadRecords: clampInt(st.BadRecords), DistinctKeys: clampInt(st.DistinctKeys), DistinctExact: st.DistinctExact,
		Bytes: clampInt(st.Bytes), HasTime: st.HasTime, Clients: clampInt(st.DistinctClients), ZeroSizeReads: clampInt(st.ZeroSizeReads),
		Config: rc}
	var ws []string
	for _, w := range st.Warnings() { // a key quoted in a warning may hold the separator
		ws = append(ws, strings.ReplaceAll(w, schema.WarningSep, " / "))
	}
	r.Warnings = strings.Join(ws, schema.WarningSep)
	if st.HasTime && st.Records > 0 {
		r.FirstS, r.LastS = st.First.Seconds(), st.Last.Seconds()
	}
	ops := []*int{&r.OpGet, &r.OpGets, &r.OpSet, &r.OpAdd, &r.OpReplace, &r.OpCas, &r.OpAppend, &r.OpPrepend, &r.OpDelete, &r.OpIncr, &r.OpDecr}
	for op, n := range st.Ops {
		*ops[op] = clampInt(n)
	}
	return r
}

// The operation columns of schema.TraceStats are trace's operations.
var _ = [1]struct{}{}[trace.NumOps-11]

func clampInt(n int64) int { return int(min(n, math.MaxInt)) }
