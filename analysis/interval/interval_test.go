package interval

import (
	"math"
	"testing"
)

// MeanCI of 11, 12, 13: mean 12, s = 1, t(0.975, 2) = 4.302653, half
// width 4.302653 / sqrt(3) = 2.4841377; one sample has no interval.
func TestMeanCI(t *testing.T) {
	e, err := MeanCI([]float64{11, 12, 13})
	if err != nil || !e.HasInterval() || e.Mean != 12 || math.Abs(*e.Hi-14.4841377) > 1e-6 || math.Abs(*e.Lo-9.5158623) > 1e-6 {
		t.Errorf("MeanCI(11, 12, 13) = %+v, %v; want 12 ± 2.4841377", e, err)
	}
	one, err := MeanCI([]float64{0.4})
	if err != nil || one.HasInterval() || one.Lo != nil || one.Hi != nil || one.Mean != 0.4 {
		t.Errorf("MeanCI(0.4) = %+v, %v; want mean 0.4 and no interval", one, err)
	}
	for _, bad := range [][]float64{nil, {1, math.NaN()}, {math.Inf(-1)}} {
		if _, err := MeanCI(bad); err == nil {
			t.Errorf("MeanCI(%v): no error", bad)
		}
	}
}

// Map takes an interval's ends through a monotone function, swapping them
// for a decreasing one; Clip cuts it to a domain but never past the mean;
// neither invents an interval that is missing.
func TestMapAndClip(t *testing.T) {
	e := Of(0.2, new(0.1), new(0.3))
	up := e.Map(func(x float64) float64 { return 10 * x }, false)
	down := e.Map(func(x float64) float64 { return 1 - x }, true)
	if up.Mean != 2 || *up.Lo != 1 || *up.Hi != 3 {
		t.Errorf("10x: %v [%v, %v], want 2 [1, 3]", up.Mean, *up.Lo, *up.Hi)
	}
	if down.Mean != 0.8 || math.Abs(*down.Lo-0.7) > 1e-15 || math.Abs(*down.Hi-0.9) > 1e-15 {
		t.Errorf("1 - x: %v [%v, %v], want 0.8 [0.7, 0.9]", down.Mean, *down.Lo, *down.Hi)
	}
	if c := e.Clip(0.15, 0.25); *c.Lo != 0.15 || *c.Hi != 0.25 || *e.Lo != 0.1 {
		t.Errorf("Clip(0.15, 0.25) = [%v, %v] (original lo now %v), want [0.15, 0.25] and the original kept", *c.Lo, *c.Hi, *e.Lo)
	}
	if c := e.Clip(0.5, 1); *c.Lo != 0.2 || *c.Hi != 0.3 {
		t.Errorf("Clip above the mean = [%v, %v], want lo at the mean 0.2", *c.Lo, *c.Hi)
	}
	none := Of(0.2, nil, new(0.3))
	if none.HasInterval() || none.Map(math.Sqrt, false).HasInterval() || none.Clip(0, 1).HasInterval() {
		t.Errorf("an estimate with one bound gained an interval: %+v", none)
	}
}
