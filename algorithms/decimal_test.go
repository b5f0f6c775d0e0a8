package algorithms

import (
	"strings"
	"testing"
)

// Numbers typed by a user are plain decimal: Go's other literals, which
// strconv.ParseFloat would take, are refused, and so are weights written
// with them.
func TestParseDecimal(t *testing.T) {
	for s, want := range map[string]float64{"0.95": 0.95, " 1e-3 ": 0.001, "5": 5, "-2.5E+2": -250, ".5": 0.5, "2.": 2} {
		if v, err := ParseDecimal(s); err != nil || v != want {
			t.Errorf("ParseDecimal(%q) = %v, %v; want %v", s, v, err, want)
		}
	}
	for _, s := range []string{"1_0", "0x1p-1", "Inf", "NaN", "", "1e400", "1.2.3", "+", "e5"} {
		if _, err := ParseDecimal(s); err == nil || !strings.Contains(err.Error(), "\""+s+"\"") {
			t.Errorf("ParseDecimal(%q): err = %v, want one quoting the value", s, err)
		}
	}
	if _, err := ParseWeights("1,1_0"); err == nil || !strings.Contains(err.Error(), `weight "1_0" (entry 1)`) {
		t.Errorf("ParseWeights(1,1_0): err = %v", err)
	}
}
