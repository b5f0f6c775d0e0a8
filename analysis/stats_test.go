package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/schema"
)

// MeanCI against a t table: 11, 12, 13 give 12 +- t(0.975, 2)/sqrt(3) =
// 2.484138; one sample is its own interval; no samples, NaN and Inf are
// errors.
func TestMeanCIReference(t *testing.T) {
	// Samples 11, 12, 13: mean 12, sample sd 1, t(0.975, 2 df) = 4.302652729...
	// (any t table), so the half-width is 4.302652729/sqrt(3) = 2.484138.
	e, err := MeanCI([]float64{11, 12, 13})
	if err != nil {
		t.Fatal(err)
	}
	if e.Mean != 12 || math.Abs(*e.Hi-12-2.4841377) > 1e-6 || math.Abs(12-*e.Lo-2.4841377) > 1e-6 {
		t.Errorf("MeanCI(11,12,13) = %+v, want 12 ± 2.4841377", e)
	}
	one, err := MeanCI([]float64{0.25})
	if err != nil || one != (Estimate{Mean: 0.25}) {
		t.Errorf("MeanCI(0.25) = %+v, %v; want mean 0.25 and no interval (one sample)", one, err)
	}
	for _, bad := range [][]float64{nil, {1, math.NaN()}, {math.Inf(1)}} {
		if _, err := MeanCI(bad); err == nil {
			t.Errorf("MeanCI(%v): no error", bad)
		}
	}
}

// TestMeanCICoverage checks that the 95% interval contains the true mean
// in about 95% of trials. With T trials the number of hits is
// Binomial(T, 0.95), standard deviation sqrt(T*0.95*0.05); we accept 4 of
// them either side (a false failure has probability < 1e-4).
func TestMeanCICoverage(t *testing.T) {
	const trials, s, mu = 4000, 5, 0.3
	r := rand.New(rand.NewPCG(7, 7))
	hits := 0
	xs := make([]float64, s)
	for range trials {
		for i := range xs {
			xs[i] = mu + 0.01*r.NormFloat64()
		}
		e, err := MeanCI(xs)
		if err != nil {
			t.Fatal(err)
		}
		if *e.Lo <= mu && mu <= *e.Hi {
			hits++
		}
	}
	sd := math.Sqrt(trials * 0.95 * 0.05)
	if math.Abs(float64(hits)-0.95*trials) > 4*sd {
		t.Errorf("interval covered the mean in %d of %d trials, want %.0f ± %.0f", hits, trials, 0.95*trials, 4*sd)
	}
}

// A non-negative quantity's interval is truncated at 0; a signed one is not.
func TestMeanCITruncatesNonNegative(t *testing.T) {
	e, err := MeanCI([]float64{0, 0, 0.003})
	if err != nil {
		t.Fatal(err)
	}
	if *e.Lo != 0 || *e.Hi <= e.Mean {
		t.Errorf("non-negative samples: %+v, want Lo = 0 and Hi > mean", e)
	}
	e, err = MeanCI([]float64{-0.001, 0, 0.003})
	if err != nil {
		t.Fatal(err)
	}
	if *e.Lo >= 0 {
		t.Errorf("signed samples: %+v, want Lo < 0", e)
	}
}

// A peak-to-mean ratio is >= 1, so its interval is truncated at 1: two
// sets 1 and 1.5 have the Student-t interval 1.25 ± 12.7 x 0.25 (MeanCI
// truncates it at 0), and a sample that float rounding put just below 1
// stays inside the interval.
func TestPeakToMeanCI(t *testing.T) {
	xs := []float64{1, 1.5}
	plain, err := MeanCI(xs)
	if err != nil {
		t.Fatal(err)
	}
	e, err := PeakToMeanCI(xs)
	if err != nil {
		t.Fatal(err)
	}
	if *plain.Lo != 0 || *e.Lo != 1 || e.Mean != 1.25 || *e.Hi != *plain.Hi {
		t.Errorf("PeakToMeanCI(1, 1.5) = %+v (MeanCI %+v), want Lo 1, mean 1.25 and MeanCI's Hi", e, plain)
	}
	below := 1 - 0x1p-52
	if e, err := PeakToMeanCI([]float64{below, 1.2}); err != nil || *e.Lo != below {
		t.Errorf("PeakToMeanCI(1-2^-52, 1.2) = %+v, %v; want Lo = the sample below 1", e, err)
	}
	if e, err := PeakToMeanCI([]float64{1.3}); err != nil || e.Mean != 1.3 || e.HasInterval() {
		t.Errorf("one set: %+v, %v; want mean 1.3 and no interval", e, err)
	}
	if _, err := PeakToMeanCI([]float64{1, math.NaN()}); err == nil {
		t.Error("NaN sample: no error")
	}
}

// Request load over 2 streams (few requests, so the two peak-to-means
// differ): every peak_to_mean_lo is at least 1 though the plain Student-t
// interval of some placements reaches below 1. The same for spread and
// bounded loads.
func TestPeakToMeanIntervalsTwoSets(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(10)
	rs, err := Load(loadOpts(200, 2000, 2, 0), schema.LoadPlacements(), nodes)
	if err != nil {
		t.Fatal(err)
	}
	// check reports whether the plain t interval of xs dips below 1, and
	// flags est (its clamped interval) unless 1 <= lo <= mean.
	check := func(what string, xs []float64, est Estimate) bool {
		if *est.Lo < 1 || *est.Lo > est.Mean {
			t.Errorf("%s: peak-to-mean %+v, want 1 <= lo <= mean", what, est)
		}
		plain, _ := MeanCI(xs)
		return *plain.Lo < 1
	}
	dipped := 0
	for _, r := range rs {
		var xs []float64
		for _, s := range r.Samples {
			xs = append(xs, s.PeakToMean)
		}
		if check("load "+r.Algo, xs, EstimateOf(r.PeakToMean, r.PeakToMeanLo, r.PeakToMeanHi)) {
			dipped++
		}
	}
	if dipped == 0 {
		t.Errorf("no placement's plain interval reaches below 1: the case tests nothing")
	}
	dipped = 0
	for _, algo := range []string{"ring", "jump", "rendezvous", "modulo"} {
		sr, err := Spread(opts(algo, 100, 2), nodes)
		if err != nil {
			t.Fatal(err)
		}
		var xs []float64
		for _, s := range sr.Samples {
			xs = append(xs, s.PeakToMean)
		}
		if check("spread "+algo, xs, EstimateOf(sr.PeakToMean, sr.PeakToMeanLo, sr.PeakToMeanHi)) {
			dipped++
		}
	}
	if dipped == 0 {
		t.Errorf("spread: no algorithm's plain interval reaches below 1: the case tests nothing")
	}
	bs, err := SweepBoundedLoads(loadOpts(200, 2000, 2, 0), []float64{0.5}, nodes)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range bs {
		if *r.PeakToMeanLo < 1 {
			t.Errorf("bounded %s: peak-to-mean %+v, want lo >= 1", r.Algo, r.PeakToMean)
		}
	}
}
