package schema

import (
	"encoding/csv"
	"io"
)

// Columns of the live miss storm (chbench storm -live), beyond the storm
// columns they share (algo, hash, vnodes, op, from, to, seed, reads,
// hit_ratio, working_set, zipf, moved_frac, db_steady, go_version, commit):
const (
	ColLiveMemMB    = "live_mem_mb"   // memcached item memory per instance, megabytes
	ColValueBytes   = "value_bytes"   // bytes of every cached value
	ColWindow       = "window"        // window number: -1 the steady window before the change, then 0, 1, ...
	ColTimeEndS     = "time_end_s"    // end of the window, seconds after the change (time_s is its start)
	ColWindowReads  = "window_reads"  // reads replayed in the window
	ColHitLive      = "hit_live"      // hit ratio the real memcached fleet served in the window
	ColHitSim       = "hit_sim"       // the warm-up model's mean hit ratio over the same window
	ColDBReadsLive  = "db_reads_live" // database reads per second in the window: misses x reads / window_reads
	ColDBReadsSim   = "db_reads_sim"  // the model's mean database reads per second over the window
	ColExpiredReads = "expired_reads" // reads in the window whose key the client deleted first (emulated steady misses)
)

// StormLiveColumns is the header of the live storm CSV: one row per
// algorithm and window.
var StormLiveColumns = []string{
	ColAlgo, ColHash, ColVNodes, ColOp, ColFrom, ColTo, ColSeed,
	ColReads, ColHitRatio, ColWorkingSet, ColZipf, ColMovedFrac, ColLiveMemMB, ColValueBytes,
	ColWindow, ColTimeS, ColTimeEndS, ColWindowReads, ColExpiredReads,
	ColHitLive, ColHitSim, ColDBReadsLive, ColDBReadsSim, ColDBSteady,
	ColGoVersion, ColCommit,
}

// StormLive is one window of a live miss storm: one row of the live storm
// CSV, one object of its JSON array. Its JSON names are the CSV column
// names.
type StormLive struct {
	Algo         string  `json:"algo"`
	Hash         string  `json:"hash"`
	VNodes       int     `json:"vnodes"`
	Op           string  `json:"op"`
	From         int     `json:"from"`
	To           int     `json:"to"`
	Seed         uint64  `json:"seed"`
	Reads        float64 `json:"reads"`
	HitRatio     float64 `json:"hit_ratio"`
	WorkingSet   int     `json:"working_set"`
	Zipf         float64 `json:"zipf"`
	MovedFrac    float64 `json:"moved_frac"`
	LiveMemMB    int     `json:"live_mem_mb"`
	ValueBytes   int     `json:"value_bytes"`
	Window       int     `json:"window"`
	TimeS        float64 `json:"time_s"`
	TimeEndS     float64 `json:"time_end_s"`
	WindowReads  int     `json:"window_reads"`
	ExpiredReads int     `json:"expired_reads"`
	HitLive      float64 `json:"hit_live"`
	HitSim       float64 `json:"hit_sim"`
	DBReadsLive  float64 `json:"db_reads_live"`
	DBReadsSim   float64 `json:"db_reads_sim"`
	DBSteady     float64 `json:"db_steady"`
	Config       Config  `json:"config"`
}

// WriteStormLiveCSV writes rs as CSV with StormLiveColumns.
func WriteStormLiveCSV(w io.Writer, rs []StormLive) error {
	cw := csv.NewWriter(w)
	cw.Write(StormLiveColumns)
	for _, r := range rs {
		cw.Write(flat(
			[]string{r.Algo, r.Hash, itoa(r.VNodes), r.Op, itoa(r.From), itoa(r.To), utoa(r.Seed)},
			[]string{ftoa(r.Reads), ftoa(r.HitRatio), itoa(r.WorkingSet), ftoa(r.Zipf), ftoa(r.MovedFrac), itoa(r.LiveMemMB), itoa(r.ValueBytes)},
			[]string{itoa(r.Window), ftoa(r.TimeS), ftoa(r.TimeEndS), itoa(r.WindowReads), itoa(r.ExpiredReads)},
			[]string{ftoa(r.HitLive), ftoa(r.HitSim), ftoa(r.DBReadsLive), ftoa(r.DBReadsSim), ftoa(r.DBSteady)},
			[]string{r.Config.GoVersion, r.Config.Commit},
		))
	}
	cw.Flush()
	return cw.Error()
}

// WriteStormLiveJSON writes rs as an indented JSON array of StormLive
// objects: the CSV columns (StormLiveColumns) plus "config".
func WriteStormLiveJSON(w io.Writer, rs []StormLive) error {
	return writeJSONArray(w, rs)
}
