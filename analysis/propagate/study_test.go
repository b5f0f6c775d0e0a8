package propagate

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/schema"
)

// The headline as a Study gives exactly Headline's numbers: the same
// placements, requests and propagation draws, counted the same way, only
// written as rows.
func TestHeadlineStudyIsHeadline(t *testing.T) {
	h := DefaultHeadline()
	h.Algorithms = []string{"modulo", "ring", "maglev"}
	h.Rate, h.Replays, h.Windows = 500, 2, 6
	res, err := Headline(h)
	if err != nil {
		t.Fatal(err)
	}
	st, err := h.Study("c1")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Rows()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(h.Algorithms)*(h.Windows+1) {
		t.Fatalf("%d rows, want %d (windows and a total per algorithm)", len(rows), len(h.Algorithms)*(h.Windows+1))
	}
	for a, tot := range res.Totals {
		r := rows[a*(h.Windows+1)+h.Windows]
		if r.Window != -1 || r.Algo != tot.Algorithm || r.Misrouted != tot.Misrouted.Mean || r.MisroutedExpected != tot.MisroutedExpected ||
			r.Stale != tot.Stale.Mean || r.MovedFrac != tot.Moved || r.Requests != tot.Requests {
			t.Errorf("row %+v\ndiffers from Headline's total %+v", r, tot)
		}
		for w := range h.Windows {
			if got, want := rows[a*(h.Windows+1)+w].Misrouted, res.Windows[a*h.Windows+w].Misrouted.Mean; got != want {
				t.Errorf("%s window %d: misrouted %v, Headline %v", tot.Algorithm, w, got, want)
			}
		}
		if r.Op != schema.OpAdd || r.From != 100 || r.To != 101 || r.Model != "linear:T=30s" || r.At != "0" || r.Clients != 100 ||
			r.Rate != 500 || r.Keys != 100000 || r.Replays != 2 || r.Seed != 1 || r.Commit != "c1" || r.Misses != nil {
			t.Errorf("%s: scenario columns %+v", tot.Algorithm, r)
		}
	}
	var b bytes.Buffer
	if err := schema.WriteCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	back, err := schema.ReadCSV[schema.Propagate](&b, "propagate.csv")
	if err != nil || !reflect.DeepEqual(back, rows) {
		t.Errorf("rows do not read back: %v", err)
	}
}

// A multi-step scenario gets one change per step at the given spacing;
// the cache-aside columns are present with -cache; every row passes the
// schema's checks, and the whole span's counts are the windows' sums.
func TestStudyStepsAndCache(t *testing.T) {
	sc, err := analysis.NewScenario(schema.OpShrinkLIFO, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	st := Study{Algorithms: []string{"modulo", "jump"}, Catalog: catalog.DefaultConfig(), Scenarios: []analysis.Scenario{sc},
		At: []float64{1}, Every: 2, Model: Linear{Duration: 1}, Clients: 10,
		Requests: GeneratedConfig{Keys: 500, Rate: 400, Writes: 0.2, Seed: 3}, Windows: 4, Replays: 2, Seed: 3, Cache: true}
	rows, err := st.Rows()
	if err != nil {
		t.Fatal(err)
	}
	r := rows[len(rows)-1]
	if r.Changes != len(sc.Steps) || r.At != "1;3;5;7" || r.StartS != 1 || r.EndS != 8 || r.From != 5 || r.To != 1 {
		t.Errorf("changes %d at %q, span %v..%v, %d -> %d; want 4 changes at 1;3;5;7 s, span 1..8 s (the last rollout ends 1 s after 7), 5 -> 1",
			r.Changes, r.At, r.StartS, r.EndS, r.From, r.To)
	}
	var stale, misses float64
	for _, x := range rows[len(rows)-5 : len(rows)-1] {
		stale += x.Stale
		misses += *x.Misses
	}
	if math.Abs(stale-r.Stale) > 1e-9 || math.Abs(misses-*r.Misses) > 1e-9 {
		t.Errorf("windows sum to %v stale and %v misses, the whole span has %v and %v", stale, misses, r.Stale, *r.Misses)
	}
	for _, x := range rows {
		if err := schema.Check(x); err != nil {
			t.Errorf("row %s window %d: %v", x.Algo, x.Window, err)
		}
	}
}

// Change times: one per step, or the first and a spacing; anything else
// is an error naming the counts or the time.
func TestChangeTimes(t *testing.T) {
	for _, c := range []struct {
		at    []float64
		every float64
		steps int
		want  []float64
		err   string
	}{
		{[]float64{0}, 0, 1, []float64{0}, ""},
		{[]float64{1, 4}, 0, 2, []float64{1, 4}, ""},
		{[]float64{2}, 0.5, 3, []float64{2, 2.5, 3}, ""},
		{[]float64{2}, 0, 3, nil, "3 membership changes but one change time 2 s"},
		{[]float64{1, 2}, 0, 3, nil, "2 change times for 3 membership changes"},
		{[]float64{2, 1}, 0, 2, nil, "change time 1 s is not after the change before it at 2 s"},
	} {
		s := Study{At: c.at, Every: c.every}
		got, err := s.ChangeTimes(c.steps)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v every %v, %d steps: %v, want an error containing %q", c.at, c.every, c.steps, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v every %v, %d steps: %v, %v; want %v", c.at, c.every, c.steps, got, err, c.want)
		}
	}
}

// The default span ends T after the last change for a linear rollout,
// 1 s after it for the instant model, and at the 99.9th percentile of the
// delays rounded up to two digits otherwise: 2 s x ln(1000) = 13.8 s -> 14
// s for an exponential push of mean 2 s; clients that never learn leave no
// default.
func TestDefaultSpan(t *testing.T) {
	for _, c := range []struct {
		m          Model
		at         []float64
		start, end float64
	}{
		{Linear{Duration: 30}, []float64{0}, 0, 30},
		{Linear{Duration: 5}, []float64{2, 10}, 2, 15},
		{Instant{}, []float64{3}, 3, 4},
		{Push{Delay: Exponential{Mean: 2}}, []float64{0}, 0, 14},
	} {
		start, end, err := DefaultSpan(c.m, 100, c.at)
		if err != nil || start != c.start || end != c.end {
			t.Errorf("%s at %v: %v..%v, %v; want %v..%v", c.m.Spec(), c.at, start, end, err, c.start, c.end)
		}
	}
	if _, _, err := DefaultSpan(Empirical{Delays: []float64{0.1, math.Inf(1)}}, 100, []float64{0}); err == nil || !strings.Contains(err.Error(), "never learn") {
		t.Errorf("delays with +Inf: %v, want an error about clients that never learn", err)
	}
	for x, want := range map[float64]float64{13.8155: 14, 0.513: 0.52, 30: 30, 101: 110, 0.0999: 0.1} {
		if got := roundUp2(x); got != want {
			t.Errorf("roundUp2(%v) = %v, want %v", x, got, want)
		}
	}
}

// A study whose cache-aside state would exceed the memory budget is
// refused before any work, naming the estimate and the budget.
func TestStudyBudget(t *testing.T) {
	sc, _ := analysis.Resize(10, 11)
	cfg := catalog.DefaultConfig()
	cfg.MemoryBudget = 64 << 20
	st := Study{Algorithms: catalog.Names(), Catalog: cfg, Scenarios: []analysis.Scenario{sc}, At: []float64{0},
		Model: Instant{}, Clients: 1, Requests: GeneratedConfig{Keys: 1 << 20, Rate: 1, Seed: 1}, Windows: 1, Replays: 1, Cache: true}
	if _, err := st.Rows(); err == nil || !strings.Contains(err.Error(), "more than the memory budget 64 MiB") {
		t.Errorf("err = %v, want the memory budget refusal", err)
	}
}

// The gossip curve's pooled delays and state are charged to the budget:
// 2^20 clients (64 spreads of 8 B per client, 512 MiB of delays) under a
// 256 MiB budget are refused before any spread is drawn, naming the
// clients and the budget.
func TestStudyGossipCurveBudget(t *testing.T) {
	sc, _ := analysis.Resize(10, 11)
	cfg := catalog.DefaultConfig()
	cfg.MemoryBudget = 256 << 20
	st := Study{Algorithms: []string{"ring"}, Catalog: cfg, Scenarios: []analysis.Scenario{sc}, At: []float64{0},
		Model: Gossip{Fanout: 3, Period: 0.2, Seeds: 1}, Clients: MaxClients, Requests: GeneratedConfig{Keys: 1000, Rate: 1, Seed: 1}, Windows: 1, Replays: 1}
	err := st.Check()
	if err == nil || !strings.Contains(err.Error(), "the gossip curve of 1048576 clients (64 simulated spreads) needs about 696 MiB") ||
		!strings.Contains(err.Error(), "memory budget 256 MiB") {
		t.Errorf("err = %v, want the gossip curve's refusal", err)
	}
	if got := (Gossip{}).CurveBytes(MaxClients); got < 64*MaxClients*8 {
		t.Errorf("CurveBytes(2^20) = %d, below the %d bytes of pooled delays", got, 64*MaxClients*8)
	}
}

// Slack: the median and 99.9th percentile of the round trips and twice
// the latter; a request answered before it was sent is an error.
func TestSlack(t *testing.T) {
	var reqs []SlotRequest
	for i := range 1000 {
		reqs = append(reqs, SlotRequest{Done: float64(i) / 1e6})
	}
	p50, p999, slack, err := Slack(reqs)
	if err != nil || p50 != 500e-6 || p999 != 999e-6 || slack != 2*999e-6 {
		t.Errorf("p50 %v, p99.9 %v, slack %v, %v; want 0.0005, 0.000999, 0.001998", p50, p999, slack, err)
	}
	if _, _, _, err := Slack([]SlotRequest{{Sent: 2, Done: 1}}); err == nil || !strings.Contains(err.Error(), "sent at 2 s, answered at 1 s") {
		t.Errorf("err = %v", err)
	}
}
