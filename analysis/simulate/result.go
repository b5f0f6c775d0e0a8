package simulate

import "time"

// Window is the fleet's row of one window of the time series. Windows are
// Config.Window long on a grid from the first request, and cut at every
// event (so a row never mixes requests before and after a change).
type Window struct {
	Placement  string
	Index      int           // 0-based row number
	Start, End time.Duration // since the first request; End - Start <= Config.Window
	// Partial marks the last row, cut short by the end of the trace: its
	// rates divide by the whole window and understate.
	Partial bool
	// Requests of every operation, and by kind: reads (get, gets), their
	// hits, and database reads (every read that missed: a miss, a read
	// routed to a failed node, an item too large to cache), writes and
	// deletes. Counts are weighted by Request.Count.
	Requests, Gets, Hits, DBReads, Writes, Deletes int64
	// HitRatio is Hits/Gets (0..1); it is 0 when Gets is 0, which a
	// results writer must report as missing.
	HitRatio float64
	// DBReadsPerSec is DBReads / (End - Start) in reads per second.
	DBReadsPerSec float64
	// Bytes and Items are what the fleet holds at End; Evictions and
	// Expired count the items evicted (LRU) and found expired in the window.
	Bytes, Items, Evictions, Expired int64
	Members                          int // nodes in the membership at End
}

// NodeWindow is one node's row of one window: every node that was a
// member at some time in the window.
type NodeWindow struct {
	Placement string
	Window    int // Window.Index
	Node      string
	Member    bool  // in the membership at the window's end
	Down      bool  // failed and not yet detected at the window's end
	Capacity  int64 // bytes
	// Bytes and Items held at the window's end.
	Bytes, Items int64
	// Gets routed to the node in the window and their hits; HitRatio is
	// Hits/Gets, 0 when Gets is 0 (missing).
	Gets, Hits int64
	HitRatio   float64
}

// EventResult is the storm one event caused, read off the windows. The
// baseline is the last Config.Baseline windows before the event (after
// any earlier event); the storm lasts from the event to the next event
// or the end of the trace. Events at the same time share one storm.
type EventResult struct {
	Placement string
	Index     int // the event's position in Config.Events
	Event     Event
	// Reached is false when the trace ended before the event; the other
	// fields are then zero.
	Reached bool
	// Baseline miss ratio (database reads per get) and database reads per
	// second; BaselineKnown is false when no window with gets precedes the
	// event, and the fields that divide by the baseline are then 0.
	BaselineKnown                  bool
	BaselineMissRatio, BaselineDBs float64
	// The storm's peak: the largest window DBReadsPerSec after the event,
	// its window and its multiple of the baseline, and the lowest window
	// hit ratio.
	PeakDBReadsPerSec float64
	PeakWindow        int
	PeakMultiple      float64
	MinHitRatio       float64
	// ExtraDBReads is the database reads beyond the baseline miss ratio,
	// summed over the storm's windows: sum of DBReads - BaselineMissRatio x
	// Gets. Sampling noise can make it negative when the event costs
	// nothing.
	ExtraDBReads float64
	// ExtraToRefill is the same sum over the storm's windows up to and
	// including the refill window (all of them when not refilled): what
	// the storm itself cost, without the new steady state that follows
	// (an event that adds memory lowers the miss ratio after the refill,
	// which ExtraDBReads counts against the storm).
	ExtraToRefill float64
	// Refilled reports whether a window's miss ratio came back within
	// RefillFactor of the baseline before the storm's end; RefillTime is
	// then from the event to the end of the first such window (so its
	// resolution is one window), RefillWindow that window.
	Refilled     bool
	RefillTime   time.Duration
	RefillWindow int
}

// RefillFactor is the multiple of the baseline miss ratio under which the
// cache counts as refilled: analysis.StormRecoveryFactor's 1.1, so a
// simulated refill and the storm model's recovery time measure the same
// thing.
const RefillFactor = 1.1

// Totals sums a replay.
type Totals struct {
	Requests, Gets, Hits, DBReads, Writes, Deletes int64
	Evictions, Expired                             int64
	// TooLarge counts items not stored because they exceed their node's
	// whole capacity; DownReads the reads routed to a failed node before
	// it was detected; ZeroSizeFills the misses filled with a size taken
	// from other requests because theirs was 0.
	TooLarge, DownReads, ZeroSizeFills int64
	// PeakBytes is the most bytes any one node held at a window's end.
	PeakBytes int64
}

// Result is one placement's replay.
type Result struct {
	Placement string
	Windows   []Window
	Nodes     []NodeWindow
	Events    []EventResult
	Totals    Totals
}
