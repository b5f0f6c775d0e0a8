package simulate_test

import (
	"math"
	"testing"

	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// truth computes, from the workload's keys and sizes alone, each node's
// distinct objects, their bytes and the sum of squared sizes, for the
// keys the workload actually requests.
func truth(t *testing.T, cfg workload.Config, p simulate.Placement) (objects, bytes, squares []float64) {
	t.Helper()
	w, err := workload.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	n := len(p.Locator.Nodes())
	objects, bytes, squares = make([]float64, n), make([]float64, n), make([]float64, n)
	owner := make([]int, 1)
	for w.Scan() {
		q := w.Record().(*trace.Request)
		if seen[string(q.Key)] {
			continue
		}
		seen[string(q.Key)] = true
		if err := p.Locator.LocateKeys([]string{string(q.Key)}, owner); err != nil {
			t.Fatal(err)
		}
		size := float64(q.Bytes())
		objects[owner[0]]++
		bytes[owner[0]] += size
		squares[owner[0]] += size * size
	}
	return objects, bytes, squares
}

// Below MaxObjects every object is counted exactly; above it the hash
// sample's estimates lie within 4.5 standard deviations of the truth, the
// deviation of a Horvitz-Thompson sum with inclusion probability pi
// being sqrt(sum of y^2 (1 - pi)/pi).
func TestSpreadBytes(t *testing.T) {
	cfg := workload.Config{Keys: 60000, Zipf: 0.6, Requests: 150000, Rate: 1000, Seed: 3,
		Values: workload.Sizes{Kind: workload.LogNormal, Median: 300, Sigma: 1.2, Min: 1, Max: 1 << 20}}
	members := nodes(t, 5)
	p := placement(t, "ring", members)
	objects, bytes, squares := truth(t, cfg, p)
	for _, max := range []int{0, 4000} {
		w, err := workload.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s, err := simulate.SpreadBytes(w, p.Locator, simulate.SpreadOptions{MaxObjects: max})
		if err != nil {
			t.Fatal(err)
		}
		var requests int64
		for i, nb := range s.Nodes {
			requests += nb.Requests
			if max == 0 {
				if nb.Objects != objects[i] || nb.Bytes != bytes[i] || s.SampleRate != 1 {
					t.Errorf("exact: node %s: %v objects, %v bytes, rate %v; want %v, %v, 1", nb.ID, nb.Objects, nb.Bytes, s.SampleRate, objects[i], bytes[i])
				}
				continue
			}
			pi := s.SampleRate
			sdObj := math.Sqrt(objects[i] * (1 - pi) / pi)
			sdBytes := math.Sqrt(squares[i] * (1 - pi) / pi)
			if math.Abs(nb.Objects-objects[i]) > 4.5*sdObj || math.Abs(nb.Bytes-bytes[i]) > 4.5*sdBytes {
				t.Errorf("sampled at %v: node %s: %.0f objects (true %.0f +- %.0f), %.0f bytes (true %.0f +- %.0f)",
					pi, nb.ID, nb.Objects, objects[i], sdObj, nb.Bytes, bytes[i], sdBytes)
			}
		}
		if requests != cfg.Requests {
			t.Errorf("%d requests counted, want %d", requests, cfg.Requests)
		}
		if max > 0 && s.SampleRate > 1.0/16 {
			t.Errorf("sample rate %v with %d objects allowed: want 1/16 or less for about 55,000 objects", s.SampleRate, max)
		}
		if s.PeakToMean < 1 || s.Busiest == "" {
			t.Errorf("peak-to-mean %v on %q", s.PeakToMean, s.Busiest)
		}
		t.Logf("max objects %d: sample rate %v, busiest %s holds %.0f bytes, %.3f x its share, cv %.3f", max, s.SampleRate, s.Busiest, s.PeakBytes, s.PeakToMean, s.CV)
	}
}
