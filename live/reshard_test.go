package live

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/chbench/chbench/analysis/propagate"
)

// A live resharding of 8 slots (1,000 keys each, one key per MIGRATE, so a
// slot takes tens of milliseconds) from the first to the second master,
// while a slot-map-caching client reads and writes keys of those slots
// and of 2 that stay, counted against the redirect model of the same
// migration (propagate.ExpectRedirects) fed with the migration's timing
// as redis-cli printed it.
//
// Tolerances: an observation lags its event by the time two processes on
// this machine take to be scheduled (redis-cli printing a dot, this
// process reading it); the slack is twice the 99.9th percentile of the
// client's own round trips, which bound that delay (each is a process
// woken by bytes on a local socket). Within that timing bracket, the ASK
// count is a sum of independent Bernoulli draws (which key a request
// names, against which have moved), so it must lie within 4 binomial
// standard deviations of the bracket (a correct model fails with
// probability below 1e-4). MOVED is exactly one per migrated slot once
// each has been requested after its hand-over, which the tail guarantees.
// No request to a slot that does not migrate is ever redirected.
func TestRedisReshardRedirects(t *testing.T) {
	t.Parallel()
	need(t, "redis-server", "redis-cli")
	var servers []string
	cfg := ReshardConfig{Slots: 8, ControlSlots: 2, KeysPerSlot: 1000, Pipeline: 1, Rate: 4000, Writes: 0.2,
		Lead: 300 * time.Millisecond, Tail: 300 * time.Millisecond, Seed: 1, Timeout: 90 * time.Second,
		Started: func(addr string) { servers = append(servers, addr) }}
	run, err := RunReshard(context.Background(), cfg)
	if IsMissing(err) {
		unavailable(t, err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range servers {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("server %s still listens after RunReshard returned", a)
		}
	}
	migs, reqs := run.Migrations(), run.SlotRequests()
	p50, p999, slack, err := propagate.Slack(reqs)
	if err != nil {
		t.Fatal(err)
	}
	end := reqs[len(reqs)-1].Done
	model, err := propagate.ExpectRedirects(migs, reqs, slack, 0, end, 12)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("redis %s, %s -> %s: %d slots x %d keys, one key per MIGRATE, %.2f..%.2f s; %d requests (%.0f/s), round trip p50 %.3f ms, p99.9 %.3f ms, slack %.3f ms",
		run.Version, run.Source, run.Target, len(migs), cfg.KeysPerSlot, migs[0].Start, migs[len(migs)-1].End, len(reqs), float64(len(reqs))/end,
		1e3*p50, 1e3*p999, 1e3*slack)
	t.Logf("%-13s %8s %6s %9s %17s %6s %10s", "seconds", "requests", "ASK", "ASK model", "bracket ± 4 sd", "MOVED", "MOVED model")
	for _, w := range append(model.Windows, model.Total) {
		t.Logf("%5.2f..%5.2f %8d %6d %9.1f %7.1f..%7.1f %6d %5d..%d", w.Start, w.End, w.Requests, w.Asked, w.AskExpected,
			max(0, w.AskLo-4*w.AskSD), w.AskHi+4*w.AskSD, w.Moved, w.MovedLo, w.MovedHi)
	}
	tot := model.Total
	if lo, hi := tot.AskLo-4*tot.AskSD, tot.AskHi+4*tot.AskSD; float64(tot.Asked) < lo || float64(tot.Asked) > hi {
		t.Errorf("%d ASK redirects, model %.1f (bracket %.1f..%.1f, sd %.1f): outside %.1f..%.1f", tot.Asked, tot.AskExpected, tot.AskLo, tot.AskHi, tot.AskSD, lo, hi)
	}
	if tot.Asked == 0 {
		t.Errorf("no ASK redirects: the client never met a key already moved")
	}
	if tot.Moved < tot.MovedLo || tot.Moved > tot.MovedHi || tot.MovedLo != cfg.Slots {
		t.Errorf("%d MOVED redirects, model %d..%d; want exactly %d, one per slot", tot.Moved, tot.MovedLo, tot.MovedHi, cfg.Slots)
	}
	migrating := map[int]propagate.SlotMigration{}
	for _, m := range migs {
		migrating[m.Slot] = m
	}
	for _, r := range reqs {
		m, ok := migrating[r.Slot]
		switch {
		case !ok && r.Moved+r.Asked > 0:
			t.Errorf("request at %.4f s to slot %d, which does not migrate: %d MOVED, %d ASK", r.Sent, r.Slot, r.Moved, r.Asked)
		case ok && r.Asked > 0 && (r.Done+slack < m.Start || r.Sent > m.End):
			t.Errorf("ASK at %.4f..%.4f s for slot %d, outside its migration %.4f..%.4f s", r.Sent, r.Done, r.Slot, m.Start, m.End)
		}
	}
}
