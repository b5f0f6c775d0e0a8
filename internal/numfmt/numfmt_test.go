package numfmt

import "testing"

// Each format on the values the tables, captions and report print,
// including the edges: signs, fewer than four digits, non-numbers left
// alone, exponent form at the extremes.
func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Group("100000"), "100,000"},
		{Group("-100"), "-100"},
		{Group("-1234567"), "-1,234,567"},
		{Group("999"), "999"},
		{Group("12a4"), "12a4"},
		{Group(""), ""},
		{Thousands(1234567.5), "1,234,568"},
		{Thousands(-2500.4), "-2,500"},
		{Count(10000), "10,000"},
		{Count(0.5), "0.5"},
		{Int(-12000), "-12,000"},
		{Percent(0.123456, 2), "12.35%"},
		{PercentSig3(0.000412), "0.0412%"},
		{Sig3(1234567), "1,234,567"},
		{Sig3(0.012345), "0.0123"},
		{Sig3(2e20), "2e+20"},
		{Fixed(1.005, 2), "1.00"},
		{Fixed(3e15, 2), "3e+15"},
		{Interval("7.22x", "7.08", "7.35"), "7.22x [7.08, 7.35]"},
		{Short(1234567), "1.23M"},
		{Short(12345), "12.3k"},
		{Short(999), "999"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
