package schema

import (
	"encoding/csv"
	"io"
)

// Columns of the replication results (replication.csv and its JSON),
// beyond the movement columns they share (algo, hash, vnodes, op, from, to,
// keys, sets, seed, ideal_frac, eps, partitions, key_file, go_version,
// commit); every estimate has _lo and _hi columns (95% interval):
const (
	ColReplicas        = "replicas"          // replication factor R: distinct nodes per key
	ColPairsMovedFrac  = "pairs_moved_frac"  // key-replica pairs of the first placement whose node holds no replica of the key after
	ColAllLostFrac     = "all_lost_frac"     // keys none of whose replicas stays in the replica set after the change: re-homed entirely (every copy made anew; not data loss while an old copy is readable)
	ColLoadPeakToMean  = "load_peak_to_mean" // replicas per node, first placement: max of share / weight share
	ColLoadCV          = "load_cv"           // coefficient of variation of the replicas per node
	ColDistinctSets    = "distinct_sets"     // distinct replica sets among the keys of a key set
	ColMaxDistinctSets = "max_distinct_sets" // C(n, R), the most there can be
	colLo, colHi       = "_lo", "_hi"
)

// ReplicationColumns is the header of replication.csv, one row per
// algorithm, replication factor and scenario.
var ReplicationColumns = []string{
	ColAlgo, ColHash, ColVNodes, ColReplicas, ColOp, ColFrom, ColTo, ColKeys, ColSets, ColSeed,
	ColPairsMovedFrac, ColPairsMovedFrac + colLo, ColPairsMovedFrac + colHi,
	ColAllLostFrac, ColAllLostFrac + colLo, ColAllLostFrac + colHi, ColIdealFrac,
	ColLoadPeakToMean, ColLoadPeakToMean + colLo, ColLoadPeakToMean + colHi,
	ColLoadCV, ColLoadCV + colLo, ColLoadCV + colHi,
	ColDistinctSets, ColDistinctSets + colLo, ColDistinctSets + colHi, ColMaxDistinctSets,
	ColEps, ColPartitions, ColKeyFile, ColGoVersion, ColCommit, ColPlacement,
}

// ReplicationSample holds the values measured on one key set.
type ReplicationSample struct {
	PairsMoved     float64 `json:"pairs_moved_frac"`
	AllLost        float64 `json:"all_lost_frac"`
	LoadPeakToMean float64 `json:"load_peak_to_mean"`
	LoadCV         float64 `json:"load_cv"`
	DistinctSets   int     `json:"distinct_sets"`
}

// Replication is one replication result: one row of replication.csv, one
// object of the replication JSON array. Its JSON names are the CSV column
// names.
type Replication struct {
	Algo             string              `json:"algo"`
	Hash             string              `json:"hash"`
	VNodes           int                 `json:"vnodes"`
	Replicas         int                 `json:"replicas"`
	Op               string              `json:"op"`
	From             int                 `json:"from"`
	To               int                 `json:"to"`
	Keys             int                 `json:"keys"`
	Sets             int                 `json:"sets"`
	Seed             uint64              `json:"seed"`
	PairsMovedFrac   float64             `json:"pairs_moved_frac"`
	PairsMovedFracLo float64             `json:"pairs_moved_frac_lo"`
	PairsMovedFracHi float64             `json:"pairs_moved_frac_hi"`
	AllLostFrac      float64             `json:"all_lost_frac"`
	AllLostFracLo    float64             `json:"all_lost_frac_lo"`
	AllLostFracHi    float64             `json:"all_lost_frac_hi"`
	IdealFrac        float64             `json:"ideal_frac"`
	LoadPeakToMean   float64             `json:"load_peak_to_mean"`
	LoadPeakToMeanLo float64             `json:"load_peak_to_mean_lo"`
	LoadPeakToMeanHi float64             `json:"load_peak_to_mean_hi"`
	LoadCV           float64             `json:"load_cv"`
	LoadCVLo         float64             `json:"load_cv_lo"`
	LoadCVHi         float64             `json:"load_cv_hi"`
	DistinctSets     float64             `json:"distinct_sets"`
	DistinctSetsLo   float64             `json:"distinct_sets_lo"`
	DistinctSetsHi   float64             `json:"distinct_sets_hi"`
	MaxSets          float64             `json:"max_distinct_sets"`
	Config           Config              `json:"config"`
	Samples          []ReplicationSample `json:"samples"`
}

// WriteReplicationCSV writes rs as CSV with ReplicationColumns.
func WriteReplicationCSV(w io.Writer, rs []Replication) error {
	cw := csv.NewWriter(w)
	cw.Write(ReplicationColumns)
	for _, r := range rs {
		c := r.Config
		cw.Write(flat(
			[]string{r.Algo, r.Hash, itoa(r.VNodes), itoa(r.Replicas), r.Op, itoa(r.From), itoa(r.To), itoa(r.Keys), itoa(r.Sets), utoa(r.Seed)},
			[]string{ftoa(r.PairsMovedFrac), ftoa(r.PairsMovedFracLo), ftoa(r.PairsMovedFracHi)},
			[]string{ftoa(r.AllLostFrac), ftoa(r.AllLostFracLo), ftoa(r.AllLostFracHi), ftoa(r.IdealFrac)},
			[]string{ftoa(r.LoadPeakToMean), ftoa(r.LoadPeakToMeanLo), ftoa(r.LoadPeakToMeanHi)},
			[]string{ftoa(r.LoadCV), ftoa(r.LoadCVLo), ftoa(r.LoadCVHi)},
			[]string{ftoa(r.DistinctSets), ftoa(r.DistinctSetsLo), ftoa(r.DistinctSetsHi), ftoa(r.MaxSets)},
			[]string{ftoa(c.Eps), itoa(c.Partitions), c.KeyFile, c.GoVersion, c.Commit, c.Placement},
		))
	}
	cw.Flush()
	return cw.Error()
}

// WriteReplicationJSON writes rs as an indented JSON array of Replication
// objects: the CSV columns plus "config" and "samples" (per key set).
func WriteReplicationJSON(w io.Writer, rs []Replication) error {
	return writeJSONArray(w, rs)
}
