package plots

import (
	"testing"
)

// The ticks of a log axis are bounded by what they draw, not by the
// values: an axis from 0 (gonum pads some axes to include it) or from 1
// to 1e308 gets a few dozen ticks at most, each label under 16
// characters (an exponent, not 309 digits), where a tick per decade
// from decade MinInt64 never ended.
func TestLogTicksBoundedOnExtremeRanges(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{0, 1e308}, {1, 1e308}, {1e-300, 1e300}, {2, 1e30}} {
		ticks := logTicks{}.Ticks(c.lo, c.hi)
		if len(ticks) == 0 || len(ticks) > 60 {
			t.Errorf("Ticks(%g, %g): %d ticks, want 1..60", c.lo, c.hi, len(ticks))
		}
		for _, tk := range ticks {
			if len(tk.Label) > 16 {
				t.Errorf("Ticks(%g, %g): label %q longer than 16", c.lo, c.hi, tk.Label)
			}
		}
	}
}
