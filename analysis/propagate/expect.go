package propagate

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/integrate/quad"
)

// schedule is the timing of one scenario's memberships: version 0 before
// the first change, version j from change j at at[j] (j = 1..V-1), whose
// propagation has the expected informed fraction curves[j].
type schedule struct {
	at      []float64 // at[0] = -Inf; increasing
	curves  []Curve   // curves[0] unused
	handoff float64   // store: seconds after a change at which its data has moved
}

// current returns J(t), the newest version issued at time t: the largest
// j with at[j] <= t.
func (s *schedule) current(t float64) int {
	return sort.Search(len(s.at), func(j int) bool { return s.at[j] > t }) - 1
}

// authority returns A(t), the version whose owners hold the data at t in
// the store model: the largest j with at[j] + handoff <= t.
func (s *schedule) authority(t float64) int {
	return sort.Search(len(s.at), func(j int) bool { return s.at[j]+s.handoff > t }) - 1
}

// viewProbs writes into p[j] the probability that a client routes with
// version j at time t, for j = 0..J(t), and returns J(t). A client routes
// with the newest change it has learned; its delays for different changes
// are independent, so
//
//	P(view = j) = G_j(t) prod_{i=j+1..J} (1 - G_i(t)),  G_i(t) = F_i(t - at[i]),  G_0 = 1.
func (s *schedule) viewProbs(t float64, p []float64) int {
	cur := s.current(t)
	none := 1.0 // P(no change after j, up to J, learned)
	for j := cur; j >= 1; j-- {
		g := s.curves[j].Informed(t - s.at[j])
		p[j] = g * none
		none *= 1 - g
	}
	p[0] = none
	return cur
}

// windowShares holds, for one time window, the time integrals (seconds)
// of the view probabilities: route[j*V+J] = integral of P(view = j) over
// the times when J is the newest version, store[j*V+A] the same for the
// times when A holds the data. Multiplied by the window's request rate
// and the moved fraction between the two versions they give the expected
// counts.
type windowShares struct {
	v            int
	route, store []float64
}

// shares integrates the view probabilities over [a, b].
func (s *schedule) shares(a, b float64) windowShares {
	v := len(s.at)
	w := windowShares{v: v, route: make([]float64, v*v), store: make([]float64, v*v)}
	p := make([]float64, v)
	visit := func(t, weight float64) {
		cur := s.viewProbs(t, p)
		auth := s.authority(t)
		for j := 0; j <= cur; j++ {
			w.route[j*v+cur] += weight * p[j]
			w.store[j*v+auth] += weight * p[j]
		}
	}
	// The scalar that drives the adaptive rule: the stale share plus the
	// share of clients routing with another version than the store's.
	f := func(t float64) float64 {
		cur := s.viewProbs(t, p)
		auth := s.authority(t)
		var x float64
		for j := 0; j <= cur; j++ {
			if j < cur {
				x += p[j]
			}
			if j != auth {
				x += p[j]
			}
		}
		return x
	}
	cuts := s.cuts(a, b)
	for i := 1; i < len(cuts); i++ {
		lo, hi := cuts[i-1], cuts[i]
		if hi <= lo {
			continue
		}
		if s.stepOnly(hi) {
			// Every curve in force is constant on (lo, hi): the midpoint
			// value is the exact mean.
			visit((lo+hi)/2, hi-lo)
			continue
		}
		adaptive(f, lo, hi, visit, 0)
	}
	return w
}

// cuts returns a, b and every point in (a, b) where the integrand may jump
// or kink (change times, hand-off times, the curves' breaks), sorted.
func (s *schedule) cuts(a, b float64) []float64 {
	cuts := []float64{a, b}
	add := func(t float64) {
		if t > a && t < b {
			cuts = append(cuts, t)
		}
	}
	for j := 1; j < len(s.at); j++ {
		add(s.at[j])
		add(s.at[j] + s.handoff)
		br := s.curves[j].Breaks()
		lo := sort.SearchFloat64s(br, a-s.at[j])
		for _, x := range br[lo:] {
			if s.at[j]+x >= b {
				break
			}
			add(s.at[j] + x)
		}
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

// stepOnly reports whether every curve of a change issued before t is a
// step function.
func (s *schedule) stepOnly(t float64) bool {
	for j := 1; j < len(s.at) && s.at[j] < t; j++ {
		if !s.curves[j].Step() {
			return false
		}
	}
	return true
}

// legendre holds the 16-point Gauss-Legendre rule on [-1, 1].
var legendre = func() (r struct{ x, w [16]float64 }) {
	quad.Legendre{}.FixedLocations(r.x[:], r.w[:], -1, 1)
	return r
}()

func gauss(f func(float64) float64, lo, hi float64) float64 {
	c, h := (lo+hi)/2, (hi-lo)/2
	var sum float64
	for i, x := range legendre.x {
		sum += legendre.w[i] * f(c+h*x)
	}
	return sum * h
}

// adaptive integrates f over [lo, hi] by the 16-point Gauss-Legendre rule,
// halving an interval until the rule on the whole and on the two halves
// agree within 1e-10 per second of the interval (f is a share, 0..2), and
// calls visit(t, weight) for every node of the accepted rules, so that the
// caller can accumulate other functions at the same nodes.
func adaptive(f func(float64) float64, lo, hi float64, visit func(t, weight float64), depth int) {
	mid := (lo + hi) / 2
	whole := gauss(f, lo, hi)
	halves := gauss(f, lo, mid) + gauss(f, mid, hi)
	if math.Abs(whole-halves) <= 1e-10*(hi-lo) || depth >= 40 {
		for _, iv := range [2][2]float64{{lo, mid}, {mid, hi}} {
			c, h := (iv[0]+iv[1])/2, (iv[1]-iv[0])/2
			for i, x := range legendre.x {
				visit(c+h*x, legendre.w[i]*h)
			}
		}
		return
	}
	adaptive(f, lo, mid, visit, depth+1)
	adaptive(f, mid, hi, visit, depth+1)
}

// integrateStale returns the integral of 1 - F over [lo, hi] for one curve.
func integrateStale(c Curve, lo, hi float64) float64 {
	s := schedule{at: []float64{math.Inf(-1), 0}, curves: []Curve{{}, c}}
	w := s.shares(lo, hi)
	return w.route[0*2+1]
}
