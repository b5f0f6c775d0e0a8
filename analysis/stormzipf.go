package analysis

import (
	"math"
	"sync"
)

// stormPopularity holds the read rates of a [StormModel]'s keys under its
// Zipf law, for the sums of the warm-up model.
type stormPopularity struct {
	k    int
	s, q float64
	p    []float64 // p_i in increasing order (rank K-1 first): small terms are summed first
	mu   sync.Mutex
	memo map[float64]float64 // S(t) by t: every algorithm of a timeline shares the time grid
}

// stormPopularities caches the last few popularity tables (a run uses one
// model; tests use a handful), so p_i is computed once per K, s and Q.
var stormPopularities struct {
	mu   sync.Mutex
	last []*stormPopularity
}

// popularity returns the shared table of m's key probabilities, or nil
// when K or s is out of range (m is not valid).
func (m StormModel) popularity() *stormPopularity {
	c := &stormPopularities
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, sp := range c.last {
		if sp.k == m.WorkingSet && sp.s == m.Zipf && sp.q == m.Reads {
			return sp
		}
	}
	h, err := HarmonicNumber(m.WorkingSet, m.Zipf)
	if err != nil {
		return nil
	}
	sp := &stormPopularity{k: m.WorkingSet, s: m.Zipf, q: m.Reads, p: make([]float64, m.WorkingSet), memo: map[float64]float64{}}
	for i := range sp.p {
		rank := m.WorkingSet - 1 - i
		sp.p[i] = math.Pow(float64(rank+1), -m.Zipf) / h
	}
	if len(c.last) == 4 {
		c.last = c.last[1:]
	}
	c.last = append(c.last, sp)
	return sp
}

// unread returns S(t) = sum_i p_i exp(-Q p_i t): the probability that a
// read at time t names a moved key that has not been read since the
// change, given that it names a moved key.
func (sp *stormPopularity) unread(t float64) float64 {
	if sp == nil {
		return math.NaN()
	}
	if t == 0 {
		return 1 // the p_i sum to 1 by definition; the rounded sum may miss by an ulp or two
	}
	sp.mu.Lock()
	v, ok := sp.memo[t]
	sp.mu.Unlock()
	if ok {
		return v
	}
	v, _ = sp.sums(t)
	sp.mu.Lock()
	sp.memo[t] = v
	sp.mu.Unlock()
	return v
}

// sums returns S(t) and S1(t) = sum_i Q p_i^2 exp(-Q p_i t) = -S'(t),
// S with Kahan-compensated summation (its terms add up to 1 at t = 0).
func (sp *stormPopularity) sums(t float64) (s, s1 float64) {
	var comp float64
	for _, p := range sp.p {
		e := p * math.Exp(-sp.q*p*t)
		y := e - comp
		u := s + y
		comp = (u - s) - y
		s = u
		s1 += sp.q * p * e
	}
	return s, s1
}

// firstReads returns sum_i (exp(-Q p_i t0) - exp(-Q p_i t1)) for t0 <= t1:
// the expected number of keys first read in [t0, t1) after the change, per
// key that moved (multiplied by f, the first reads of moved keys).
func (sp *stormPopularity) firstReads(t0, t1 float64) float64 {
	if sp == nil {
		return math.NaN()
	}
	var n, comp float64 // Kahan-compensated
	d := t1 - t0
	for _, p := range sp.p {
		a := sp.q * p
		y := math.Exp(-a*t0)*-math.Expm1(-a*d) - comp
		u := n + y
		comp = (u - n) - y
		n = u
	}
	return n
}

// solve returns the t > 0 with S(t) = c, for 0 < c < 1. S decreases from
// S(0) = 1 to 0 and ln S is convex (S is a mixture of exponentials), so
// Newton's method on ln S - ln c started left of the root climbs to it
// without overshooting. The start is the largest point left of the root
// on the grid tau 2^(j/4), whose S values are memoised and shared by
// every root.
func (sp *stormPopularity) solve(c float64) float64 {
	if sp == nil {
		return math.NaN()
	}
	tau := float64(sp.k) / sp.q
	grid := func(j int) float64 { return tau * math.Exp2(float64(j)/4) }
	j := 0
	if sp.unread(grid(0)) > c {
		for sp.unread(grid(j+1)) > c {
			j++
		}
	} else {
		for j > -200 && sp.unread(grid(j)) <= c {
			j--
		}
	}
	t := 0.0
	if sp.unread(grid(j)) > c {
		t = grid(j)
	}
	lc := math.Log(c)
	for range 200 {
		s, s1 := sp.sums(t)
		step := (math.Log(s) - lc) * s / s1
		t += step
		if step <= 1e-13*t {
			break
		}
	}
	return t
}
