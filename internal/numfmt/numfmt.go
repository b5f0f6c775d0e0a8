// Package numfmt formats the numbers chbench prints, in the terminal
// tables, the plot captions and the report: thousands separators, whole
// counts, percentages, significant digits, intervals and short counts
// (1.20M), one rule each, so that a number reads the same everywhere.
package numfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Group puts commas between the groups of three digits of the whole
// number written in s, with an optional sign ("-10000" -> "-10,000"). Any
// other text is returned unchanged.
func Group(s string) string {
	sign, digits := "", s
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		sign, digits = s[:1], s[1:]
	}
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return s
	}
	var b strings.Builder
	b.WriteString(sign)
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Thousands formats x rounded to a whole number, with thousands
// separators: 1234567.8 -> "1,234,568".
func Thousands(x float64) string { return Group(strconv.FormatFloat(math.Round(x), 'f', 0, 64)) }

// Count formats a count held in a float64: a whole number exactly, with
// thousands separators (10000 -> "10,000"), anything else in the fewest
// digits that read back as x.
func Count(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if x != math.Trunc(x) {
		return s
	}
	return Group(s)
}

// Int formats n with thousands separators.
func Int(n int) string { return Group(strconv.Itoa(n)) }

// Percent formats the fraction x as a percentage with d decimals:
// Percent(0.12345, 2) = "12.35%".
func Percent(x float64, d int) string { return strconv.FormatFloat(100*x, 'f', d, 64) + "%" }

// PercentSig3 formats the fraction x as a percentage with 3 significant
// digits (Sig3): "0.0412%", "12.3%".
func PercentSig3(x float64) string { return Sig3(100*x) + "%" }

// Sig3 formats x with 3 significant digits (all digits of the integer
// part when it has more, with thousands separators), in exponent form
// beyond 10^15 or below 10^-4.
func Sig3(x float64) string {
	if x == 0 {
		return "0"
	}
	if a := math.Abs(x); a >= 1e15 || a < 1e-4 {
		return strconv.FormatFloat(x, 'g', 3, 64) // not hundreds of digits
	}
	dec := max(0, 2-int(math.Floor(math.Log10(math.Abs(x)))))
	s := strconv.FormatFloat(x, 'f', dec, 64)
	if dec == 0 {
		return Group(s)
	}
	return s
}

// Fixed formats x with d decimals (in exponent form beyond 10^15).
func Fixed(x float64, d int) string {
	if math.Abs(x) >= 1e15 {
		return strconv.FormatFloat(x, 'g', 3, 64) // not hundreds of digits
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

// Interval writes an estimate and its 95% interval, each already
// formatted: "7.22x [7.08, 7.35]".
func Interval(mid, lo, hi string) string { return mid + " [" + lo + ", " + hi + "]" }

// NoInterval is what [Estimate] writes in place of an interval that
// could not be computed (one key set: a Student-t interval needs two).
const NoInterval = "[no interval]"

// Estimate writes mid and its 95% interval [lo, hi], each formatted by f,
// as [Interval] does; when lo or hi is nil (the interval could not be
// computed) it writes mid and [NoInterval]: "7.22x [no interval]".
func Estimate(mid float64, lo, hi *float64, f func(float64) string) string {
	if lo == nil || hi == nil {
		return f(mid) + " " + NoInterval
	}
	return Interval(f(mid), f(*lo), f(*hi))
}

// Short formats x with a k, M or G suffix and 3 significant digits
// (1234567 -> "1.23M"), whole below 1,000.
func Short(x float64) string {
	for _, u := range []struct {
		div float64
		sfx string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if x >= u.div {
			v := x / u.div
			switch {
			case v >= 100:
				return fmt.Sprintf("%.0f%s", v, u.sfx)
			case v >= 10:
				return fmt.Sprintf("%.1f%s", v, u.sfx)
			}
			return fmt.Sprintf("%.2f%s", v, u.sfx)
		}
	}
	return fmt.Sprintf("%.0f", x)
}
