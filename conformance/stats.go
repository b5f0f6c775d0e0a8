package conformance

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ncChiSquareCDF returns P(X <= x) for X noncentral chi-square with k
// degrees of freedom and noncentrality lambda >= 0: the Poisson mixture
// sum_j Pois(j; lambda/2) P(chi-square with k+2j degrees of freedom <= x)
// (Johnson, Kotz and Balakrishnan, Continuous Univariate Distributions
// vol. 2, ch. 29), summed over the Poisson terms within 12 standard
// deviations of lambda/2 (the rest weighs below 1e-30).
func ncChiSquareCDF(x, k, lambda float64) float64 {
	if x <= 0 {
		return 0
	}
	if lambda == 0 {
		return distuv.ChiSquared{K: k}.CDF(x)
	}
	mu := lambda / 2
	sd := math.Sqrt(mu)
	lo := max(0, math.Floor(mu-12*sd-10))
	hi := math.Ceil(mu + 12*sd + 10)
	pois := distuv.Poisson{Lambda: mu}
	var sum float64
	for j := lo; j <= hi; j++ {
		sum += pois.Prob(j) * distuv.ChiSquared{K: k + 2*j}.CDF(x)
	}
	return min(1, sum)
}

// ncChiSquareQuantile returns the p-quantile (0 < p < 1) of the
// noncentral chi-square with k degrees of freedom and noncentrality
// lambda, by bisection of ncChiSquareCDF to a relative precision of 1e-10.
func ncChiSquareQuantile(p, k, lambda float64) float64 {
	lo, hi := 0.0, k+lambda+20*math.Sqrt(2*(k+2*lambda))+50
	for ncChiSquareCDF(hi, k, lambda) < p {
		hi *= 2
	}
	for hi-lo > 1e-10*hi {
		mid := (lo + hi) / 2
		if ncChiSquareCDF(mid, k, lambda) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// shareTest is the balance test of the balance and weights properties.
//
// K keys fall on n nodes whose true shares are s_i, expected e_i. Pearson's
// statistic X^2 = sum (c_i - K e_i)^2 / (K e_i) of the counts c_i is then
// approximately noncentral chi-square with n-1 degrees of freedom and
// noncentrality K * cv^2, where cv^2 = sum e_i (s_i/e_i - 1)^2 is the
// squared coefficient of variation of the nodes' relative loads s_i/e_i
// (weighted by e_i; with equal shares the plain cv of the shares)
// (Cochran 1952; Agresti, Categorical Data Analysis, 3rd ed., 1.5.5). The
// measured relative-load cv is sqrt(X^2/K), and sampling noise alone (cv =
// 0) makes it about sqrt((n-1)/K).
//
// The test passes a placement whose cv is at most the tolerance cv0: it
// fails when X^2 exceeds the 1-alpha quantile of the noncentral chi-square
// at cv0, so a placement exactly at the tolerance fails with probability
// alpha, and one with cv1 > cv0 with the power returned.
type shareTest struct {
	df, keys, cv0, alpha float64
}

// bound returns the largest X^2 that passes.
func (s shareTest) bound() float64 {
	return ncChiSquareQuantile(1-s.alpha, s.df, s.keys*s.cv0*s.cv0)
}

// cvBound returns the largest measured cv that passes: sqrt(bound/K).
func (s shareTest) cvBound() float64 { return math.Sqrt(s.bound() / s.keys) }

// power returns the probability that a placement whose relative loads
// have coefficient of variation cv1 fails.
func (s shareTest) power(cv1 float64) float64 {
	return 1 - ncChiSquareCDF(s.bound(), s.df, s.keys*cv1*cv1)
}

// zAlpha returns the one-sided normal quantile z with P(Z > z) = alpha.
func zAlpha(alpha float64) float64 { return distuv.UnitNormal.Quantile(1 - alpha) }
