package analysis

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// RingTheory returns the spread theory predicts for a ring of n
// equal-weight nodes with k virtual nodes each, over random rings (no key
// sampling).
//
// The n*k points cut the ring into arcs that are jointly Dirichlet(1, ...,
// 1), so a node's share (its k arcs) is Beta(k, (n-1)k) and its normalised
// load l = n*share has mean 1 and variance (n-1)/(nk+1). Hence
//   - cv = sqrt((n-1)/(nk+1)), the root-mean-square coefficient of
//     variation of the loads of one ring (exact: the loads sum to n);
//   - peakToMean = E[max of n independent Gamma(k, k) loads] (Gamma(k, k)
//     is the large-n limit of n*Beta(k, (n-1)k); independence ignores that
//     the shares sum to 1), computed as the integral of 1 - F(x)^n over
//     x >= 0 with F the distuv.Gamma{Alpha: k, Beta: k} CDF: 1 up to the
//     1e-12 quantile of F, then 512-point Gauss-Legendre quadrature
//     (gonum quad.Fixed) up to the 1 - 1e-15 quantile. For k = 1 it is
//     the harmonic number H_n (the maximum of n unit exponentials).
//
// It returns an error naming n or k when either is < 1.
func RingTheory(n, k int) (peakToMean, cv float64, err error) {
	if n < 1 {
		return 0, 0, fmt.Errorf("nodes %d: need at least 1 node", n)
	}
	if k < 1 {
		return 0, 0, fmt.Errorf("vnodes %d: need at least 1 virtual node per node", k)
	}
	cv = math.Sqrt(float64(n-1) / (float64(n)*float64(k) + 1))
	if n == 1 {
		return 1, cv, nil
	}
	g := distuv.Gamma{Alpha: float64(k), Beta: float64(k)}
	lo, hi := g.Quantile(1e-12), g.Quantile(1-1e-15)
	nf := float64(n)
	tail := quad.Fixed(func(x float64) float64 {
		return -math.Expm1(nf * math.Log(g.CDF(x)))
	}, lo, hi, 512, quad.Legendre{}, 0)
	return lo + tail, cv, nil
}
