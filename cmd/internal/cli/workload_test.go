package cli

import (
	"strings"
	"testing"
)

// A log-normal value size names its bad part for what it is: the median
// and the bounds are bytes, the sigma is the standard deviation of
// ln(size).
func TestParseSizesNamesTheBadPart(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"lognormal:230,1e308", `sigma "1e308" is not a standard deviation of ln(size) in (0, 30]`},
		{"lognormal:230,0", `sigma "0" is not a standard deviation of ln(size)`},
		{"lognormal:230,x", `sigma "x" is not a standard deviation of ln(size)`},
		{"lognormal:1e308,1", `"1e308" is not a number of bytes in 0..2^30`},
		{"lognormal:230,1,1,1e308", `"1e308" is not a number of bytes in 0..2^30`},
	} {
		_, err := ParseSizes(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSizes(%q): %v, want an error containing %q", c.in, err, c.want)
		}
	}
	z, err := ParseSizes("lognormal:230,1.5")
	if err != nil || z.Median != 230 || z.Sigma != 1.5 || z.Max != 1<<20 {
		t.Errorf("ParseSizes(lognormal:230,1.5) = %+v, %v; want median 230, sigma 1.5, max 1 MiB", z, err)
	}
}
