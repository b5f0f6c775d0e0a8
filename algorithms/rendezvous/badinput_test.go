package rendezvous

import (
	"math"
	"testing"

	"github.com/chbench/chbench/algorithms"
)

// Weights near math.MaxFloat64 are valid (finite, > 0), but unscaled
// scores -w/ln(u) overflow to +Inf for every u above ~0.57, so both nodes
// tie and the smaller ID won 71.5% of the keys instead of 2/3. Scores are
// invariant under scaling all weights by a power of two, so the owners must
// equal those of the weights 2 and 1 on every key.
func TestHugeWeightsKeepShares(t *testing.T) {
	h := algorithms.MustHash("xxhash")
	small, err := New([]algorithms.Node{{ID: "a", Weight: 2}, {ID: "b", Weight: 1}}, h)
	if err != nil {
		t.Fatal(err)
	}
	huge, err := New([]algorithms.Node{{ID: "a", Weight: math.Ldexp(1, 1023)}, {ID: "b", Weight: math.Ldexp(1, 1022)}}, h)
	if err != nil {
		t.Fatal(err)
	}
	tiny, err := New([]algorithms.Node{{ID: "a", Weight: math.Ldexp(1, -1070)}, {ID: "b", Weight: math.Ldexp(1, -1071)}}, h)
	if err != nil {
		t.Fatal(err)
	}
	const n = 20000
	a := 0
	for i := range uint64(n) {
		key := algorithms.Mix64(i)
		want := small.LocateHash(key)
		if got := huge.LocateHash(key); got != want {
			t.Fatalf("hash %#x: weights 2^1023, 2^1022 give owner %d, weights 2, 1 give %d", key, got, want)
		}
		if got := tiny.LocateHash(key); got != want {
			t.Fatalf("hash %#x: weights 2^-1070, 2^-1071 give owner %d, weights 2, 1 give %d", key, got, want)
		}
		if want == 0 {
			a++
		}
	}
	// Share of "a" is Binomial(n, 2/3)/n: 4 standard deviations is 0.0133.
	if share, sd := float64(a)/n, math.Sqrt(2.0/9/n); math.Abs(share-2.0/3) > 4*sd {
		t.Errorf("share of weight 2 of 3 = %v, want 2/3 within %v", share, 4*sd)
	}
	// And with weights near MaxFloat64 that are not powers of two.
	r, err := New([]algorithms.Node{{ID: "a", Weight: 1e308}, {ID: "b", Weight: 5e307}}, h)
	if err != nil {
		t.Fatal(err)
	}
	a = 0
	for i := range uint64(n) {
		if r.LocateHash(algorithms.Mix64(i)) == 0 {
			a++
		}
	}
	if share, sd := float64(a)/n, math.Sqrt(2.0/9/n); math.Abs(share-2.0/3) > 4*sd {
		t.Errorf("weights 1e308, 5e307: share of a = %v, want 2/3 within %v", share, 4*sd)
	}
}
