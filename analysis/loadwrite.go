package analysis

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"golang.org/x/perf/benchfmt"
)

// LoadCSVHeader is the request-load CSV header (chbench load -format
// csv). The plots package reads its columns by name:
//   - algo: the placement (catalog name; bounded-partition, bounded-key,
//     bounded-request for the three forms of bounded loads);
//   - zipf: the exponent s (empty for a request log); keys: N, the keys
//     the law spans (for a log: its lines); requests: R per stream;
//     sets: independent request streams;
//   - peak_to_mean, cv, max_share (+ _lo, _hi): request-load statistics,
//     mean over streams with 95% CI; max_share is the busiest node's
//     fraction of requests;
//   - hot_share (+ _lo, _hi): the hottest key's fraction of requests
//     (1/H(N, s), the same in every stream, for a Zipf law);
//   - floor: the hot-key floor max(1, hot_share * W / w_max), below which no
//     placement of whole keys can bring peak_to_mean;
//   - hot_key_node: the node serving most of the hottest key's requests in
//     stream 0; hot_is_busiest: fraction of streams where it is the busiest;
//   - away_frac (+ _lo, _hi): fraction of requests served away from their
//     first-choice node; max_load_over_cap: largest load / capacity of a
//     bounded form (empty for the others), <= 1;
//   - in_flight: K of bounded-request's service model (0 for the others).
var LoadCSVHeader = []string{
	"algo", "hash", "vnodes", "nodes", "zipf", "keys", "requests", "sets", "seed",
	"peak_to_mean", "peak_to_mean_lo", "peak_to_mean_hi", "cv", "cv_lo", "cv_hi",
	"max_share", "max_share_lo", "max_share_hi", "hot_share", "hot_share_lo", "hot_share_hi",
	"floor", "hot_key_node", "hot_is_busiest", "away_frac", "away_frac_lo", "away_frac_hi",
	"max_load_over_cap", "in_flight", "eps", "partitions", "key_kind", "key_file", "go_version", "commit",
}

func zipfCell(s float64) string {
	if math.IsNaN(s) {
		return ""
	}
	return ftoa(s)
}

// WriteLoadCSV writes rs as CSV with LoadCSVHeader, one row per result.
func WriteLoadCSV(w io.Writer, rs []*LoadResult) error {
	cw := csv.NewWriter(w)
	cw.Write(LoadCSVHeader)
	for _, r := range rs {
		c := r.Config
		cw.Write(flat(
			[]string{r.Placement, c.Hash, itoa(c.VNodes), itoa(r.Nodes), zipfCell(r.Zipf), itoa(c.Keys), itoa(r.Requests), itoa(c.Sets), utoa(c.Seed)},
			est(r.PeakToMean), est(r.CV), est(r.MaxShare), est(r.HotShare),
			[]string{ftoa(r.Floor), r.HotNode, ftoa(r.HotIsBusiest)}, est(r.Away),
			[]string{optf(r.MaxLoadOverCap), itoa(r.InFlight), ftoa(c.Eps), itoa(c.Partitions), c.KeyKind, c.KeyFile, c.GoVersion, c.Commit},
		))
	}
	cw.Flush()
	return cw.Error()
}

type loadJSON struct {
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
	Config         RunConfig    `json:"config"`
	Samples        []LoadSample `json:"samples"`
}

// WriteLoadJSON writes rs as an indented JSON array of objects whose field
// names are the CSV column names (LoadCSVHeader; zipf is null for a
// request log, max_load_over_cap null for placements without a bound),
// plus "config" and "samples" (per stream).
func WriteLoadJSON(w io.Writer, rs []*LoadResult) error {
	out := make([]loadJSON, 0, len(rs))
	for _, r := range rs {
		c := r.Config
		var z *float64
		if !math.IsNaN(r.Zipf) {
			x := r.Zipf
			z = &x
		}
		out = append(out, loadJSON{
			Algo: r.Placement, Hash: c.Hash, VNodes: c.VNodes, Nodes: r.Nodes, Zipf: z, Keys: c.Keys, Requests: r.Requests,
			Sets: c.Sets, Seed: c.Seed,
			PeakToMean: r.PeakToMean.Mean, PeakToMeanLo: r.PeakToMean.Lo, PeakToMeanHi: r.PeakToMean.Hi,
			CV: r.CV.Mean, CVLo: r.CV.Lo, CVHi: r.CV.Hi,
			MaxShare: r.MaxShare.Mean, MaxShareLo: r.MaxShare.Lo, MaxShareHi: r.MaxShare.Hi,
			HotShare: r.HotShare.Mean, HotShareLo: r.HotShare.Lo, HotShareHi: r.HotShare.Hi,
			Floor: r.Floor, HotKeyNode: r.HotNode, HotIsBusiest: r.HotIsBusiest,
			AwayFrac: r.Away.Mean, AwayFracLo: r.Away.Lo, AwayFracHi: r.Away.Hi,
			MaxLoadOverCap: r.MaxLoadOverCap, InFlight: r.InFlight, Config: c, Samples: r.Samples,
		})
	}
	return writeJSON(w, out)
}

// WriteLoadTable writes rs as an aligned text table: peak-to-mean request
// load with its 95% interval beside the hot-key floor, the busiest node's
// and the hottest key's share of requests in percent, where the hottest
// key lands, the fraction served away from the first choice and the
// largest load / capacity of the bounded forms ("-" for the others).
func WriteLoadTable(w io.Writer, rs []*LoadResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\tzipf\tpeak/mean [95% CI]\thot-key floor\tcv [95% CI]\tbusiest node\thot key\thot key node (busiest)\taway [95% CI]\tmax load/cap")
	for _, r := range rs {
		z := zipfCell(r.Zipf)
		if z == "" {
			z = "log"
		}
		mc := "-"
		if r.MaxLoadOverCap != nil {
			mc = f4(*r.MaxLoadOverCap)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s (%s)\t%s\t%s\n", r.Placement, r.Nodes, z,
			ci(r.PeakToMean, f4), f4(r.Floor), ci(r.CV, f4), pct(r.MaxShare.Mean), pct(r.HotShare.Mean),
			r.HotNode, pct(r.HotIsBusiest), ci(r.Away, pct), mc)
	}
	return tw.Flush()
}

// WriteLoadBench writes rs in the Go benchmark format, one line per
// stream:
//
//	BenchmarkLoad/algo=ring/nodes=100/zipf=0.99 1 7.1 peak/mean 0.9 cv 0.071 max-share 0.069 hot-share 0 away-frac 6.9 floor
//
// zipf=log for a request log. floor is declared exact; the rest are
// sampled. Configuration lines as in WriteMoveBench.
func WriteLoadBench(w io.Writer, rs []*LoadResult) error {
	bw := benchfmt.NewWriter(w)
	if err := writeUnits(bw, "floor"); err != nil {
		return err
	}
	for _, r := range rs {
		z := zipfCell(r.Zipf)
		if z == "" {
			z = "log"
		}
		name := fmt.Sprintf("Load/algo=%s/nodes=%d/zipf=%s", r.Placement, r.Nodes, z)
		for _, s := range r.Samples {
			res := &benchfmt.Result{Config: benchConfig(r.Config), Name: benchfmt.Name(name), Iters: 1, Values: []benchfmt.Value{
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

// BoundedCSVHeader is the bounded-loads CSV header (chbench bounded
// -format csv), one row per variant, eps and Zipf exponent; see
// [BoundedResult] for the meaning of each field. algo is the variant
// (ring, bounded-partition, bounded-key, bounded-request);
// max_load_over_cap and moves_per_cap_* are empty where they do not apply;
// bound_1_over_eps2 is 1/eps^2, the shape of the paper's bound on
// expected moves (its constant is not given).
var BoundedCSVHeader = []string{
	"algo", "hash", "vnodes", "nodes", "eps", "zipf", "keys", "requests", "sets", "seed",
	"max_load_over_cap", "away_frac", "away_frac_lo", "away_frac_hi",
	"peak_to_mean", "peak_to_mean_lo", "peak_to_mean_hi",
	"moved_join_frac", "moved_join_frac_lo", "moved_join_frac_hi", "ideal_join_frac",
	"moved_leave_frac", "moved_leave_frac_lo", "moved_leave_frac_hi", "ideal_leave_frac",
	"moves_per_cap_join", "moves_per_cap_join_lo", "moves_per_cap_join_hi",
	"moves_per_cap_leave", "moves_per_cap_leave_lo", "moves_per_cap_leave_hi",
	"bound_1_over_eps2", "in_flight", "partitions", "key_kind", "go_version", "commit",
}

func nanCell(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return ftoa(x)
}

func optEst(e *Estimate) []string {
	if e == nil {
		return []string{"", "", ""}
	}
	return est(*e)
}

// WriteBoundedCSV writes rs as CSV with BoundedCSVHeader.
func WriteBoundedCSV(w io.Writer, rs []*BoundedResult) error {
	cw := csv.NewWriter(w)
	cw.Write(BoundedCSVHeader)
	for _, r := range rs {
		c := r.Config
		cw.Write(flat(
			[]string{r.Variant, c.Hash, itoa(c.VNodes), itoa(r.Nodes), ftoa(c.Eps), ftoa(r.Zipf), itoa(c.Keys), itoa(r.Requests), itoa(c.Sets), utoa(c.Seed), nanCell(r.MaxLoadOverCap)},
			est(r.Away), est(r.PeakToMean), est(r.MovedJoin), []string{ftoa(r.IdealJoin)}, est(r.MovedLeave), []string{ftoa(r.IdealLeave.Mean)},
			optEst(r.MovesPerCapJoin), optEst(r.MovesPerCapLeave),
			[]string{ftoa(r.Bound), itoa(r.InFlight), itoa(c.Partitions), c.KeyKind, c.GoVersion, c.Commit},
		))
	}
	cw.Flush()
	return cw.Error()
}

type boundedJSON struct {
	Algo             string              `json:"algo"`
	Nodes            int                 `json:"nodes"`
	Eps              float64             `json:"eps"`
	Zipf             float64             `json:"zipf"`
	Requests         int                 `json:"requests"`
	MaxLoadOverCap   *float64            `json:"max_load_over_cap"`
	Away             Estimate            `json:"away_frac"`
	PeakToMean       Estimate            `json:"peak_to_mean"`
	MovedJoin        Estimate            `json:"moved_join_frac"`
	IdealJoin        float64             `json:"ideal_join_frac"`
	MovedLeave       Estimate            `json:"moved_leave_frac"`
	IdealLeave       float64             `json:"ideal_leave_frac"`
	MovesPerCapJoin  *Estimate           `json:"moves_per_cap_join"`
	MovesPerCapLeave *Estimate           `json:"moves_per_cap_leave"`
	Bound            float64             `json:"bound_1_over_eps2"`
	InFlight         int                 `json:"in_flight"`
	Config           RunConfig           `json:"config"`
	Samples          []boundedSampleJSON `json:"samples"`
}

type boundedSampleJSON struct {
	MaxLoadOverCap *float64 `json:"max_load_over_cap"`
	BoundedSample
}

func nanNull(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

// WriteBoundedJSON writes rs as an indented JSON array; estimates are
// objects {"Mean", "Lo", "Hi"}, and the other names are the CSV's.
func WriteBoundedJSON(w io.Writer, rs []*BoundedResult) error {
	out := make([]boundedJSON, 0, len(rs))
	for _, r := range rs {
		m := nanNull(r.MaxLoadOverCap)
		var ss []boundedSampleJSON
		for _, x := range r.Samples {
			ss = append(ss, boundedSampleJSON{nanNull(x.MaxLoadOverCap), x})
		}
		out = append(out, boundedJSON{Algo: r.Variant, Nodes: r.Nodes, Eps: r.Config.Eps, Zipf: r.Zipf, Requests: r.Requests,
			MaxLoadOverCap: m, Away: r.Away, PeakToMean: r.PeakToMean, MovedJoin: r.MovedJoin, IdealJoin: r.IdealJoin,
			MovedLeave: r.MovedLeave, IdealLeave: r.IdealLeave.Mean, MovesPerCapJoin: r.MovesPerCapJoin, MovesPerCapLeave: r.MovesPerCapLeave,
			Bound: r.Bound, InFlight: r.InFlight, Config: r.Config, Samples: ss})
	}
	return writeJSON(w, out)
}

// WriteBoundedTable writes rs as an aligned text table.
func WriteBoundedTable(w io.Writer, rs []*BoundedResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\teps\tzipf\tmax load/cap\taway [95% CI]\tpeak/mean\tjoin moved (ideal)\tleave moved (ideal)\tjoin moves/cap\tleave moves/cap\t1/eps^2")
	for _, r := range rs {
		mc := "-"
		if !math.IsNaN(r.MaxLoadOverCap) {
			mc = f4(r.MaxLoadOverCap)
		}
		cj, cl := "-", "-"
		if r.MovesPerCapJoin != nil {
			cj, cl = ci(*r.MovesPerCapJoin, f4), ci(*r.MovesPerCapLeave, f4)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s (%s)\t%s (%s)\t%s\t%s\t%s\n", r.Variant, r.Nodes, ftoa(r.Config.Eps), ftoa(r.Zipf), mc,
			ci(r.Away, pct), f4(r.PeakToMean.Mean), ci(r.MovedJoin, pct), pct(r.IdealJoin), ci(r.MovedLeave, pct), pct(r.IdealLeave.Mean), cj, cl, ftoa(r.Bound))
	}
	return tw.Flush()
}

// WriteBoundedBench writes rs in the Go benchmark format, one line per
// stream:
//
//	BenchmarkBounded/algo=bounded-key/nodes=100/eps=0.25/zipf=0.99 1 0.98 max-load/cap 0.01 away-frac 1.3 peak/mean 0.012 moved-join-frac 0.011 moved-leave-frac
//
// ideal-join-frac is declared exact. ring rows have no max-load/cap.
func WriteBoundedBench(w io.Writer, rs []*BoundedResult) error {
	bw := benchfmt.NewWriter(w)
	if err := writeUnits(bw, "ideal-join-frac"); err != nil {
		return err
	}
	for _, r := range rs {
		name := fmt.Sprintf("Bounded/algo=%s/nodes=%d/eps=%s/zipf=%s", r.Variant, r.Nodes, ftoa(r.Config.Eps), ftoa(r.Zipf))
		for _, s := range r.Samples {
			var vals []benchfmt.Value
			if !math.IsNaN(s.MaxLoadOverCap) {
				vals = append(vals, benchfmt.Value{Value: s.MaxLoadOverCap, Unit: "max-load/cap"})
			}
			vals = append(vals,
				benchfmt.Value{Value: s.Away, Unit: "away-frac"},
				benchfmt.Value{Value: s.PeakToMean, Unit: "peak/mean"},
				benchfmt.Value{Value: s.MovedJoin, Unit: "moved-join-frac"},
				benchfmt.Value{Value: s.MovedLeave, Unit: "moved-leave-frac"},
				benchfmt.Value{Value: r.IdealJoin, Unit: "ideal-join-frac"})
			res := &benchfmt.Result{Config: benchConfig(r.Config), Name: benchfmt.Name(name), Iters: 1, Values: vals}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}
