package propagate

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// SlotMigration is the observed timing of one Redis Cluster slot's
// migration from a source master to a target, in seconds on the clock of
// the requests. The observations come late: each is stamped when the
// migrator's output was read, at most a slack after the event.
type SlotMigration struct {
	Slot int
	Keys int // keys the slot held when its migration began, >= 1
	// Start: the migration was announced (before the slot was set
	// migrating on the source).
	Start float64
	// Moved: when each key was seen moved off the source, non-decreasing,
	// at most Keys entries.
	Moved []float64
	// End: by then the source had handed the slot to the target (it
	// answers MOVED from then on).
	End float64
}

// SlotRequest is one request of a client that caches the slot map: on a
// key of Slot, sent at Sent and answered at Done, with the MOVED and ASK
// redirects it met (observed; [ExpectRedirects] compares them with the
// model).
type SlotRequest struct {
	Slot         int
	Sent, Done   float64
	Moved, Asked int
}

// RedirectWindow holds the observed and modelled redirects of the
// requests sent in [Start, End).
type RedirectWindow struct {
	Start, End float64
	Requests   int
	Asked      int // ASK redirects observed
	Moved      int // MOVED redirects observed
	// AskExpected is the model's expected ASK count at the requests'
	// midpoints; AskLo and AskHi bound the expectation over the timing
	// uncertainty; AskSD is the binomial standard deviation of the count
	// around it, sqrt(sum f (1 - f)).
	AskExpected, AskLo, AskHi, AskSD float64
	// MovedLo and MovedHi bound the MOVED count: one per migrated slot,
	// at the first request the source answers after handing it over. In
	// a window, MovedHi counts the slots whose MOVED may fall in it and
	// MovedLo those whose MOVED must; over the whole span they bound the
	// total.
	MovedLo, MovedHi int
}

// RedirectModel is the output of [ExpectRedirects]: the totals and the
// same counts in equal windows.
type RedirectModel struct {
	Slack   float64 // seconds
	Total   RedirectWindow
	Windows []RedirectWindow
}

// ExpectRedirects models the redirects a slot-map-caching client meets
// while slots migrate, as Redis Cluster specifies them (cluster spec,
// "Live reconfiguration"; src/cluster.c getNodeByQuery in Redis 7.0):
//
//   - While slot s migrates, the source still serves the keys it holds
//     and answers ASK for a key already moved (the client then sends
//     ASKING and the command to the target, its map unchanged). A request
//     for a uniformly chosen key of s, processed when k of the K keys have
//     moved, is an ASK with probability f = k/K: the requests' ASKs are
//     independent Bernoulli draws, whose count has variance sum f (1 - f).
//   - Once the source has handed s over, it answers MOVED; the client
//     updates its map, so exactly one MOVED per migrated slot, at the
//     first request after the hand-over; none before, and none for a slot
//     that does not migrate.
//
// Each request is processed at some moment of [Sent, Done]; each
// observation lags its event by at most slack seconds. So f is bracketed:
// at least f(Sent) if the request was certainly answered before the last
// key moved (Done < last move - slack; else 0, since it may already have
// been a MOVED), at most f(Done + slack) unless it was sent after End (then
// 0). AskExpected uses f at the request's midpoint. MOVED for slot s is
// certain if some request of s was sent after End_s and possible if some
// was answered after its last move - slack.
//
// The windows split [start, end) into n equal parts by the requests' Sent;
// requests sent outside it are left out. It returns an error for a
// migration with no keys, more moves than keys, moves out of time order or
// an end before its start, slack < 0, n < 1 or end <= start.
func ExpectRedirects(migs []SlotMigration, reqs []SlotRequest, slack float64, start, end float64, n int) (RedirectModel, error) {
	switch {
	case !(slack >= 0) || math.IsInf(slack, 0):
		return RedirectModel{}, fmt.Errorf("redirects: slack %v s: need a finite number of seconds >= 0", slack)
	case n < 1 || n > MaxWindows:
		return RedirectModel{}, fmt.Errorf("redirects: windows %d: need 1 to %d", n, MaxWindows)
	case !(end > start) || math.IsInf(end-start, 0):
		return RedirectModel{}, fmt.Errorf("redirects: span %v..%v s: need finite start < end", start, end)
	}
	rc := &redirectCounter{slack: slack, start: start, width: (end - start) / float64(n),
		bySlot: map[int]*SlotMigration{}, variance: make([]float64, n), certain: map[int]int{}, possible: map[int]int{}}
	for i := range migs {
		m := &migs[i]
		if m.Keys < 1 || len(m.Moved) > m.Keys {
			return RedirectModel{}, fmt.Errorf("redirects: slot %d: %d keys, %d moves: need >= 1 key and no more moves than keys", m.Slot, m.Keys, len(m.Moved))
		}
		if !(m.Start <= m.End) || !slices.IsSorted(m.Moved) || slices.ContainsFunc(m.Moved, math.IsNaN) {
			return RedirectModel{}, fmt.Errorf("redirects: slot %d: migration %v..%v s with moves %v: need start <= end and moves in time order", m.Slot, m.Start, m.End, m.Moved)
		}
		rc.bySlot[m.Slot] = m
	}
	rc.model = RedirectModel{Slack: slack, Total: RedirectWindow{Start: start, End: end}, Windows: make([]RedirectWindow, n)}
	for w := range rc.model.Windows {
		rc.model.Windows[w].Start, rc.model.Windows[w].End = start+float64(w)*rc.width, start+float64(w+1)*rc.width
	}
	for _, r := range reqs {
		if r.Sent >= start && r.Sent < end { // (not NaN)
			rc.add(r)
		}
	}
	rc.finish()
	return rc.model, nil
}

// redirectCounter accumulates the observed and modelled redirects.
type redirectCounter struct {
	slack, start, width float64
	bySlot              map[int]*SlotMigration
	model               RedirectModel
	variance            []float64 // per window
	// Per migrated slot: the window of the first request that may have
	// met its MOVED (answered after its last move - slack) and of the
	// first that certainly did (sent after End).
	certain, possible map[int]int
}

// add counts request r, sent inside the span.
func (rc *redirectCounter) add(r SlotRequest) {
	w := min(int((r.Sent-rc.start)/rc.width), len(rc.model.Windows)-1)
	win := &rc.model.Windows[w]
	win.Requests++
	win.Asked += r.Asked
	win.Moved += r.Moved
	m, ok := rc.bySlot[r.Slot]
	if !ok {
		return
	}
	last := m.End // when every key had moved, at the latest
	if len(m.Moved) == m.Keys {
		last = m.Moved[m.Keys-1]
	}
	f := func(t float64) float64 {
		return float64(sort.Search(len(m.Moved), func(i int) bool { return m.Moved[i] > t })) / float64(m.Keys)
	}
	if r.Done < last-rc.slack {
		win.AskLo += f(r.Sent)
	}
	if r.Sent <= m.End {
		win.AskHi += f(r.Done + rc.slack)
	}
	if mid := (r.Sent + r.Done) / 2; mid <= m.End {
		p := f(mid)
		win.AskExpected += p
		rc.variance[w] += p * (1 - p)
	}
	if _, seen := rc.certain[r.Slot]; !seen && r.Sent > m.End {
		rc.certain[r.Slot] = w
	}
	if _, seen := rc.possible[r.Slot]; !seen && r.Done >= last-rc.slack {
		rc.possible[r.Slot] = w
	}
}

// finish places each slot's MOVED bounds in the windows and sums the
// totals. Slot s's MOVED falls between the window of its first possible
// and that of its first certain request (the last window when none is
// certain): it can be in any of them, and must be in one when both are
// the same.
func (rc *redirectCounter) finish() {
	wins := rc.model.Windows
	for s, from := range rc.possible {
		to, ok := rc.certain[s]
		if !ok {
			to = len(wins) - 1
		}
		for w := from; w <= to; w++ {
			wins[w].MovedHi++
		}
		if ok && from == to {
			wins[from].MovedLo++
		}
	}
	var totalVar float64
	t := &rc.model.Total
	for w := range wins {
		win := &wins[w]
		win.AskSD = math.Sqrt(rc.variance[w])
		totalVar += rc.variance[w]
		t.Requests += win.Requests
		t.Asked += win.Asked
		t.Moved += win.Moved
		t.AskExpected += win.AskExpected
		t.AskLo += win.AskLo
		t.AskHi += win.AskHi
	}
	t.AskSD = math.Sqrt(totalVar)
	t.MovedLo, t.MovedHi = len(rc.certain), len(rc.possible)
}
