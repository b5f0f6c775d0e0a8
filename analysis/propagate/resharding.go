package propagate

import (
	"fmt"
	"runtime"
	"slices"

	"github.com/chbench/chbench/schema"
)

// Slack returns the median and 99.9th percentile of the round trips
// (Done - Sent, seconds) of reqs and the slack [ExpectRedirects] takes
// from them: twice the 99.9th percentile. An observation of a migration
// (redis-cli printing a dot, the client reading it) lags its event by the
// time two processes on the machine take to be scheduled, which the
// client's own round trips (each a process woken by bytes on a local
// socket) bound. It returns an error for no requests or a request answered
// before it was sent.
func Slack(reqs []SlotRequest) (p50, p999, slack float64, err error) {
	if len(reqs) == 0 {
		return 0, 0, 0, fmt.Errorf("redirects: no requests to time the round trips")
	}
	rtt := make([]float64, len(reqs))
	for i, r := range reqs {
		if !(r.Done >= r.Sent) {
			return 0, 0, 0, fmt.Errorf("redirects: request %d sent at %v s, answered at %v s: need sent <= answered", i, r.Sent, r.Done)
		}
		rtt[i] = r.Done - r.Sent
	}
	slices.Sort(rtt)
	p50, p999 = rtt[len(rtt)/2], rtt[len(rtt)*999/1000]
	return p50, p999, 2 * p999, nil
}

// Resharding describes a live resharding for its result rows: what was
// moved, how the client sent its requests, and the migration's span.
type Resharding struct {
	Slots, ControlSlots, KeysPerSlot, Pipeline int
	Rate, Writes                               float64 // the client's most requests per second and its SET fraction
	Seed                                       uint64
	RedisVersion                               string
	MigrationStart, MigrationEnd               float64 // seconds from the client's start
	RoundTripP50, RoundTripP999                float64 // seconds
	Commit                                     string
}

// RedirectRows returns the rows of model m of resharding r: one per
// window, then the whole run (window -1).
func RedirectRows(r Resharding, m RedirectModel) []schema.Redirect {
	base := schema.Redirect{Slots: r.Slots, ControlSlots: r.ControlSlots, KeysPerSlot: r.KeysPerSlot, Pipeline: r.Pipeline,
		Rate: r.Rate, Writes: r.Writes, RedisVersion: r.RedisVersion, MigrationStartS: r.MigrationStart, MigrationEndS: r.MigrationEnd,
		RoundTripP50S: r.RoundTripP50, RoundTripP999S: r.RoundTripP999, SlackS: m.Slack,
		Config: schema.Config{Algo: "slots", Seed: r.Seed, GoVersion: runtime.Version(), Commit: r.Commit}}
	var rows []schema.Redirect
	for i, w := range append(slices.Clone(m.Windows), m.Total) {
		row := base
		row.Window = i
		if i == len(m.Windows) {
			row.Window = -1
		}
		row.StartS, row.EndS, row.Requests = w.Start, w.End, w.Requests
		row.Ask, row.AskModel, row.AskModelLo, row.AskModelHi, row.AskSD = w.Asked, w.AskExpected, w.AskLo, w.AskHi, w.AskSD
		row.Moved, row.MovedModelLo, row.MovedModelHi = w.Moved, w.MovedLo, w.MovedHi
		rows = append(rows, row)
	}
	return rows
}
