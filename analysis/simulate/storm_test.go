package simulate_test

import (
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// stormZ is how many binomial standard deviations a window may stray from
// the model: 4.5 (two-sided p = 7e-6 per window; about 450 windows are
// checked, so a correct simulation fails with probability under 0.5%,
// and the fixed seed makes it pass or fail the same way every time).
const stormZ = 4.5

// The storm model's assumptions, made true: uniform popularity over K =
// 20,000 keys; caches large enough never to evict; steady misses from
// deletes (1% of requests): a get misses exactly when the last request for
// its key was a delete, so every get hits with probability h = 0.99,
// memorylessly, before and after the change, as the model's steady misses;
// and a key moves with the placement, whatever its popularity. Requests
// arrive at 10,000/s (9,900 gets/s, tau = K/Q = 2.02 s); after 40 s
// (warm: a key is unread with probability exp(-Q 40 s/K) = 3e-9) node-10
// joins 10 nodes, and the replay runs 20 s (10 tau) more.
//
// Checked per placement, against analysis.StormModel with the moved
// fraction f counted on the 20,000 keys:
//   - every window's hit ratio from 20 s on, against the model's mean over
//     that window (MeanHitBetween), within stormZ binomial standard
//     deviations of the window's gets;
//   - the storm's peak miss ratio, between the first window's expectation
//     less stormZ deviations and the largest window expectation plus
//     stormZ deviations;
//   - the refill window, inside the central 1 - 2e-4 of its distribution:
//     the first window whose miss ratio is at most 1.1 times the
//     baseline's, each window's chance of that taken from the normal
//     approximation of its binomial count, with the baseline's own noise
//     (stormZ deviations of its 20 s of gets) moving the threshold;
//   - the extra database reads, against h f sum(1 - exp(-Q p_i T)) over
//     the 20 s, within stormZ deviations of the steady misses' count over
//     the storm plus the baseline's error times the storm's gets; and the
//     same up to the refill window, against the model at its end.
func TestStormMatchesModel(t *testing.T) {
	const (
		keys     = 20000
		rate     = 10000.0
		deletes  = 0.01
		change   = 40 * time.Second
		end      = 60 * time.Second
		window   = 250 * time.Millisecond
		baseline = 80 // windows: 20 s before the change
	)
	members := nodes(t, 10)
	join := algorithms.Node{ID: "node-10", Weight: 1}
	cfg := simulate.Config{Nodes: members, Capacity: simulate.Capacity{PerWeight: 1 << 20}, Window: window, Baseline: baseline,
		Events: []simulate.Event{{At: change, Kind: simulate.Join, Node: join}}}
	algos := []string{"modulo", "ring", "jump"}
	var ps []simulate.Placement
	for _, a := range algos {
		ps = append(ps, placement(t, a, members))
	}
	w, err := workload.New(workload.Config{Keys: keys, Requests: int64(end.Seconds() * rate), Rate: rate,
		Values: workload.Sizes{Kind: workload.Fixed, Size: 100},
		Ops:    []workload.OpShare{{Op: trace.OpGet, Share: 1 - deletes}, {Op: trace.OpDelete, Share: deletes}}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, keys)
	for i := range names {
		names[i] = string(w.Key(nil, i))
	}
	out, err := simulate.Run(w, ps, cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := 1 - deletes
	m := analysis.StormModel{Reads: rate * h, HitRatio: h, WorkingSet: keys}
	for i, res := range out.Results {
		f := moved(t, ps[i].Locator, append(append([]algorithms.Node{}, members...), join), names)
		ev := res.Events[0]
		if res.Totals.Evictions != 0 || !ev.Reached || !ev.BaselineKnown {
			t.Fatalf("%s: %d evictions, event reached %v with baseline %v: the check needs no evictions and a baseline", res.Placement, res.Totals.Evictions, ev.Reached, ev.BaselineKnown)
		}
		first := -1
		worst := 0.0 // the largest window deviation, in standard deviations
		var storm []simulate.Window
		for j, win := range res.Windows {
			if win.Start < change-baseline*window {
				continue
			}
			want := h
			if win.Start >= change {
				if first < 0 {
					first = j
				}
				want = m.MeanHitBetween(f, (win.Start - change).Seconds(), (win.End - change).Seconds())
				storm = append(storm, win)
			}
			sd := math.Sqrt(want * (1 - want) / float64(win.Gets))
			worst = max(worst, math.Abs(win.HitRatio-want)/sd)
			if math.Abs(win.HitRatio-want) > stormZ*sd {
				t.Errorf("%s window %v..%v: hit ratio %.4f, model %.4f (%.1f standard deviations)", res.Placement, win.Start, win.End, win.HitRatio, want, (win.HitRatio-want)/sd)
			}
		}
		if len(storm) == 0 || ev.PeakWindow < first {
			t.Fatalf("%s: no window after the change, or the peak (window %d) before it (%d)", res.Placement, ev.PeakWindow, first)
		}
		// The peak.
		miss := func(win simulate.Window) float64 {
			return 1 - m.MeanHitBetween(f, (win.Start-change).Seconds(), (win.End-change).Seconds())
		}
		sd := func(p float64, n int64) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }
		peak := res.Windows[ev.PeakWindow]
		got := float64(peak.DBReads) / float64(peak.Gets)
		lo := miss(storm[0]) - stormZ*sd(miss(storm[0]), storm[0].Gets)
		hi := 0.0
		for _, win := range storm {
			hi = max(hi, miss(win)+stormZ*sd(miss(win), win.Gets))
		}
		if got < lo || got > hi {
			t.Errorf("%s: peak miss ratio %.4f outside [%.4f, %.4f]", res.Placement, got, lo, hi)
		}
		// The refill window.
		var baseGets int64
		for _, win := range res.Windows[first-baseline : first] {
			baseGets += win.Gets
		}
		thrLo := simulate.RefillFactor * (1 - h - stormZ*sd(1-h, baseGets))
		thrHi := simulate.RefillFactor * (1 - h + stormZ*sd(1-h, baseGets))
		earliest, latest := crossing(storm, miss, thrHi, 1e-4), crossing(storm, miss, thrLo, 1-1e-4)
		if !ev.Refilled || ev.RefillWindow-first < earliest || ev.RefillWindow-first > latest {
			t.Errorf("%s: refilled %v in storm window %d (%v after the change), want windows %d..%d (model recovery %.2f s)",
				res.Placement, ev.Refilled, ev.RefillWindow-first, ev.RefillTime, earliest, latest, m.RecoveryTime(f, simulate.RefillFactor))
		}
		// The extra database reads.
		var stormGets int64
		for _, win := range storm {
			stormGets += win.Gets
		}
		want := m.ExtraDBReadsBy(f, (end - change).Seconds())
		tol := stormZ * math.Sqrt(float64(stormGets)*h*(1-h)+math.Pow(float64(stormGets), 2)*h*(1-h)/float64(baseGets))
		if math.Abs(ev.ExtraDBReads-want) > tol {
			t.Errorf("%s: %.0f extra database reads, model %.0f +- %.0f", res.Placement, ev.ExtraDBReads, want, tol)
		}
		// The same up to the refill window: the model's extra reads by
		// that window's end, with the deviation of the gets up to it.
		var refillGets int64
		for _, win := range res.Windows[first : ev.RefillWindow+1] {
			refillGets += win.Gets
		}
		wantRefill := m.ExtraDBReadsBy(f, ev.RefillTime.Seconds())
		tolRefill := stormZ * math.Sqrt(float64(refillGets)*h*(1-h)+math.Pow(float64(refillGets), 2)*h*(1-h)/float64(baseGets))
		if math.Abs(ev.ExtraToRefill-wantRefill) > tolRefill {
			t.Errorf("%s: %.0f extra database reads to the refill at %v, model %.0f +- %.0f", res.Placement, ev.ExtraToRefill, ev.RefillTime, wantRefill, tolRefill)
		}
		t.Logf("%s: moved %.4f; windows within %.2f sd of the model (bound %.1f); first window hit %.4f (model %.4f); peak %.0f db reads/s (%.1fx, miss %.4f in [%.4f, %.4f]); refill %v, allowed %v..%v (model recovery %.2f s); extra db reads %.0f (model %.0f +- %.0f)",
			res.Placement, f, worst, stormZ, storm[0].HitRatio, 1-miss(storm[0]), ev.PeakDBReadsPerSec, ev.PeakMultiple, got, lo, hi,
			ev.RefillTime, time.Duration(earliest+1)*window, time.Duration(latest+1)*window, m.RecoveryTime(f, simulate.RefillFactor), ev.ExtraDBReads, want, tol)
	}
}

// moved returns the fraction of keys whose owner differs between loc and
// loc rebalanced to next.
func moved(t *testing.T, loc algorithms.Locator, next []algorithms.Node, keys []string) float64 {
	t.Helper()
	after, err := loc.Rebalance(next)
	if err != nil {
		t.Fatal(err)
	}
	a, b := make([]int, len(keys)), make([]int, len(keys))
	if err := loc.LocateKeys(keys, a); err != nil {
		t.Fatal(err)
	}
	if err := after.LocateKeys(keys, b); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range keys {
		if loc.Nodes()[a[i]].ID != after.Nodes()[b[i]].ID {
			n++
		}
	}
	return float64(n) / float64(len(keys))
}

// crossing returns the storm window by which the first window with a
// miss ratio at most thr has come with probability q: window w's miss
// ratio is normal around miss(w) with its binomial deviation, and
// windows are independent.
func crossing(storm []simulate.Window, miss func(simulate.Window) float64, thr, q float64) int {
	notYet := 1.0
	for j, win := range storm {
		p := miss(win)
		sd := math.Sqrt(p * (1 - p) / float64(win.Gets))
		notYet *= 1 - distuv.UnitNormal.CDF((thr-p)/sd)
		if 1-notYet >= q {
			return j
		}
	}
	return len(storm)
}
