package propagate

import (
	"math"
	"testing"

	"github.com/chbench/chbench/analysis"
)

// The headline scenario at a tenth of its request rate (1,000 requests/s
// over the 30 s rollout of one join at 100 nodes): every request lies in
// the rollout, so the expectation is exactly m * Rate * T/2, the simulated
// count is within its 99.9% interval of it (8 checks: a correct model
// fails one by chance with probability under 1%), and modulo (m = 1 -
// 100/10100 = 99.0%) sends more than 50 times as many requests astray as
// ring, rendezvous or jump (m about 1/101).
func TestHeadline(t *testing.T) {
	h := DefaultHeadline()
	h.Algorithms = []string{"modulo", "ring", "rendezvous", "jump"}
	h.Rate = 1000
	res, err := Headline(h)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Totals {
		if r.Requests != h.Rate*h.Rollout {
			t.Errorf("%s: %v requests, want %v", r.Algorithm, r.Requests, h.Rate*h.Rollout)
		}
		if want := r.Moved * h.Rate * h.Rollout / 2; math.Abs(r.MisroutedExpected-want) > 1e-9*want {
			t.Errorf("%s: expected astray %v, want m Rate T/2 = %v", r.Algorithm, r.MisroutedExpected, want)
		}
		for _, c := range []struct {
			name string
			e    analysis.Estimate
			want float64
		}{{"stale", r.Stale, r.StaleExpected}, {"astray", r.Misrouted, r.MisroutedExpected}} {
			if ok, half := within(c.e, c.want, h.Replays, 0.999); !ok {
				t.Errorf("%s %s: simulated %.1f, expected %.1f, off by more than %.1f", r.Algorithm, c.name, c.e.Mean, c.want, half)
			}
		}
		if r.Algorithm != "modulo" && 50*r.Misrouted.Mean > res.Totals[0].Misrouted.Mean {
			t.Errorf("%s sends %v astray, modulo %v: want modulo above 50 times", r.Algorithm, r.Misrouted.Mean, res.Totals[0].Misrouted.Mean)
		}
	}
	if m := res.Totals[0].Moved; math.Abs(m-(1-100.0/10100)) > 0.005 {
		t.Errorf("modulo moved %v of the requests, want about 1 - 100/10100 = 0.990", m)
	}
}
