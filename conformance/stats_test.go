package conformance

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// With no noncentrality the quantile is the central chi-square's (gonum's
// reference): 27.877 is the 0.999 quantile with 9 degrees of freedom.
func TestCentralQuantile(t *testing.T) {
	for _, k := range []float64{1, 9, 99} {
		want := distuv.ChiSquared{K: k}.Quantile(0.999)
		if got := ncChiSquareQuantile(0.999, k, 0); math.Abs(got-want) > 1e-6*want {
			t.Errorf("k=%v: %v, want %v", k, got, want)
		}
	}
	if got := ncChiSquareQuantile(0.999, 9, 0); math.Abs(got-27.877) > 0.001 {
		t.Errorf("0.999 quantile, 9 degrees of freedom: %v, want 27.877", got)
	}
}

// The noncentral CDF matches draws of its definition, a sum of k squared
// normals with means whose squares sum to lambda: at each quantile tested
// the fraction of 100,000 draws (seed 1) below it is within 5 binomial
// standard errors of p.
func TestNoncentralQuantileByDraws(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	const draws = 100000
	for _, tc := range []struct{ k, lambda float64 }{{9, 20}, {9, 1000}, {2, 3.5}} {
		mean := math.Sqrt(tc.lambda) // all noncentrality on the first term
		xs := make([]float64, draws)
		for d := range xs {
			x := 0.0
			for i := 0; i < int(tc.k); i++ {
				z := r.NormFloat64()
				if i == 0 {
					z += mean
				}
				x += z * z
			}
			xs[d] = x
		}
		for _, p := range []float64{0.05, 0.5, 0.99} {
			q := ncChiSquareQuantile(p, tc.k, tc.lambda)
			below := 0
			for _, x := range xs {
				if x <= q {
					below++
				}
			}
			got := float64(below) / draws
			if se := math.Sqrt(p * (1 - p) / draws); math.Abs(got-p) > 5*se {
				t.Errorf("k=%v lambda=%v: %.4f of draws below the %v quantile %.3f, want %v +- %.4f", tc.k, tc.lambda, got, p, q, p, 5*se)
			}
		}
	}
}

// The balance test's false-alarm rate is alpha for a placement exactly at
// the tolerance: 10 nodes whose shares are (1 +- cv0)/n (cv exactly cv0 =
// 0.1), 2,000 keys drawn from them 2,000 times (seed 2), fail the test at
// alpha 0.05 in 5% of the trials, within 5 binomial standard errors (the
// noncentral law of X^2 is an approximation; this bounds its error where
// conformance uses it). A placement at 1.5 cv0 fails about as often as
// power() predicts.
func TestShareTestRates(t *testing.T) {
	const n, keys, trials, alpha, cv0 = 10, 2000, 2000, 0.05, 0.1
	st := shareTest{df: n - 1, keys: keys, cv0: cv0, alpha: alpha}
	bound := st.bound()
	r := rand.New(rand.NewPCG(2, 2))
	rate := func(cv float64) float64 {
		shares := make([]float64, n)
		for i := range shares {
			shares[i] = (1 + cv*float64(1-2*(i%2))) / n
		}
		cum := make([]float64, n)
		acc := 0.0
		for i, s := range shares {
			acc += s
			cum[i] = acc
		}
		fails := 0
		counts := make([]float64, n)
		for range trials {
			clear(counts)
			for range keys {
				u := r.Float64()
				i := 0
				for i < n-1 && u > cum[i] {
					i++
				}
				counts[i]++
			}
			x2 := 0.0
			for _, c := range counts {
				d := c - keys/n
				x2 += d * d / (keys / n)
			}
			if x2 > bound {
				fails++
			}
		}
		return float64(fails) / trials
	}
	for _, tc := range []struct{ cv, want float64 }{{cv0, alpha}, {1.5 * cv0, st.power(1.5 * cv0)}} {
		got := rate(tc.cv)
		if se := math.Sqrt(tc.want * (1 - tc.want) / trials); math.Abs(got-tc.want) > 5*se {
			t.Errorf("cv %v: failed %.4f of trials, want %.4f +- %.4f", tc.cv, got, tc.want, 5*se)
		}
	}
}
