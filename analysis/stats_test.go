package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMeanCIReference(t *testing.T) {
	// Samples 11, 12, 13: mean 12, sample sd 1, t(0.975, 2 df) = 4.302652729...
	// (any t table), so the half-width is 4.302652729/sqrt(3) = 2.484138.
	e, err := MeanCI([]float64{11, 12, 13})
	if err != nil {
		t.Fatal(err)
	}
	if e.Mean != 12 || math.Abs(e.Hi-12-2.4841377) > 1e-6 || math.Abs(12-e.Lo-2.4841377) > 1e-6 {
		t.Errorf("MeanCI(11,12,13) = %+v, want 12 ± 2.4841377", e)
	}
	one, err := MeanCI([]float64{0.25})
	if err != nil || one != (Estimate{0.25, 0.25, 0.25}) {
		t.Errorf("MeanCI(0.25) = %+v, %v; want lo = hi = mean", one, err)
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
		if e.Lo <= mu && mu <= e.Hi {
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
	if e.Lo != 0 || e.Hi <= e.Mean {
		t.Errorf("non-negative samples: %+v, want Lo = 0 and Hi > mean", e)
	}
	e, err = MeanCI([]float64{-0.001, 0, 0.003})
	if err != nil {
		t.Fatal(err)
	}
	if e.Lo >= 0 {
		t.Errorf("signed samples: %+v, want Lo < 0", e)
	}
}
