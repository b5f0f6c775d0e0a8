package simulate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// CheLRU returns Che's approximation of an LRU cache of capacity objects
// under independent references with popularities p (probabilities of the
// objects per request, summing to at most 1: a node's share of a fleet's
// requests): the characteristic time T (in requests) with
// sum_i (1 - exp(-p_i T)) = capacity, and the hit ratio per request
// sum_i p_i (1 - exp(-p_i T)) (Che, Tung, Wang 2002; Fricker, Robert,
// Roberts 2012). Divide the hit ratio by sum(p) for the hit ratio of the
// cache's own requests.
//
// T is found by minimising (sum_i (1 - exp(-p_i e^x))/capacity - 1)^2
// over x = ln T with gonum's L-BFGS, from T = capacity/sum(p); the
// returned T meets the equation within a relative 1e-9. It returns an
// error for a capacity <= 0 or not below the number of objects with
// p_i > 0 (the cache then holds every object: T is infinite), a p_i
// outside 0..1, or a solve that does not converge.
func CheLRU(p []float64, capacity float64) (T, hit float64, err error) {
	var sum float64
	n := 0
	for i, x := range p {
		if math.IsNaN(x) || x < 0 || x > 1 {
			return 0, 0, fmt.Errorf("che: popularity %d is %v: need a probability", i, x)
		}
		if x > 0 {
			n++
		}
		sum += x
	}
	if math.IsNaN(capacity) || capacity <= 0 || capacity >= float64(n) {
		return 0, 0, fmt.Errorf("che: capacity %v objects: need 0 < C < %d (the objects requested)", capacity, n)
	}
	occupancy := func(T float64) (g, dg float64) {
		for _, x := range p {
			e := math.Exp(-x * T)
			g += 1 - e
			dg += x * e
		}
		return g, dg
	}
	prob := optimize.Problem{
		Func: func(x []float64) float64 {
			g, _ := occupancy(math.Exp(x[0]))
			r := g/capacity - 1
			return r * r
		},
		Grad: func(grad, x []float64) {
			T := math.Exp(x[0])
			g, dg := occupancy(T)
			grad[0] = 2 * (g/capacity - 1) * dg * T / capacity
		},
	}
	res, err := optimize.Minimize(prob, []float64{math.Log(capacity / sum)},
		&optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-24, Iterations: 50}, MajorIterations: 1000}, &optimize.LBFGS{})
	if err != nil && res == nil {
		return 0, 0, fmt.Errorf("che: %w", err)
	}
	T = math.Exp(res.X[0])
	if g, _ := occupancy(T); math.Abs(g/capacity-1) > 1e-9 {
		return 0, 0, fmt.Errorf("che: the solve stopped at T = %v with occupancy %v for capacity %v (%v)", T, g, capacity, res.Status)
	}
	for _, x := range p {
		hit += x * -math.Expm1(-x*T)
	}
	return T, hit, nil
}
