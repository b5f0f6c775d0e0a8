package analysis

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
)

// chiSquare returns Pearson's statistic of counts against the exact
// probabilities of z, over every rank.
func chiSquare(z *Zipf, counts []int, draws int) float64 {
	var x2 float64
	for i, c := range counts {
		e := float64(draws) * z.Prob(i)
		x2 += (float64(c) - e) * (float64(c) - e) / e
	}
	return x2
}

// TestZipfChiSquare draws 200,000 ranks over 50 keys for several exponents
// (uniform, below 1, 1 and above) with a fixed seed and checks Pearson's
// chi-square against the 99.9% quantile of ChiSquared(N-1): an exact
// sampler fails this one time in a thousand seeds, and this seed passes.
// Every expected count is over 200 (the smallest probability, s = 1.2, is
// 50^-1.2 / H(50, 1.2) > 0.001), far above the usual 5 the test needs.
func TestZipfChiSquare(t *testing.T) {
	const keys, draws = 50, 200_000
	crit := distuv.ChiSquared{K: keys - 1}.Quantile(0.999)
	for _, s := range []float64{0, 0.5, 0.8, 0.99, 1, 1.2, 2} {
		z, err := NewZipf(keys, s)
		if err != nil {
			t.Fatal(err)
		}
		r := RequestRand(1, 0)
		counts := make([]int, keys)
		for range draws {
			counts[z.Sample(r)]++
		}
		if x2 := chiSquare(z, counts, draws); x2 > crit {
			t.Errorf("s=%v: chi-square %.1f > %.1f (99.9%% quantile, %d df)", s, x2, crit, keys-1)
		}
		// The same counts must reject a neighbouring law, so the test has
		// power: s +- 0.1 shifts the head's share by several percent.
		other, _ := NewZipf(keys, s+0.1)
		if x2 := chiSquare(other, counts, draws); x2 <= crit {
			t.Errorf("s=%v: counts also fit s=%v (chi-square %.1f <= %.1f): the test cannot tell laws apart", s, s+0.1, x2, crit)
		}
	}
}

// Zipf probabilities by hand for N = 4, s = 1 (1/H(4, 1) = 12/25, ...),
// Rank inverting the cdf at its steps, and s = 0 uniform, each within
// 1e-15.
func TestZipfProbabilities(t *testing.T) {
	z, err := NewZipf(4, 1)
	if err != nil {
		t.Fatal(err)
	}
	// H(4, 1) = 1 + 1/2 + 1/3 + 1/4 = 25/12.
	want := []float64{12.0 / 25, 6.0 / 25, 4.0 / 25, 3.0 / 25}
	for i, w := range want {
		if got := z.Prob(i); math.Abs(got-w) > 1e-15 {
			t.Errorf("Prob(%d) = %v, want %v", i, got, w)
		}
	}
	// Rank inverts the cdf: cdf = 12/25, 18/25, 22/25, 1.
	for _, c := range []struct {
		u    float64
		want int
	}{{0, 0}, {0.47, 0}, {0.48, 1}, {0.71, 1}, {0.72, 2}, {0.879, 2}, {0.88, 3}, {0.999, 3}} {
		if got := z.Rank(c.u); got != c.want {
			t.Errorf("Rank(%v) = %d, want %d", c.u, got, c.want)
		}
	}
	u, _ := NewZipf(10, 0)
	for i := range 10 {
		if p := u.Prob(i); math.Abs(p-0.1) > 1e-15 {
			t.Errorf("s=0: Prob(%d) = %v, want 0.1 (uniform)", i, p)
		}
	}
}

// TestHotKeyFloor checks the REFERENCES.md value: s = 1 over 10^6 keys,
// H = ln(10^6) + gamma + 1/(2*10^6) - ... = 14.392726722865..., so the
// hottest key carries 6.95% of requests and 100 equal nodes cannot have a
// peak-to-mean request load below 6.95.
func TestHotKeyFloor(t *testing.T) {
	h, err := HarmonicNumber(1_000_000, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Euler-Maclaurin: H_n = ln n + gamma + 1/(2n) - 1/(12 n^2) + O(n^-4).
	n := 1e6
	want := math.Log(n) + 0.5772156649015329 + 1/(2*n) - 1/(12*n*n)
	if math.Abs(h-want) > 1e-11 {
		t.Fatalf("H(10^6, 1) = %.15f, want %.15f", h, want)
	}
	if share := 1 / h; math.Abs(share-0.0695) > 0.00005 {
		t.Errorf("hottest share %.5f, want 6.95%%", share)
	}
	nodes, _ := algorithms.DefaultNodes(100)
	f, err := HotKeyFloor(1/h, nodes)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f-100/h) > 1e-12 || math.Abs(f-6.948) > 0.001 {
		t.Errorf("floor at 100 nodes = %v, want 100/H = 6.948", f)
	}
	// Few nodes: the floor is 1 (the hot key fits under the mean).
	ten, _ := algorithms.DefaultNodes(10)
	if f, _ := HotKeyFloor(1/h, ten); f != 1 {
		t.Errorf("floor at 10 nodes = %v, want 1 (10 x 6.95%% < 1)", f)
	}
	// Weighted: the hot key on the heaviest node, share 0.3 against 4/8.
	w, _ := WeightedNodes([]float64{1, 1, 2, 4})
	if f, _ := HotKeyFloor(0.75, w); math.Abs(f-1.5) > 1e-15 {
		t.Errorf("weighted floor = %v, want 0.75 / (4/8) = 1.5", f)
	}
	if _, err := HotKeyFloor(1.5, ten); err == nil {
		t.Error("share 1.5 accepted")
	}
}

// TestZipfGuideTable: the guide table gives the rank a binary search
// over the cumulative table gives, for every u tried, including the
// interval edges themselves.
func TestZipfGuideTable(t *testing.T) {
	r := RequestRand(3, 1)
	for _, s := range []float64{0, 0.99, 1.2, 3} {
		z, _ := NewZipf(1000, s)
		us := []float64{0, 0.5, 1 - 1e-16}
		us = append(us, z.cdf[:50]...)
		for range 20000 {
			us = append(us, r.Float64())
		}
		for _, u := range us {
			if a, b := z.Rank(u), z.rankBySearch(u); a != b {
				t.Fatalf("s=%v u=%v: guide table gives rank %d, binary search %d", s, u, a, b)
			}
		}
	}
}

// Key counts outside 1..MaxZipfKeys and exponents that are negative, NaN
// or infinite are refused.
func TestZipfBadInput(t *testing.T) {
	for _, c := range []struct {
		n int
		s float64
	}{{0, 1}, {-1, 1}, {MaxZipfKeys + 1, 1}, {10, -0.1}, {10, math.NaN()}, {10, math.Inf(1)}} {
		if _, err := NewZipf(c.n, c.s); err == nil {
			t.Errorf("NewZipf(%d, %v) accepted", c.n, c.s)
		}
	}
}
