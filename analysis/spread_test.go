package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
)

// TestNoiseFloor: with equal weights the noise cv is checked against
// placements simulated here independently of NoiseFloor (K keys dropped
// on n nodes uniformly with math/rand/v2, R times): K·cv² of one
// placement is Pearson's X², about chi²(n-1), so with the true noise cv c
// the sum over R placements of K·cv²·(n-1)/(K·c²) is about chi²(R(n-1));
// it must lie in the 99.9% range. A formula off by n/(n-1) (sqrt(n/K))
// fails at n = 10 by 6 standard deviations, at n = 2 by far more.
// For n = 2 the peak count is K/2 + |X - K/2| with X ~ Binomial(K, 1/2),
// so by the normal approximation the expected peak-to-mean is
// 1 + sqrt(2/(pi*K)); the simulated value has Monte Carlo standard error
// (2/K)*sd|X-K/2|/sqrt(R) = (2/K)*(sqrt(K)/2)*sqrt(1-2/pi)/sqrt(R), and we
// accept 5 of them plus 1/K for the continuity of the approximation.
func TestNoiseFloor(t *testing.T) {
	const k = 10000
	p2m, cv, err := NoiseFloor(k, mustNodes(t, 2), 1)
	if err != nil {
		t.Fatal(err)
	}
	checkNoiseCV(t, 2, k, cv)
	want := 1 + math.Sqrt(2/(math.Pi*k))
	se := (2.0 / k) * (math.Sqrt(k) / 2) * math.Sqrt(1-2/math.Pi) / math.Sqrt(float64(NoiseReplicates(2)))
	if math.Abs(p2m-want) > 5*se+1.0/k {
		t.Errorf("n=2: noise peak/mean %v, want %v ± %v", p2m, want, 5*se+1.0/k)
	}
	_, cv10, err := NoiseFloor(k, mustNodes(t, 10), 1)
	if err != nil {
		t.Fatal(err)
	}
	checkNoiseCV(t, 10, k, cv10)
	// Weighted: the simulated root-mean-square cv of the normalised loads
	// l_i = share_i/q_i. With d_i = l_i - 1, Var(d_i) = (1-q_i)/(K q_i)
	// and Cov(d_i, d_j) = -1/K (multinomial), so the expected population
	// variance is A/n - (A - n(n-1)/K)/n^2 with A = sum Var(d_i). The mean
	// load is 1 up to O(1/sqrt(K)). The simulated mean of cv^2 over
	// R = NoiseReplicates(4) = 2000 draws of a statistic with about n-1 = 3
	// degrees of freedom has relative standard error sqrt(2/3)/sqrt(R) =
	// 1.8%, so cv has 0.9%; we accept 5 of those (4.5%).
	nodes := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 1}, {ID: "c", Weight: 2}, {ID: "d", Weight: 4}}
	_, wcv, err := NoiseFloor(k, nodes, 1)
	if err != nil {
		t.Fatal(err)
	}
	var a float64
	for _, n := range nodes {
		q := n.Weight / 8
		a += (1 - q) / (k * q)
	}
	const n = 4
	if want := math.Sqrt(a/n - (a-n*(n-1)/float64(k))/(n*n)); math.Abs(wcv-want)/want > 0.045 {
		t.Errorf("weighted noise cv %v, want %v ± 4.5%%", wcv, want)
	}
	if _, _, err := NoiseFloor(0, nodes, 1); err == nil {
		t.Error("NoiseFloor(0 keys): no error")
	}
}

// checkNoiseCV reports noiseCVErr's error; with it the broken formula
// sqrt(n/K) must be rejected, so the check has power.
func checkNoiseCV(t *testing.T, n, k int, c float64) {
	t.Helper()
	if err := noiseCVErr(n, k, c); err != nil {
		t.Error(err)
	}
	if noiseCVErr(n, k, math.Sqrt(float64(n)/float64(k))) == nil {
		t.Errorf("n=%d K=%d: the broken noise cv sqrt(n/K) passes the same check", n, k)
	}
}

// noiseCVErr simulates 1,000 placements of k keys on n equal nodes and
// checks the noise cv c against them (see TestNoiseFloor).
func noiseCVErr(n, k int, c float64) error {
	const reps = 1000
	rng := rand.New(rand.NewPCG(11, 12))
	counts := make([]float64, n)
	var sum float64
	for range reps {
		clear(counts)
		for range k {
			counts[rng.IntN(n)]++
		}
		m, sd := stat.PopMeanStdDev(counts, nil)
		sum += float64(k) * (sd / m) * (sd / m)
	}
	x := sum * float64(n-1) / (float64(k) * c * c)
	chi := distuv.ChiSquared{K: reps * float64(n-1)}
	if lo, hi := chi.Quantile(0.0005), chi.Quantile(0.9995); x < lo || x > hi {
		return fmt.Errorf("n=%d K=%d: noise cv %.5f: simulated statistic %.0f outside chi2(%d) 99.9%% range [%.0f, %.0f]", n, k, c, x, reps*(n-1), lo, hi)
	}
	return nil
}

// TestSpreadMatchesNoise: modulo, rendezvous and jump place keys like
// independent uniform draws, so their measured cv is the sampling noise.
// Per set, cv^2 ≈ noise_cv^2 * chi2(n-1)/(n-1), so cv has relative
// standard deviation about 1/sqrt(2(n-1)), and the mean over S sets
// 1/sqrt(2(n-1)S); we accept 5 of those.
func TestSpreadMatchesNoise(t *testing.T) {
	const n, keys, sets = 50, 20000, 8
	tol := 5 / math.Sqrt(2*(n-1)*sets)
	for _, algo := range []string{"modulo", "rendezvous", "jump"} {
		r, err := Spread(opts(algo, keys, sets), mustNodes(t, n))
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(r.CV-r.NoiseCV) / r.NoiseCV; rel > tol {
			t.Errorf("%s: cv %.4f vs noise %.4f (relative difference %.3f > %.3f)", algo, r.CV, r.NoiseCV, rel, tol)
		}
		if !(r.MinShare < 1.0/n && 1.0/n < r.MaxShare) {
			t.Errorf("%s: shares [%v, %v] do not bracket 1/n", algo, r.MinShare, r.MaxShare)
		}
		if r.PeakToMean != r.MaxShare*n && math.Abs(r.PeakToMean-r.MaxShare*n) > 1e-12 {
			t.Errorf("%s: peak/mean %v != n * max share %v", algo, r.PeakToMean, r.MaxShare*n)
		}
	}
}

// TestSpreadExact: modulo's exact shares of the 64-bit hash space differ
// by at most one value in 2^64, so its exact peak/mean is 1 and cv 0; the
// ring's exact values are those of its ExactShares; rendezvous has none.
func TestSpreadExact(t *testing.T) {
	nodes := mustNodes(t, 7)
	m, err := Spread(opts("modulo", 1000, 1), nodes)
	if err != nil {
		t.Fatal(err)
	}
	if m.ExactPeakToMean == nil || math.Abs(*m.ExactPeakToMean-1) > 1e-12 || *m.ExactCV > 1e-12 {
		t.Errorf("modulo exact peak/mean %v, cv %v, want 1, 0", m.ExactPeakToMean, m.ExactCV)
	}
	if r, _ := Spread(opts("rendezvous", 1000, 1), nodes); r.ExactPeakToMean != nil || r.Shares[0].Exact != nil {
		t.Errorf("rendezvous has exact values %v", *r.ExactPeakToMean)
	}
	o := opts("ring", 1000, 1)
	o.Config.VNodes = 5
	r, err := Spread(o, nodes)
	if err != nil {
		t.Fatal(err)
	}
	chain, _ := Placements(o, Scenario{Op: "x", Initial: nodes, Steps: []Step{{Leave: []string{"node-0"}}}})
	shares := placerOf(t, chain[0]).(algorithms.ExactSharer).ExactShares()
	var mx float64
	for i, s := range shares {
		mx = math.Max(mx, s*7)
		if *r.Shares[i].Exact != s {
			t.Errorf("node %d: exact share %v, want %v", i, *r.Shares[i].Exact, s)
		}
	}
	if *r.ExactPeakToMean != mx {
		t.Errorf("ring exact peak/mean %v, want %v", *r.ExactPeakToMean, mx)
	}
}

// TestSpreadWeighted: rendezvous gives node i the share w_i/W. Each
// measured share is Binomial(K, q_i)/K per set, so its mean over S sets
// has standard error sqrt(q(1-q)/(K*S)); we accept 5.
func TestSpreadWeighted(t *testing.T) {
	const keys, sets = 20000, 4
	nodes := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 1}, {ID: "c", Weight: 2}, {ID: "d", Weight: 4}}
	r, err := Spread(opts("rendezvous", keys, sets), nodes)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Shares {
		q := s.Weight / 8
		if s.WeightShare != q {
			t.Errorf("%s: weight share %v, want %v", s.ID, s.WeightShare, q)
		}
		if se := math.Sqrt(q * (1 - q) / (keys * sets)); math.Abs(s.Share-q) > 5*se {
			t.Errorf("%s: share %.4f, want %.4f ± %.4f", s.ID, s.Share, q, 5*se)
		}
	}
	// Peak-to-mean compares each share with its weight share, so a
	// well-weighted placement sits at the noise floor (about 1.02 here),
	// where comparing with the equal share 1/4 would give 2. Per set, the
	// peak's sd is at most about the largest load sd, that of the lightest
	// node: sqrt((1-q)/(K*q)) with q = 1/8; the mean over S sets has that
	// over sqrt(S), and we accept 5 of them.
	tol := 5 * math.Sqrt((1-0.125)/(keys*0.125)) / math.Sqrt(sets)
	if math.Abs(r.PeakToMean-r.NoisePeakToMean) > tol {
		t.Errorf("weighted peak/mean %v, noise floor %v ± %v", r.PeakToMean, r.NoisePeakToMean, tol)
	}
}

// BalanceOf by hand: shares 0.5, 0.5 on weights 1 and 3 give loads 2 and
// 2/3 of the weight shares, peak-to-mean 2 and cv 0.5; shares that are
// missing, NaN or negative are errors.
func TestBalanceOf(t *testing.T) {
	nodes := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 3}}
	// Shares 0.5, 0.5 vs weight shares 0.25, 0.75: loads 2 and 2/3, mean
	// 4/3, population sd 2/3, cv 0.5.
	b, err := BalanceOf([]float64{0.5, 0.5}, nodes)
	if err != nil {
		t.Fatal(err)
	}
	if b.MinShare != 0.5 || b.MaxShare != 0.5 || b.PeakToMean != 2 || math.Abs(b.CV-0.5) > 1e-12 {
		t.Errorf("BalanceOf = %+v, want min 0.5, max 0.5, peak/mean 2, cv 0.5", b)
	}
	for _, bad := range [][]float64{{1}, {0.5, math.NaN()}, {-0.1, 1.1}} {
		if _, err := BalanceOf(bad, nodes); err == nil {
			t.Errorf("BalanceOf(%v): no error", bad)
		}
	}
}
