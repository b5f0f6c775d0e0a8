package schema

import (
	"fmt"
	"strconv"

	"golang.org/x/perf/benchfmt"
)

// LoadSample is the request load measured on one request stream.
type LoadSample struct {
	PeakToMean float64 `json:"peak_to_mean"`   // max over nodes of request share / weight share
	CV         float64 `json:"cv"`             // coefficient of variation of the normalised request loads
	MaxShare   float64 `json:"max_share"`      // fraction of requests served by the busiest node
	HotShare   float64 `json:"hot_share"`      // fraction of requests for the hottest key
	Away       float64 `json:"away_frac"`      // fraction of requests served away from their first-choice node
	HotNode    string  `json:"hot_key_node"`   // node serving most of the hottest key's requests
	HotBusiest bool    `json:"hot_is_busiest"` // whether that node is the busiest
	// The load by bytes (a trace with sizes; nil otherwise): max over
	// nodes of byte share / weight share, and the busiest node's share.
	BytesPeakToMean *float64 `json:"bytes_peak_to_mean,omitempty"`
	BytesMaxShare   *float64 `json:"bytes_max_share,omitempty"`
}

// Load is one request-load result (one placement, one popularity law):
// one row of load.csv, one object of the load JSON array. Zipf is nil for
// a request log and MaxLoadOverCap nil for placements without a capacity.
// The columns are documented in the package documentation (Request load).
type Load struct {
	Nodes          int      `json:"nodes"`
	Zipf           *float64 `json:"zipf"`
	Requests       int      `json:"requests"`
	PeakToMean     float64  `json:"peak_to_mean"`
	PeakToMeanLo   *float64 `json:"peak_to_mean_lo"`
	PeakToMeanHi   *float64 `json:"peak_to_mean_hi"`
	CV             float64  `json:"cv"`
	CVLo           *float64 `json:"cv_lo"`
	CVHi           *float64 `json:"cv_hi"`
	MaxShare       float64  `json:"max_share"`
	MaxShareLo     *float64 `json:"max_share_lo"`
	MaxShareHi     *float64 `json:"max_share_hi"`
	HotShare       float64  `json:"hot_share"`
	HotShareLo     *float64 `json:"hot_share_lo"`
	HotShareHi     *float64 `json:"hot_share_hi"`
	Floor          float64  `json:"floor"`
	FloorMinNode   float64  `json:"floor_min_node"`
	FloorHotNode   float64  `json:"floor_hot_node"`
	HotKeyNode     string   `json:"hot_key_node"`
	HotIsBusiest   float64  `json:"hot_is_busiest"`
	AwayFrac       float64  `json:"away_frac"`
	AwayFracLo     *float64 `json:"away_frac_lo"`
	AwayFracHi     *float64 `json:"away_frac_hi"`
	MaxLoadOverCap *float64 `json:"max_load_over_cap"`
	InFlight       int      `json:"in_flight"`
	// The load by bytes, for a trace with sizes (nil otherwise): see the
	// package doc.
	BytesPeakToMean   *float64 `json:"bytes_peak_to_mean"`
	BytesPeakToMeanLo *float64 `json:"bytes_peak_to_mean_lo"`
	BytesPeakToMeanHi *float64 `json:"bytes_peak_to_mean_hi"`
	BytesMaxShare     *float64 `json:"bytes_max_share"`
	BytesMaxShareLo   *float64 `json:"bytes_max_share_lo"`
	BytesMaxShareHi   *float64 `json:"bytes_max_share_hi"`
	Config            `json:"config"`
	Samples           []LoadSample `json:"samples"`
}

func (Load) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "nodes", "zipf", "keys", "requests", "sets", "seed",
		"peak_to_mean", "peak_to_mean_lo", "peak_to_mean_hi", "cv", "cv_lo", "cv_hi",
		"max_share", "max_share_lo", "max_share_hi", "hot_share", "hot_share_lo", "hot_share_hi",
		"floor", "floor_min_node", "floor_hot_node", "hot_key_node", "hot_is_busiest", "away_frac", "away_frac_lo", "away_frac_hi",
		"max_load_over_cap", "in_flight", "~eps", "~partitions", "~key_kind", "~key_file", "~go_version", "~commit",
		"~table_size", "~probes", "~capacity",
		"?bytes_peak_to_mean", "?bytes_peak_to_mean_lo", "?bytes_peak_to_mean_hi", "?bytes_max_share", "?bytes_max_share_lo", "?bytes_max_share_hi",
	}
}

// The benchmark format of a request-load result, one line per request
// stream:
//
//	BenchmarkLoad/algo=ring/nodes=100/zipf=0.99 1 7.1 peak/mean 0.9 cv 0.071 max-share 0.069 hot-share 0 away-frac 6.9 floor
//
// zipf=log for a request log or trace, with bytes-peak/mean last for a
// trace with sizes. floor is declared exact; the rest are sampled.
func (r Load) benchName() string {
	z := "log"
	if r.Zipf != nil {
		z = strconv.FormatFloat(*r.Zipf, 'g', -1, 64)
	}
	return fmt.Sprintf("Load/algo=%s/nodes=%d/zipf=%s", r.Algo, r.Nodes, z)
}

func (r Load) benchLines() [][]benchfmt.Value {
	var out [][]benchfmt.Value
	for _, s := range r.Samples {
		out = append(out, []benchfmt.Value{
			{Value: s.PeakToMean, Unit: "peak/mean"},
			{Value: s.CV, Unit: "cv"},
			{Value: s.MaxShare, Unit: "max-share"},
			{Value: s.HotShare, Unit: "hot-share"},
			{Value: s.Away, Unit: "away-frac"},
			{Value: r.Floor, Unit: "floor"},
		})
		if s.BytesPeakToMean != nil {
			out[len(out)-1] = append(out[len(out)-1], benchfmt.Value{Value: *s.BytesPeakToMean, Unit: "bytes-peak/mean"})
		}
	}
	return out
}

func (Load) exactUnits() []string { return []string{"floor"} }

// BoundedSample is one bounded-loads form measured on one request stream;
// the pointer fields are nil where they do not apply (the plain ring has
// no capacity).
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

// Bounded is one bounded-loads result (one form, eps and popularity law):
// one row of boundedloads.csv, one object of its JSON array; its eps is
// Config.Eps. The pointer fields are nil (an empty CSV cell) where they do
// not apply. The columns are documented in the package documentation
// (Bounded loads).
type Bounded struct {
	Nodes              int      `json:"nodes"`
	Zipf               float64  `json:"zipf"`
	Requests           int      `json:"requests"`
	MaxLoadOverCap     *float64 `json:"max_load_over_cap"`
	AwayFrac           float64  `json:"away_frac"`
	AwayFracLo         *float64 `json:"away_frac_lo"`
	AwayFracHi         *float64 `json:"away_frac_hi"`
	PeakToMean         float64  `json:"peak_to_mean"`
	PeakToMeanLo       *float64 `json:"peak_to_mean_lo"`
	PeakToMeanHi       *float64 `json:"peak_to_mean_hi"`
	MovedJoinFrac      float64  `json:"moved_join_frac"`
	MovedJoinFracLo    *float64 `json:"moved_join_frac_lo"`
	MovedJoinFracHi    *float64 `json:"moved_join_frac_hi"`
	IdealJoinFrac      float64  `json:"ideal_join_frac"`
	MovedLeaveFrac     float64  `json:"moved_leave_frac"`
	MovedLeaveFracLo   *float64 `json:"moved_leave_frac_lo"`
	MovedLeaveFracHi   *float64 `json:"moved_leave_frac_hi"`
	IdealLeaveFrac     float64  `json:"ideal_leave_frac"`
	MovesPerCapJoin    *float64 `json:"moves_per_cap_join"`
	MovesPerCapJoinLo  *float64 `json:"moves_per_cap_join_lo"`
	MovesPerCapJoinHi  *float64 `json:"moves_per_cap_join_hi"`
	MovesPerCapLeave   *float64 `json:"moves_per_cap_leave"`
	MovesPerCapLeaveLo *float64 `json:"moves_per_cap_leave_lo"`
	MovesPerCapLeaveHi *float64 `json:"moves_per_cap_leave_hi"`
	BoundOneOverEpsSq  float64  `json:"bound_1_over_eps2"`
	InFlight           int      `json:"in_flight"`
	Config             `json:"config"`
	Samples            []BoundedSample `json:"samples"`
}

func (Bounded) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "nodes", "eps", "zipf", "keys", "requests", "sets", "seed",
		"max_load_over_cap", "away_frac", "away_frac_lo", "away_frac_hi",
		"peak_to_mean", "peak_to_mean_lo", "peak_to_mean_hi",
		"moved_join_frac", "moved_join_frac_lo", "moved_join_frac_hi", "ideal_join_frac",
		"moved_leave_frac", "moved_leave_frac_lo", "moved_leave_frac_hi", "ideal_leave_frac",
		"moves_per_cap_join", "moves_per_cap_join_lo", "moves_per_cap_join_hi",
		"moves_per_cap_leave", "moves_per_cap_leave_lo", "moves_per_cap_leave_hi",
		"bound_1_over_eps2", "in_flight", "~partitions", "~key_kind", "~go_version", "~commit",
	}
}

// The benchmark format of a bounded-loads result, one line per request
// stream:
//
//	BenchmarkBounded/algo=bounded-key/nodes=100/eps=0.25/zipf=0.99 1 0.98 max-load/cap 0.01 away-frac 1.3 peak/mean 0.012 moved-join-frac 0.011 moved-leave-frac 0.01 ideal-join-frac
//
// ideal-join-frac is declared exact; ring rows have no max-load/cap.
func (r Bounded) benchName() string {
	return fmt.Sprintf("Bounded/algo=%s/nodes=%d/eps=%s/zipf=%s", r.Algo, r.Nodes,
		strconv.FormatFloat(r.Eps, 'g', -1, 64), strconv.FormatFloat(r.Zipf, 'g', -1, 64))
}

func (r Bounded) benchLines() [][]benchfmt.Value {
	var out [][]benchfmt.Value
	for _, s := range r.Samples {
		var vals []benchfmt.Value
		if s.MaxLoadOverCap != nil {
			vals = append(vals, benchfmt.Value{Value: *s.MaxLoadOverCap, Unit: "max-load/cap"})
		}
		out = append(out, append(vals,
			benchfmt.Value{Value: s.Away, Unit: "away-frac"},
			benchfmt.Value{Value: s.PeakToMean, Unit: "peak/mean"},
			benchfmt.Value{Value: s.MovedJoin, Unit: "moved-join-frac"},
			benchfmt.Value{Value: s.MovedLeave, Unit: "moved-leave-frac"},
			benchfmt.Value{Value: r.IdealJoinFrac, Unit: "ideal-join-frac"}))
	}
	return out
}

func (Bounded) exactUnits() []string { return []string{"ideal-join-frac"} }
