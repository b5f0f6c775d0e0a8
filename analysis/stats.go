package analysis

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
// (see [MeanCI]). With a single key set the interval is undefined and
// reported as Lo = Hi = Mean.
type Estimate struct {
	Mean, Lo, Hi float64
}

// MeanCI returns the mean of the per-set samples xs and its 95% Student-t
// confidence interval: mean ± t(0.975, S-1) · s / sqrt(S), with s the sample
// standard deviation (stat.StdDev, divisor S-1) and the quantile from
// distuv.StudentsT. With one sample the interval is undefined; MeanCI then
// returns Lo = Hi = Mean, so output never holds NaN. When every sample is
// >= 0 (fractions, ratios, cv: quantities that cannot be negative) Lo is
// truncated at 0. It returns an error for no samples or a sample that is
// NaN or infinite.
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
		return Estimate{Mean: m, Lo: m, Hi: m}, nil
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(1 - (1-Confidence)/2)
	half := t * stat.StdDev(xs, nil) / math.Sqrt(float64(len(xs)))
	lo := m - half
	if lo < 0 && !slices.ContainsFunc(xs, func(x float64) bool { return x < 0 }) {
		lo = 0
	}
	return Estimate{Mean: m, Lo: lo, Hi: m + half}, nil
}

// PeakToMeanCI is [MeanCI] for peak-to-mean ratios, which are >= 1 by
// definition (the busiest node carries at least the mean): Lo is truncated
// at 1, or at the smallest sample should float rounding put one just below
// 1, so Lo never exceeds Mean. With few key sets (t(0.975, 1) = 12.7 for
// two) the Student-t interval otherwise reaches below 1 and down to 0.
func PeakToMeanCI(xs []float64) (Estimate, error) {
	e, err := MeanCI(xs)
	if err != nil {
		return e, err
	}
	e.Lo = max(e.Lo, min(1, slices.Min(xs)))
	return e, nil
}

// cis collects MeanCI estimates of samples the package computed itself
// and keeps the first error (a NaN or infinite sample, which validated
// inputs should never produce), so that a broken invariant is an error
// naming the quantity, never a panic.
type cis struct{ err error }

// of returns MeanCI(xs), recording the first error, named by what.
func (c *cis) of(what string, xs []float64) Estimate {
	e, err := MeanCI(xs)
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("%s: %w", what, err)
	}
	return e
}

// fraction returns MeanCI(xs) for a fraction 0..1 (every sample in
// [0, 1]), its interval clipped to [0, 1]: the true mean lies there, so
// the clipped interval still covers it whenever the Student-t one does,
// and no bound outside the domain (a moved fraction above 1, a hit ratio
// below 0 derived from it) is ever written. It records the first error,
// named by what; every interval of a fraction goes through it.
func (c *cis) fraction(what string, xs []float64) Estimate {
	return c.within(what, xs, 0, 1)
}

// within returns MeanCI(xs) for a quantity whose every sample lies in
// [lo, hi], its interval clipped to [lo, hi] (never past the mean, should
// rounding put the mean outside), recording the first error, named by
// what.
func (c *cis) within(what string, xs []float64, lo, hi float64) Estimate {
	e := c.of(what, xs)
	e.Lo = min(max(e.Lo, lo), e.Mean)
	e.Hi = max(min(e.Hi, hi), e.Mean)
	return e
}

// cv returns MeanCI(xs) for the coefficients of variation of n node
// loads, its interval clipped to [0, sqrt(n-1)]: a population cv of n
// values >= 0 reaches sqrt(n-1) when one node holds everything, so every
// sample, and the mean, lie there. It records the first error, named by
// what; every interval of a cv goes through it.
func (c *cis) cv(what string, xs []float64, n int) Estimate {
	return c.within(what, xs, 0, math.Sqrt(float64(max(n-1, 0))))
}

// peakToMean returns PeakToMeanCI(xs), recording the first error, named by
// what; every interval of a peak-to-mean ratio goes through it.
func (c *cis) peakToMean(what string, xs []float64) Estimate {
	e, err := PeakToMeanCI(xs)
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("%s: %w", what, err)
	}
	return e
}
