package schema

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"

	"github.com/chbench/chbench/algorithms/catalog"
)

// Column names of the results CSV files (and field names of the JSON
// objects); see the package documentation for what each holds.
const (
	ColAlgo             = "algo"
	ColHash             = "hash"
	ColVNodes           = "vnodes"
	ColOp               = "op"
	ColFrom             = "from"
	ColTo               = "to"
	ColKeys             = "keys"
	ColSets             = "sets"
	ColSeed             = "seed"
	ColMovedFrac        = "moved_frac"
	ColMovedFracLo      = "moved_frac_lo"
	ColMovedFracHi      = "moved_frac_hi"
	ColIdealFrac        = "ideal_frac"
	ColMovedOverIdeal   = "moved_over_ideal"
	ColCollateralFrac   = "collateral_frac"
	ColCollateralFracLo = "collateral_frac_lo"
	ColCollateralFracHi = "collateral_frac_hi"
	ColNetMovedFrac     = "net_moved_frac"
	ColNetMovedFracLo   = "net_moved_frac_lo"
	ColNetMovedFracHi   = "net_moved_frac_hi"
	ColSteps            = "steps"
	ColEps              = "eps"
	ColPartitions       = "partitions"
	ColKeyFile          = "key_file"
	ColGoVersion        = "go_version"
	ColCommit           = "commit"
	ColTableSize        = "table_size"
	ColProbes           = "probes"
	ColCapacity         = "capacity"
	ColNodes            = "nodes"
	ColMinShare         = "min_share"
	ColMinShareLo       = "min_share_lo"
	ColMinShareHi       = "min_share_hi"
	ColMaxShare         = "max_share"
	ColMaxShareLo       = "max_share_lo"
	ColMaxShareHi       = "max_share_hi"
	ColPeakToMean       = "peak_to_mean"
	ColPeakToMeanLo     = "peak_to_mean_lo"
	ColPeakToMeanHi     = "peak_to_mean_hi"
	ColCV               = "cv"
	ColCVLo             = "cv_lo"
	ColCVHi             = "cv_hi"
	ColNoisePeakToMean  = "noise_peak_to_mean"
	ColNoiseCV          = "noise_cv"
	ColNoiseMethod      = "noise_method"
	ColExactPeakToMean  = "exact_peak_to_mean"
	ColExactCV          = "exact_cv"
	ColExactMinShare    = "exact_min_share"
	ColExactMaxShare    = "exact_max_share"
	ColID               = "id"
	ColWeight           = "weight"
	ColWeightShare      = "weight_share"
	ColShare            = "share"
	ColShareLo          = "share_lo"
	ColShareHi          = "share_hi"
	ColShareError       = "share_error"
	ColExactShare       = "exact_share"

	// placement: "per-set" or "fixed" (Config.Placement); label: the
	// algorithm and its variant ("bounded (partitions)", "jump
	// (swap-last)"); expected_moves: ideal fraction x keys of one set;
	// placements*: exact peak-to-mean and cv over independent layouts
	// (count, mean, 5th and 95th percentiles); theory_*: expected max of n
	// Gamma(k, k) loads and sqrt((n-1)/(nk+1)) for rings; load_factor,
	// key_load_over_bound (+lo/hi), partition_load_over_bound: bounded
	// loads' max load over ceil(c*m*w/W) on keys and on partitions.
	ColPlacement               = "placement"
	ColLabel                   = "label"
	ColExpectedMoves           = "expected_moves"
	ColPlacements              = "placements"
	ColPlacementsPeakToMean    = "placements_peak_to_mean"
	ColPlacementsPeakToMeanP5  = "placements_peak_to_mean_p5"
	ColPlacementsPeakToMeanP95 = "placements_peak_to_mean_p95"
	ColPlacementsCV            = "placements_cv"
	ColPlacementsCVP5          = "placements_cv_p5"
	ColPlacementsCVP95         = "placements_cv_p95"
	ColTheoryPeakToMean        = "theory_peak_to_mean"
	ColTheoryCV                = "theory_cv"
	ColLoadFactor              = "load_factor"
	ColKeyLoadOverBound        = "key_load_over_bound"
	ColKeyLoadOverBoundLo      = "key_load_over_bound_lo"
	ColKeyLoadOverBoundHi      = "key_load_over_bound_hi"
	ColPartitionLoadOverBound  = "partition_load_over_bound"
)

// MoveColumns is the movement CSV header, in order. Its first 17 columns
// are a contract with readers (the plots package); columns after them may
// be appended.
var MoveColumns = []string{
	ColAlgo, ColHash, ColVNodes, ColOp, ColFrom, ColTo, ColKeys, ColSets, ColSeed,
	ColMovedFrac, ColMovedFracLo, ColMovedFracHi, ColIdealFrac, ColMovedOverIdeal,
	ColCollateralFrac, ColCollateralFracLo, ColCollateralFracHi,
	ColNetMovedFrac, ColNetMovedFracLo, ColNetMovedFracHi,
	ColSteps, ColEps, ColPartitions, ColKeyFile, ColGoVersion, ColCommit,
	ColTableSize, ColProbes, ColCapacity,
	ColPlacement, ColLabel, ColExpectedMoves,
}

// SpreadColumns is the spread CSV header, in order. Its first 23 columns
// are a contract with readers (the plots package); columns after them may
// be appended.
var SpreadColumns = []string{
	ColAlgo, ColHash, ColVNodes, ColNodes, ColKeys, ColSets, ColSeed,
	ColMinShare, ColMinShareLo, ColMinShareHi, ColMaxShare, ColMaxShareLo, ColMaxShareHi,
	ColPeakToMean, ColPeakToMeanLo, ColPeakToMeanHi, ColCV, ColCVLo, ColCVHi,
	ColNoisePeakToMean, ColNoiseCV, ColExactPeakToMean, ColExactCV,
	ColExactMinShare, ColExactMaxShare,
	ColEps, ColPartitions, ColKeyFile, ColGoVersion, ColCommit,
	ColTableSize, ColProbes, ColCapacity,
	ColPlacement, ColLabel,
	ColPlacements, ColPlacementsPeakToMean, ColPlacementsPeakToMeanP5, ColPlacementsPeakToMeanP95,
	ColPlacementsCV, ColPlacementsCVP5, ColPlacementsCVP95,
	ColTheoryPeakToMean, ColTheoryCV,
	ColLoadFactor, ColKeyLoadOverBound, ColKeyLoadOverBoundLo, ColKeyLoadOverBoundHi, ColPartitionLoadOverBound,
	ColNoiseMethod,
}

// ShareColumns is the header of the per-node share CSV (one row per node
// of each spread result): share_error = share - weight_share.
var ShareColumns = []string{
	ColAlgo, ColHash, ColVNodes, ColNodes, ColKeys, ColSets, ColSeed,
	ColID, ColWeight, ColWeightShare, ColShare, ColShareLo, ColShareHi, ColShareError, ColExactShare,
}

// csvRows writes CSV records one at a time (not the whole table at once,
// which for per-node shares of large fleets would hold every row in
// memory), keeping the first error.
type csvRows struct {
	w   *csv.Writer
	err error
}

func (c *csvRows) add(rec []string) {
	if c.err == nil {
		c.err = c.w.Write(rec)
	}
}

func (c *csvRows) flush() error {
	c.w.Flush()
	if c.err != nil {
		return c.err
	}
	return c.w.Error()
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
func itoa(x int) string     { return strconv.Itoa(x) }
func utoa(x uint64) string  { return strconv.FormatUint(x, 10) }

func opti(x *int) string {
	if x == nil {
		return ""
	}
	return itoa(*x)
}

func optf(x *float64) string {
	if x == nil {
		return ""
	}
	return ftoa(*x)
}

func flat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// WriteMoveCSV writes rs as CSV with MoveColumns, one row per result.
// Floats use the shortest representation that reads back exactly.
func WriteMoveCSV(w io.Writer, rs []Move) error {
	cw := csv.NewWriter(w)
	recs := csvRows{cw, cw.Write(MoveColumns)}
	for _, r := range rs {
		c := r.Config
		recs.add(flat(
			[]string{r.Algo, r.Hash, itoa(r.VNodes), r.Op, itoa(r.From), itoa(r.To), itoa(r.Keys), itoa(r.Sets), utoa(r.Seed)},
			[]string{ftoa(r.MovedFrac), ftoa(r.MovedFracLo), ftoa(r.MovedFracHi), ftoa(r.IdealFrac), ftoa(r.MovedOverIdeal)},
			[]string{ftoa(r.CollateralFrac), ftoa(r.CollateralFracLo), ftoa(r.CollateralFracHi)},
			[]string{ftoa(r.NetMovedFrac), ftoa(r.NetMovedFracLo), ftoa(r.NetMovedFracHi)},
			[]string{itoa(r.Steps), ftoa(c.Eps), itoa(c.Partitions), c.KeyFile, c.GoVersion, c.Commit},
			[]string{itoa(c.TableSize), itoa(c.Probes), itoa(c.Capacity)},
			[]string{c.Placement, r.Label, ftoa(r.ExpectedMoves)},
		))
	}
	return recs.flush()
}

// WriteSpreadCSV writes rs as CSV with SpreadColumns, one row per result;
// the exact_* cells are empty when the placer has no exact shares.
func WriteSpreadCSV(w io.Writer, rs []Spread) error {
	cw := csv.NewWriter(w)
	recs := csvRows{cw, cw.Write(SpreadColumns)}
	for _, r := range rs {
		c := r.Config
		recs.add(flat(
			[]string{r.Algo, r.Hash, itoa(r.VNodes), itoa(r.Nodes), itoa(r.Keys), itoa(r.Sets), utoa(r.Seed)},
			[]string{ftoa(r.MinShare), ftoa(r.MinShareLo), ftoa(r.MinShareHi), ftoa(r.MaxShare), ftoa(r.MaxShareLo), ftoa(r.MaxShareHi)},
			[]string{ftoa(r.PeakToMean), ftoa(r.PeakToMeanLo), ftoa(r.PeakToMeanHi), ftoa(r.CV), ftoa(r.CVLo), ftoa(r.CVHi)},
			[]string{ftoa(r.NoisePeakToMean), ftoa(r.NoiseCV),
				optf(r.ExactPeakToMean), optf(r.ExactCV), optf(r.ExactMinShare), optf(r.ExactMaxShare),
				ftoa(c.Eps), itoa(c.Partitions), c.KeyFile, c.GoVersion, c.Commit},
			[]string{itoa(c.TableSize), itoa(c.Probes), itoa(c.Capacity)},
			[]string{c.Placement, r.Label, opti(r.Placements), optf(r.PlacementsPeakToMean), optf(r.PlacementsPeakToMeanP5), optf(r.PlacementsPeakToMeanP95),
				optf(r.PlacementsCV), optf(r.PlacementsCVP5), optf(r.PlacementsCVP95), optf(r.TheoryPeakToMean), optf(r.TheoryCV),
				optf(r.LoadFactor), optf(r.KeyLoadOverBound), optf(r.KeyLoadOverBoundLo), optf(r.KeyLoadOverBoundHi), optf(r.PartitionLoadOverBound),
				r.NoiseMethod},
		))
	}
	return recs.flush()
}

// WriteSharesCSV writes the per-node shares of rs with ShareColumns.
func WriteSharesCSV(w io.Writer, rs []Spread) error {
	cw := csv.NewWriter(w)
	recs := csvRows{cw, cw.Write(ShareColumns)}
	for _, r := range rs {
		for _, s := range r.Shares {
			recs.add(flat(
				[]string{r.Algo, r.Hash, itoa(r.VNodes), itoa(r.Nodes), itoa(r.Keys), itoa(r.Sets), utoa(r.Seed),
					s.ID, ftoa(s.Weight), ftoa(s.WeightShare)},
				[]string{ftoa(s.Share), ftoa(s.ShareLo), ftoa(s.ShareHi), ftoa(s.Error), optf(s.Exact)},
			))
		}
	}
	return recs.flush()
}

// Config is the configuration a result was produced with; JSON rows carry
// it as "config", CSV rows as the columns of the same names.
type Config struct {
	Algo       string  `json:"algo"`
	Hash       string  `json:"hash"` // resolved name ("" becomes the default); slots ignore it (CRC-16)
	VNodes     int     `json:"vnodes"`
	Eps        float64 `json:"eps"`
	Partitions int     `json:"partitions"`
	TableSize  int     `json:"table_size"` // maglev: configured lookup table size M
	Probes     int     `json:"probes"`     // multiprobe: probes per key
	Capacity   int     `json:"capacity"`   // anchor, dx: buckets (0 = twice the initial nodes, at least 16)
	// Keys is the number of keys per set for generated keys; for a key file
	// it is the number of keys in the file (each set holds floor or ceil of
	// Keys/Sets).
	Keys    int    `json:"keys"`
	Sets    int    `json:"sets"`
	Seed    uint64 `json:"seed"`
	KeyFile string `json:"key_file,omitempty"`
	KeyKind string `json:"key_kind,omitempty"` // generated key shape (keyset.KeyKinds); "" for the default "random"
	// Placement is the placement mode: "per-set" (each key set of an
	// algorithm with a random layout on its own layout, so means and
	// intervals cover layouts and keys) or "fixed" (one layout, the given
	// node IDs, for every set: this exact fleet).
	Placement string `json:"placement"`
	GoVersion string `json:"go_version"`
	Commit    string `json:"commit"`
}

// MoveSample holds the fractions (0..1) measured on one key set.
type MoveSample struct {
	Moved      float64 `json:"moved_frac"`
	Collateral float64 `json:"collateral_frac"`
	Net        float64 `json:"net_moved_frac"`
}

// Move is one movement result: one row of the movement CSV, one object of
// the movement JSON array. Its JSON names are the CSV column names.
type Move struct {
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
	Label            string       `json:"label"`          // the algorithm and its variant, e.g. "jump (swap-last)"
	ExpectedMoves    float64      `json:"expected_moves"` // ideal fraction x keys of one set
	Config           Config       `json:"config"`
	Samples          []MoveSample `json:"samples"`
}

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
	ShareLo     float64  `json:"share_lo"`
	ShareHi     float64  `json:"share_hi"`
	Error       float64  `json:"share_error"`
}

// Spread is one spread result: one row of the spread CSV (and one row per
// node of the share CSV), one object of the spread JSON array. Its JSON
// names are the CSV column names.
type Spread struct {
	Algo            string   `json:"algo"`
	Hash            string   `json:"hash"`
	VNodes          int      `json:"vnodes"`
	Nodes           int      `json:"nodes"`
	Keys            int      `json:"keys"`
	Sets            int      `json:"sets"`
	Seed            uint64   `json:"seed"`
	MinShare        float64  `json:"min_share"`
	MinShareLo      float64  `json:"min_share_lo"`
	MinShareHi      float64  `json:"min_share_hi"`
	MaxShare        float64  `json:"max_share"`
	MaxShareLo      float64  `json:"max_share_lo"`
	MaxShareHi      float64  `json:"max_share_hi"`
	PeakToMean      float64  `json:"peak_to_mean"`
	PeakToMeanLo    float64  `json:"peak_to_mean_lo"`
	PeakToMeanHi    float64  `json:"peak_to_mean_hi"`
	CV              float64  `json:"cv"`
	CVLo            float64  `json:"cv_lo"`
	CVHi            float64  `json:"cv_hi"`
	NoisePeakToMean float64  `json:"noise_peak_to_mean"`
	NoiseCV         float64  `json:"noise_cv"`
	ExactPeakToMean *float64 `json:"exact_peak_to_mean"`
	ExactCV         *float64 `json:"exact_cv"`
	ExactMinShare   *float64 `json:"exact_min_share"`
	ExactMaxShare   *float64 `json:"exact_max_share"`
	Placement       string   `json:"placement"`
	Label           string   `json:"label"`
	// The exact spread over independent layouts, for algorithms with a
	// random layout and exact shares; nil otherwise (see the package doc).
	Placements              *int           `json:"placements"`
	PlacementsPeakToMean    *float64       `json:"placements_peak_to_mean"`
	PlacementsPeakToMeanP5  *float64       `json:"placements_peak_to_mean_p5"`
	PlacementsPeakToMeanP95 *float64       `json:"placements_peak_to_mean_p95"`
	PlacementsCV            *float64       `json:"placements_cv"`
	PlacementsCVP5          *float64       `json:"placements_cv_p5"`
	PlacementsCVP95         *float64       `json:"placements_cv_p95"`
	TheoryPeakToMean        *float64       `json:"theory_peak_to_mean"`
	TheoryCV                *float64       `json:"theory_cv"`
	LoadFactor              *float64       `json:"load_factor"`
	KeyLoadOverBound        *float64       `json:"key_load_over_bound"`
	KeyLoadOverBoundLo      *float64       `json:"key_load_over_bound_lo"`
	KeyLoadOverBoundHi      *float64       `json:"key_load_over_bound_hi"`
	PartitionLoadOverBound  *float64       `json:"partition_load_over_bound"`
	NoiseMethod             string         `json:"noise_method"` // "analytic" or "simulated": how NoisePeakToMean was obtained
	Config                  Config         `json:"config"`
	Shares                  []Share        `json:"shares"`
	Samples                 []SpreadSample `json:"samples"`
}

// WriteMoveJSON writes rs as an indented JSON array of Move objects: the
// CSV columns (MoveColumns), plus "config" and "samples" (per key set).
func WriteMoveJSON(w io.Writer, rs []Move) error {
	return writeJSONArray(w, rs)
}

// WriteSpreadJSON writes rs as an indented JSON array of Spread objects:
// the CSV columns (SpreadColumns; exact_* are null without exact shares),
// plus "config", "shares" (per node) and "samples" (per key set).
func WriteSpreadJSON(w io.Writer, rs []Spread) error {
	return writeJSONArray(w, rs)
}

// ReadMoveJSON reads a movement JSON array written by WriteMoveJSON.
func ReadMoveJSON(r io.Reader) ([]Move, error) {
	return readJSONArray[Move](r)
}

// ReadSpreadJSON reads a spread JSON array written by WriteSpreadJSON.
func ReadSpreadJSON(r io.Reader) ([]Spread, error) {
	return readJSONArray[Spread](r)
}

// writeJSONArray writes rs as an indented JSON array ([] when rs is nil).
func writeJSONArray[T any](w io.Writer, rs []T) error {
	if rs == nil {
		rs = []T{}
	}
	return writeJSON(w, rs)
}

// readJSONArray reads a JSON array of T, rejecting unknown fields.
func readJSONArray[T any](r io.Reader) ([]T, error) {
	var rs []T
	return rs, readJSON(r, &rs)
}

// readJSON decodes one JSON value into v, rejecting fields the row types
// do not have.
func readJSON(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("results JSON: %w", err)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// benchConfig returns the file configuration lines of a result: hash,
// vnodes, eps, partitions, table-size, probes, capacity, keys, sets, go
// and commit, plus keyfile and keykind when set. The scenario lives in the benchmark name and the seed nowhere, so
// that two runs of one configuration on different seeds land in one
// benchstat table, while results of different algorithm settings (a vnodes
// sweep) never merge into one row.
//
// A value holding a control character (a newline would end the line and
// let the rest pass for a result or a configuration line) is an error
// naming the key and the value.
func benchConfig(c Config) ([]benchfmt.Config, error) {
	kv := [][2]string{{"hash", c.Hash}, {"vnodes", itoa(c.VNodes)}, {"eps", ftoa(c.Eps)}, {"partitions", itoa(c.Partitions)},
		{"table-size", itoa(c.TableSize)}, {"probes", itoa(c.Probes)}, {"capacity", itoa(c.Capacity)},
		{"keys", itoa(c.Keys)}, {"sets", itoa(c.Sets)}, {"placement", c.Placement}}
	if c.KeyFile != "" {
		kv = append(kv, [2]string{"keyfile", c.KeyFile})
	}
	if c.KeyKind != "" {
		kv = append(kv, [2]string{"keykind", c.KeyKind})
	}
	kv = append(kv, [2]string{"go", c.GoVersion}, [2]string{"commit", c.Commit})
	out := make([]benchfmt.Config, len(kv))
	for i, p := range kv {
		if strings.ContainsFunc(p[1], unicode.IsControl) {
			return nil, fmt.Errorf("bench format: %s %q holds a control character, which would break the configuration line", p[0], p[1])
		}
		out[i] = benchfmt.Config{Key: p[0], Value: []byte(p[1]), File: true}
	}
	return out, nil
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
func WriteMoveBench(w io.Writer, rs []Move) error {
	bw := benchfmt.NewWriter(w)
	if err := writeUnits(bw, "ideal-frac"); err != nil {
		return err
	}
	for _, r := range rs {
		name := fmt.Sprintf("Move/algo=%s/op=%s/from=%d/to=%d", r.Algo, r.Op, r.From, r.To)
		for _, s := range r.Samples {
			cfg, err := benchConfig(r.Config)
			if err != nil {
				return err
			}
			res := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(name), Iters: 1, Values: []benchfmt.Value{
				{Value: s.Moved, Unit: "moved-frac"},
				{Value: s.Moved / r.IdealFrac, Unit: "moved/ideal"},
				{Value: s.Collateral, Unit: "collateral-frac"},
				{Value: s.Net, Unit: "net-moved-frac"},
				{Value: r.IdealFrac, Unit: "ideal-frac"},
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
// The vnodes part appears for algorithms that use it (catalog.UsesVNodes).
// The noise floor and exact-* metrics are deterministic and declared with
// "Unit ... assume=exact" lines; exact-* appear only for placers with
// exact shares. Configuration lines as in WriteMoveBench.
func WriteSpreadBench(w io.Writer, rs []Spread) error {
	bw := benchfmt.NewWriter(w)
	units := []string{"noise-peak/mean", "noise-cv"}
	for _, r := range rs {
		if r.ExactPeakToMean != nil {
			units = append(units, "exact-peak/mean", "exact-cv")
			break
		}
	}
	if err := writeUnits(bw, units...); err != nil {
		return err
	}
	for _, r := range rs {
		name := fmt.Sprintf("Spread/algo=%s/nodes=%d", r.Algo, r.Nodes)
		if catalog.UsesVNodes(r.Algo) {
			name += "/vnodes=" + itoa(r.VNodes)
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
			if r.ExactPeakToMean != nil {
				vals = append(vals, benchfmt.Value{Value: *r.ExactPeakToMean, Unit: "exact-peak/mean"}, benchfmt.Value{Value: *r.ExactCV, Unit: "exact-cv"})
			}
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
