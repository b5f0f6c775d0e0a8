package analysis

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"golang.org/x/perf/benchfmt"

	"github.com/chbench/chbench/algorithms/catalog"
)

// MoveCSVHeader is the movement CSV header. Its first 17 columns are a
// contract with the plots package; columns after them may be appended.
var MoveCSVHeader = []string{
	"algo", "hash", "vnodes", "op", "from", "to", "keys", "sets", "seed",
	"moved_frac", "moved_frac_lo", "moved_frac_hi", "ideal_frac", "moved_over_ideal",
	"collateral_frac", "collateral_frac_lo", "collateral_frac_hi",
	"net_moved_frac", "net_moved_frac_lo", "net_moved_frac_hi",
	"steps", "eps", "partitions", "key_file", "go_version", "commit",
	"placement", "label", "expected_moves",
}

// SpreadCSVHeader is the spread CSV header. Its first 23 columns are a
// contract with the plots package; columns after them may be appended.
var SpreadCSVHeader = []string{
	"algo", "hash", "vnodes", "nodes", "keys", "sets", "seed",
	"min_share", "min_share_lo", "min_share_hi", "max_share", "max_share_lo", "max_share_hi",
	"peak_to_mean", "peak_to_mean_lo", "peak_to_mean_hi", "cv", "cv_lo", "cv_hi",
	"noise_peak_to_mean", "noise_cv", "exact_peak_to_mean", "exact_cv",
	"exact_min_share", "exact_max_share",
	"eps", "partitions", "key_file", "go_version", "commit",
	"placement", "label",
	"placements", "placements_peak_to_mean", "placements_peak_to_mean_p5", "placements_peak_to_mean_p95",
	"placements_cv", "placements_cv_p5", "placements_cv_p95",
	"theory_peak_to_mean", "theory_cv",
	"load_factor", "key_load_over_bound", "key_load_over_bound_lo", "key_load_over_bound_hi", "partition_load_over_bound",
}

// SharesCSVHeader is the header of the per-node share CSV (one row per node
// of each spread result): share_error = share - weight_share.
var SharesCSVHeader = []string{
	"algo", "hash", "vnodes", "nodes", "keys", "sets", "seed",
	"id", "weight", "weight_share", "share", "share_lo", "share_hi", "share_error", "exact_share",
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
func itoa(x int) string     { return strconv.Itoa(x) }
func utoa(x uint64) string  { return strconv.FormatUint(x, 10) }

func optf(x *float64) string {
	if x == nil {
		return ""
	}
	return ftoa(*x)
}

func est(e Estimate) []string { return []string{ftoa(e.Mean), ftoa(e.Lo), ftoa(e.Hi)} }

func flat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// WriteMoveCSV writes rs as CSV with MoveCSVHeader, one row per result.
// Floats use the shortest representation that reads back exactly.
func WriteMoveCSV(w io.Writer, rs []*MoveResult) error {
	cw := csv.NewWriter(w)
	cw.Write(MoveCSVHeader)
	for _, r := range rs {
		c := r.Config
		cw.Write(flat(
			[]string{c.Algo, c.Hash, itoa(c.VNodes), r.Op, itoa(r.From), itoa(r.To), itoa(c.Keys), itoa(c.Sets), utoa(c.Seed)},
			est(r.Moved), []string{ftoa(r.Ideal), ftoa(r.MovedOverIdeal)}, est(r.Collateral), est(r.Net),
			[]string{itoa(r.Steps), ftoa(c.Eps), itoa(c.Partitions), c.KeyFile, c.GoVersion, c.Commit},
			[]string{c.Placement, r.Label, ftoa(r.ExpectedMoves)},
		))
	}
	cw.Flush()
	return cw.Error()
}

func exactField(r *SpreadResult, f func(Balance) float64) *float64 {
	if r.Exact == nil {
		return nil
	}
	x := f(*r.Exact)
	return &x
}

// WriteSpreadCSV writes rs as CSV with SpreadCSVHeader, one row per result;
// the exact_* columns are empty when the placer has no exact shares.
func WriteSpreadCSV(w io.Writer, rs []*SpreadResult) error {
	cw := csv.NewWriter(w)
	cw.Write(SpreadCSVHeader)
	for _, r := range rs {
		c := r.Config
		cw.Write(flat(
			[]string{c.Algo, c.Hash, itoa(c.VNodes), itoa(r.Nodes), itoa(c.Keys), itoa(c.Sets), utoa(c.Seed)},
			est(r.MinShare), est(r.MaxShare), est(r.PeakToMean), est(r.CV),
			[]string{ftoa(r.NoisePeakToMean), ftoa(r.NoiseCV),
				optf(exactField(r, func(b Balance) float64 { return b.PeakToMean })),
				optf(exactField(r, func(b Balance) float64 { return b.CV })),
				optf(exactField(r, func(b Balance) float64 { return b.MinShare })),
				optf(exactField(r, func(b Balance) float64 { return b.MaxShare })),
				ftoa(c.Eps), itoa(c.Partitions), c.KeyFile, c.GoVersion, c.Commit},
			[]string{c.Placement, r.Label}, layoutCells(r.Layouts), []string{optf(r.TheoryPeakToMean), optf(r.TheoryCV)},
			boundCells(r.Bound),
		))
	}
	cw.Flush()
	return cw.Error()
}

// layoutCells returns the placements_* cells of a spread row (empty
// without layout draws).
func layoutCells(l *LayoutSpread) []string {
	if l == nil {
		return make([]string, 7)
	}
	return []string{itoa(l.Draws), ftoa(l.PeakToMean.Mean), ftoa(l.PeakToMean.P5), ftoa(l.PeakToMean.P95),
		ftoa(l.CV.Mean), ftoa(l.CV.P5), ftoa(l.CV.P95)}
}

// boundCells returns the load-bound cells of a spread row (empty without a
// bound).
func boundCells(b *LoadBound) []string {
	if b == nil {
		return make([]string, 5)
	}
	return flat([]string{ftoa(b.LoadFactor)}, est(b.KeyRatio), []string{ftoa(b.PartitionRatio)})
}

// WriteSharesCSV writes the per-node shares of rs with SharesCSVHeader.
func WriteSharesCSV(w io.Writer, rs []*SpreadResult) error {
	cw := csv.NewWriter(w)
	cw.Write(SharesCSVHeader)
	for _, r := range rs {
		c := r.Config
		for _, s := range r.Shares {
			cw.Write(flat(
				[]string{c.Algo, c.Hash, itoa(c.VNodes), itoa(r.Nodes), itoa(c.Keys), itoa(c.Sets), utoa(c.Seed),
					s.ID, ftoa(s.Weight), ftoa(s.WeightShare)},
				est(s.Share), []string{ftoa(s.Share.Mean - s.WeightShare), optf(s.Exact)},
			))
		}
	}
	cw.Flush()
	return cw.Error()
}

type moveJSON struct {
	Algo             string       `json:"algo"`
	Hash             string       `json:"hash"`
	VNodes           int          `json:"vnodes"`
	Op               string       `json:"op"`
	From             int          `json:"from"`
	To               int          `json:"to"`
	Keys             int          `json:"keys"`
	Sets             int          `json:"sets"`
	Seed             uint64       `json:"seed"`
	MovedFrac        float64      `json:"moved_frac"`
	MovedFracLo      float64      `json:"moved_frac_lo"`
	MovedFracHi      float64      `json:"moved_frac_hi"`
	IdealFrac        float64      `json:"ideal_frac"`
	MovedOverIdeal   float64      `json:"moved_over_ideal"`
	CollateralFrac   float64      `json:"collateral_frac"`
	CollateralFracLo float64      `json:"collateral_frac_lo"`
	CollateralFracHi float64      `json:"collateral_frac_hi"`
	NetMovedFrac     float64      `json:"net_moved_frac"`
	NetMovedFracLo   float64      `json:"net_moved_frac_lo"`
	NetMovedFracHi   float64      `json:"net_moved_frac_hi"`
	Steps            int          `json:"steps"`
	Placement        string       `json:"placement"`
	Label            string       `json:"label"`
	ExpectedMoves    float64      `json:"expected_moves"`
	Config           RunConfig    `json:"config"`
	Samples          []MoveSample `json:"samples"`
}

type balanceJSON struct {
	MinShare   float64 `json:"min_share"`
	MaxShare   float64 `json:"max_share"`
	PeakToMean float64 `json:"peak_to_mean"`
	CV         float64 `json:"cv"`
}

type shareJSON struct {
	NodeShare
	Share   float64 `json:"share"`
	ShareLo float64 `json:"share_lo"`
	ShareHi float64 `json:"share_hi"`
	Error   float64 `json:"share_error"`
}

type layoutJSON struct {
	Draws         int     `json:"placements"`
	PeakToMean    float64 `json:"placements_peak_to_mean"`
	PeakToMeanP5  float64 `json:"placements_peak_to_mean_p5"`
	PeakToMeanP95 float64 `json:"placements_peak_to_mean_p95"`
	CV            float64 `json:"placements_cv"`
	CVP5          float64 `json:"placements_cv_p5"`
	CVP95         float64 `json:"placements_cv_p95"`
}

type boundJSON struct {
	LoadFactor     float64 `json:"load_factor"`
	KeyRatio       float64 `json:"key_load_over_bound"`
	KeyRatioLo     float64 `json:"key_load_over_bound_lo"`
	KeyRatioHi     float64 `json:"key_load_over_bound_hi"`
	PartitionRatio float64 `json:"partition_load_over_bound"`
}

type spreadJSON struct {
	Algo            string        `json:"algo"`
	Hash            string        `json:"hash"`
	VNodes          int           `json:"vnodes"`
	Nodes           int           `json:"nodes"`
	Keys            int           `json:"keys"`
	Sets            int           `json:"sets"`
	Seed            uint64        `json:"seed"`
	MinShare        float64       `json:"min_share"`
	MinShareLo      float64       `json:"min_share_lo"`
	MinShareHi      float64       `json:"min_share_hi"`
	MaxShare        float64       `json:"max_share"`
	MaxShareLo      float64       `json:"max_share_lo"`
	MaxShareHi      float64       `json:"max_share_hi"`
	PeakToMean      float64       `json:"peak_to_mean"`
	PeakToMeanLo    float64       `json:"peak_to_mean_lo"`
	PeakToMeanHi    float64       `json:"peak_to_mean_hi"`
	CV              float64       `json:"cv"`
	CVLo            float64       `json:"cv_lo"`
	CVHi            float64       `json:"cv_hi"`
	NoisePeakToMean float64       `json:"noise_peak_to_mean"`
	NoiseCV         float64       `json:"noise_cv"`
	ExactPeakToMean *float64      `json:"exact_peak_to_mean"`
	ExactCV         *float64      `json:"exact_cv"`
	ExactMinShare   *float64      `json:"exact_min_share"`
	ExactMaxShare   *float64      `json:"exact_max_share"`
	Placement       string        `json:"placement"`
	Label           string        `json:"label"`
	Placements      *layoutJSON   `json:"placements"`
	TheoryPeak      *float64      `json:"theory_peak_to_mean"`
	TheoryCV        *float64      `json:"theory_cv"`
	Bound           *boundJSON    `json:"load_bound"`
	Config          RunConfig     `json:"config"`
	Shares          []shareJSON   `json:"shares"`
	Samples         []balanceJSON `json:"samples"`
}

// WriteMoveJSON writes rs as an indented JSON array of objects whose field
// names are the CSV column names (MoveCSVHeader), plus "config" (the
// RunConfig) and "samples" (the per-set fractions).
func WriteMoveJSON(w io.Writer, rs []*MoveResult) error {
	out := make([]moveJSON, 0, len(rs))
	for _, r := range rs {
		c := r.Config
		out = append(out, moveJSON{
			Algo: c.Algo, Hash: c.Hash, VNodes: c.VNodes, Op: r.Op, From: r.From, To: r.To,
			Keys: c.Keys, Sets: c.Sets, Seed: c.Seed,
			MovedFrac: r.Moved.Mean, MovedFracLo: r.Moved.Lo, MovedFracHi: r.Moved.Hi,
			IdealFrac: r.Ideal, MovedOverIdeal: r.MovedOverIdeal,
			CollateralFrac: r.Collateral.Mean, CollateralFracLo: r.Collateral.Lo, CollateralFracHi: r.Collateral.Hi,
			NetMovedFrac: r.Net.Mean, NetMovedFracLo: r.Net.Lo, NetMovedFracHi: r.Net.Hi,
			Steps: r.Steps, Placement: c.Placement, Label: r.Label, ExpectedMoves: r.ExpectedMoves, Config: c, Samples: r.Samples,
		})
	}
	return writeJSON(w, out)
}

// WriteSpreadJSON writes rs as an indented JSON array of objects whose
// field names are the CSV column names (SpreadCSVHeader; exact_* are null
// without exact shares), plus "config", "shares" (per node) and "samples"
// (per set).
func WriteSpreadJSON(w io.Writer, rs []*SpreadResult) error {
	out := make([]spreadJSON, 0, len(rs))
	for _, r := range rs {
		c := r.Config
		j := spreadJSON{
			Algo: c.Algo, Hash: c.Hash, VNodes: c.VNodes, Nodes: r.Nodes, Keys: c.Keys, Sets: c.Sets, Seed: c.Seed,
			MinShare: r.MinShare.Mean, MinShareLo: r.MinShare.Lo, MinShareHi: r.MinShare.Hi,
			MaxShare: r.MaxShare.Mean, MaxShareLo: r.MaxShare.Lo, MaxShareHi: r.MaxShare.Hi,
			PeakToMean: r.PeakToMean.Mean, PeakToMeanLo: r.PeakToMean.Lo, PeakToMeanHi: r.PeakToMean.Hi,
			CV: r.CV.Mean, CVLo: r.CV.Lo, CVHi: r.CV.Hi,
			NoisePeakToMean: r.NoisePeakToMean, NoiseCV: r.NoiseCV,
			ExactPeakToMean: exactField(r, func(b Balance) float64 { return b.PeakToMean }),
			ExactCV:         exactField(r, func(b Balance) float64 { return b.CV }),
			ExactMinShare:   exactField(r, func(b Balance) float64 { return b.MinShare }),
			ExactMaxShare:   exactField(r, func(b Balance) float64 { return b.MaxShare }),
			Placement:       c.Placement, Label: r.Label,
			TheoryPeak: r.TheoryPeakToMean, TheoryCV: r.TheoryCV,
			Config: c,
		}
		if l := r.Layouts; l != nil {
			j.Placements = &layoutJSON{Draws: l.Draws, PeakToMean: l.PeakToMean.Mean, PeakToMeanP5: l.PeakToMean.P5, PeakToMeanP95: l.PeakToMean.P95,
				CV: l.CV.Mean, CVP5: l.CV.P5, CVP95: l.CV.P95}
		}
		if b := r.Bound; b != nil {
			j.Bound = &boundJSON{LoadFactor: b.LoadFactor, KeyRatio: b.KeyRatio.Mean, KeyRatioLo: b.KeyRatio.Lo, KeyRatioHi: b.KeyRatio.Hi, PartitionRatio: b.PartitionRatio}
		}
		for _, s := range r.Shares {
			j.Shares = append(j.Shares, shareJSON{NodeShare: s, Share: s.Share.Mean, ShareLo: s.Share.Lo, ShareHi: s.Share.Hi, Error: s.Share.Mean - s.WeightShare})
		}
		for _, b := range r.Samples {
			j.Samples = append(j.Samples, balanceJSON(b))
		}
		out = append(out, j)
	}
	return writeJSON(w, out)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 2, 64) + "%" }

func ci(e Estimate, f func(float64) string) string {
	return f(e.Mean) + " [" + f(e.Lo) + ", " + f(e.Hi) + "]"
}

func f4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// WriteMoveTable writes rs as an aligned text table for terminals:
// fractions in percent with their 95% intervals in brackets.
func WriteMoveTable(w io.Writer, rs []*MoveResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\top\tfrom\tto\tkeys\tmoved [95% CI]\tideal\tmoved/ideal\tcollateral [95% CI]\tnet moved [95% CI]")
	labels := tableLabels(rs, func(r *MoveResult) (RunConfig, string) { return r.Config, r.Label })
	for i, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Op, r.From, r.To, r.Config.Keys,
			ci(r.Moved, pct), pct(r.Ideal), f4(r.MovedOverIdeal), ci(r.Collateral, pct), ci(r.Net, pct))
	}
	return tw.Flush()
}

// WriteSpreadTable writes rs as an aligned text table for terminals: shares
// in percent, peak-to-mean and cv as ratios, 95% intervals in brackets, the
// noise floor and the exact values ("-" without exact shares).
func WriteSpreadTable(w io.Writer, rs []*SpreadResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tnodes\tmin share [95% CI]\tmax share [95% CI]\tpeak/mean [95% CI]\tcv [95% CI]\tnoise peak/mean\tnoise cv\texact peak/mean\texact cv\tplacements peak/mean [p5, p95]\ttheory peak/mean\ttheory cv")
	labels := tableLabels(rs, func(r *SpreadResult) (RunConfig, string) { return r.Config, r.Label })
	for i, r := range rs {
		ep, ec, lp, tp, tc := "-", "-", "-", "-", "-"
		if r.Exact != nil {
			ep, ec = f4(r.Exact.PeakToMean), f4(r.Exact.CV)
		}
		if l := r.Layouts; l != nil {
			lp = fmt.Sprintf("%s [%s, %s] (%d)", f4(l.PeakToMean.Mean), f4(l.PeakToMean.P5), f4(l.PeakToMean.P95), l.Draws)
		}
		if r.TheoryPeakToMean != nil {
			tp, tc = f4(*r.TheoryPeakToMean), f4(*r.TheoryCV)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", labels[i], r.Nodes,
			ci(r.MinShare, pct), ci(r.MaxShare, pct), ci(r.PeakToMean, f4), ci(r.CV, f4),
			f4(r.NoisePeakToMean), f4(r.NoiseCV), ep, ec, lp, tp, tc)
	}
	return tw.Flush()
}

// tableLabels returns the "algo" cell of each result (whose RunConfig and
// label config extracts) in a table: the
// algorithm's label (name and variant; the name when the label is empty), followed by the hash and the virtual-node count when they
// vary among the results (a sweep) and the algorithm uses them (slots hash
// with CRC-16 whatever the setting; only ring and bounded read vnodes).
func tableLabels[R any](rs []R, config func(R) (RunConfig, string)) []string {
	cfgs := make([]RunConfig, len(rs))
	names := make([]string, len(rs))
	for i, r := range rs {
		cfgs[i], names[i] = config(r)
		if names[i] == "" {
			names[i] = cfgs[i].Algo
		}
	}
	hashes, vnodes := map[string]bool{}, map[int]bool{}
	for _, c := range cfgs {
		if catalog.UsesHash(c.Algo) {
			hashes[c.Hash] = true
		}
		if usesVNodes(c.Algo) {
			vnodes[c.VNodes] = true
		}
	}
	out := make([]string, len(cfgs))
	for i, c := range cfgs {
		out[i] = names[i]
		if len(hashes) > 1 && catalog.UsesHash(c.Algo) {
			out[i] += " " + c.Hash
		}
		if len(vnodes) > 1 && usesVNodes(c.Algo) {
			out[i] += " vnodes=" + itoa(c.VNodes)
		}
	}
	return out
}

// usesVNodes reports whether the algorithm reads the vnodes setting.
func usesVNodes(algo string) bool { return catalog.UsesVNodes(algo) }

// benchConfig returns the file configuration lines of a result: hash,
// vnodes, eps, partitions, keys, sets, go and commit, plus keyfile when
// set. The scenario lives in the benchmark name and the seed nowhere, so
// that two runs of one configuration on different seeds land in one
// benchstat table, while results of different algorithm settings (a vnodes
// sweep) never merge into one row.
func benchConfig(c RunConfig) []benchfmt.Config {
	kv := [][2]string{{"hash", c.Hash}, {"vnodes", itoa(c.VNodes)}, {"eps", ftoa(c.Eps)}, {"partitions", itoa(c.Partitions)},
		{"keys", itoa(c.Keys)}, {"sets", itoa(c.Sets)}, {"placement", c.Placement}}
	if c.KeyFile != "" {
		kv = append(kv, [2]string{"keyfile", c.KeyFile})
	}
	kv = append(kv, [2]string{"go", c.GoVersion}, [2]string{"commit", c.Commit})
	out := make([]benchfmt.Config, len(kv))
	for i, p := range kv {
		out[i] = benchfmt.Config{Key: p[0], Value: []byte(p[1]), File: true}
	}
	return out
}

// writeUnits declares the exact (deterministic, not sampled) units.
func writeUnits(bw *benchfmt.Writer, units ...string) error {
	for _, u := range units {
		m := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u, Key: "assume"}, OrigUnit: u, Value: "exact"}
		if err := bw.Write(m); err != nil {
			return err
		}
	}
	return nil
}

// WriteMoveBench writes rs in the Go benchmark format, one line per key set
// so that benchstat sees S samples:
//
//	BenchmarkMove/algo=ring/op=add/from=10/to=11 1 0.091 moved-frac 0.91 moved/ideal 0 collateral-frac 0.091 net-moved-frac 0.0909 ideal-frac
//
// ideal-frac is declared exact ("Unit ideal-frac assume=exact"); the other
// metrics are sampled. File configuration lines (hash, vnodes, eps,
// partitions, keys, sets, keyfile, go, commit) precede the results they
// apply to. Runs that differ in a
// configuration line are split into separate benchstat tables; compare them
// with e.g. `benchstat -col hash a.txt b.txt` or `-ignore commit`.
func WriteMoveBench(w io.Writer, rs []*MoveResult) error {
	bw := benchfmt.NewWriter(w)
	if err := writeUnits(bw, "ideal-frac"); err != nil {
		return err
	}
	for _, r := range rs {
		name := fmt.Sprintf("Move/algo=%s/op=%s/from=%d/to=%d", r.Config.Algo, r.Op, r.From, r.To)
		for _, s := range r.Samples {
			res := &benchfmt.Result{Config: benchConfig(r.Config), Name: benchfmt.Name(name), Iters: 1, Values: []benchfmt.Value{
				{Value: s.Moved, Unit: "moved-frac"},
				{Value: s.Moved / r.Ideal, Unit: "moved/ideal"},
				{Value: s.Collateral, Unit: "collateral-frac"},
				{Value: s.Net, Unit: "net-moved-frac"},
				{Value: r.Ideal, Unit: "ideal-frac"},
			}}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteSpreadBench writes rs in the Go benchmark format, one line per key
// set:
//
//	BenchmarkSpread/algo=ring/nodes=10/vnodes=160 1 1.04 peak/mean 0.021 cv 0.098 min-share 0.104 max-share 1.009 noise-peak/mean 0.0095 noise-cv 1.03 exact-peak/mean 0.019 exact-cv
//
// The vnodes part appears for algorithms that use it (ring, bounded). The
// noise floor and exact-* metrics are deterministic and declared with
// "Unit ... assume=exact" lines; exact-* appear only for placers with
// exact shares. Configuration lines as in WriteMoveBench.
func WriteSpreadBench(w io.Writer, rs []*SpreadResult) error {
	bw := benchfmt.NewWriter(w)
	units := []string{"noise-peak/mean", "noise-cv"}
	for _, r := range rs {
		if r.Exact != nil {
			units = append(units, "exact-peak/mean", "exact-cv")
			break
		}
	}
	if err := writeUnits(bw, units...); err != nil {
		return err
	}
	for _, r := range rs {
		name := fmt.Sprintf("Spread/algo=%s/nodes=%d", r.Config.Algo, r.Nodes)
		if usesVNodes(r.Config.Algo) {
			name += "/vnodes=" + itoa(r.Config.VNodes)
		}
		for _, s := range r.Samples {
			vals := []benchfmt.Value{
				{Value: s.PeakToMean, Unit: "peak/mean"},
				{Value: s.CV, Unit: "cv"},
				{Value: s.MinShare, Unit: "min-share"},
				{Value: s.MaxShare, Unit: "max-share"},
				{Value: r.NoisePeakToMean, Unit: "noise-peak/mean"},
				{Value: r.NoiseCV, Unit: "noise-cv"},
			}
			if r.Exact != nil {
				vals = append(vals, benchfmt.Value{Value: r.Exact.PeakToMean, Unit: "exact-peak/mean"}, benchfmt.Value{Value: r.Exact.CV, Unit: "exact-cv"})
			}
			res := &benchfmt.Result{Config: benchConfig(r.Config), Name: benchfmt.Name(name), Iters: 1, Values: vals}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}
