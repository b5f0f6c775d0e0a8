package gossip

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis/propagate"
	"gonum.org/v1/gonum/stat"
)

// Summary describes the delays (seconds) of the members that learn a join
// by gossip: all but the contacted member (and, in the models, the joiner
// itself), which know at once.
type Summary struct {
	N                   int     // delays pooled
	Mean, P50, P90, P99 float64 // over the pooled delays
	Last                float64 // mean over joins of the last member's delay
	Unreached           int     // members never told (+Inf)
}

// Comparison is a measurement next to the gossip model with the same
// parameters.
type Comparison struct {
	// Model is propagate.Gossip with memberlist's parameters: fan-out
	// GossipNodes, period GossipInterval, 2 seeds (the joiner and the
	// member it contacted know at once), the joiner fresh (its gossip
	// ticker starts when it is created, just before it joins, so it first
	// gossips a period later), and memberlist's retransmit limit (of the
	// first join; later joins use their own).
	Model     propagate.Gossip
	Measured  Summary
	Simulated Summary // the model, draws spreads per join, pooled
	// SpreadSD is the standard deviation of one spread's mean delay in
	// the model (a spread's delays are correlated: a slow start delays
	// everybody), averaged over the joins' cluster sizes; the mean of J
	// measured joins has standard error about SpreadSD/sqrt(J).
	SpreadSD float64
	// MeanField is the logistic approximation propagate.Gossip.MeanField,
	// as the distribution of the non-seed members' delays.
	MeanField Summary
	// UnreachedRate is the model's share (0..1) of the members that learn
	// by gossip and are never told: with a retransmit limit and push/pull
	// off, every informed member stops after Transmits messages, and a
	// member none of them picked stays unaware (about e^-Transmits each).
	UnreachedRate float64
}

// Compare simulates, for each measured join, draws spreads of the gossip
// model on the same cluster (its members and the joiner) with the same
// fan-out, period and retransmit limit, from a fixed seed, and summarizes
// them beside the measured delays and the mean-field curve.
func Compare(m *Measurement, draws int) Comparison {
	c := m.Config
	cmp := Comparison{Model: propagate.Gossip{Fanout: c.GossipNodes, Period: c.GossipInterval.Seconds(), Seeds: 2, Fresh: 1, Transmits: m.Joins[0].Transmits}}
	var measured, simulated, meanField []float64
	var lastM, lastS, lastF, spreadSD float64
	unreached, simUnreached, atRisk := 0, 0, 0
	r := rand.New(rand.NewPCG(algorithms.Mix64(c.Seed), 0x636f6d70617265)) // "compare"
	for _, j := range m.Joins {
		last := 0.0
		for i, d := range j.Delays {
			if i == j.Contacted {
				continue
			}
			if math.IsInf(d, 1) {
				unreached++
				continue
			}
			measured = append(measured, d)
			last = max(last, d)
		}
		lastM += last
		g := cmp.Model
		g.Transmits = j.Transmits
		learn := make([]float64, j.Members+1)
		means := make([]float64, draws)
		atRisk += draws * (j.Members - 1)
		for k := range draws {
			g.Draw(learn, r)
			last, sum, cnt := 0.0, 0.0, 0
			for _, d := range learn {
				if math.IsInf(d, 1) {
					simUnreached++
				}
				if d > 0 && !math.IsInf(d, 1) {
					simulated = append(simulated, d)
					last = max(last, d)
					sum += d
					cnt++
				}
			}
			lastS += last / float64(draws)
			means[k] = sum / float64(max(cnt, 1))
		}
		spreadSD += stat.StdDev(means, nil) / float64(len(m.Joins))
		// The mean-field delays at the quantiles (k+1/2)/(n-2) of the
		// non-seed members: F(t) = (I(t) - 2)/(N - 2), I(t) = N MeanField.
		n := j.Members + 1
		for k := range n - 2 {
			q := (float64(k) + 0.5) / float64(n-2)
			meanField = append(meanField, meanFieldQuantile(g, n, q))
		}
		lastF += meanFieldQuantile(g, n, 1-0.5/float64(n-2))
	}
	joins := float64(len(m.Joins))
	cmp.Measured = summarize(measured, lastM/joins)
	cmp.Measured.Unreached = unreached
	cmp.Simulated = summarize(simulated, lastS/joins)
	cmp.MeanField = summarize(meanField, lastF/joins)
	cmp.SpreadSD = spreadSD
	if atRisk > 0 {
		cmp.UnreachedRate = float64(simUnreached) / float64(atRisk)
	}
	return cmp
}

// meanFieldQuantile returns the delay at which a fraction q of the n-2
// non-seed members know, by bisection of the logistic curve.
func meanFieldQuantile(g propagate.Gossip, n int, q float64) float64 {
	frac := func(t float64) float64 { return (float64(n)*g.MeanField(n, t) - 2) / float64(n-2) }
	lo, hi := 0.0, g.Period
	for frac(hi) < q {
		hi *= 2
	}
	for range 100 {
		mid := (lo + hi) / 2
		if frac(mid) >= q {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

func summarize(xs []float64, last float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := slices.Sorted(slices.Values(xs))
	var sum float64
	for _, x := range s {
		sum += x
	}
	q := func(p float64) float64 { return s[min(len(s)-1, int(math.Ceil(p*float64(len(s))))-1)] }
	return Summary{N: len(s), Mean: sum / float64(len(s)), P50: q(0.5), P90: q(0.9), P99: q(0.99), Last: last}
}
