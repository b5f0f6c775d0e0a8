package schema

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
