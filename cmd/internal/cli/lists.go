package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
)

// Ints parses a comma-separated list of distinct integers >= min
// ("grid" is not accepted here); the error names the flag and the bad or
// repeated entry.
func Ints(flagName, s string, min int) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("%s %q: not an integer", flagName, p)
		}
		if v < min {
			return nil, fmt.Errorf("%s %d: must be at least %d", flagName, v, min)
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("%s %d: listed twice (each configuration would run and be written twice)", flagName, v)
		}
		out = append(out, v)
	}
	return out, nil
}

// Floats parses a comma-separated list of distinct numbers >= lo (> lo
// when strict), each in algorithms.ParseDecimal's syntax; the error names
// the flag and the bad entry.
func Floats(flagName, s string, lo float64, strict bool) ([]float64, error) {
	return decimals(flagName, s, func(v float64, p string) error {
		if v < lo || (strict && v == lo) {
			rel := ">="
			if strict {
				rel = ">"
			}
			return fmt.Errorf("%s %v: must be %s %v", flagName, v, rel, lo)
		}
		return nil
	}, func(v float64, p string) error {
		return fmt.Errorf("%s %v: listed twice (each configuration would run and be written twice)", flagName, v)
	})
}

// Fractions parses a comma-separated list of distinct fractions in
// algorithms.ParseDecimal's syntax (their range is checked by the scenario
// constructors); the error names the flag and the bad or repeated entry.
func Fractions(flagName, s string) ([]float64, error) {
	return decimals(flagName, s, func(float64, string) error { return nil }, func(v float64, p string) error {
		return fmt.Errorf("%s %q: listed twice (each change would run and be written twice)", flagName, p)
	})
}

// decimals parses the comma-separated numbers of s, each checked by check
// and refused by twice when it repeats an earlier one (p is the entry as
// typed).
func decimals(flagName, s string, check, twice func(v float64, p string) error) ([]float64, error) {
	var out []float64
	for _, p := range strings.Split(s, ",") {
		v, err := algorithms.ParseDecimal(p)
		if err != nil {
			return nil, fmt.Errorf("%s %w", flagName, err)
		}
		if err := check(v, p); err != nil {
			return nil, err
		}
		if slices.Contains(out, v) {
			return nil, twice(v, p)
		}
		out = append(out, v)
	}
	return out, nil
}

// NoDuplicates returns an error naming the flag and the first entry of
// list that appears twice: a repeated entry would run its configuration
// twice and write duplicate rows, which the plots reject.
func NoDuplicates(flagName string, list []string) error {
	for i, x := range list {
		if slices.Contains(list[:i], x) {
			return fmt.Errorf("%s %q: listed twice (each configuration would run and be written twice)", flagName, x)
		}
	}
	return nil
}
