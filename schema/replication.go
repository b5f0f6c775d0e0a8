package schema

// ReplicationSample holds the values measured on one key set.
type ReplicationSample struct {
	PairsMoved     float64 `json:"pairs_moved_frac"`
	AllLost        float64 `json:"all_lost_frac"`
	LoadPeakToMean float64 `json:"load_peak_to_mean"`
	LoadCV         float64 `json:"load_cv"`
	DistinctSets   int     `json:"distinct_sets"`
}

// Replication is one replication result (one algorithm, replication
// factor and scenario, between the first and the last placement): one row
// of replication.csv, one object of the replication JSON array. Every
// estimate has _lo and _hi columns (95% interval). The columns are
// documented in the package documentation (Replication).
type Replication struct {
	Replicas         int      `json:"replicas"` // replication factor R: distinct nodes per key
	Op               string   `json:"op"`
	From             int      `json:"from"`
	To               int      `json:"to"`
	PairsMovedFrac   float64  `json:"pairs_moved_frac"` // key-replica pairs of the first placement whose node holds no replica of the key after
	PairsMovedFracLo *float64 `json:"pairs_moved_frac_lo"`
	PairsMovedFracHi *float64 `json:"pairs_moved_frac_hi"`
	AllLostFrac      float64  `json:"all_lost_frac"` // keys none of whose replicas stays: re-homed entirely
	AllLostFracLo    *float64 `json:"all_lost_frac_lo"`
	AllLostFracHi    *float64 `json:"all_lost_frac_hi"`
	IdealFrac        float64  `json:"ideal_frac"`
	LoadPeakToMean   float64  `json:"load_peak_to_mean"` // replicas per node, first placement: max of share / weight share
	LoadPeakToMeanLo *float64 `json:"load_peak_to_mean_lo"`
	LoadPeakToMeanHi *float64 `json:"load_peak_to_mean_hi"`
	LoadCV           float64  `json:"load_cv"` // coefficient of variation of the replicas per node
	LoadCVLo         *float64 `json:"load_cv_lo"`
	LoadCVHi         *float64 `json:"load_cv_hi"`
	DistinctSets     float64  `json:"distinct_sets"` // distinct replica sets among the keys of a key set
	DistinctSetsLo   *float64 `json:"distinct_sets_lo"`
	DistinctSetsHi   *float64 `json:"distinct_sets_hi"`
	MaxSets          float64  `json:"max_distinct_sets"` // C(n, R), the most there can be
	Config           `json:"config"`
	Samples          []ReplicationSample `json:"samples"`
}

func (Replication) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "replicas", "op", "from", "to", "keys", "sets", "seed",
		"pairs_moved_frac", "pairs_moved_frac_lo", "pairs_moved_frac_hi",
		"all_lost_frac", "all_lost_frac_lo", "all_lost_frac_hi", "ideal_frac",
		"load_peak_to_mean", "load_peak_to_mean_lo", "load_peak_to_mean_hi",
		"load_cv", "load_cv_lo", "load_cv_hi",
		"distinct_sets", "distinct_sets_lo", "distinct_sets_hi", "max_distinct_sets",
		"~eps", "~partitions", "~key_file", "~go_version", "~commit", "~placement", "~?topology", "~?domain",
	}
}

// check: a key set's distinct replica sets number at least 1 and at most
// max_distinct_sets = C(n, R), so their mean and its interval lie there
// too.
func (r Replication) check() error {
	if r.MaxSets < 1 {
		return columnErr("max_distinct_sets", "%v is not a number of replica sets >= 1", r.MaxSets)
	}
	for _, c := range []struct {
		col string
		v   *float64
	}{{"distinct_sets", &r.DistinctSets}, {"distinct_sets_lo", r.DistinctSetsLo}, {"distinct_sets_hi", r.DistinctSetsHi}} {
		if c.v != nil && (*c.v < 1 || *c.v > r.MaxSets) {
			return columnErr(c.col, "%v is not a number of distinct replica sets in [1, max_distinct_sets] = [1, %v]", *c.v, r.MaxSets)
		}
	}
	return nil
}
