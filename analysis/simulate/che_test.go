package simulate_test

import (
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/workload"
)

// cheAllowance is the accuracy of Che's approximation itself, 0.01 of hit
// ratio: within about 1% of simulation for Zipf popularity (Fricker,
// Robert, Roberts 2012; REFERENCES.md), with the error shrinking as the
// cache grows, so caches of hundreds of objects are near it.
const cheAllowance = 0.01

// With eviction on, the fleet's hit ratio is Che's approximation applied
// to each node: a Zipf workload over N keys is routed by rendezvous to 4
// nodes, each an LRU cache of C objects (fixed 121-byte objects, so bytes
// are objects), and node j's characteristic time solves
// sum over its keys of (1 - exp(-p_i T_j)) = C. The simulated hit ratio
// after a warm-up of 5N requests, over 400,000 requests, must lie within cheAllowance plus 4.5
// standard errors of the approximation; the standard error comes from
// batch means (20 windows), since an LRU's hits are correlated in time.
// FIFO or random eviction (hit probability p_i T/(1 + p_i T) in the same
// approximation) would come out about 0.04 lower here, outside the
// tolerance.
func TestLRUMatchesChe(t *testing.T) {
	for _, c := range []struct {
		s        float64
		keys     int
		capacity int // objects per node
	}{
		{0.8, 20000, 500}, // the fleet holds 10% of the keys
		{1.0, 20000, 100}, // 2%
	} {
		const (
			requests = 500000
			warmup   = 100000
			n        = 4
			objBytes = 121 // "user:" + 16 hex digits, 100-byte values
			rate     = 1000.0
		)
		members := nodes(t, n)
		p := placement(t, "rendezvous", members)
		w, err := workload.New(workload.Config{Keys: c.keys, Zipf: c.s, Requests: requests, Rate: rate,
			Values: workload.Sizes{Kind: workload.Fixed, Size: objBytes - 21}, Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		// Che per node, from the keys the placement gives it.
		names := make([]string, c.keys)
		for i := range names {
			names[i] = string(w.Key(nil, i))
		}
		owners := make([]int, c.keys)
		if err := p.Locator.LocateKeys(names, owners); err != nil {
			t.Fatal(err)
		}
		pop := make([][]float64, n)
		for i, o := range owners {
			pop[o] = append(pop[o], w.Zipf().Prob(i))
		}
		che := 0.0
		for j := range pop {
			_, h, err := simulate.CheLRU(pop[j], float64(c.capacity))
			if err != nil {
				t.Fatal(err)
			}
			che += h
		}
		window := time.Duration(float64(requests-warmup) / 20 / rate * float64(time.Second))
		cfg := simulate.Config{Nodes: members, Capacity: simulate.Capacity{PerWeight: float64(c.capacity * objBytes)},
			Window: window}
		out, err := simulate.Run(w, []simulate.Placement{p}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var ratios []float64
		var hits, gets int64
		for _, win := range out.Results[0].Windows {
			if win.Start < time.Duration(warmup/rate*float64(time.Second)) || win.Partial {
				continue
			}
			ratios = append(ratios, win.HitRatio)
			hits += win.Hits
			gets += win.Gets
		}
		got := float64(hits) / float64(gets)
		se := stat.StdDev(ratios, nil) / math.Sqrt(float64(len(ratios)))
		tol := cheAllowance + 4.5*se
		if math.Abs(got-che) > tol {
			t.Errorf("zipf %v, %d keys, %d x %d objects: LRU hit ratio %.4f, Che %.4f: off by %.4f, over %.4f", c.s, c.keys, n, c.capacity, got, che, got-che, tol)
		}
		if out.Results[0].Totals.Evictions == 0 {
			t.Errorf("zipf %v: no evictions: the check needs a full cache", c.s)
		}
		t.Logf("zipf %v, %d keys, %d nodes x %d objects: simulated LRU %.4f, Che %.4f, difference %+.4f (tolerance %.4f = %.2f + 4.5 x %.5f)",
			c.s, c.keys, n, c.capacity, got, che, got-che, tol, cheAllowance, se)
	}
}

// CheLRU's characteristic time meets its equation, and for equal
// popularities it has the closed form T = -N ln(1 - C/N), hit ratio C/N.
func TestCheLRU(t *testing.T) {
	p := make([]float64, 1000)
	for i := range p {
		p[i] = 1.0 / 1000
	}
	T, h, err := simulate.CheLRU(p, 250)
	if err != nil {
		t.Fatal(err)
	}
	if want := -1000 * math.Log(1-0.25); math.Abs(T-want) > 1e-6*want || math.Abs(h-0.25) > 1e-9 {
		t.Errorf("uniform: T = %v, hit %v; want %v, 0.25", T, h, want)
	}
	for _, bad := range []float64{0, 1000, -1, math.NaN()} {
		if _, _, err := simulate.CheLRU(p, bad); err == nil {
			t.Errorf("capacity %v accepted", bad)
		}
	}
}
