package analysis

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// The headline by hand: 50,000 reads/s at 95% hit, 80% of the keys move.
// Hit ratio 0.95 x 0.2 = 0.19; the database serves 50,000 x 0.81 = 40,500
// reads/s instead of 50,000 x 0.05 = 2,500, 16.2 times as many; the cache
// refills 0.95 x 0.8 x 1,000,000 = 760,000 keys from the database; with
// tau = 1,000,000 / 50,000 = 20 s the load is 2,500 + 38,000/e = 16,479.4
// reads/s after 20 s and back under 1.1 x 2,500 after 20 ln(0.76/0.005) =
// 20 ln 152 = 100.47 s.
func TestStormHandComputed(t *testing.T) {
	m := DefaultStormModel()
	r := schema.Move{Op: schema.OpAdd, From: 4, To: 5, Steps: 1, IdealFrac: 0.2, MovedFrac: 0.8, MovedFracLo: new(0.79), MovedFracHi: new(0.81)}
	s, err := StormFromMove(r, m)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"hit after", s.HitAfter, 0.19},
		{"hit after lo (from moved hi)", *s.HitAfterLo, 0.95 * 0.19},
		{"hit after hi (from moved lo)", *s.HitAfterHi, 0.95 * 0.21},
		{"db reads", s.DBReads, 40500},
		{"db steady", s.DBSteady, 2500},
		{"db multiple", s.DBMultiple, 16.2},
		{"db multiple lo", *s.DBMultipleLo, 50000 * (1 - 0.95*0.21) / 2500},
		{"extra db reads", s.ExtraDBReads, 760000},
		{"tau", s.TauS, 20},
		{"recovery", s.RecoveryS, 20 * math.Log(152)},
		{"db at tau", m.DBReadsAt(0.8, 20), 2500 + 38000/math.E},
		{"db long after", m.DBReadsAt(0.8, 1e6), 2500},
	}
	for _, c := range checks {
		if !near(c.got, c.want, 1e-9*math.Max(1, math.Abs(c.want))) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// Nothing moved: no storm, recovery 0.
	if got := m.RecoveryTime(0, StormRecoveryFactor); got != 0 {
		t.Errorf("recovery with nothing moved = %v, want 0", got)
	}
}

// The derivation starts from the measured moved fraction: modulo 4 -> 5
// moves 1 - 1/lcm... = 80% of the keys (a key stays when h mod 4 = h mod 5,
// 4 residues of 20), so the storm is the published ~19% hit ratio,
// ~40,000 db reads/s and ~16x, within the binomial sampling error.
func TestStormModuloHeadline(t *testing.T) {
	sc, err := Resize(4, 5)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Algo: "modulo", Config: catalog.DefaultConfig(), Keys: genKeys(20000, 3, 7), Seed: 7}
	s, err := Storm(o, sc, DefaultStormModel())
	if err != nil {
		t.Fatal(err)
	}
	// 3.29 binomial standard errors of the moved fraction over 60,000 keys.
	se := 3.29 * math.Sqrt(0.8*0.2/60000)
	if !near(s.MovedFrac, 0.8, se) {
		t.Errorf("modulo 4->5 moved %v, want 0.8 ± %v", s.MovedFrac, se)
	}
	if !near(s.HitAfter, 0.95*(1-s.MovedFrac), 1e-12) || !near(s.HitAfter, 0.19, 0.95*se) {
		t.Errorf("hit after %v, want 0.95 (1 - %v) ~ 0.19", s.HitAfter, s.MovedFrac)
	}
	if !near(s.DBMultiple, 16.2, 0.95*se*20) {
		t.Errorf("db multiple %v, want ~16.2", s.DBMultiple)
	}
	if !(*s.HitAfterLo <= s.HitAfter && s.HitAfter <= *s.HitAfterHi) {
		t.Errorf("hit interval [%v, %v] does not bracket %v", s.HitAfterLo, s.HitAfterHi, s.HitAfter)
	}
	var b bytes.Buffer
	if err := WriteStormTable(&b, []schema.Storm{s}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "2,500 reads/s") || !strings.Contains(b.String(), "ideal add 4 -> 5 (moved = ideal fraction 20.00%): hit ratio 76.00%, 12,000 db reads/s, 4.80x steady") {
		t.Errorf("table:\n%s", b.String())
	}
	rows, err := StormTimeline([]schema.Storm{s}, []float64{0, 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].DBReads != s.DBReads || rows[1].TimeS != 20 {
		t.Errorf("timeline rows %+v", rows)
	}
	b.Reset()
	if err := schema.WriteCSV(&b, []schema.Storm{s}); err != nil {
		t.Fatal(err)
	}
	back, err := schema.ReadCSV[schema.Storm](&b, "storm.csv")
	if err != nil {
		t.Fatal(err)
	}
	if v := back[0].DBMultiple; v != s.DBMultiple {
		t.Errorf("csv db_multiple %v, want %v", v, s.DBMultiple)
	}
}

// StormModel.Validate refuses reads that are not finite and > 0, hit
// ratios outside [0, 1) and an empty working set.
func TestStormBadInput(t *testing.T) {
	bad := []StormModel{
		{Reads: 0, HitRatio: 0.9, WorkingSet: 1},
		{Reads: math.NaN(), HitRatio: 0.9, WorkingSet: 1},
		{Reads: math.Inf(1), HitRatio: 0.9, WorkingSet: 1},
		{Reads: 1, HitRatio: 1, WorkingSet: 1},
		{Reads: 1, HitRatio: -0.1, WorkingSet: 1},
		{Reads: 1, HitRatio: math.NaN(), WorkingSet: 1},
		{Reads: 1, HitRatio: 0.5, WorkingSet: 0},
	}
	for _, m := range bad {
		if err := m.Validate(); err == nil {
			t.Errorf("%+v: no error", m)
		}
	}
	if _, err := StormFromMove(schema.Move{Op: schema.OpRestore, Steps: 2}, DefaultStormModel()); err == nil || !strings.Contains(err.Error(), "2 steps") {
		t.Errorf("multi-step movement: err = %v", err)
	}
	if _, err := StormTimes(DefaultStormModel(), 0, 6); err == nil {
		t.Error("0 points: no error")
	}
	if _, err := StormTimes(DefaultStormModel(), 10, math.Inf(1)); err == nil {
		t.Error("infinite span: no error")
	}
}

// The window mean by hand: over the first time constant (0..20 s) of the
// headline fleet with 80% moved, 0.95 (1 - 0.8 (1 - 1/e)); it also equals
// a midpoint-rule integral of HitAt, and an empty window is HitAt itself.
func TestStormMeanHitBetween(t *testing.T) {
	m := DefaultStormModel()
	if got, want := m.MeanHitBetween(0.8, 0, 20), 0.95*(1-0.8*(1-1/math.E)); !near(got, want, 1e-12) {
		t.Errorf("mean hit over 0..tau = %v, want %v", got, want)
	}
	const n = 100000
	t0, t1 := 7.0, 31.0
	var sum float64
	for i := range n {
		sum += m.HitAt(0.3, t0+(float64(i)+0.5)*(t1-t0)/n)
	}
	if got, want := m.MeanHitBetween(0.3, t0, t1), sum/n; !near(got, want, 1e-9) {
		t.Errorf("mean hit over %v..%v = %v, midpoint rule %v", t0, t1, got, want)
	}
	if got, want := m.MeanHitBetween(0.3, 5, 5), m.HitAt(0.3, 5); got != want {
		t.Errorf("empty window: %v, want HitAt %v", got, want)
	}
}
