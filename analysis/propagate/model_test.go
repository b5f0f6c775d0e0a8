package propagate

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Every spec ParseModel reads comes back from Spec in canonical form, and
// parsing that again gives the same model.
func TestParseModelRoundTrip(t *testing.T) {
	for in, want := range map[string]string{
		"instant":                                 "instant",
		"linear:T=30s":                            "linear:T=30s",
		"linear:T=1500ms":                         "linear:T=1.5s",
		"linear:T=2":                              "linear:T=2s",
		"push:dist=exp,mean=2s":                   "push:dist=exp,mean=2s",
		"push:dist=uniform,max=10s":               "push:dist=uniform,min=0s,max=10s",
		"push:dist=uniform,min=1s,max=10s":        "push:dist=uniform,min=1s,max=10s",
		"push:dist=lognormal,median=1s,sigma=0.8": "push:dist=lognormal,median=1s,sigma=0.8",
		"gossip:k=3,p=200ms":                      "gossip:k=3,p=0.2s",
		"gossip:p=0.2,k=3,seeds=2,transmits=8,latency=1ms": "gossip:k=3,p=0.2s,seeds=2,transmits=8,latency=0.001s",
		"gossip:k=3,p=0.2,seeds=2,fresh=1":                 "gossip:k=3,p=0.2s,seeds=2,fresh=1",
	} {
		m, err := ParseModel(in)
		if err != nil {
			t.Errorf("ParseModel(%q): %v", in, err)
			continue
		}
		if got := m.Spec(); got != want {
			t.Errorf("ParseModel(%q).Spec() = %q, want %q", in, got, want)
		}
		again, err := ParseModel(m.Spec())
		if err != nil || again.Spec() != want {
			t.Errorf("ParseModel(%q) = %v, %v; want the same model", m.Spec(), again, err)
		}
	}
}

// Bad specs are errors that name the bad part.
func TestParseModelErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":                              `unknown model ""`,
		"rollout:T=3s":                  `unknown model "rollout"`,
		"linear":                        "missing T=",
		"linear:T=-3s":                  "duration T -3 s",
		"linear:T=abc":                  "T=abc: not a duration",
		"linear:T=3s,x=1":               `unknown parameter "x"`,
		"linear:T=3s,T=4s":              `"T" given twice`,
		"linear:T":                      `parameter "T": want key=value`,
		"instant:T=3s":                  `unknown parameter "T"`,
		"push":                          "missing dist=",
		"push:dist=pareto,mean=1s":      `unknown dist "pareto"`,
		"push:dist=exp":                 "missing mean=",
		"push:dist=exp,mean=0s":         "mean 0 s",
		"push:dist=uniform,min=3,max=2": "min 3 s, max 2 s",
		"push:dist=lognormal,median=1s": "missing sigma=",
		"gossip:p=1s":                   "missing k=",
		"gossip:k=0,p=1s":               "fan-out k 0",
		"gossip:k=3":                    "missing p=",
		"gossip:k=3,p=1s,seeds=0":       "seeds 0",
		"gossip:k=3,p=1s,transmits=-1":  "transmits -1",
		"gossip:k=3,p=1s,fresh=2":       "fresh 2: need 0 to seeds (1)",
		"gossip:k=x,p=1s":               "k=x: not an integer",
		"empirical":                     "built from measured delays",
	} {
		_, err := ParseModel(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseModel(%q) = %v, want an error containing %q", in, err, want)
		}
	}
}

// The linear rollout's delays are exactly the grid T(k+1/2)/C in some
// order, and its curve's mean delay is exactly T/2.
func TestLinear(t *testing.T) {
	m := Linear{Duration: 30}
	learn := make([]float64, 7)
	m.Draw(learn, rand.New(rand.NewPCG(1, 2)))
	got := slices.Sorted(slices.Values(learn))
	for k, d := range got {
		if want := 30 * (float64(k) + 0.5) / 7; d != want {
			t.Fatalf("sorted delay %d = %v, want %v", k, d, want)
		}
	}
	if slices.IsSorted(learn) {
		t.Errorf("delays %v in grid order: the clients should be visited in a random order", learn)
	}
	c, err := m.Curve(7)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.MeanDelay(); math.Abs(got-15) > 1e-12 {
		t.Errorf("mean delay %v, want T/2 = 15", got)
	}
	if got := c.Informed(30 * 2.5 / 7); got != 3.0/7 {
		t.Errorf("F(at the third step) = %v, want 3/7", got)
	}
}

// The push curves' mean delays equal the distributions' means (checks the
// adaptive integration of 1 - F to 1e-9 relative), and the delays drawn by
// inversion have the right mean: 20,000 draws put the sample mean within
// 4.5 standard errors (sd/sqrt(n)) of it.
func TestPushMeans(t *testing.T) {
	for _, tc := range []struct {
		d        Delay
		mean, sd float64
	}{
		{Exponential{Mean: 2}, 2, 2},
		{UniformDelay{Min: 1, Max: 5}, 3, 4 / math.Sqrt(12)},
		{LogNormal{Median: 0.5, Sigma: 0.8}, 0.5 * math.Exp(0.32), 0.5 * math.Exp(0.32) * math.Sqrt(math.Exp(0.64)-1)},
	} {
		m := Push{Delay: tc.d}
		c, err := m.Curve(10)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.MeanDelay(); math.Abs(got-tc.mean) > 1e-9*tc.mean {
			t.Errorf("%s: curve mean delay %v, want %v", m.Spec(), got, tc.mean)
		}
		learn := make([]float64, 20000)
		m.Draw(learn, rand.New(rand.NewPCG(3, 4)))
		var sum float64
		for _, d := range learn {
			sum += d
		}
		se := tc.sd / math.Sqrt(float64(len(learn)))
		if got := sum / float64(len(learn)); math.Abs(got-tc.mean) > 4.5*se {
			t.Errorf("%s: sample mean %v, want %v ± %v", m.Spec(), got, tc.mean, 4.5*se)
		}
	}
}

// Gossip in which every tick reaches all other members: each non-seed
// member learns at the seed's first tick plus the latency, so the mean
// delay over the C members is (C-1)/C (p/2 + latency) exactly in
// expectation (the seed's phase is uniform on [0, p)). The pooled curve
// rests on GossipCurveDraws(C) independent spreads, each of whose mean
// has standard deviation (C-1)/C p/sqrt(12); it must lie within 4
// standard errors.
func TestGossipFullFanout(t *testing.T) {
	const c, p, lat = 20, 0.2, 0.01
	m := Gossip{Fanout: c - 1, Period: p, Seeds: 1, Latency: lat}
	learn := make([]float64, c)
	m.Draw(learn, rand.New(rand.NewPCG(5, 6)))
	var seed, later []float64
	for _, d := range learn {
		if d == 0 {
			seed = append(seed, d)
		} else {
			later = append(later, d)
		}
	}
	if len(seed) != 1 || len(later) != c-1 {
		t.Fatalf("delays %v: want one seed at 0 and %d others", learn, c-1)
	}
	for _, d := range later {
		if d != later[0] || d < lat || d >= p+lat {
			t.Fatalf("delays %v: want every other member at the seed's first tick + %v s", learn, lat)
		}
	}
	curve, err := m.Curve(c)
	if err != nil {
		t.Fatal(err)
	}
	want := float64(c-1) / c * (p/2 + lat)
	se := float64(c-1) / c * p / math.Sqrt(12) / math.Sqrt(float64(GossipCurveDraws(c)))
	if got := curve.MeanDelay(); math.Abs(got-want) > 4*se {
		t.Errorf("curve mean delay %v, want %v ± %v", got, want, 4*se)
	}
}

// A fan-out above the C-1 other members sends to all of them: the same
// spread as k = C-1, drawn without allocating anything by k (k = MaxInt
// made a slice of MaxInt targets).
func TestGossipFanoutAboveMembers(t *testing.T) {
	const c = 10
	for _, k := range []int{c, 1_000_000, math.MaxInt} {
		got, want := make([]float64, c), make([]float64, c)
		Gossip{Fanout: k, Period: 0.2, Seeds: 1}.Draw(got, rand.New(rand.NewPCG(1, 2)))
		Gossip{Fanout: c - 1, Period: 0.2, Seeds: 1}.Draw(want, rand.New(rand.NewPCG(1, 2)))
		if !slices.Equal(got, want) {
			t.Errorf("k=%d: delays %v, want those of k=%d %v", k, got, c-1, want)
		}
	}
	m := Gossip{Fanout: 1_000_000, Period: 0.2, Seeds: 1}
	learn := make([]float64, c)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m.Draw(learn, rand.New(rand.NewPCG(1, 2)))
	runtime.ReadMemStats(&after)
	if b := after.TotalAlloc - before.TotalAlloc; b > 64<<10 {
		t.Errorf("a draw of %d members at k=%d allocated %d bytes, want < 64 KiB", c, m.Fanout, b)
	}
}

// picker.others above smallFanout is a uniform draw of k distinct members
// other than the sender: over 20,000 draws of k = 30 of c = 50 from
// sender 7, every other member is picked k/(c-1) of the time (a binomial
// count within 5 standard deviations), the sender never, and the
// permutation is the identity again after each draw.
func TestPickerLargeFanout(t *testing.T) {
	const c, k, self, draws = 50, 30, 7, 20000
	var p picker
	r := rand.New(rand.NewPCG(3, 4))
	counts := make([]int, c)
	var dst []int
	for range draws {
		dst = p.others(dst[:0], k, self, c, r)
		seen := map[int]bool{}
		for _, t2 := range dst {
			if seen[t2] || t2 == self || t2 < 0 || t2 >= c {
				t.Fatalf("draw %v: want %d distinct members of 0..%d other than %d", dst, k, c-1, self)
			}
			seen[t2] = true
			counts[t2]++
		}
		if len(dst) != k {
			t.Fatalf("draw of %d members, want %d", len(dst), k)
		}
		for i, v := range p.perm {
			if int(v) != i {
				t.Fatalf("permutation %v not restored", p.perm)
			}
		}
	}
	q := float64(k) / (c - 1)
	mean, sd := draws*q, math.Sqrt(draws*q*(1-q))
	for i, n := range counts {
		if i == self {
			if n != 0 {
				t.Errorf("the sender was picked %d times", n)
			}
			continue
		}
		if math.Abs(float64(n)-mean) > 5*sd {
			t.Errorf("member %d picked %d times, want %.0f ± %.0f", i, n, mean, 5*sd)
		}
	}
}

// Gossip with a fan-out of 1 and one transmit per member is a chain: each
// member that learns tells exactly one other, so the members that learn
// are the seed and a sequence of distinct members, each one tick after
// the last; the others never learn (+Inf). Delays strictly increase along
// the chain.
func TestGossipTransmitLimit(t *testing.T) {
	m := Gossip{Fanout: 1, Period: 1, Seeds: 1, Transmits: 1}
	learn := make([]float64, 50)
	m.Draw(learn, rand.New(rand.NewPCG(7, 8)))
	var finite []float64
	for _, d := range learn {
		if !math.IsInf(d, 1) {
			finite = append(finite, d)
		}
	}
	slices.Sort(finite)
	if len(finite) < 2 || len(finite) == len(learn) {
		t.Fatalf("%d of %d members learned: a chain of one-shot messages reaches some, and with 50 members almost surely not all", len(finite), len(learn))
	}
	for i := 1; i < len(finite); i++ {
		if d := finite[i] - finite[i-1]; !(d > 0 && d <= 1) {
			t.Fatalf("chain delays %v: each link waits for its sender's next tick, (0, 1] s", finite)
		}
	}
}

// The gossip curve is the expectation of Draw: the mean delay of 300
// spreads drawn from another seed lies within 4 standard errors (of the
// per-spread means) of the curve's, and the simulated curve reaches half
// the members later than the mean-field logistic, which ignores the wait
// for the next tick.
func TestGossipCurveIsDrawExpectation(t *testing.T) {
	const c = 100
	m := Gossip{Fanout: 3, Period: 0.2, Seeds: 1}
	curve, err := m.Curve(c)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 10))
	learn := make([]float64, c)
	means := make([]float64, 300)
	for i := range means {
		m.Draw(learn, r)
		var s float64
		for _, d := range learn {
			s += d
		}
		means[i] = s / c
	}
	mean, sd := meanSD(means)
	se := sd / math.Sqrt(float64(len(means)))
	if got := curve.MeanDelay(); math.Abs(got-mean) > 4*se {
		t.Errorf("curve mean delay %v, draws %v ± %v", got, mean, 4*se)
	}
	half := curve.Quantile(0.5)
	if mf := m.MeanField(c, half); mf <= 0.5 {
		t.Errorf("mean-field informed fraction at the simulated median %v s is %v, want > 0.5", half, mf)
	}
}

func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// An empirical model's curve is the empirical distribution of its delays
// (+Inf counts as never learning), and Draw returns only those delays.
func TestEmpirical(t *testing.T) {
	m := Empirical{Delays: []float64{0.3, 0.1, math.Inf(1), 0.2}}
	c, err := m.Curve(5)
	if err != nil {
		t.Fatal(err)
	}
	for tau, want := range map[float64]float64{-1: 0, 0.05: 0, 0.1: 0.25, 0.25: 0.5, 0.3: 0.75, 1e9: 0.75} {
		if got := c.Informed(tau); got != want {
			t.Errorf("F(%v) = %v, want %v", tau, got, want)
		}
	}
	if got := c.Breaks(); !slices.Equal(got, []float64{0.1, 0.2, 0.3}) {
		t.Errorf("breaks %v, want the finite delays", got)
	}
	learn := make([]float64, 100)
	m.Draw(learn, rand.New(rand.NewPCG(11, 12)))
	for _, d := range learn {
		if !slices.Contains(m.Delays, d) {
			t.Fatalf("drew %v, not one of %v", d, m.Delays)
		}
	}
	if err := (Empirical{Delays: []float64{1, math.NaN()}}).Validate(); err == nil || !strings.Contains(err.Error(), "delay 1 is NaN") {
		t.Errorf("NaN delay: %v", err)
	}
}

// A fresh seed's gossip ticker starts at the change, so with a fan-out
// that reaches everybody every other member learns at exactly one period
// plus the latency.
func TestGossipFreshSeed(t *testing.T) {
	m := Gossip{Fanout: 9, Period: 0.2, Seeds: 1, Fresh: 1, Latency: 0.01}
	learn := make([]float64, 10)
	m.Draw(learn, rand.New(rand.NewPCG(13, 14)))
	slices.Sort(learn)
	if learn[0] != 0 {
		t.Fatalf("delays %v: want the seed at 0", learn)
	}
	for _, d := range learn[1:] {
		if math.Abs(d-0.21) > 1e-12 {
			t.Fatalf("delays %v: want every other member at p + latency = 0.21 s", learn)
		}
	}
}
