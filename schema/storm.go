package schema

import "math"

// Storm is one miss-storm result (one algorithm, one membership change):
// one row of storm.csv and storm-zipf.csv, one object of the storm JSON
// array. Every estimate has _lo and _hi columns: the warm-up model applied
// to the ends of the moved fraction's 95% interval. The columns are
// documented in the package documentation (Miss storm).
type Storm struct {
	Op             string   `json:"op"`
	From           int      `json:"from"`
	To             int      `json:"to"`
	Reads          float64  `json:"reads"`             // Q: reads per second reaching the cache fleet
	HitRatio       float64  `json:"hit_ratio"`         // h: steady hit ratio before the change
	WorkingSet     int      `json:"working_set"`       // K: distinct keys the fleet serves (sets the refill time scale)
	Zipf           float64  `json:"zipf"`              // s: Zipf exponent of the key popularity, 0 for uniform reads
	MovedFrac      float64  `json:"moved_frac"`        // f, measured on the key sets
	MovedFracLo    *float64 `json:"moved_frac_lo"`     //
	MovedFracHi    *float64 `json:"moved_frac_hi"`     //
	IdealFrac      float64  `json:"ideal_frac"`        //
	HitAfter       float64  `json:"hit_after"`         // hit ratio right after the change, h (1 - f)
	HitAfterLo     *float64 `json:"hit_after_lo"`      //
	HitAfterHi     *float64 `json:"hit_after_hi"`      //
	DBReads        float64  `json:"db_reads"`          // database reads per second right after the change
	DBReadsLo      *float64 `json:"db_reads_lo"`       //
	DBReadsHi      *float64 `json:"db_reads_hi"`       //
	DBSteady       float64  `json:"db_steady"`         // database reads per second before the change, Q (1 - h)
	DBMultiple     float64  `json:"db_multiple"`       // db_reads / db_steady
	DBMultipleLo   *float64 `json:"db_multiple_lo"`    //
	DBMultipleHi   *float64 `json:"db_multiple_hi"`    //
	ExtraDBReads   float64  `json:"extra_db_reads"`    // database reads the change adds until the cache has refilled, h f K
	ExtraDBReadsLo *float64 `json:"extra_db_reads_lo"` //
	ExtraDBReadsHi *float64 `json:"extra_db_reads_hi"` //
	RecoveryS      float64  `json:"recovery_s"`        // seconds until the database load is back within 1.1x its steady state
	RecoverySLo    *float64 `json:"recovery_s_lo"`     //
	RecoverySHi    *float64 `json:"recovery_s_hi"`     //
	TauS           float64  `json:"tau_s"`             // the warm-up model's time constant K/Q, seconds
	Config         `json:"config"`
}

func (Storm) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "op", "from", "to", "keys", "sets", "seed",
		"reads", "hit_ratio", "working_set", "zipf",
		"moved_frac", "moved_frac_lo", "moved_frac_hi", "ideal_frac",
		"hit_after", "hit_after_lo", "hit_after_hi",
		"db_reads", "db_reads_lo", "db_reads_hi", "db_steady",
		"db_multiple", "db_multiple_lo", "db_multiple_hi",
		"extra_db_reads", "extra_db_reads_lo", "extra_db_reads_hi",
		"recovery_s", "recovery_s_lo", "recovery_s_hi", "tau_s",
		"~eps", "~partitions", "~key_file", "~go_version", "~commit",
	}
}

// check: the warm-up model's relations ([warmUp.check]) with f the moved
// fraction.
func (r Storm) check() error {
	return warmUp{
		fCol: "moved_frac", f: r.MovedFrac, fHi: r.MovedFracHi, reads: r.Reads, hit: r.HitRatio, workingSet: r.WorkingSet,
		hitAfter: r.HitAfter, hitAfterLo: r.HitAfterLo, hitAfterHi: r.HitAfterHi,
		dbReads: r.DBReads, dbReadsLo: r.DBReadsLo, dbReadsHi: r.DBReadsHi, dbSteady: r.DBSteady,
		dbMultiple: r.DBMultiple, dbMultipleLo: r.DBMultipleLo, dbMultipleHi: r.DBMultipleHi,
		extra: r.ExtraDBReads, extraHi: r.ExtraDBReadsHi, tau: r.TauS,
	}.check()
}

// warmUp is the miss-storm columns of a row ([Storm], [Switch]) that the
// warm-up model (analysis.StormModel) derives from a moved fraction f
// with Q reads/s, steady hit ratio h and working set K.
type warmUp struct {
	fCol                       string // f's column
	f                          float64
	fHi                        *float64
	reads, hit                 float64 // Q, h
	workingSet                 int     // K
	hitAfter                   float64
	hitAfterLo, hitAfterHi     *float64
	dbReads                    float64
	dbReadsLo, dbReadsHi       *float64
	dbSteady, dbMultiple       float64
	dbMultipleLo, dbMultipleHi *float64
	extra                      float64
	extraHi                    *float64
	tau                        float64
}

// modelSlack is the relative float rounding a column derived by the
// warm-up model may differ by from the same formula applied to the row's
// other columns (a Zipf popularity sums its probabilities to 1 within
// rounding).
const modelSlack = 1e-9

// near reports whether a and b agree to modelSlack relative.
func near(a, b float64) bool { return math.Abs(a-b) <= modelSlack*max(math.Abs(a), math.Abs(b)) }

// check returns an error naming the first column that breaks a relation
// of the warm-up model: Q > 0, 0 <= h < 1, K >= 1, 0 <= f <= 1 (one
// change's moved fraction, with its interval), hit_after = h (1-f) in
// [0, h], db_steady = Q (1-h), db_reads = Q (1 - hit_after) in
// [db_steady, Q], db_multiple = db_reads / db_steady in [1, Q / db_steady],
// extra_db_reads = h f K (at most h K) and tau_s = K / Q; the interval
// bounds lie in the same ranges as their values.
func (w warmUp) check() error {
	switch {
	case w.reads <= 0:
		return columnErr("reads", "%v must be > 0", w.reads)
	case w.hit >= 1:
		return columnErr("hit_ratio", "%v: the warm-up model needs a steady hit ratio < 1 (at 1 the steady database load is 0)", w.hit)
	case w.workingSet < 1:
		return columnErr("working_set", "%d is not a number of keys >= 1", w.workingSet)
	case w.f > 1:
		return columnErr(w.fCol, "%v is not the fraction of keys one change moves, in [0, 1]", w.f)
	case w.fHi != nil && *w.fHi > 1:
		return columnErr(w.fCol+"_hi", "%v is not a bound of the fraction of keys one change moves, in [0, 1]", *w.fHi)
	case !near(w.hitAfter, w.hit*(1-w.f)):
		return columnErr("hit_after", "%v is not hit_ratio x (1 - %s) = %v x (1 - %v) = %v", w.hitAfter, w.fCol, w.hit, w.f, w.hit*(1-w.f))
	case !near(w.dbSteady, w.reads*(1-w.hit)):
		return columnErr("db_steady", "%v is not reads x (1 - hit_ratio) = %v x (1 - %v) = %v", w.dbSteady, w.reads, w.hit, w.reads*(1-w.hit))
	case !near(w.dbReads, w.reads*(1-w.hitAfter)):
		return columnErr("db_reads", "%v is not reads x (1 - hit_after) = %v x (1 - %v) = %v", w.dbReads, w.reads, w.hitAfter, w.reads*(1-w.hitAfter))
	case !near(w.dbMultiple, w.dbReads/w.dbSteady):
		return columnErr("db_multiple", "%v is not db_reads / db_steady = %v / %v = %v", w.dbMultiple, w.dbReads, w.dbSteady, w.dbReads/w.dbSteady)
	case !near(w.extra, w.hit*w.f*float64(w.workingSet)):
		return columnErr("extra_db_reads", "%v is not hit_ratio x %s x working_set = %v x %v x %d = %v", w.extra, w.fCol, w.hit, w.f, w.workingSet, w.hit*w.f*float64(w.workingSet))
	case !near(w.tau, float64(w.workingSet)/w.reads):
		return columnErr("tau_s", "%v is not working_set / reads = %d / %v = %v", w.tau, w.workingSet, w.reads, float64(w.workingSet)/w.reads)
	}
	for _, c := range []struct {
		col    string
		v      *float64
		lo, hi float64
		what   string
	}{
		{"hit_after", &w.hitAfter, 0, w.hit, "a hit ratio after the change in [0, hit_ratio]"},
		{"hit_after_lo", w.hitAfterLo, 0, w.hit, "a hit ratio after the change in [0, hit_ratio]"},
		{"hit_after_hi", w.hitAfterHi, 0, w.hit, "a hit ratio after the change in [0, hit_ratio]"},
		{"db_reads", &w.dbReads, w.dbSteady, w.reads, "database reads/s in [db_steady, reads]"},
		{"db_reads_lo", w.dbReadsLo, w.dbSteady, w.reads, "database reads/s in [db_steady, reads]"},
		{"db_reads_hi", w.dbReadsHi, w.dbSteady, w.reads, "database reads/s in [db_steady, reads]"},
		{"db_multiple", &w.dbMultiple, 1, w.reads / w.dbSteady, "a multiple of the steady database load in [1, reads / db_steady]"},
		{"db_multiple_lo", w.dbMultipleLo, 1, w.reads / w.dbSteady, "a multiple of the steady database load in [1, reads / db_steady]"},
		{"db_multiple_hi", w.dbMultipleHi, 1, w.reads / w.dbSteady, "a multiple of the steady database load in [1, reads / db_steady]"},
		{"extra_db_reads_hi", w.extraHi, 0, w.hit * float64(w.workingSet), "extra database reads in [0, hit_ratio x working_set]"},
	} {
		if c.v != nil && (*c.v < c.lo*(1-modelSlack) || *c.v > c.hi*(1+modelSlack)) {
			return columnErr(c.col, "%v is not %s = [%v, %v]", *c.v, c.what, c.lo, c.hi)
		}
	}
	return nil
}

// StormPoint is one row of storm-timeline.csv and storm-zipf-timeline.csv:
// the warm-up model's hit ratio and database load TimeS seconds after the
// change, with the images of the moved fraction's 95% interval.
type StormPoint struct {
	Op             string   `json:"op"`
	From           int      `json:"from"`
	To             int      `json:"to"`
	TimeS          float64  `json:"time_s"` // seconds after the change
	HitRatio       float64  `json:"hit_ratio"`
	HitRatioLo     *float64 `json:"hit_ratio_lo"`
	HitRatioHi     *float64 `json:"hit_ratio_hi"`
	DBReads        float64  `json:"db_reads"`
	DBReadsLo      *float64 `json:"db_reads_lo"`
	DBReadsHi      *float64 `json:"db_reads_hi"`
	DBSteady       float64  `json:"db_steady"`
	Reads          float64  `json:"reads"`
	SteadyHitRatio float64  `json:"steady_hit_ratio"` // the hit ratio before the change
	WorkingSet     int      `json:"working_set"`
	Zipf           float64  `json:"zipf"`
	Config         `json:"config"`
}

func (StormPoint) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "op", "from", "to", "keys", "sets", "seed", "time_s",
		"hit_ratio", "hit_ratio_lo", "hit_ratio_hi",
		"db_reads", "db_reads_lo", "db_reads_hi", "db_steady",
		"reads", "steady_hit_ratio", "working_set", "zipf",
		"~eps", "~partitions", "~key_file", "~go_version", "~commit",
	}
}

// check: times, loads and the Zipf exponent are not negative, and the
// fleet's rates and working set are positive.
func (p StormPoint) check() error {
	for _, c := range []struct {
		col string
		v   float64
	}{{"time_s", p.TimeS}, {"zipf", p.Zipf}} {
		if c.v < 0 {
			return columnErr(c.col, "%v is negative", c.v)
		}
	}
	for _, c := range []struct {
		col string
		v   float64
	}{{"db_steady", p.DBSteady}, {"reads", p.Reads}, {"working_set", float64(p.WorkingSet)}} {
		if c.v <= 0 {
			return columnErr(c.col, "%v must be > 0", c.v)
		}
	}
	return nil
}

// StormLive is one window of a live miss storm (chbench storm -live): one
// row of its CSV, one object of its JSON array. The columns are
// documented in the package documentation (Live miss storm).
type StormLive struct {
	Op           string  `json:"op"`
	From         int     `json:"from"`
	To           int     `json:"to"`
	Reads        float64 `json:"reads"`
	HitRatio     float64 `json:"hit_ratio"`
	WorkingSet   int     `json:"working_set"`
	Zipf         float64 `json:"zipf"`
	MovedFrac    float64 `json:"moved_frac"`
	LiveMemMB    int     `json:"live_mem_mb"`   // memcached item memory per instance, megabytes
	ValueBytes   int     `json:"value_bytes"`   // bytes of every cached value
	Window       int     `json:"window"`        // -1 the steady window before the change, then 0, 1, ...
	TimeS        float64 `json:"time_s"`        // start of the window, seconds after the change
	TimeEndS     float64 `json:"time_end_s"`    // end of the window
	WindowReads  int     `json:"window_reads"`  // reads replayed in the window
	ExpiredReads int     `json:"expired_reads"` // reads whose key the client deleted first (emulated steady misses)
	HitLive      float64 `json:"hit_live"`      // hit ratio the real memcached fleet served
	HitSim       float64 `json:"hit_sim"`       // the warm-up model's mean hit ratio over the window
	DBReadsLive  float64 `json:"db_reads_live"` // database reads per second: misses x reads / window_reads
	DBReadsSim   float64 `json:"db_reads_sim"`  // the model's mean database reads per second over the window
	DBSteady     float64 `json:"db_steady"`
	Config       `json:"config"`
}

func (StormLive) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "op", "from", "to", "seed",
		"reads", "hit_ratio", "working_set", "zipf", "moved_frac", "live_mem_mb", "value_bytes",
		"window", "time_s", "time_end_s", "window_reads", "expired_reads",
		"hit_live", "hit_sim", "db_reads_live", "db_reads_sim", "db_steady",
		"~go_version", "~commit",
	}
}
