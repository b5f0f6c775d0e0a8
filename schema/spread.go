package schema

import (
	"fmt"
	"math"
	"strconv"

	"golang.org/x/perf/benchfmt"

	"github.com/chbench/chbench/algorithms/catalog"
)

// SpreadSample is the balance measured on one key set.
type SpreadSample struct {
	MinShare   float64 `json:"min_share"`
	MaxShare   float64 `json:"max_share"`
	PeakToMean float64 `json:"peak_to_mean"`
	CV         float64 `json:"cv"`
}

// Share is one node's measured and ideal share of a spread result.
type Share struct {
	ID          string   `json:"id"`
	Weight      float64  `json:"weight"`
	WeightShare float64  `json:"weight_share"`
	Exact       *float64 `json:"exact_share"`
	Share       float64  `json:"share"`
	ShareLo     *float64 `json:"share_lo"`
	ShareHi     *float64 `json:"share_hi"`
	Error       float64  `json:"share_error"`
}

// Spread is one spread result (one algorithm on one membership): one row
// of spread.csv, vnodes.csv, hashes.csv and hashes-sequential.csv, one
// object of the spread JSON array. The pointer fields are nil (an empty
// CSV cell, null in JSON) where the algorithm has no such value. The
// columns are documented in the package documentation (Spread).
type Spread struct {
	Nodes           int      `json:"nodes"`
	MinShare        float64  `json:"min_share"`
	MinShareLo      *float64 `json:"min_share_lo"`
	MinShareHi      *float64 `json:"min_share_hi"`
	MaxShare        float64  `json:"max_share"`
	MaxShareLo      *float64 `json:"max_share_lo"`
	MaxShareHi      *float64 `json:"max_share_hi"`
	PeakToMean      float64  `json:"peak_to_mean"`
	PeakToMeanLo    *float64 `json:"peak_to_mean_lo"`
	PeakToMeanHi    *float64 `json:"peak_to_mean_hi"`
	CV              float64  `json:"cv"`
	CVLo            *float64 `json:"cv_lo"`
	CVHi            *float64 `json:"cv_hi"`
	NoisePeakToMean float64  `json:"noise_peak_to_mean"`
	NoiseCV         float64  `json:"noise_cv"`
	ExactPeakToMean *float64 `json:"exact_peak_to_mean"`
	ExactCV         *float64 `json:"exact_cv"`
	ExactMinShare   *float64 `json:"exact_min_share"`
	ExactMaxShare   *float64 `json:"exact_max_share"`
	Label           string   `json:"label"`
	// The exact spread over independent layouts, for algorithms with a
	// random layout and exact shares; nil otherwise (see the package doc).
	Placements              *int     `json:"placements"`
	PlacementsPeakToMean    *float64 `json:"placements_peak_to_mean"`
	PlacementsPeakToMeanP5  *float64 `json:"placements_peak_to_mean_p5"`
	PlacementsPeakToMeanP95 *float64 `json:"placements_peak_to_mean_p95"`
	PlacementsCV            *float64 `json:"placements_cv"`
	PlacementsCVP5          *float64 `json:"placements_cv_p5"`
	PlacementsCVP95         *float64 `json:"placements_cv_p95"`
	TheoryPeakToMean        *float64 `json:"theory_peak_to_mean"`
	TheoryCV                *float64 `json:"theory_cv"`
	LoadFactor              *float64 `json:"load_factor"`
	KeyLoadOverBound        *float64 `json:"key_load_over_bound"`
	KeyLoadOverBoundLo      *float64 `json:"key_load_over_bound_lo"`
	KeyLoadOverBoundHi      *float64 `json:"key_load_over_bound_hi"`
	PartitionLoadOverBound  *float64 `json:"partition_load_over_bound"`
	NoiseMethod             string   `json:"noise_method"` // "analytic" or "simulated": how NoisePeakToMean was obtained
	// The bytes of a trace's objects per node (a trace with sizes only;
	// nil, and BusiestNode empty, otherwise): see the package doc.
	ObjectBytes     *float64 `json:"object_bytes"`
	BusiestNode     string   `json:"busiest_node"`
	BusiestBytes    *float64 `json:"busiest_bytes"`
	BytesPeakToMean *float64 `json:"bytes_peak_to_mean"`
	BytesCV         *float64 `json:"bytes_cv"`
	BytesSampleRate *float64 `json:"bytes_sample_rate"`
	Config          `json:"config"`
	Shares          []Share        `json:"shares"`
	Samples         []SpreadSample `json:"samples"`
}

func (Spread) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "nodes", "keys", "sets", "seed",
		"min_share", "min_share_lo", "min_share_hi", "max_share", "max_share_lo", "max_share_hi",
		"peak_to_mean", "peak_to_mean_lo", "peak_to_mean_hi", "cv", "cv_lo", "cv_hi",
		"noise_peak_to_mean", "noise_cv", "exact_peak_to_mean", "exact_cv",
		"exact_min_share", "exact_max_share",
		"~eps", "~partitions", "~key_file", "~go_version", "~commit",
		"~table_size", "~probes", "~capacity",
		"placement", "label",
		"placements", "placements_peak_to_mean", "placements_peak_to_mean_p5", "placements_peak_to_mean_p95",
		"placements_cv", "placements_cv_p5", "placements_cv_p95",
		"theory_peak_to_mean", "theory_cv",
		"load_factor", "key_load_over_bound", "key_load_over_bound_lo", "key_load_over_bound_hi", "partition_load_over_bound",
		"~?topology", "~?domain", "noise_method",
		"?object_bytes", "?busiest_node", "?busiest_bytes", "?bytes_peak_to_mean", "?bytes_cv", "?bytes_sample_rate",
	}
}

// peakToMeanTop returns W / the smallest weight of the nodes of r's
// shares (JSON rows carry them), and false for a row without shares.
func (r Spread) peakToMeanTop() (float64, bool) {
	if len(r.Shares) == 0 {
		return 0, false
	}
	total, lightest := 0.0, r.Shares[0].Weight
	for _, s := range r.Shares {
		total += s.Weight
		lightest = min(lightest, s.Weight)
	}
	if !(lightest > 0) || math.IsInf(total/lightest, 0) {
		return 0, false
	}
	return total / lightest, true
}

// check: the layouts' percentiles do not cross (their mean may lie
// outside them: bounded loads put most layouts at the bound exactly).
func (r Spread) check() error {
	for _, p := range []struct {
		col     string
		p5, p95 *float64
	}{{"placements_peak_to_mean_p5", r.PlacementsPeakToMeanP5, r.PlacementsPeakToMeanP95}, {"placements_cv_p5", r.PlacementsCVP5, r.PlacementsCVP95}} {
		if p.p5 != nil && p.p95 != nil && *p.p5 > *p.p95 {
			return columnErr(p.col, "%v above the 95th percentile %v", *p.p5, *p.p95)
		}
	}
	return nil
}

// The benchmark format of a spread result, one line per key set:
//
//	BenchmarkSpread/algo=ring/nodes=10/vnodes=160 1 1.04 peak/mean 0.021 cv 0.098 min-share 0.104 max-share 1.009 noise-peak/mean 0.0095 noise-cv 1.03 exact-peak/mean 0.019 exact-cv
//
// The vnodes part appears for algorithms that use it (catalog.UsesVNodes).
// The noise floor and exact-* metrics are deterministic and declared
// exact; exact-* appear only for placers with exact shares.
func (r Spread) benchName() string {
	name := fmt.Sprintf("Spread/algo=%s/nodes=%d", r.Algo, r.Nodes)
	if catalog.UsesVNodes(r.Algo) {
		name += "/vnodes=" + strconv.Itoa(r.VNodes)
	}
	return name
}

func (r Spread) benchLines() [][]benchfmt.Value {
	var out [][]benchfmt.Value
	for _, s := range r.Samples {
		vals := []benchfmt.Value{
			{Value: s.PeakToMean, Unit: "peak/mean"},
			{Value: s.CV, Unit: "cv"},
			{Value: s.MinShare, Unit: "min-share"},
			{Value: s.MaxShare, Unit: "max-share"},
			{Value: r.NoisePeakToMean, Unit: "noise-peak/mean"},
			{Value: r.NoiseCV, Unit: "noise-cv"},
		}
		if r.ExactPeakToMean != nil {
			vals = append(vals, benchfmt.Value{Value: *r.ExactPeakToMean, Unit: "exact-peak/mean"}, benchfmt.Value{Value: *r.ExactCV, Unit: "exact-cv"})
		}
		out = append(out, vals)
	}
	return out
}

func (r Spread) exactUnits() []string {
	if r.ExactPeakToMean != nil {
		return []string{"noise-peak/mean", "noise-cv", "exact-peak/mean", "exact-cv"}
	}
	return []string{"noise-peak/mean", "noise-cv"}
}

// ShareRow is one node of a spread result: one row of weights.csv
// (chbench spread -shares), the run and membership size beside the node's
// [Share].
type ShareRow struct {
	Nodes  int `json:"nodes"`
	Share      // the node
	Config `json:"config"`
}

func (ShareRow) columns() []string {
	return []string{
		"algo", "hash", "vnodes", "nodes", "keys", "sets", "seed",
		"id", "weight", "weight_share", "share", "share_lo", "share_hi", "share_error", "exact_share", "~?topology", "~?domain",
	}
}

// SharesOf returns the per-node rows of rs: for each result in order, one
// [ShareRow] per node of its Shares.
func SharesOf(rs []Spread) []ShareRow {
	var out []ShareRow
	for _, r := range rs {
		for _, s := range r.Shares {
			out = append(out, ShareRow{Nodes: r.Nodes, Share: s, Config: r.Config})
		}
	}
	return out
}
