package analysis

import (
	"math"
	"testing"
)

// At s = 0 the sums over the K keys reproduce the uniform closed forms
// (every p_i = 1/K, so S(t) = exp(-t/tau)), and the model's methods are
// the closed forms themselves.
func TestStormZipfZeroIsUniform(t *testing.T) {
	m := StormModel{Reads: 50000, HitRatio: 0.95, WorkingSet: 100000}
	sp := m.popularity() // the table at s = 0: the sums the model uses for s > 0
	tau := m.TimeConstant()
	for _, tt := range []float64{0, 0.3, 2, 7.5, 40} {
		if got, want := sp.unread(tt), math.Exp(-tt/tau); !near(got, want, 1e-12) {
			t.Errorf("S(%v) at s = 0: sum %v, closed form %v", tt, got, want)
		}
		f := 0.8
		if got, want := m.HitAt(f, tt), 0.95*(1-f*math.Exp(-tt/tau)); got != want {
			t.Errorf("HitAt(%v, %v) = %v, want %v exactly", f, tt, got, want)
		}
		// The window mean from the sum against the closed form.
		got := m.HitRatio * (1 - f*sp.firstReads(tt, tt+1)/m.Reads)
		if want := m.MeanHitBetween(f, tt, tt+1); !near(got, want, 1e-12) {
			t.Errorf("mean hit [%v, %v] from the sum %v, closed form %v", tt, tt+1, got, want)
		}
	}
	if got, want := sp.solve(0.005/0.76), tau*math.Log(0.76/0.005); !near(got, want, 1e-9*want) {
		t.Errorf("root of the sum at s = 0: %v, closed form %v", got, want)
	}
}

// K = 3 keys, s = 1, by hand: H(3, 1) = 1 + 1/2 + 1/3 = 11/6, so
// p = (6/11, 3/11, 2/11); at Q = 11 reads/s the keys are read at 6, 3 and
// 2 per second. With h = 0.9 and f = 0.5, at t = 0.5 s
//
//	S = (6 e^-3 + 3 e^-1.5 + 2 e^-1) / 11
//	  = (0.2987224 + 0.6693905 + 0.7357589) / 11 = 0.1548974,
//	db = 11 x 0.1 + 11 x 0.9 x 0.5 x S = 1.1 + 4.95 S = 1.8667423 reads/s,
//	hit = 0.9 (1 - 0.5 S) = 0.8302962;
//
// the extra reads in the first 0.5 s are 0.45 x ((1 - e^-3) + (1 - e^-1.5)
// + (1 - e^-1)) = 0.45 x 2.3592033 = 1.0616415, the mean hit ratio over
// [0, 0.5] is 0.9 (1 - 0.5 x 2.3592033 / 5.5) = 0.7069743, and the load is
// back under 1.1 x 1.1 when 0.45 S(t) = 0.1 x 0.1, S(t) = 1/45.
func TestStormZipfHandComputed(t *testing.T) {
	m := StormModel{Reads: 11, HitRatio: 0.9, WorkingSet: 3, Zipf: 1}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	e3, e15, e1 := math.Exp(-3), math.Exp(-1.5), math.Exp(-1)
	S := (6*e3 + 3*e15 + 2*e1) / 11
	first := (1 - e3) + (1 - e15) + (1 - e1)
	checks := []struct {
		name            string
		got, want, hand float64
	}{
		{"S(0.5)", m.popularity().unread(0.5), S, 0.1548974},
		{"db(0.5)", m.DBReadsAt(0.5, 0.5), 1.1 + 4.95*S, 1.8667423},
		{"hit(0.5)", m.HitAt(0.5, 0.5), 0.9 * (1 - 0.5*S), 0.8302962},
		{"db(0)", m.DBReadsAt(0.5, 0), 11 * (1 - 0.45), 6.05},
		{"extra by 0.5 s", m.ExtraDBReadsBy(0.5, 0.5), 0.45 * first, 1.0616415},
		{"mean hit [0, 0.5]", m.MeanHitBetween(0.5, 0, 0.5), 0.9 * (1 - 0.5*first/5.5), 0.7069743},
		{"extra, all", m.ExtraDBReads(0.5), 0.45 * 3, 1.35},
	}
	for _, c := range checks {
		if !near(c.got, c.want, 1e-12) || !near(c.got, c.hand, 5e-7) {
			t.Errorf("%s = %.10f, want %.10f (by hand %v)", c.name, c.got, c.want, c.hand)
		}
	}
	r := m.RecoveryTime(0.5, 1.1)
	if s := m.popularity().unread(r); !near(s, 1.0/45, 1e-13) {
		t.Errorf("recovery %v s: S = %v there, want 1/45", r, s)
	}
	if db := m.DBReadsAt(0.5, r); !near(db, 1.1*1.1, 1e-12) {
		t.Errorf("db at recovery %v s = %v, want 1.21", r, db)
	}
}

// The extra reads tend to h f K (every moved key is read once), the load
// decays monotonically to the steady state, and against the uniform curve
// of the same K and Q the Zipf curve falls faster at first (hot keys
// refill within their short read intervals) and slower later (the tail).
func TestStormZipfDecay(t *testing.T) {
	m := StormModel{Reads: 1000, HitRatio: 0.95, WorkingSet: 1000, Zipf: 0.99}
	u := m
	u.Zipf = 0
	f := 0.8
	// The rarest key is read at rate Q p_{K-1}; after 60 of its read
	// intervals every term is within e^-60 of its limit.
	z, err := NewZipf(m.WorkingSet, m.Zipf)
	if err != nil {
		t.Fatal(err)
	}
	T := 60 / (m.Reads * z.Prob(m.WorkingSet-1))
	if got, want := m.ExtraDBReadsBy(f, T), m.ExtraDBReads(f); !near(got, want, 1e-9*want) {
		t.Errorf("extra reads by %v s = %v, want the limit h f K = %v", T, got, want)
	}
	if got := m.DBReadsAt(f, T); !near(got, m.SteadyDBReads(), 1e-9) {
		t.Errorf("db at %v s = %v, want steady %v", T, got, m.SteadyDBReads())
	}
	prev := math.Inf(1)
	tau := m.TimeConstant()
	for i := range 200 {
		tt := 0.05 * tau * float64(i)
		db := m.DBReadsAt(f, tt)
		if !(db < prev) {
			t.Fatalf("db(%v) = %v not below db at the previous time %v", tt, db, prev)
		}
		prev = db
	}
	if zs, us := m.DBReadsAt(f, 0.1*tau), u.DBReadsAt(f, 0.1*tau); !(zs < us) {
		t.Errorf("at 0.1 tau Zipf load %v, uniform %v: hot keys should refill first", zs, us)
	}
	if zs, us := m.DBReadsAt(f, 5*tau), u.DBReadsAt(f, 5*tau); !(zs > us) {
		t.Errorf("at 5 tau Zipf load %v, uniform %v: the tail should refill last", zs, us)
	}
	// The recovery time solves db = 1.1 steady.
	r := m.RecoveryTime(f, StormRecoveryFactor)
	if got := m.DBReadsAt(f, r); !near(got, 1.1*m.SteadyDBReads(), 1e-9*got) {
		t.Errorf("db at recovery %v s = %v, want %v", r, got, 1.1*m.SteadyDBReads())
	}
	if got := m.RecoveryTime(0, StormRecoveryFactor); got != 0 {
		t.Errorf("recovery with nothing moved = %v, want 0", got)
	}
}

// A negative, NaN or infinite Zipf exponent is refused by the storm
// model.
func TestStormZipfBadExponent(t *testing.T) {
	for _, s := range []float64{-0.5, math.NaN(), math.Inf(1)} {
		m := DefaultStormModel()
		m.Zipf = s
		if err := m.Validate(); err == nil {
			t.Errorf("zipf %v accepted", s)
		}
	}
}
