package analysis

import (
	"unsafe"

	"fmt"
	"math"

	"github.com/chbench/chbench/memory"
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
// a storm's recovery time counts it as over.
const StormRecoveryFactor = 1.1

// StormFromMove derives the miss storm of movement result r under m (see
// [StormModel]), a row of storm results ([schema.Storm]): the measured
// moved fraction f turned into the hit ratio right after the change
// h (1-f), the database reads/s right after it and their multiple of the
// steady Q (1-h), the extra database reads until the cache refills
// h f K, and the seconds until the load is back within
// StormRecoveryFactor of its steady state. Every estimate is the model
// applied to the mean and to the two ends of the moved fraction's 95%
// interval (the model is monotone in f, so these are the interval's
// images). It returns an error for an invalid model, or for a multi-step
// movement result, whose summed moves are not one change's moved fraction.
func StormFromMove(r schema.Move, m StormModel) (schema.Storm, error) {
	if err := m.Validate(); err != nil {
		return schema.Storm{}, err
	}
	if r.Steps != 1 {
		return schema.Storm{}, fmt.Errorf("scenario %s has %d steps: a miss storm follows one membership change", r.Op, r.Steps)
	}
	s := schema.Storm{
		Config: r.Config, Op: r.Op, From: r.From, To: r.To,
		Reads: m.Reads, HitRatio: m.HitRatio, WorkingSet: m.WorkingSet, Zipf: m.Zipf,
		MovedFrac: r.MovedFrac, MovedFracLo: r.MovedFracLo, MovedFracHi: r.MovedFracHi, IdealFrac: r.IdealFrac,
		DBSteady: m.SteadyDBReads(), TauS: m.TimeConstant(),
	}
	im := m.image(EstimateOf(r.MovedFrac, r.MovedFracLo, r.MovedFracHi))
	setEstimate(&s.HitAfter, &s.HitAfterLo, &s.HitAfterHi, im.hitAfter)
	setEstimate(&s.DBReads, &s.DBReadsLo, &s.DBReadsHi, im.dbReads)
	setEstimate(&s.DBMultiple, &s.DBMultipleLo, &s.DBMultipleHi, im.dbMultiple)
	setEstimate(&s.ExtraDBReads, &s.ExtraDBReadsLo, &s.ExtraDBReadsHi, im.extraDBReads)
	setEstimate(&s.RecoveryS, &s.RecoverySLo, &s.RecoverySHi, im.recovery)
	return s, nil
}

// stormImage is what a change that moves the fraction f of the keys does
// to a cache fleet under a [StormModel], each value with the images of
// f's interval.
type stormImage struct {
	hitAfter, dbReads, dbMultiple, extraDBReads, recovery Estimate
}

// image returns the storm of a moved fraction f (0..1, with its 95%
// interval): the hit ratio and database reads/s right after the change,
// their multiple of the steady Q (1-h), the extra database reads until
// the cache refills h f K and the seconds until the load is back within
// StormRecoveryFactor of its steady state. The model is monotone in f, so
// the images of the interval's ends are the values' interval (the hit
// ratio falls as f grows: its ends swap). Without an interval of f, the
// values have none.
func (m StormModel) image(f Estimate) stormImage {
	img := func(g func(f float64) float64) Estimate { return f.Map(g, false) }
	steady := m.SteadyDBReads()
	return stormImage{
		hitAfter:     f.Map(func(f float64) float64 { return m.HitAt(f, 0) }, true),
		dbReads:      img(func(f float64) float64 { return m.DBReadsAt(f, 0) }),
		dbMultiple:   img(func(f float64) float64 { return m.DBReadsAt(f, 0) / steady }),
		extraDBReads: img(m.ExtraDBReads),
		recovery:     img(func(f float64) float64 { return m.RecoveryTime(f, StormRecoveryFactor) }),
	}
}

// ModelOf returns the warm-up model a storm row was derived with.
func ModelOf(r schema.Storm) StormModel {
	return StormModel{Reads: r.Reads, HitRatio: r.HitRatio, WorkingSet: r.WorkingSet, Zipf: r.Zipf}
}

// Storm measures the movement of sc (one membership change) for the
// algorithm and keys of o and derives its miss storm under m. It returns
// Movement's errors and StormFromMove's.
func Storm(o Options, sc Scenario, m StormModel) (schema.Storm, error) {
	if err := m.Validate(); err != nil {
		return schema.Storm{}, err
	}
	if len(sc.Steps) != 1 {
		return schema.Storm{}, fmt.Errorf("scenario %s has %d steps: a miss storm follows one membership change", sc.Op, len(sc.Steps))
	}
	r, err := Movement(o, sc)
	if err != nil {
		return schema.Storm{}, err
	}
	return StormFromMove(r, m)
}

// StormSteps is the miss storm of every step of a staged change sc (one
// membership change after the other, each warming up before the next):
// the movement of each step in the chain of sc (MovementSteps) under m,
// one row per step (op "<op>-step"). It returns Movement's errors and
// StormFromMove's.
func StormSteps(o Options, sc Scenario, m StormModel) ([]schema.Storm, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	rs, err := MovementSteps(o, sc)
	if err != nil {
		return nil, err
	}
	var out []schema.Storm
	for _, r := range rs[:len(rs)-1] { // the last is the whole scenario's
		st, err := StormFromMove(r, m)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// SweepStorm runs Storm for every configuration of s and each of
// s.Scenarios (configurations outermost) and returns the rows in that
// order; the error names the configuration and the scenario.
func SweepStorm(o Options, s Sweep, m StormModel) ([]schema.Storm, error) {
	if len(s.Scenarios) == 0 {
		return nil, fmt.Errorf("no membership change to derive a storm from")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	mem := o.memory()
	if n := m.popularityBytes(); n > 0 {
		if err := mem.Reserve(m.popularityWhat(), n); err != nil {
			return nil, err
		}
		defer mem.Release(n)
	}
	var out []schema.Storm
	err := s.eachScenario(o, func(c Options, sc Scenario) error {
		if sc.PerStep { // staged: each step is its own change, with its own storm
			rs, err := StormSteps(c, sc, m)
			out = append(out, rs...)
			return err
		}
		r, err := Storm(c, sc, m)
		out = append(out, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// popularityBytes returns what the model's Zipf popularity table holds
// (8 B per key of the working set; none for uniform reads).
func (m StormModel) popularityBytes() int64 {
	if m.Zipf == 0 {
		return 0
	}
	return 8 * int64(m.WorkingSet)
}

func (m StormModel) popularityWhat() string {
	return fmt.Sprintf("the Zipf popularity table of a working set of %d keys x 8 B", m.WorkingSet)
}

// CheckStorm returns the error SweepStorm(o, s, m) and, with points > 0,
// a timeline of points+1 times of its rows (StormTimeline) would return
// before any key is streamed: a bad model, every configuration and
// change (Sweep.CheckMove), and the memory of the popularity table and
// the timeline's rows against the budget. Commands call it before any
// work.
func CheckStorm(o Options, s Sweep, m StormModel, points int) error {
	if len(s.Scenarios) == 0 {
		return fmt.Errorf("no membership change to derive a storm from")
	}
	if err := m.Validate(); err != nil {
		return err
	}
	for _, sc := range s.Scenarios {
		if len(sc.Steps) != 1 && !sc.PerStep { // a staged change's steps each have their own storm
			return fmt.Errorf("scenario %s has %d steps: a miss storm follows one membership change", sc.Op, len(sc.Steps))
		}
	}
	if err := s.CheckMove(o); err != nil {
		return err
	}
	mem := o.memory()
	need := m.popularityBytes()
	if err := mem.Fits(m.popularityWhat(), need); err != nil {
		return err
	}
	if points > 0 {
		rows := int64(max(len(s.Algos), 1)) * int64(max(len(s.Hashes), 1)) * int64(max(len(s.VNodes), 1)) * int64(len(s.Scenarios))
		n, what := timelineNeed(rows, points+1)
		if n >= 0 && need <= 1<<62-n {
			n += need
		}
		return mem.Fits(what, n)
	}
	return nil
}

// timelineNeed returns the bytes of a timeline of rows storm rows at
// times time points, and what for the budget's message.
func timelineNeed(rows int64, times int) (int64, string) {
	size := int64(unsafe.Sizeof(schema.StormPoint{}))
	return memory.Mul(memory.Mul(rows, int64(times)), size),
		fmt.Sprintf("a storm timeline of %d rows x %d times x %d B", rows, times, size)
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
	// end*i/points, never span*tau*i/points: the product of the first
	// three can overflow for an end that is finite.
	end := span * m.TimeConstant()
	ts := make([]float64, points+1)
	for i := range ts {
		ts[i] = end * (float64(i) / float64(points))
	}
	return ts, nil
}

// StormTimeline returns, for each storm row of rs and each time of ts
// (seconds), the hit ratio and database load of its warm-up model, with
// the images of the moved fraction's 95% interval; rows outermost. The
// rows are reserved from mem (nil: the default budget) and held for the
// run; the error is the budget's.
func StormTimeline(rs []schema.Storm, ts []float64, mem *memory.Budget) ([]schema.StormPoint, error) {
	n, what := timelineNeed(int64(len(rs)), len(ts))
	if err := memory.OrDefault(mem).Reserve(what, n); err != nil {
		return nil, err
	}
	out := make([]schema.StormPoint, 0, len(rs)*len(ts))
	for _, r := range rs {
		m := ModelOf(r)
		f := EstimateOf(r.MovedFrac, r.MovedFracLo, r.MovedFracHi)
		for _, t := range ts {
			hit := f.Map(func(f float64) float64 { return m.HitAt(f, t) }, true)
			db := f.Map(func(f float64) float64 { return m.DBReadsAt(f, t) }, false)
			out = append(out, schema.StormPoint{
				Op: r.Op, From: r.From, To: r.To, TimeS: t,
				HitRatio: hit.Mean, HitRatioLo: hit.Lo, HitRatioHi: hit.Hi,
				DBReads: db.Mean, DBReadsLo: db.Lo, DBReadsHi: db.Hi,
				DBSteady: r.DBSteady, Reads: m.Reads, SteadyHitRatio: m.HitRatio, WorkingSet: m.WorkingSet, Zipf: m.Zipf,
				Config: r.Config,
			})
		}
	}
	return out, nil
}
