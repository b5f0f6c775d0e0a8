package schema

import (
	"encoding/csv"
	"fmt"
	"io"

	"golang.org/x/perf/benchfmt"
)

// Column names of the request-load and bounded-loads files; see the
// package documentation for what each holds.
const (
	ColZipf                = "zipf"
	ColRequests            = "requests"
	ColHotShare            = "hot_share"
	ColHotShareLo          = "hot_share_lo"
	ColHotShareHi          = "hot_share_hi"
	ColFloor               = "floor"
	ColHotKeyNode          = "hot_key_node"
	ColHotIsBusiest        = "hot_is_busiest"
	ColAwayFrac            = "away_frac"
	ColAwayFracLo          = "away_frac_lo"
	ColAwayFracHi          = "away_frac_hi"
	ColMaxLoadOverCap      = "max_load_over_cap"
	ColInFlight            = "in_flight"
	ColKeyKind             = "key_kind"
	ColMovedJoinFrac       = "moved_join_frac"
	ColMovedJoinFracLo     = "moved_join_frac_lo"
	ColMovedJoinFracHi     = "moved_join_frac_hi"
	ColIdealJoinFrac       = "ideal_join_frac"
	ColMovedLeaveFrac      = "moved_leave_frac"
	ColMovedLeaveFracLo    = "moved_leave_frac_lo"
	ColMovedLeaveFracHi    = "moved_leave_frac_hi"
	ColIdealLeaveFrac      = "ideal_leave_frac"
	ColMovesPerCapJoin     = "moves_per_cap_join"
	ColMovesPerCapJoinLo   = "moves_per_cap_join_lo"
	ColMovesPerCapJoinHi   = "moves_per_cap_join_hi"
	ColMovesPerCapLeave    = "moves_per_cap_leave"
	ColMovesPerCapLeaveLo  = "moves_per_cap_leave_lo"
	ColMovesPerCapLeaveHi  = "moves_per_cap_leave_hi"
	ColBoundOneOverEpsSqrd = "bound_1_over_eps2"
)

// LoadColumns is the request-load CSV header (chbench load), in order.
// Readers find columns by name ([Table]); columns may be appended.
var LoadColumns = []string{
	ColAlgo, ColHash, ColVNodes, ColNodes, ColZipf, ColKeys, ColRequests, ColSets, ColSeed,
	ColPeakToMean, ColPeakToMeanLo, ColPeakToMeanHi, ColCV, ColCVLo, ColCVHi,
	ColMaxShare, ColMaxShareLo, ColMaxShareHi, ColHotShare, ColHotShareLo, ColHotShareHi,
	ColFloor, ColHotKeyNode, ColHotIsBusiest, ColAwayFrac, ColAwayFracLo, ColAwayFracHi,
	ColMaxLoadOverCap, ColInFlight, ColEps, ColPartitions, ColKeyKind, ColKeyFile, ColGoVersion, ColCommit,
	ColTableSize, ColProbes, ColCapacity,
}

// BoundedColumns is the bounded-loads CSV header (chbench bounded), in
// order. Readers find columns by name ([Table]); columns may be appended.
var BoundedColumns = []string{
	ColAlgo, ColHash, ColVNodes, ColNodes, ColEps, ColZipf, ColKeys, ColRequests, ColSets, ColSeed,
	ColMaxLoadOverCap, ColAwayFrac, ColAwayFracLo, ColAwayFracHi,
	ColPeakToMean, ColPeakToMeanLo, ColPeakToMeanHi,
	ColMovedJoinFrac, ColMovedJoinFracLo, ColMovedJoinFracHi, ColIdealJoinFrac,
	ColMovedLeaveFrac, ColMovedLeaveFracLo, ColMovedLeaveFracHi, ColIdealLeaveFrac,
	ColMovesPerCapJoin, ColMovesPerCapJoinLo, ColMovesPerCapJoinHi,
	ColMovesPerCapLeave, ColMovesPerCapLeaveLo, ColMovesPerCapLeaveHi,
	ColBoundOneOverEpsSqrd, ColInFlight, ColPartitions, ColKeyKind, ColGoVersion, ColCommit,
}

// LoadSample is the request load measured on one request stream.
type LoadSample struct {
	PeakToMean float64 `json:"peak_to_mean"`   // max over nodes of request share / weight share
	CV         float64 `json:"cv"`             // coefficient of variation of the normalised request loads
	MaxShare   float64 `json:"max_share"`      // fraction of requests served by the busiest node
	HotShare   float64 `json:"hot_share"`      // fraction of requests for the hottest key
	Away       float64 `json:"away_frac"`      // fraction of requests served away from their first-choice node
	HotNode    string  `json:"hot_key_node"`   // node serving most of the hottest key's requests
	HotBusiest bool    `json:"hot_is_busiest"` // whether that node is the busiest
}

// Load is one request-load result (one placement, one popularity law):
// one row of the load CSV, one object of the load JSON array. Its JSON
// names are the CSV column names; Zipf is nil for a request log and
// MaxLoadOverCap nil for placements without a capacity.
type Load struct {
	Algo           string       `json:"algo"`
	Hash           string       `json:"hash"`
	VNodes         int          `json:"vnodes"`
	Nodes          int          `json:"nodes"`
	Zipf           *float64     `json:"zipf"`
	Keys           int          `json:"keys"`
	Requests       int          `json:"requests"`
	Sets           int          `json:"sets"`
	Seed           uint64       `json:"seed"`
	PeakToMean     float64      `json:"peak_to_mean"`
	PeakToMeanLo   float64      `json:"peak_to_mean_lo"`
	PeakToMeanHi   float64      `json:"peak_to_mean_hi"`
	CV             float64      `json:"cv"`
	CVLo           float64      `json:"cv_lo"`
	CVHi           float64      `json:"cv_hi"`
	MaxShare       float64      `json:"max_share"`
	MaxShareLo     float64      `json:"max_share_lo"`
	MaxShareHi     float64      `json:"max_share_hi"`
	HotShare       float64      `json:"hot_share"`
	HotShareLo     float64      `json:"hot_share_lo"`
	HotShareHi     float64      `json:"hot_share_hi"`
	Floor          float64      `json:"floor"`
	HotKeyNode     string       `json:"hot_key_node"`
	HotIsBusiest   float64      `json:"hot_is_busiest"`
	AwayFrac       float64      `json:"away_frac"`
	AwayFracLo     float64      `json:"away_frac_lo"`
	AwayFracHi     float64      `json:"away_frac_hi"`
	MaxLoadOverCap *float64     `json:"max_load_over_cap"`
	InFlight       int          `json:"in_flight"`
	Config         Config       `json:"config"`
	Samples        []LoadSample `json:"samples"`
}

// BoundedSample is one bounded-loads variant measured on one request
// stream; the pointer fields are nil where they do not apply (the plain
// ring has no capacity).
type BoundedSample struct {
	MaxLoadOverCap *float64 `json:"max_load_over_cap"`
	Away           float64  `json:"away_frac"`
	PeakToMean     float64  `json:"peak_to_mean"`
	MovedJoin      float64  `json:"moved_join_frac"`
	MovedLeave     float64  `json:"moved_leave_frac"`
	IdealLeave     float64  `json:"ideal_leave_frac"`
	MovesCapJoin   *float64 `json:"moves_per_cap_join"`
	MovesCapLeave  *float64 `json:"moves_per_cap_leave"`
}

// Bounded is one bounded-loads result (one variant, eps and popularity
// law): one row of the bounded-loads CSV, one object of its JSON array.
// Its JSON names are the CSV column names; the pointer fields are nil (an
// empty CSV cell) where they do not apply.
type Bounded struct {
	Algo               string          `json:"algo"`
	Hash               string          `json:"hash"`
	VNodes             int             `json:"vnodes"`
	Nodes              int             `json:"nodes"`
	Eps                float64         `json:"eps"`
	Zipf               float64         `json:"zipf"`
	Keys               int             `json:"keys"`
	Requests           int             `json:"requests"`
	Sets               int             `json:"sets"`
	Seed               uint64          `json:"seed"`
	MaxLoadOverCap     *float64        `json:"max_load_over_cap"`
	AwayFrac           float64         `json:"away_frac"`
	AwayFracLo         float64         `json:"away_frac_lo"`
	AwayFracHi         float64         `json:"away_frac_hi"`
	PeakToMean         float64         `json:"peak_to_mean"`
	PeakToMeanLo       float64         `json:"peak_to_mean_lo"`
	PeakToMeanHi       float64         `json:"peak_to_mean_hi"`
	MovedJoinFrac      float64         `json:"moved_join_frac"`
	MovedJoinFracLo    float64         `json:"moved_join_frac_lo"`
	MovedJoinFracHi    float64         `json:"moved_join_frac_hi"`
	IdealJoinFrac      float64         `json:"ideal_join_frac"`
	MovedLeaveFrac     float64         `json:"moved_leave_frac"`
	MovedLeaveFracLo   float64         `json:"moved_leave_frac_lo"`
	MovedLeaveFracHi   float64         `json:"moved_leave_frac_hi"`
	IdealLeaveFrac     float64         `json:"ideal_leave_frac"`
	MovesPerCapJoin    *float64        `json:"moves_per_cap_join"`
	MovesPerCapJoinLo  *float64        `json:"moves_per_cap_join_lo"`
	MovesPerCapJoinHi  *float64        `json:"moves_per_cap_join_hi"`
	MovesPerCapLeave   *float64        `json:"moves_per_cap_leave"`
	MovesPerCapLeaveLo *float64        `json:"moves_per_cap_leave_lo"`
	MovesPerCapLeaveHi *float64        `json:"moves_per_cap_leave_hi"`
	BoundOneOverEpsSq  float64         `json:"bound_1_over_eps2"`
	InFlight           int             `json:"in_flight"`
	Config             Config          `json:"config"`
	Samples            []BoundedSample `json:"samples"`
}

// WriteLoadCSV writes rs as CSV with LoadColumns, one row per result; the
// zipf cell is empty for a request log, max_load_over_cap for placements
// without a capacity.
func WriteLoadCSV(w io.Writer, rs []Load) error {
	recs := [][]string{LoadColumns}
	for _, r := range rs {
		c := r.Config
		recs = append(recs, flat(
			[]string{r.Algo, r.Hash, itoa(r.VNodes), itoa(r.Nodes), optf(r.Zipf), itoa(r.Keys), itoa(r.Requests), itoa(r.Sets), utoa(r.Seed)},
			[]string{ftoa(r.PeakToMean), ftoa(r.PeakToMeanLo), ftoa(r.PeakToMeanHi), ftoa(r.CV), ftoa(r.CVLo), ftoa(r.CVHi)},
			[]string{ftoa(r.MaxShare), ftoa(r.MaxShareLo), ftoa(r.MaxShareHi), ftoa(r.HotShare), ftoa(r.HotShareLo), ftoa(r.HotShareHi)},
			[]string{ftoa(r.Floor), r.HotKeyNode, ftoa(r.HotIsBusiest), ftoa(r.AwayFrac), ftoa(r.AwayFracLo), ftoa(r.AwayFracHi)},
			[]string{optf(r.MaxLoadOverCap), itoa(r.InFlight), ftoa(c.Eps), itoa(c.Partitions), c.KeyKind, c.KeyFile, c.GoVersion, c.Commit},
			[]string{itoa(c.TableSize), itoa(c.Probes), itoa(c.Capacity)},
		))
	}
	return csv.NewWriter(w).WriteAll(recs)
}

// WriteBoundedCSV writes rs as CSV with BoundedColumns, one row per result.
func WriteBoundedCSV(w io.Writer, rs []Bounded) error {
	recs := [][]string{BoundedColumns}
	for _, r := range rs {
		c := r.Config
		recs = append(recs, flat(
			[]string{r.Algo, r.Hash, itoa(r.VNodes), itoa(r.Nodes), ftoa(r.Eps), ftoa(r.Zipf), itoa(r.Keys), itoa(r.Requests), itoa(r.Sets), utoa(r.Seed)},
			[]string{optf(r.MaxLoadOverCap), ftoa(r.AwayFrac), ftoa(r.AwayFracLo), ftoa(r.AwayFracHi)},
			[]string{ftoa(r.PeakToMean), ftoa(r.PeakToMeanLo), ftoa(r.PeakToMeanHi)},
			[]string{ftoa(r.MovedJoinFrac), ftoa(r.MovedJoinFracLo), ftoa(r.MovedJoinFracHi), ftoa(r.IdealJoinFrac)},
			[]string{ftoa(r.MovedLeaveFrac), ftoa(r.MovedLeaveFracLo), ftoa(r.MovedLeaveFracHi), ftoa(r.IdealLeaveFrac)},
			[]string{optf(r.MovesPerCapJoin), optf(r.MovesPerCapJoinLo), optf(r.MovesPerCapJoinHi)},
			[]string{optf(r.MovesPerCapLeave), optf(r.MovesPerCapLeaveLo), optf(r.MovesPerCapLeaveHi)},
			[]string{ftoa(r.BoundOneOverEpsSq), itoa(r.InFlight), itoa(c.Partitions), c.KeyKind, c.GoVersion, c.Commit},
		))
	}
	return csv.NewWriter(w).WriteAll(recs)
}

// WriteLoadJSON writes rs as an indented JSON array of Load objects: the
// CSV columns (LoadColumns; eps, partitions, key_kind, key_file,
// go_version, commit and the table settings only in "config"), plus
// "config" and "samples" (per request stream).
func WriteLoadJSON(w io.Writer, rs []Load) error {
	return writeJSONArray(w, rs)
}

// WriteBoundedJSON writes rs as an indented JSON array of Bounded objects:
// the CSV columns (BoundedColumns; partitions, key_kind, go_version and
// commit only in "config"), plus "config" and "samples" (per stream).
func WriteBoundedJSON(w io.Writer, rs []Bounded) error {
	return writeJSONArray(w, rs)
}

// ReadLoadJSON reads a request-load JSON array written by WriteLoadJSON.
func ReadLoadJSON(r io.Reader) ([]Load, error) {
	return readJSONArray[Load](r)
}

// ReadBoundedJSON reads a bounded-loads JSON array written by
// WriteBoundedJSON.
func ReadBoundedJSON(r io.Reader) ([]Bounded, error) {
	return readJSONArray[Bounded](r)
}

func zipfName(z *float64) string {
	if z == nil {
		return "log"
	}
	return ftoa(*z)
}

// WriteLoadBench writes rs in the Go benchmark format, one line per
// request stream:
//
//	BenchmarkLoad/algo=ring/nodes=100/zipf=0.99 1 7.1 peak/mean 0.9 cv 0.071 max-share 0.069 hot-share 0 away-frac 6.9 floor
//
// zipf=log for a request log. floor is declared exact; the rest are
// sampled. Configuration lines as in WriteMoveBench (with keykind for a
// key kind other than the default).
func WriteLoadBench(w io.Writer, rs []Load) error {
	bw := benchfmt.NewWriter(w)
	if err := writeUnits(bw, "floor"); err != nil {
		return err
	}
	for _, r := range rs {
		name := fmt.Sprintf("Load/algo=%s/nodes=%d/zipf=%s", r.Algo, r.Nodes, zipfName(r.Zipf))
		for _, s := range r.Samples {
			cfg, err := benchConfig(r.Config)
			if err != nil {
				return err
			}
			res := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(name), Iters: 1, Values: []benchfmt.Value{
				{Value: s.PeakToMean, Unit: "peak/mean"},
				{Value: s.CV, Unit: "cv"},
				{Value: s.MaxShare, Unit: "max-share"},
				{Value: s.HotShare, Unit: "hot-share"},
				{Value: s.Away, Unit: "away-frac"},
				{Value: r.Floor, Unit: "floor"},
			}}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteBoundedBench writes rs in the Go benchmark format, one line per
// request stream:
//
//	BenchmarkBounded/algo=bounded-key/nodes=100/eps=0.25/zipf=0.99 1 0.98 max-load/cap 0.01 away-frac 1.3 peak/mean 0.012 moved-join-frac 0.011 moved-leave-frac 0.01 ideal-join-frac
//
// ideal-join-frac is declared exact; ring rows have no max-load/cap.
// Configuration lines as in WriteMoveBench.
func WriteBoundedBench(w io.Writer, rs []Bounded) error {
	bw := benchfmt.NewWriter(w)
	if err := writeUnits(bw, "ideal-join-frac"); err != nil {
		return err
	}
	for _, r := range rs {
		name := fmt.Sprintf("Bounded/algo=%s/nodes=%d/eps=%s/zipf=%s", r.Algo, r.Nodes, ftoa(r.Eps), ftoa(r.Zipf))
		for _, s := range r.Samples {
			var vals []benchfmt.Value
			if s.MaxLoadOverCap != nil {
				vals = append(vals, benchfmt.Value{Value: *s.MaxLoadOverCap, Unit: "max-load/cap"})
			}
			vals = append(vals,
				benchfmt.Value{Value: s.Away, Unit: "away-frac"},
				benchfmt.Value{Value: s.PeakToMean, Unit: "peak/mean"},
				benchfmt.Value{Value: s.MovedJoin, Unit: "moved-join-frac"},
				benchfmt.Value{Value: s.MovedLeave, Unit: "moved-leave-frac"},
				benchfmt.Value{Value: r.IdealJoinFrac, Unit: "ideal-join-frac"})
			cfg, err := benchConfig(r.Config)
			if err != nil {
				return err
			}
			res := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(name), Iters: 1, Values: vals}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}
