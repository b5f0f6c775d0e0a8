package algorithms

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// decimalSyntax is a plain decimal number: an optional sign, digits with
// an optional point (or a point and digits), an optional exponent.
var decimalSyntax = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// ParseDecimal parses s, surrounding spaces trimmed, as a finite number in
// plain decimal or exponent notation (0.95, 1e-3, 5, -2.5E+2): the syntax
// of every number chbench reads from flags, lists, weights and profiles.
// Go's other float literals, which strconv.ParseFloat takes (1_0, 0x1p-1,
// Inf, NaN), and a number beyond the float64 range are an error quoting s.
func ParseDecimal(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if !decimalSyntax.MatchString(t) {
		return 0, fmt.Errorf("%q: not a decimal number (digits with an optional sign, point and exponent, as in 0.95 or 1e-3: no _, 0x, Inf or NaN)", s)
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: out of range", s)
	}
	return v, nil
}
