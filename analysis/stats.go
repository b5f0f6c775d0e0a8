package analysis

import (
	"fmt"
	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis/interval"
	"math"
	"slices"
)

// Confidence is the two-sided confidence level of every interval chbench
// reports ([interval.Confidence]).
const Confidence = interval.Confidence

// Estimate is a mean over key sets with its 95% confidence interval, nil
// when it cannot be computed ([interval.Estimate]).
type Estimate = interval.Estimate

// EstimateOf returns the Estimate of a row's mean and interval columns
// ([interval.Of]).
func EstimateOf(mean float64, lo, hi *float64) Estimate { return interval.Of(mean, lo, hi) }

// MeanCI returns the mean of the per-set samples xs and its 95% Student-t
// confidence interval ([interval.MeanCI]).
func MeanCI(xs []float64) (Estimate, error) { return interval.MeanCI(xs) }

// PeakToMeanCI is [MeanCI] for peak-to-mean ratios, which are >= 1 by
// definition (the busiest node carries at least the mean): Lo is truncated
// at 1, or at the smallest sample should float rounding put one just below
// 1, so Lo never exceeds Mean (a missing interval stays missing). With few key sets (t(0.975, 1) = 12.7 for
// two) the Student-t interval otherwise reaches below 1 and down to 0.
func PeakToMeanCI(xs []float64) (Estimate, error) {
	e, err := MeanCI(xs)
	if err != nil {
		return e, err
	}
	return e.Clip(min(1, slices.Min(xs)), math.Inf(1)), nil
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
	return c.of(what, xs).Clip(lo, hi)
}

// cv returns MeanCI(xs) for the coefficients of variation of n node
// loads, its interval clipped to [0, sqrt(n-1)]: a population cv of n
// values >= 0 reaches sqrt(n-1) when one node holds everything, so every
// sample, and the mean, lie there. It records the first error, named by
// what; every interval of a cv goes through it.
func (c *cis) cv(what string, xs []float64, n int) Estimate {
	return c.within(what, xs, 0, math.Sqrt(float64(max(n-1, 0))))
}

// peakToMean returns PeakToMeanCI(xs) with its interval also clipped at
// top, the largest peak-to-mean ratio the nodes allow ([maxPeakToMean]),
// recording the first error, named by what; every interval of a
// peak-to-mean ratio goes through it.
func (c *cis) peakToMean(what string, xs []float64, top float64) Estimate {
	e, err := PeakToMeanCI(xs)
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("%s: %w", what, err)
	}
	return e.Clip(math.Inf(-1), top)
}

// maxPeakToMean returns the largest peak-to-mean ratio of loads over
// nodes (weights > 0): 1 / the smallest weight share, reached
// when the lightest node carries everything (n for equal weights). A
// ratio's samples, and so their mean, never exceed it.
func maxPeakToMean(nodes []algorithms.Node) float64 {
	if len(nodes) == 0 {
		return math.Inf(1)
	}
	lightest := nodes[0].Weight
	for _, n := range nodes {
		lightest = min(lightest, n.Weight)
	}
	return algorithms.TotalWeight(nodes) / lightest
}
