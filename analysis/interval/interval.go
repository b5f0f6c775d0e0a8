// Package interval is chbench's one confidence interval: the mean of
// per-key-set samples with its 95% Student-t interval (gonum's
// distuv.StudentsT quantile and stat.StdDev), and a missing interval when
// it cannot be computed (one key set). Every analysis that reports an
// interval over key sets builds it here, so that "missing" means the same
// in every result file.
package interval

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the two-sided confidence level of every interval chbench
// reports.
const Confidence = 0.95

// Estimate is a mean over key sets with a 95% confidence interval [Lo, Hi]
// (see [MeanCI]). Lo and Hi are nil when the interval cannot be computed:
// a Student-t interval needs at least two key sets, and one set gives a
// mean without one. A row stores Lo and Hi as they are, so a missing
// interval is written as missing (an empty CSV cell, JSON null), never as
// an invented [Mean, Mean].
type Estimate struct {
	Mean   float64
	Lo, Hi *float64
}

// HasInterval reports whether e has a confidence interval.
func (e Estimate) HasInterval() bool { return e.Lo != nil && e.Hi != nil }

// Map returns the image of e under g, a function that is monotone on
// [Lo, Hi]: g(Mean) with the interval [g(Lo), g(Hi)] when g increases
// (decreasing false), [g(Hi), g(Lo)] when it decreases, and no interval
// when e has none.
func (e Estimate) Map(g func(float64) float64, decreasing bool) Estimate {
	out := Estimate{Mean: g(e.Mean)}
	if !e.HasInterval() {
		return out
	}
	lo, hi := g(*e.Lo), g(*e.Hi)
	if decreasing {
		lo, hi = hi, lo
	}
	out.Lo, out.Hi = &lo, &hi
	return out
}

// Clip returns e with its interval clipped to [lo, hi] and never past the
// mean (should rounding put the mean outside): for a quantity whose every
// value lies in [lo, hi], whose mean therefore does too.
func (e Estimate) Clip(lo, hi float64) Estimate {
	if !e.HasInterval() {
		return e
	}
	l, h := min(max(*e.Lo, lo), e.Mean), max(min(*e.Hi, hi), e.Mean)
	e.Lo, e.Hi = &l, &h
	return e
}

// Of returns the Estimate of a row's mean and interval columns
// (nil bounds: no interval), for analyses that derive one row from
// another.
func Of(mean float64, lo, hi *float64) Estimate {
	if lo == nil || hi == nil {
		return Estimate{Mean: mean}
	}
	return Estimate{Mean: mean, Lo: lo, Hi: hi}
}

// MeanCI returns the mean of the per-set samples xs and its 95% Student-t
// confidence interval: mean ± t(0.975, S-1) · s / sqrt(S), with s the sample
// standard deviation (stat.StdDev, divisor S-1) and the quantile from
// distuv.StudentsT. With one sample the interval cannot be computed: Lo
// and Hi are nil. When every sample is >= 0 (fractions, ratios, cv:
// quantities that cannot be negative) Lo is truncated at 0. It returns an
// error for no samples or a sample that is NaN or infinite.
func MeanCI(xs []float64) (Estimate, error) {
	if len(xs) == 0 {
		return Estimate{}, fmt.Errorf("no samples: a mean needs at least one key set")
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Estimate{}, fmt.Errorf("sample %d is %v", i, x)
		}
	}
	m := stat.Mean(xs, nil)
	if len(xs) == 1 {
		return Estimate{Mean: m}, nil
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(1 - (1-Confidence)/2)
	half := t * stat.StdDev(xs, nil) / math.Sqrt(float64(len(xs)))
	lo, hi := m-half, m+half
	if lo < 0 && !slices.ContainsFunc(xs, func(x float64) bool { return x < 0 }) {
		lo = 0
	}
	return Estimate{Mean: m, Lo: &lo, Hi: &hi}, nil
}
