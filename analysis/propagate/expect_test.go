package propagate

import (
	"math"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"gonum.org/v1/gonum/stat/distuv"
)

// within reports whether want lies within the two-sided level-q
// Student-t interval of an estimate over n replays: the reported 95%
// interval's half-width rescaled from t(0.975, n-1) to t((1+q)/2, n-1).
func within(e analysis.Estimate, want float64, n int, q float64) (bool, float64) {
	t95 := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile((1 + q) / 2)
	half := (*e.Hi - e.Mean) / t95 * tq
	return math.Abs(e.Mean-want) <= half, half
}

// The simulated totals match the analytic expectations for the simple
// models: a linear rollout over 2 s, an exponential push with mean 0.5 s,
// and gossip with fan-out 2 and period 0.2 s, each spreading one join (20
// -> 21 nodes, at t = 1 s) to 50 clients sending 4,000 requests/s, with a
// store hand-off of 0.5 s. For each model the stale count and, per
// algorithm, the misrouted, not-yet and any-more counts (10 replays) must
// contain the expectation in their 99.99% interval: 39 checks, so a
// correct model fails one of them by chance with probability about 0.4%
// (at 95%, 87%). The expectations use the same requests' moved fractions,
// so what is checked is the propagation: the stale share integrated over
// the rollout.
func TestSimulatedMatchesExpectation(t *testing.T) {
	algos := []string{"modulo", "ring", "rendezvous", "jump"}
	const replays = 10
	for _, m := range []Model{
		Linear{Duration: 2},
		Push{Delay: Exponential{Mean: 0.5}},
		Gossip{Fanout: 2, Period: 0.2, Seeds: 1},
	} {
		cfg, src := scenario(t, algos, 20, 50, 4000, 4, m, replays)
		cfg.Handoff = 0.5
		res, err := Run(cfg, src)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range res.Totals {
			type check struct {
				name string
				e    analysis.Estimate
				want float64
			}
			checks := []check{{"misrouted", r.Misrouted, r.MisroutedExpected},
				{"not yet", r.NotYet, r.NotYetExpected}, {"any more", r.AnyMore, r.AnyMoreExpected}}
			if i == 0 {
				// Stale does not depend on the algorithm.
				checks = append(checks, check{"stale", r.Stale, r.StaleExpected})
			}
			for _, c := range checks {
				name := c.name
				ok, half := within(c.e, c.want, replays, 0.9999)
				t.Logf("%s %s %s: simulated %.1f (95%% %.1f..%.1f), expected %.1f", m.Spec(), r.Algorithm, name, c.e.Mean, *c.e.Lo, *c.e.Hi, c.want)
				if !ok {
					t.Errorf("%s %s %s: simulated %.1f, expected %.1f: off by more than %.1f (99.99%%)", m.Spec(), r.Algorithm, name, c.e.Mean, c.want, half)
				}
				if c.want <= 0 {
					t.Errorf("%s %s %s: expectation %v, want > 0 in this scenario", m.Spec(), r.Algorithm, name, c.want)
				}
			}
		}
	}
}

// The linear rollout's expectation is exactly m * N/2 for a rollout
// inside the span: N requests evenly spaced over [1, 3) s while the stale
// share falls linearly from 1 to 0 (half of them stale on average).
func TestLinearExpectationClosedForm(t *testing.T) {
	cfg, src := scenario(t, []string{"modulo", "ring"}, 10, 40, 1000, 4, Linear{Duration: 2}, 2)
	res, err := Run(cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	const inRollout = 2000 // requests at t in [1, 3)
	for _, r := range res.Totals {
		if math.Abs(r.StaleExpected-inRollout/2) > 1e-9 {
			t.Errorf("%s: expected stale %v, want N/2 = %v", r.Algorithm, r.StaleExpected, inRollout/2)
		}
		// Moved is over all requests of the replay, the expectation's m is
		// too: m * N/2 exactly.
		if want := r.Moved * inRollout / 2; math.Abs(r.MisroutedExpected-want) > 1e-9*want {
			t.Errorf("%s: expected misrouted %v, want m N/2 = %v", r.Algorithm, r.MisroutedExpected, want)
		}
	}
}

// For a join, the requests that go astray follow the moved fraction:
// modulo (10 -> 11 moves 10/11 of the keys) misroutes more than 5 times
// what ring, rendezvous and jump (about 1/11) do, and across all
// algorithms, whenever one moves more than twice the keys of another, it
// misroutes more requests.
func TestAstrayFollowsMovedFraction(t *testing.T) {
	cfg, src := scenario(t, catalog.Names(), 10, 40, 3000, 3, Linear{Duration: 1.5}, 2)
	res, err := Run(cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Row{}
	for _, r := range res.Totals {
		by[r.Algorithm] = r
	}
	for _, name := range []string{"ring", "rendezvous", "jump"} {
		if mod, r := by["modulo"].Misrouted.Mean, by[name].Misrouted.Mean; mod < 5*r {
			t.Errorf("modulo misrouted %v, %s %v: want modulo above 5 times", mod, name, r)
		}
	}
	for _, a := range res.Totals {
		for _, b := range res.Totals {
			if a.Moved > 2*b.Moved && a.Misrouted.Mean <= b.Misrouted.Mean {
				t.Errorf("%s moves %.3f, %s %.3f, but misroutes %v <= %v", a.Algorithm, a.Moved, b.Algorithm, b.Moved, a.Misrouted.Mean, b.Misrouted.Mean)
			}
		}
	}
}

// Two joins whose rollouts overlap (10 -> 11 at t = 1 s, 11 -> 12 at t =
// 1.5 s, each rolled out over 2 s to 60 clients in its own random order):
// while both propagate, a client may route with version 0, 1 or 2, with
// the probabilities P_j = F_j prod_{i>j} (1 - F_i), and a stale request
// goes astray with the moved fraction between its version and the newest.
// The simulated totals of stale and misrouted requests, and the store's
// (hand-off 0.25 s), must contain the expectation in their 99.99%
// intervals (10 replays; 13 checks).
func TestOverlappingChanges(t *testing.T) {
	const replays = 10
	algos := []string{"modulo", "ring", "jump"}
	src, err := NewGenerated(GeneratedConfig{Keys: 20000, Rate: 4000, Start: 0, End: 4, Clients: 60, Writes: 0.1, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	n10 := nodes(t, 10)
	n11 := Joined(n10, algorithms.Node{ID: algorithms.NodeID(10), Weight: 1})
	n12 := Joined(n11, algorithms.Node{ID: algorithms.NodeID(11), Weight: 1})
	cfg := Config{Algorithms: algos, Catalog: catalog.DefaultConfig(), Nodes: n10,
		Changes: []Change{{At: 1, Nodes: n11}, {At: 1.5, Nodes: n12}}, Model: Linear{Duration: 2}, Clients: 60,
		Start: 0, End: 4, Windows: 8, Replays: replays, Seed: 5, Handoff: 0.25}
	res, err := Run(cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res.Totals {
		checks := []struct {
			name string
			e    analysis.Estimate
			want float64
		}{{"misrouted", r.Misrouted, r.MisroutedExpected}, {"not yet", r.NotYet, r.NotYetExpected}, {"any more", r.AnyMore, r.AnyMoreExpected}}
		if i == 0 {
			checks = append(checks, struct {
				name string
				e    analysis.Estimate
				want float64
			}{"stale", r.Stale, r.StaleExpected})
		}
		for _, c := range checks {
			ok, half := within(c.e, c.want, replays, 0.9999)
			t.Logf("%s %s: simulated %.1f (95%% %.1f..%.1f), expected %.1f", r.Algorithm, c.name, c.e.Mean, *c.e.Lo, *c.e.Hi, c.want)
			if !ok {
				t.Errorf("%s %s: simulated %.1f, expected %.1f: off by more than %.1f (99.99%%)", r.Algorithm, c.name, c.e.Mean, c.want, half)
			}
		}
	}
}
