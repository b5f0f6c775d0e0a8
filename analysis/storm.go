package analysis

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/chbench/chbench/schema"
)

// StormModel describes the cache fleet of a miss-storm analysis ([Storm]):
// a look-aside cache (read-through on a miss, as memcached in front of a
// database is used) serving Reads reads per second at a steady hit ratio
// HitRatio, over a working set of WorkingSet distinct keys whose
// popularity follows a Zipf law of exponent Zipf (0 = uniform).
//
// The warm-up model (stated here once, used by every storm result):
//
//   - Reads form a Poisson process of rate Q = Reads; each read names key i
//     of the K = WorkingSet keys with probability p_i: the Zipf law of
//     [Zipf], p_i = (i+1)^-s / H(K, s) for rank i = 0..K-1 (rank 0 the
//     hottest), so key i is read at rate Q p_i. At s = 0 every p_i = 1/K
//     (uniform popularity).
//
//   - Before the change every read hits with probability h = HitRatio (the
//     steady misses — expiry, eviction, first reads — have nothing to do with
//     placement and continue at the same rate afterwards).
//
//   - At t = 0 the membership changes and a fraction f of the keys get a new
//     owner (f is the measured moved fraction; a key of a departed node has
//     a new owner too). Which keys move is independent of their popularity:
//     placement hashes the key's name, not its rank, so each key moves with
//     probability f whatever p_i is (this assumption holds for hash
//     placement; a placer that put hot keys on purpose would break it). The
//     new owner does not hold the key, so a moved key misses on its first
//     read after the change; that miss reads the database and fills the
//     new owner, after which the key is back to the steady hit ratio h.
//     Unmoved keys are unaffected.
//
//   - A moved key i has not been read yet at time t with probability
//     exp(-Q p_i t), so the database load and the hit ratio are
//
//     db(t)  = Q (1-h) + Q h f S(t),   S(t) = sum_i p_i exp(-Q p_i t),
//     hit(t) = 1 - db(t)/Q = h (1 - f S(t)).
//
//     S(0) = 1: the database load jumps from its steady Q (1-h) to
//     Q (1 - h (1-f)) at t = 0 (a multiple (1 - h(1-f)) / (1-h) of the
//     steady state) whatever the popularity. The extra database reads by
//     time T are h f sum_i (1 - exp(-Q p_i T)), which tends to h f K as
//     T grows (every moved key is eventually read once).
//
//   - Uniform popularity (s = 0): S(t) = exp(-t/tau) with tau = K/Q, so
//     hit(t) = h (1 - f exp(-t/tau)) and the excess load decays as one
//     exponential. With s > 0 it is a mixture of exponentials: the hot
//     keys refill within a few of their own read intervals 1/(Q p_i), the
//     long tail of rarely read keys slowly, so the load falls faster than
//     the uniform curve at first and slower later.
//
// At s = 0 the methods use the closed forms; at s > 0 they sum the K terms
// exactly (the probabilities are computed once per K and s and shared).
// The moved fraction is measured on the analysed key sets, a sample of the
// working set (placement does not depend on popularity, so f of the sample
// estimates f of the working set; K and s set only the time course). The
// model ignores capacity: the new owners are assumed to have room for the
// keys they gain.
type StormModel struct {
	Reads      float64 // Q: reads per second reaching the cache fleet, > 0
	HitRatio   float64 // h: steady hit ratio before the change, 0 <= h < 1
	WorkingSet int     // K: distinct keys the fleet serves, >= 1 (sets the refill time scale)
	Zipf       float64 // s: Zipf exponent of the key popularity, >= 0 (0 = uniform); K <= MaxZipfKeys when s > 0
}

// DefaultStormModel returns the field's headline fleet (REFERENCES.md): 50,000
// reads/s at a 95% hit ratio, over a working set of 1,000,000 keys read
// uniformly.
func DefaultStormModel() StormModel {
	return StormModel{Reads: 50000, HitRatio: 0.95, WorkingSet: 1000000}
}

// Validate returns an error naming the first bad field: Reads not finite
// and > 0, HitRatio outside [0, 1) (at h = 1 the steady database load is 0
// and its multiple undefined), WorkingSet < 1, Zipf negative or not finite,
// WorkingSet > MaxZipfKeys with Zipf > 0, or Reads so small that tau = K/Q
// overflows or the steady database load Q (1-h) rounds to 0.
func (m StormModel) Validate() error {
	if math.IsNaN(m.Reads) || math.IsInf(m.Reads, 0) || m.Reads <= 0 {
		return fmt.Errorf("reads %v: need a finite number of reads per second > 0", m.Reads)
	}
	if math.IsNaN(m.HitRatio) || m.HitRatio < 0 || m.HitRatio >= 1 {
		return fmt.Errorf("hit ratio %v: need 0 <= h < 1 (at 1 the steady database load is 0)", m.HitRatio)
	}
	if m.WorkingSet < 1 {
		return fmt.Errorf("working set %d: need at least 1 key", m.WorkingSet)
	}
	if math.IsNaN(m.Zipf) || math.IsInf(m.Zipf, 0) || m.Zipf < 0 {
		return fmt.Errorf("zipf exponent %v: need a finite number >= 0 (0 = uniform)", m.Zipf)
	}
	if m.Zipf > 0 && m.WorkingSet > MaxZipfKeys {
		return fmt.Errorf("working set %d: a Zipf popularity spans at most %d keys", m.WorkingSet, MaxZipfKeys)
	}
	if tau := m.TimeConstant(); math.IsInf(tau, 0) {
		return fmt.Errorf("reads %v: the time constant K/Q = %d/%v overflows a float64; raise the read rate", m.Reads, m.WorkingSet, m.Reads)
	}
	if m.SteadyDBReads() <= 0 {
		return fmt.Errorf("reads %v: the steady database load Q (1-h) = %v x %v rounds to 0; raise the read rate", m.Reads, m.Reads, 1-m.HitRatio)
	}
	return nil
}

// TimeConstant returns tau = K/Q in seconds: the mean time between two
// reads of one key, and under uniform popularity the time in which the
// excess database load falls by a factor e (with s > 0 the decay is not
// one exponential; tau remains the mean read interval of a key).
func (m StormModel) TimeConstant() float64 { return float64(m.WorkingSet) / m.Reads }

// SteadyDBReads returns the database reads per second before the change,
// Q (1-h).
func (m StormModel) SteadyDBReads() float64 { return m.Reads * (1 - m.HitRatio) }

// HitAt returns the hit ratio (0..1) t >= 0 seconds after a change that
// moved the fraction f (0..1) of the keys: h (1 - f S(t)), which is
// h (1 - f exp(-t/tau)) under uniform popularity.
func (m StormModel) HitAt(f, t float64) float64 {
	if m.Zipf == 0 {
		return m.HitRatio * (1 - f*math.Exp(-t/m.TimeConstant()))
	}
	return m.HitRatio * (1 - f*m.popularity().unread(t))
}

// DBReadsAt returns the database reads per second t >= 0 seconds after a
// change that moved the fraction f of the keys: Q (1 - HitAt(f, t)).
func (m StormModel) DBReadsAt(f, t float64) float64 { return m.Reads * (1 - m.HitAt(f, t)) }

// MeanHitBetween returns the mean hit ratio over the window from t0 to t1
// seconds after a change that moved the fraction f of the keys (0 <= t0 <=
// t1): the integral of HitAt over the window divided by its length,
// h (1 - f sum_i (exp(-Q p_i t0) - exp(-Q p_i t1)) / (Q (t1 - t0))), which
// is h (1 - f tau (exp(-t0/tau) - exp(-t1/tau)) / (t1 - t0)) under uniform
// popularity; HitAt(f, t0) when t1 = t0. A live measurement that counts
// hits over a window estimates this, not the hit ratio at one instant.
func (m StormModel) MeanHitBetween(f, t0, t1 float64) float64 {
	if t1 <= t0 {
		return m.HitAt(f, t0)
	}
	if m.Zipf == 0 {
		tau := m.TimeConstant()
		return m.HitRatio * (1 - f*tau*(math.Exp(-t0/tau)-math.Exp(-t1/tau))/(t1-t0))
	}
	return m.HitRatio * (1 - f*m.popularity().firstReads(t0, t1)/(m.Reads*(t1-t0)))
}

// ExtraDBReads returns the database reads the change adds until the cache
// has refilled, h f K (the integral of the excess load Q h f S(t) over all
// t >= 0; every moved key is read once, whatever the popularity).
func (m StormModel) ExtraDBReads(f float64) float64 {
	return m.HitRatio * f * float64(m.WorkingSet)
}

// ExtraDBReadsBy returns the database reads the change adds in its first
// T >= 0 seconds, h f sum_i (1 - exp(-Q p_i T)) (h f K (1 - exp(-T/tau))
// under uniform popularity); it tends to ExtraDBReads(f) as T grows.
func (m StormModel) ExtraDBReadsBy(f, T float64) float64 {
	if m.Zipf == 0 {
		return m.HitRatio * f * float64(m.WorkingSet) * -math.Expm1(-T/m.TimeConstant())
	}
	return m.HitRatio * f * m.popularity().firstReads(0, T)
}

// RecoveryTime returns the seconds after the change until the database load
// is back within factor x (> 1) of its steady state, the t with
// h f S(t) = (x-1)(1-h): tau ln(h f / ((x-1)(1-h))) under uniform
// popularity, the root of the sum (found by Newton's method on ln S, which
// is convex) with s > 0; 0 when the load never exceeds x times the steady
// load.
func (m StormModel) RecoveryTime(f, x float64) float64 {
	excess := m.HitRatio * f / ((x - 1) * (1 - m.HitRatio))
	if excess <= 1 {
		return 0
	}
	if m.Zipf == 0 {
		return m.TimeConstant() * math.Log(excess)
	}
	return m.popularity().solve(1 / excess)
}

// StormRecoveryFactor is the multiple of the steady database load at which
// [StormResult.Recovery] counts the storm as over.
const StormRecoveryFactor = 1.1

// StormResult is one algorithm's miss storm: the moved fraction of its
// [MoveResult] turned into hit ratio and database load by a [StormModel].
// Every Estimate is the model applied to the mean and to the two ends of
// the moved fraction's 95% interval (the model is monotone in f, so these
// are the interval's images).
type StormResult struct {
	Config     RunConfig
	Model      StormModel
	Op         string
	From, To   int
	Moved      Estimate // measured moved fraction f (0..1)
	Ideal      float64  // the ideal fraction of the membership change
	HitAfter   Estimate // hit ratio right after the change, h (1-f)
	DBReads    Estimate // database reads/s right after the change
	DBSteady   float64  // database reads/s before the change, Q (1-h)
	DBMultiple Estimate // DBReads / DBSteady
	ExtraReads Estimate // database reads added until the cache refills, h f K
	// Recovery is the seconds until the database load is back within
	// StormRecoveryFactor of its steady state.
	Recovery Estimate
	Tau      float64 // the model's time constant K/Q, seconds
}

// StormFromMove derives the miss storm of r under m (see [StormModel]). It
// returns an error for an invalid model, or for a multi-step movement
// result, whose summed moves are not one change's moved fraction.
func StormFromMove(r *MoveResult, m StormModel) (*StormResult, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if r.Steps != 1 {
		return nil, fmt.Errorf("scenario %s has %d steps: a miss storm follows one membership change", r.Op, r.Steps)
	}
	img := func(g func(f float64) float64) Estimate {
		return Estimate{Mean: g(r.Moved.Mean), Lo: g(r.Moved.Lo), Hi: g(r.Moved.Hi)}
	}
	s := &StormResult{
		Config: r.Config, Model: m, Op: r.Op, From: r.From, To: r.To, Moved: r.Moved, Ideal: r.Ideal,
		DBSteady: m.SteadyDBReads(), Tau: m.TimeConstant(),
	}
	s.DBReads = img(func(f float64) float64 { return m.DBReadsAt(f, 0) })
	s.DBMultiple = img(func(f float64) float64 { return m.DBReadsAt(f, 0) / s.DBSteady })
	s.ExtraReads = img(m.ExtraDBReads)
	s.Recovery = img(func(f float64) float64 { return m.RecoveryTime(f, StormRecoveryFactor) })
	// The hit ratio falls as f grows: the interval's ends swap.
	s.HitAfter = Estimate{Mean: m.HitAt(r.Moved.Mean, 0), Lo: m.HitAt(r.Moved.Hi, 0), Hi: m.HitAt(r.Moved.Lo, 0)}
	return s, nil
}

// Storm measures the movement of sc (one membership change) for the
// algorithm and keys of o and derives its miss storm under m. It returns
// Movement's errors and StormFromMove's.
func Storm(o Options, sc Scenario, m StormModel) (*StormResult, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if len(sc.Steps) != 1 {
		return nil, fmt.Errorf("scenario %s has %d steps: a miss storm follows one membership change", sc.Op, len(sc.Steps))
	}
	r, err := Movement(o, sc)
	if err != nil {
		return nil, err
	}
	return StormFromMove(r, m)
}

// MaxTimelinePoints bounds a storm timeline: 2^20 time steps, each a row
// of every output (a few hundred bytes), so a mistyped count cannot hold
// gigabytes.
const MaxTimelinePoints = 1 << 20

// StormTimes returns the time grid (seconds) of a storm timeline: points+1
// evenly spaced times from 0 to span time constants of m. It returns an
// error for points < 1 or > MaxTimelinePoints, span not finite and > 0,
// or span time constants that overflow a float64 number of seconds.
func StormTimes(m StormModel, points int, span float64) ([]float64, error) {
	if points < 1 || points > MaxTimelinePoints {
		return nil, fmt.Errorf("timeline points %d: need 1 to %d", points, MaxTimelinePoints)
	}
	if math.IsNaN(span) || math.IsInf(span, 0) || span <= 0 {
		return nil, fmt.Errorf("timeline span %v: need a finite number of time constants > 0", span)
	}
	if end := span * m.TimeConstant(); math.IsInf(end, 0) {
		return nil, fmt.Errorf("timeline span %v: %v time constants of %v s overflow a float64 number of seconds", span, span, m.TimeConstant())
	}
	ts := make([]float64, points+1)
	for i := range ts {
		ts[i] = span * m.TimeConstant() * float64(i) / float64(points)
	}
	return ts, nil
}

// StormRows returns the results schema rows of rs, in order.
func StormRows(rs []*StormResult) []schema.Storm {
	out := make([]schema.Storm, 0, len(rs))
	for _, r := range rs {
		c := r.Config
		out = append(out, schema.Storm{
			Algo: c.Algo, Hash: c.Hash, VNodes: c.VNodes, Op: r.Op, From: r.From, To: r.To,
			Keys: c.Keys, Sets: c.Sets, Seed: c.Seed,
			Reads: r.Model.Reads, HitRatio: r.Model.HitRatio, WorkingSet: r.Model.WorkingSet, Zipf: r.Model.Zipf,
			MovedFrac: r.Moved.Mean, MovedFracLo: r.Moved.Lo, MovedFracHi: r.Moved.Hi, IdealFrac: r.Ideal,
			HitAfter: r.HitAfter.Mean, HitAfterLo: r.HitAfter.Lo, HitAfterHi: r.HitAfter.Hi,
			DBReads: r.DBReads.Mean, DBReadsLo: r.DBReads.Lo, DBReadsHi: r.DBReads.Hi,
			DBSteady:   r.DBSteady,
			DBMultiple: r.DBMultiple.Mean, DBMultipleLo: r.DBMultiple.Lo, DBMultipleHi: r.DBMultiple.Hi,
			ExtraDBReads: r.ExtraReads.Mean, ExtraDBReadsLo: r.ExtraReads.Lo, ExtraDBReadsHi: r.ExtraReads.Hi,
			RecoveryS: r.Recovery.Mean, RecoverySLo: r.Recovery.Lo, RecoverySHi: r.Recovery.Hi,
			TauS: r.Tau, Config: c,
		})
	}
	return out
}

// StormTimelineRows returns, for each result of rs and each time of ts
// (seconds), the hit ratio and database load of the warm-up model, with
// the images of the moved fraction's 95% interval; results outermost.
func StormTimelineRows(rs []*StormResult, ts []float64) []schema.StormPoint {
	var out []schema.StormPoint
	for _, r := range rs {
		c, m := r.Config, r.Model
		for _, t := range ts {
			out = append(out, schema.StormPoint{
				Algo: c.Algo, Hash: c.Hash, VNodes: c.VNodes, Op: r.Op, From: r.From, To: r.To,
				Keys: c.Keys, Sets: c.Sets, Seed: c.Seed, TimeS: t,
				HitRatio: m.HitAt(r.Moved.Mean, t), HitRatioLo: m.HitAt(r.Moved.Hi, t), HitRatioHi: m.HitAt(r.Moved.Lo, t),
				DBReads: m.DBReadsAt(r.Moved.Mean, t), DBReadsLo: m.DBReadsAt(r.Moved.Lo, t), DBReadsHi: m.DBReadsAt(r.Moved.Hi, t),
				DBSteady: r.DBSteady, Reads: m.Reads, SteadyHitRatio: m.HitRatio, WorkingSet: m.WorkingSet, Zipf: m.Zipf,
				Config: c,
			})
		}
	}
	return out
}

// WriteStormTable writes rs as an aligned text table for terminals: the
// moved fraction and hit ratio in percent, database reads per second and
// their multiple of the steady state, the extra reads until the cache has
// refilled and the recovery time, with 95% intervals in brackets.
func WriteStormTable(w io.Writer, rs []*StormResult) error {
	if len(rs) > 0 {
		m := rs[0].Model
		pop := ""
		if m.Zipf > 0 {
			pop = ", Zipf popularity s = " + strconv.FormatFloat(m.Zipf, 'g', -1, 64)
		}
		fmt.Fprintf(w, "cache fleet: %s reads/s at %s hit ratio, working set %s keys%s (tau = K/Q = %s s); steady database load %s reads/s\n",
			num(m.Reads), pct(m.HitRatio), num(float64(m.WorkingSet)), pop, strconv.FormatFloat(m.TimeConstant(), 'g', 4, 64), num(m.SteadyDBReads()))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "algo\top\tfrom\tto\tmoved [95%% CI]\thit ratio after\tdb reads/s [95%% CI]\tx steady [95%% CI]\textra db reads\tseconds to <%gx steady\n", StormRecoveryFactor)
	labels := tableLabels(rs, func(r *StormResult) (RunConfig, string) { return r.Config, "" })
	for i, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Op, r.From, r.To,
			ci(r.Moved, pct), ci(r.HitAfter, pct), ci(r.DBReads, num), ci(r.DBMultiple, x1), num(r.ExtraReads.Mean),
			strconv.FormatFloat(r.Recovery.Mean, 'f', 1, 64))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// The floor every algorithm faces: moving exactly the ideal fraction.
	seen := map[string]bool{}
	for _, r := range rs {
		if k := fmt.Sprint(r.Op, r.From, r.To); !seen[k] {
			seen[k] = true
			m := r.Model
			_, err := fmt.Fprintf(w, "ideal %s %d -> %d (moved = ideal fraction %s): hit ratio %s, %s db reads/s, %s steady\n", r.Op, r.From, r.To,
				pct(r.Ideal), pct(m.HitAt(r.Ideal, 0)), num(m.DBReadsAt(r.Ideal, 0)), x1(m.DBReadsAt(r.Ideal, 0)/m.SteadyDBReads()))
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// num formats x rounded to a whole number with thousands separators.
func num(x float64) string {
	s := strconv.FormatFloat(math.Round(x), 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func x1(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) + "x" }
