package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
)

// TestRingTheoryExponential: with one virtual node per node the loads are
// unit exponentials, whose expected maximum over n is the harmonic number
// H_n exactly; cv^2 = (n-1)/(n+1).
func TestRingTheoryExponential(t *testing.T) {
	for _, n := range []int{1, 2, 10, 1000, 10000} {
		var h float64
		for i := 1; i <= n; i++ {
			h += 1 / float64(i)
		}
		p, cv, err := RingTheory(n, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p-h) > 1e-6*h {
			t.Errorf("n=%d k=1: expected max %.9f, want H_n = %.9f", n, p, h)
		}
		if want := math.Sqrt(float64(n-1) / float64(n+1)); math.Abs(cv-want) > 1e-15 {
			t.Errorf("n=%d k=1: cv %v, want %v", n, cv, want)
		}
	}
	if _, _, err := RingTheory(0, 5); err == nil {
		t.Error("n = 0 accepted")
	}
	if _, _, err := RingTheory(5, 0); err == nil {
		t.Error("k = 0 accepted")
	}
}

// TestRingTheoryReferenceValues: the analytic values of REFERENCES.md for
// n = 10 (expected peak-to-mean 2.93, 1.54, 1.23, 1.16, 1.11, 1.07, 1.05 at
// k = 1 ... 1000, given to two decimals; cv 0.075 at k = 160).
func TestRingTheoryReferenceValues(t *testing.T) {
	for k, want := range map[int]float64{1: 2.93, 10: 1.54, 50: 1.23, 100: 1.16, 200: 1.11, 500: 1.07, 1000: 1.05} {
		p, _, err := RingTheory(10, k)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p-want) > 0.005 {
			t.Errorf("n=10 k=%d: expected peak-to-mean %.4f, REFERENCES.md %.2f", k, p, want)
		}
	}
	if _, cv, _ := RingTheory(10, 160); math.Abs(cv-0.075) > 0.0005 {
		t.Errorf("n=10 k=160: cv %.4f, REFERENCES.md 0.075", cv)
	}
}

// TestRingTheoryMonteCarlo compares the integral with the mean maximum of
// n Gamma(k, k) draws (distuv.Gamma, fixed seed): 4,000 replicates, 5
// standard errors of the simulated mean accepted.
func TestRingTheoryMonteCarlo(t *testing.T) {
	src := rand.NewPCG(7, 8)
	for _, c := range [][2]int{{10, 10}, {10, 160}, {100, 50}, {1000, 1000}} {
		n, k := c[0], c[1]
		g := distuv.Gamma{Alpha: float64(k), Beta: float64(k), Src: src}
		maxes := make([]float64, 4000)
		for i := range maxes {
			for range n {
				maxes[i] = math.Max(maxes[i], g.Rand())
			}
		}
		m, sd := stat.MeanStdDev(maxes, nil)
		p, _, err := RingTheory(n, k)
		if err != nil {
			t.Fatal(err)
		}
		if se := sd / math.Sqrt(float64(len(maxes))); math.Abs(p-m) > 5*se {
			t.Errorf("n=%d k=%d: theory %.5f, simulated %.5f ± %.5f", n, k, p, m, 5*se)
		}
	}
}

// TestLayoutSpreadMatchesTheory: the exact peak-to-mean and cv of 200
// independent rings (10 nodes, few vnodes, exact arcs: no keys) agree with
// RingTheory. The mean of 200 draws has standard error sd/sqrt(200); the
// Gamma model ignores that shares sum to 1, which shifts the expected max
// by less than 1% here, so the tolerance is 4 standard errors plus 1%.
// A broken layout (every draw the same ring: salting ignored) fails it,
// since its 5th and 95th percentiles coincide.
func TestLayoutSpreadMatchesTheory(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(10)
	for _, k := range []int{1, 10, 100} {
		o := opts("ring", 1000, 1)
		o.Config.VNodes = k
		o.Draws = 200
		r, err := Spread(o, nodes)
		if err != nil {
			t.Fatal(err)
		}
		if r.Placements == nil || *r.Placements != 200 || r.TheoryPeakToMean == nil {
			t.Fatalf("k=%d: layouts %v theory %v", k, r.Placements, r.TheoryPeakToMean)
		}
		mean, p5, p95 := *r.PlacementsPeakToMean, *r.PlacementsPeakToMeanP5, *r.PlacementsPeakToMeanP95
		if !(p5 < mean && mean < p95) {
			t.Errorf("k=%d: band [%v, %v] does not bracket its mean %v", k, p5, p95, mean)
		}
		// sd of the max over rings, estimated from the band (5%-95% is about 3.3 sd).
		se := (p95 - p5) / 3.3 / math.Sqrt(200)
		if d := math.Abs(mean - *r.TheoryPeakToMean); d > 4*se+0.01**r.TheoryPeakToMean {
			t.Errorf("k=%d: mean peak-to-mean over 200 rings %.4f, theory %.4f (tolerance %.4f)", k, mean, *r.TheoryPeakToMean, 4*se+0.01**r.TheoryPeakToMean)
		}
		// RMS cv over rings against sqrt((n-1)/(nk+1)): the mean cv is
		// below the RMS by Jensen, so compare within the band instead.
		if *r.TheoryCV < *r.PlacementsCVP5 || *r.TheoryCV > *r.PlacementsCVP95 {
			t.Errorf("k=%d: theory cv %.4f outside the 5-95%% band [%.4f, %.4f]", k, *r.TheoryCV, *r.PlacementsCVP5, *r.PlacementsCVP95)
		}
	}
}

// TestBoundedKeyBound: bounded loads report their bound on partitions
// (<= 1 by construction) and on keys, where one set of keys lands on the
// partitions of a node with sampling noise around partitions/P; with the
// default automatic partitions (>= 1,024 per node) the key ratio stays
// near the partition ratio.
func TestBoundedKeyBound(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(20)
	o := opts("bounded", 200_000, 3)
	r, err := Spread(o, nodes)
	if err != nil {
		t.Fatal(err)
	}
	if r.LoadFactor == nil || *r.LoadFactor != 1.25 {
		t.Fatalf("load factor %v, want 1.25", r.LoadFactor)
	}
	c, part, key := *r.LoadFactor, *r.PartitionLoadOverBound, *r.KeyLoadOverBound
	if part > 1 || part < 1/c {
		t.Errorf("partition load / capacity %.4f: want in [1/c, 1]", part)
	}
	if math.Abs(key-part) > 0.05 {
		t.Errorf("key load / bound %.4f, partition %.4f: want within 0.05", key, part)
	}
	if r.Config.Partitions != 20480 || r.Label != "bounded (partitions)" {
		t.Errorf("partitions %d label %q: want automatic 20,480 (1,024 x 20) and the variant named", r.Config.Partitions, r.Label)
	}
	if rr, _ := Spread(opts("ring", 1000, 1), nodes); rr.LoadFactor != nil || rr.KeyLoadOverBound != nil {
		t.Errorf("ring reports a load bound %v", *rr.LoadFactor)
	}
}
