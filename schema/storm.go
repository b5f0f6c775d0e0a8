package schema

import (
	"encoding/csv"
	"io"
)

// Columns of the miss-storm results (storm.csv and its JSON), beyond the
// movement columns they share (algo, hash, vnodes, op, from, to, keys,
// sets, seed, moved_frac[_lo,_hi], ideal_frac, eps, partitions, key_file,
// go_version, commit), and zipf (ColZipf): the Zipf exponent s of the key
// popularity of the warm-up model, 0 for uniform reads:
const (
	ColReads          = "reads"            // Q: reads per second reaching the cache fleet
	ColHitRatio       = "hit_ratio"        // steady hit ratio before the change (storm.csv); in the timeline, the hit ratio at time_s
	ColWorkingSet     = "working_set"      // K: distinct keys the fleet serves (sets the refill time scale)
	ColHitAfter       = "hit_after"        // hit ratio right after the change, h (1 - moved_frac)
	ColDBReads        = "db_reads"         // database reads per second right after the change (storm.csv) or at time_s (timeline)
	ColDBSteady       = "db_steady"        // database reads per second before the change, Q (1 - h)
	ColDBMultiple     = "db_multiple"      // db_reads / db_steady
	ColExtraDBReads   = "extra_db_reads"   // database reads the change adds until the cache has refilled, h f K
	ColRecoveryS      = "recovery_s"       // seconds until the database load is back within 1.1x its steady state
	ColTauS           = "tau_s"            // the warm-up model's time constant K/Q, seconds
	ColTimeS          = "time_s"           // timeline: seconds after the change
	ColSteadyHitRatio = "steady_hit_ratio" // timeline: the hit ratio before the change
)

// StormColumns is the header of storm.csv, one row per algorithm and
// membership change; each estimate has _lo and _hi columns (the model
// applied to the ends of the moved fraction's 95% interval).
var StormColumns = []string{
	ColAlgo, ColHash, ColVNodes, ColOp, ColFrom, ColTo, ColKeys, ColSets, ColSeed,
	ColReads, ColHitRatio, ColWorkingSet, ColZipf,
	ColMovedFrac, ColMovedFracLo, ColMovedFracHi, ColIdealFrac,
	ColHitAfter, ColHitAfter + "_lo", ColHitAfter + "_hi",
	ColDBReads, ColDBReads + "_lo", ColDBReads + "_hi", ColDBSteady,
	ColDBMultiple, ColDBMultiple + "_lo", ColDBMultiple + "_hi",
	ColExtraDBReads, ColExtraDBReads + "_lo", ColExtraDBReads + "_hi",
	ColRecoveryS, ColRecoveryS + "_lo", ColRecoveryS + "_hi", ColTauS,
	ColEps, ColPartitions, ColKeyFile, ColGoVersion, ColCommit,
}

// StormTimelineColumns is the header of storm-timeline.csv: one row per
// algorithm and time point of the warm-up model.
var StormTimelineColumns = []string{
	ColAlgo, ColHash, ColVNodes, ColOp, ColFrom, ColTo, ColKeys, ColSets, ColSeed, ColTimeS,
	ColHitRatio, ColHitRatio + "_lo", ColHitRatio + "_hi",
	ColDBReads, ColDBReads + "_lo", ColDBReads + "_hi", ColDBSteady,
	ColReads, ColSteadyHitRatio, ColWorkingSet, ColZipf,
	ColEps, ColPartitions, ColKeyFile, ColGoVersion, ColCommit,
}

// Storm is one miss-storm result: one row of storm.csv, one object of the
// storm JSON array. Its JSON names are the CSV column names.
type Storm struct {
	Algo           string  `json:"algo"`
	Hash           string  `json:"hash"`
	VNodes         int     `json:"vnodes"`
	Op             string  `json:"op"`
	From           int     `json:"from"`
	To             int     `json:"to"`
	Keys           int     `json:"keys"`
	Sets           int     `json:"sets"`
	Seed           uint64  `json:"seed"`
	Reads          float64 `json:"reads"`
	HitRatio       float64 `json:"hit_ratio"`
	WorkingSet     int     `json:"working_set"`
	Zipf           float64 `json:"zipf"`
	MovedFrac      float64 `json:"moved_frac"`
	MovedFracLo    float64 `json:"moved_frac_lo"`
	MovedFracHi    float64 `json:"moved_frac_hi"`
	IdealFrac      float64 `json:"ideal_frac"`
	HitAfter       float64 `json:"hit_after"`
	HitAfterLo     float64 `json:"hit_after_lo"`
	HitAfterHi     float64 `json:"hit_after_hi"`
	DBReads        float64 `json:"db_reads"`
	DBReadsLo      float64 `json:"db_reads_lo"`
	DBReadsHi      float64 `json:"db_reads_hi"`
	DBSteady       float64 `json:"db_steady"`
	DBMultiple     float64 `json:"db_multiple"`
	DBMultipleLo   float64 `json:"db_multiple_lo"`
	DBMultipleHi   float64 `json:"db_multiple_hi"`
	ExtraDBReads   float64 `json:"extra_db_reads"`
	ExtraDBReadsLo float64 `json:"extra_db_reads_lo"`
	ExtraDBReadsHi float64 `json:"extra_db_reads_hi"`
	RecoveryS      float64 `json:"recovery_s"`
	RecoverySLo    float64 `json:"recovery_s_lo"`
	RecoverySHi    float64 `json:"recovery_s_hi"`
	TauS           float64 `json:"tau_s"`
	Config         Config  `json:"config"`
}

// StormPoint is one row of storm-timeline.csv: the warm-up model's hit
// ratio and database load time_s seconds after the change.
type StormPoint struct {
	Algo           string  `json:"algo"`
	Hash           string  `json:"hash"`
	VNodes         int     `json:"vnodes"`
	Op             string  `json:"op"`
	From           int     `json:"from"`
	To             int     `json:"to"`
	Keys           int     `json:"keys"`
	Sets           int     `json:"sets"`
	Seed           uint64  `json:"seed"`
	TimeS          float64 `json:"time_s"`
	HitRatio       float64 `json:"hit_ratio"`
	HitRatioLo     float64 `json:"hit_ratio_lo"`
	HitRatioHi     float64 `json:"hit_ratio_hi"`
	DBReads        float64 `json:"db_reads"`
	DBReadsLo      float64 `json:"db_reads_lo"`
	DBReadsHi      float64 `json:"db_reads_hi"`
	DBSteady       float64 `json:"db_steady"`
	Reads          float64 `json:"reads"`
	SteadyHitRatio float64 `json:"steady_hit_ratio"`
	WorkingSet     int     `json:"working_set"`
	Zipf           float64 `json:"zipf"`
	Config         Config  `json:"config"`
}

// WriteStormCSV writes rs as CSV with StormColumns, one row per result.
func WriteStormCSV(w io.Writer, rs []Storm) error {
	cw := csv.NewWriter(w)
	cw.Write(StormColumns)
	for _, r := range rs {
		c := r.Config
		cw.Write(flat(
			[]string{r.Algo, r.Hash, itoa(r.VNodes), r.Op, itoa(r.From), itoa(r.To), itoa(r.Keys), itoa(r.Sets), utoa(r.Seed)},
			[]string{ftoa(r.Reads), ftoa(r.HitRatio), itoa(r.WorkingSet), ftoa(r.Zipf)},
			[]string{ftoa(r.MovedFrac), ftoa(r.MovedFracLo), ftoa(r.MovedFracHi), ftoa(r.IdealFrac)},
			[]string{ftoa(r.HitAfter), ftoa(r.HitAfterLo), ftoa(r.HitAfterHi)},
			[]string{ftoa(r.DBReads), ftoa(r.DBReadsLo), ftoa(r.DBReadsHi), ftoa(r.DBSteady)},
			[]string{ftoa(r.DBMultiple), ftoa(r.DBMultipleLo), ftoa(r.DBMultipleHi)},
			[]string{ftoa(r.ExtraDBReads), ftoa(r.ExtraDBReadsLo), ftoa(r.ExtraDBReadsHi)},
			[]string{ftoa(r.RecoveryS), ftoa(r.RecoverySLo), ftoa(r.RecoverySHi), ftoa(r.TauS)},
			[]string{ftoa(c.Eps), itoa(c.Partitions), c.KeyFile, c.GoVersion, c.Commit},
		))
	}
	cw.Flush()
	return cw.Error()
}

// WriteStormTimelineCSV writes ps as CSV with StormTimelineColumns.
func WriteStormTimelineCSV(w io.Writer, ps []StormPoint) error {
	cw := csv.NewWriter(w)
	cw.Write(StormTimelineColumns)
	for _, p := range ps {
		c := p.Config
		cw.Write(flat(
			[]string{p.Algo, p.Hash, itoa(p.VNodes), p.Op, itoa(p.From), itoa(p.To), itoa(p.Keys), itoa(p.Sets), utoa(p.Seed), ftoa(p.TimeS)},
			[]string{ftoa(p.HitRatio), ftoa(p.HitRatioLo), ftoa(p.HitRatioHi)},
			[]string{ftoa(p.DBReads), ftoa(p.DBReadsLo), ftoa(p.DBReadsHi), ftoa(p.DBSteady)},
			[]string{ftoa(p.Reads), ftoa(p.SteadyHitRatio), itoa(p.WorkingSet), ftoa(p.Zipf)},
			[]string{ftoa(c.Eps), itoa(c.Partitions), c.KeyFile, c.GoVersion, c.Commit},
		))
	}
	cw.Flush()
	return cw.Error()
}

// WriteStormJSON writes rs as an indented JSON array of Storm objects: the
// CSV columns (StormColumns) plus "config".
func WriteStormJSON(w io.Writer, rs []Storm) error {
	return writeJSONArray(w, rs)
}
