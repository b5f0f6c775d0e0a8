package fleet

import (
	"fmt"
	"math"
	"strings"

	"github.com/chbench/chbench/algorithms"
)

// sizeUnits are the memory units a profile accepts, longest first so that
// "GiB" is not read as "B".
var sizeUnits = []struct {
	suffix string
	bytes  float64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1},
}

// ParseSize parses a memory size: a decimal number and a unit, binary
// (KiB, MiB, GiB, TiB: powers of 1,024) or decimal (KB, MB, GB, TB: powers
// of 1,000) or B, with optional spaces: "16GiB", "1.5 GB", "65536 B". It
// returns the whole number of bytes, or an error naming s when the number
// is not a finite decimal > 0, the unit is missing or unknown, or the size
// is below 1 byte or above 2^62 bytes.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	for _, u := range sizeUnits {
		num, ok := strings.CutSuffix(t, u.suffix)
		if !ok {
			continue
		}
		x, err := algorithms.ParseDecimal(strings.TrimSpace(num))
		if err != nil {
			return 0, fmt.Errorf("%q: %w", s, err)
		}
		b := x * u.bytes
		if !(b >= 1) || b > 1<<62 || math.IsInf(b, 0) {
			return 0, fmt.Errorf("%q: want 1 byte to 4 EiB", s)
		}
		return int64(math.Round(b)), nil
	}
	return 0, fmt.Errorf("%q: want a number and a unit: B, KiB, MiB, GiB, TiB (powers of 1,024) or KB, MB, GB, TB (powers of 1,000)", s)
}
