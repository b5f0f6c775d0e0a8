package schema

// Switch is one switching cost: a fleet that changes from one placement
// (algo: a client's or proxy's dialect, or an algorithm) to another
// (to_algo) on the same servers, every key routed by both. One row of
// switching.csv, one object of the switching JSON array. differ_frac is
// the fraction of keys the two route to different servers, the moved
// fraction of the switch; the storm columns are the warm-up model
// (analysis.StormModel) applied to it and to its interval's ends, as
// [Storm]'s are to a resize's moved fraction. The columns are documented
// in the package documentation (Switching clients).
type Switch struct {
	ToAlgo         string   `json:"to_algo"`
	Nodes          int      `json:"nodes"`
	Weights        string   `json:"weights"`    // the servers' weights in fleet order, comma-separated; one value when all are equal
	FirstNode      string   `json:"first_node"` // the fleet's first server ID
	LastNode       string   `json:"last_node"`  // and its last
	DifferFrac     float64  `json:"differ_frac"`
	DifferFracLo   *float64 `json:"differ_frac_lo"`
	DifferFracHi   *float64 `json:"differ_frac_hi"`
	Reads          float64  `json:"reads"`
	HitRatio       float64  `json:"hit_ratio"`
	WorkingSet     int      `json:"working_set"`
	Zipf           float64  `json:"zipf"`
	HitAfter       float64  `json:"hit_after"`
	HitAfterLo     *float64 `json:"hit_after_lo"`
	HitAfterHi     *float64 `json:"hit_after_hi"`
	DBReads        float64  `json:"db_reads"`
	DBReadsLo      *float64 `json:"db_reads_lo"`
	DBReadsHi      *float64 `json:"db_reads_hi"`
	DBSteady       float64  `json:"db_steady"`
	DBMultiple     float64  `json:"db_multiple"`
	DBMultipleLo   *float64 `json:"db_multiple_lo"`
	DBMultipleHi   *float64 `json:"db_multiple_hi"`
	ExtraDBReads   float64  `json:"extra_db_reads"`
	ExtraDBReadsLo *float64 `json:"extra_db_reads_lo"`
	ExtraDBReadsHi *float64 `json:"extra_db_reads_hi"`
	RecoveryS      float64  `json:"recovery_s"`
	RecoverySLo    *float64 `json:"recovery_s_lo"`
	RecoverySHi    *float64 `json:"recovery_s_hi"`
	TauS           float64  `json:"tau_s"`
	Config         `json:"config"`
	// Flows (JSON only) is the from -> to matrix without its zero cells:
	// the keys algo sends to each server and to_algo to each, sorted by
	// the servers' fleet order.
	Flows []SwitchFlow `json:"flows,omitempty"`
	// First (JSON only) are the first keys the two route differently.
	First []SwitchMismatch `json:"first_mismatches,omitempty"`
}

// SwitchFlow is one cell of a switch's from -> to matrix: Keys keys that
// algo routes to server FromNode and to_algo to ToNode.
type SwitchFlow struct {
	FromNode string `json:"from_node"`
	ToNode   string `json:"to_node"`
	Keys     int64  `json:"keys"`
}

// SwitchMismatch is one key two placements route to different servers.
type SwitchMismatch struct {
	Key      string `json:"key"`
	FromNode string `json:"from_node"`
	ToNode   string `json:"to_node"`
}

func (Switch) columns() []string {
	return []string{
		"algo", "to_algo", "hash", "vnodes", "nodes", "weights", "first_node", "last_node", "keys", "sets", "seed",
		"differ_frac", "differ_frac_lo", "differ_frac_hi",
		"reads", "hit_ratio", "working_set", "zipf",
		"hit_after", "hit_after_lo", "hit_after_hi",
		"db_reads", "db_reads_lo", "db_reads_hi", "db_steady",
		"db_multiple", "db_multiple_lo", "db_multiple_hi",
		"extra_db_reads", "extra_db_reads_lo", "extra_db_reads_hi",
		"recovery_s", "recovery_s_lo", "recovery_s_hi", "tau_s",
		"~eps", "~partitions", "~table_size", "~probes", "~capacity", "~key_file", "~key_kind", "~go_version", "~commit",
	}
}

// check: the warm-up model's relations ([warmUp.check]) with f the
// fraction of keys the switch routes differently.
func (r Switch) check() error {
	return warmUp{
		fCol: "differ_frac", f: r.DifferFrac, fHi: r.DifferFracHi, reads: r.Reads, hit: r.HitRatio, workingSet: r.WorkingSet,
		hitAfter: r.HitAfter, hitAfterLo: r.HitAfterLo, hitAfterHi: r.HitAfterHi,
		dbReads: r.DBReads, dbReadsLo: r.DBReadsLo, dbReadsHi: r.DBReadsHi, dbSteady: r.DBSteady,
		dbMultiple: r.DBMultiple, dbMultipleLo: r.DBMultipleLo, dbMultipleHi: r.DBMultipleHi,
		extra: r.ExtraDBReads, extraHi: r.ExtraDBReadsHi, tau: r.TauS,
	}.check()
}
