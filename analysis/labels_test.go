package analysis

import "testing"

// Labels and counts print what was meant: 100 x 0.07 is 7, not
// 7.000000000000001, and a count past 2^53 is not printed as an exact
// integer it cannot hold.
func TestLabelNumAndCountOf(t *testing.T) {
	for x, want := range map[float64]string{100 * 0.07: "7", 100 * 0.29: "29", 127: "127", 1e200: "1e+200", 0.5: "0.5"} {
		if got := labelNum(x); got != want {
			t.Errorf("labelNum(%v) = %q, want %q", x, got, want)
		}
	}
	if got := countOf(binomial(20000, 5)); got != "2.665e+19" {
		t.Errorf("countOf(C(20000, 5)) = %q, want 2.665e+19", got)
	}
	if got := countOf(161700); got != "161,700" {
		t.Errorf("countOf(161700) = %q", got)
	}
}
