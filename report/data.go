package report

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/plots"
	"github.com/chbench/chbench/schema"
)

// Result files the report reads from its directory. Every one is
// optional: what a file would give is "not in this run" without it.
const (
	LookupFile      = "lookup.txt"
	MovementFile    = "movement.csv"
	SpreadFile      = "spread.csv"
	LoadFile        = "load.csv"
	StormFile       = "storm.csv"
	ReplicationFile = "replication.csv"
	BoundedFile     = "boundedloads.csv"
	WeightsFile     = "weights.csv"
	// ReportFile is the file Write's caller puts the report in.
	ReportFile = "REPORT.md"
)

// Metric identifies one headline number of an algorithm (a column of the
// trade-off table).
type Metric int

// The headline metrics, in table order.
const (
	LookupLo        Metric = iota // ns per lookup from a key, at the working fleet size
	LookupHi                      // ns per lookup from a key, at the largest fleet size
	BuildNs                       // ns to build a placement, at the working size
	RetainedPerNode               // bytes retained per node by a placement, at the working size
	JoinRatio                     // moved/ideal when one node joins, at the working size
	LeaveRatio                    // moved/ideal when a random node leaves, at the working size
	ReplicaMoved                  // key-replica pairs moved on a random leave at R replicas
	ReplicaLost                   // keys re-homed entirely (no replica stays) on that leave
	KeyPeak                       // peak-to-mean of keys per node
	ZipfPeak                      // peak-to-mean of requests per node under Zipf s
	StormMultiple                 // database reads right after the storm scenario / steady reads
	LastLeaveRatio                // moved/ideal when the last node leaves (rules only, not a column)
	ReplicaLoadPeak               // busiest node's replicas over the mean, at R replicas (rules only)
	WeightPeak                    // weights.csv: the largest node share over its weight share (rules only)
	numMetrics
)

// Value is one measured number; OK is false when the run has none. CI is
// true when the file gives a 95% interval [Lo, Hi] for it (over key sets,
// layouts or request streams, or benchmath's interval of a median).
type Value struct {
	V      float64
	OK     bool
	Lo, Hi float64
	CI     bool
}

// val returns the Value of an interval read from a results file.
func val(iv schema.Interval) Value { return Value{iv.Mean, true, iv.Lo, iv.Hi, iv.CI} }

// scaled returns v with its value and interval divided by d (> 0).
func (v Value) scaled(d float64) Value { return Value{v.V / d, v.OK, v.Lo / d, v.Hi / d, v.CI} }

// Row is one line of the trade-off table: a catalog algorithm, or a form
// of bounded loads that load.csv measures beside the catalog's bounded
// (Variant; Info is then bounded's, renamed).
type Row struct {
	Info    catalog.Info
	Variant bool
	Vals    [numMetrics]Value
}

// Data is everything the report says, read from one results directory
// for one profile. Numbers are copied from the files (medians of
// lookup.txt computed with benchmath through plots.ReadBenchmarks); no
// algorithm is run.
type Data struct {
	Dir     string
	Profile Profile
	Rows    []Row    // catalog order, algorithms present in at least one file
	Missing []string // result files absent from Dir, in the order of the constants above

	// The run.
	Machine    string   // lookup.txt: goos/goarch, cpu, GOMAXPROCS, runs per point
	GoVersions []string // go_version cells, in order of first appearance
	Commits    []string // commit cells
	Seeds      []string
	KeySources []string // key_file cells ("" shown as generated keys)
	Placements []string // placement cells (fidelity runs), if any
	KeysSets   []string // per file: "movement.csv: 100,000 keys per set x 5 sets" (a range when rows differ)
	MoveShape  []string // per group of ops with the same node counts: "3..949 nodes, 11 sizes (add, remove-random)"
	// LeaveSpan: per algorithm (catalog order) whose random-leave
	// moved/ideal over movement.csv's node counts spans more than
	// SpanFactor, the least and the most, with their node counts.
	LeaveSpan []Span
	SpreadN   []float64

	// The values the report used (the nearest ones the files have).
	LookupLoN, LookupHiN, BuildN float64
	MoveN                        float64 // movement.csv "from" used
	SpreadNUsed                  float64
	NoisePeak                    Value // sampling-noise floor of the peak-to-mean at SpreadNUsed
	LoadN, LoadZipf              float64
	HotShare, Floor              Value   // load.csv: hottest key's request share and the hot-key floor
	LoadEps                      float64 // eps of load.csv's bounded-loads forms at LoadN, LoadZipf (0: none)
	// The bounded-loads forms' movement (boundedloads.csv), read at the
	// node count nearest the profile's, LoadEps and the Zipf exponent
	// nearest LoadZipf.
	BoundedN, BoundedZipf float64
	ReplN                 float64
	ReplR                 float64
	ReplIdeal             Value  // ideal fraction of the replication rows used
	ReplNoLeave           bool   // replication.csv is present but has no remove-random rows
	Weights               string // weights.csv's fleet, e.g. "4 nodes weighted 1, 1, 2, 4 (weights.csv)"
	plotLinks             string // see LinkTo
	Storm                 string // storm scenario, e.g. "from 4 to 5 nodes, 50,000 reads/s at hit ratio 0.95 over 1,000,000 keys"
	StormShort            string // " (4 -> 5)" for the table header
}

// LinkTo makes the report's plot links relative to dir, the directory the
// report is written to (by default Dir itself: links "plots/NAME.png").
// Where that has no relative path to Dir the links are absolute.
func (d *Data) LinkTo(dir string) {
	plotsDir, err1 := filepath.Abs(filepath.Join(d.Dir, "plots"))
	from, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return
	}
	d.plotLinks = filepath.ToSlash(plotsDir)
	if rel, err := filepath.Rel(from, plotsDir); err == nil {
		d.plotLinks = filepath.ToSlash(rel)
	}
}

// plotsLink returns the link prefix of the plots ("plots" by default).
func (d *Data) plotsLink() string {
	if d.plotLinks == "" {
		return "plots"
	}
	return d.plotLinks
}

// Named is a number belonging to an algorithm (or variant) name, with
// its interval when it has one.
type Named struct {
	Name string
	V    float64
	Val  Value
}

// Load reads the result files in dir for profile p. A file that exists
// but is malformed is an error naming it; absent files are listed in
// Data.Missing. It fails when dir has none of the files.
func Load(dir string, p Profile) (*Data, error) {
	d := &Data{Dir: dir, Profile: p}
	rows := make([]Row, len(catalog.Names()))
	for i, name := range catalog.Names() {
		rows[i].Info, _ = catalog.Describe(name)
	}
	// Forms of bounded loads other than the catalog's (load.csv names
	// that one bounded-partition), in order of appearance.
	var variants []Row
	index := func(algo string) int { return slices.Index(catalog.Names(), algo) }
	row := func(algo string) *Row {
		if i := index(algo); i >= 0 {
			return &rows[i]
		}
		for i := range variants {
			if variants[i].Info.Name == algo {
				return &variants[i]
			}
		}
		return nil
	}
	// file is the result file being read; a second value for the same
	// row and metric (a file holding a sweep of configurations) is an
	// error, not silently dropped.
	var file string
	var dup error
	set := func(algo string, m Metric, v Value) {
		r := row(algo)
		switch {
		case r == nil:
		case !r.Vals[m].OK:
			r.Vals[m] = v
		case dup == nil:
			dup = fmt.Errorf("%s: two rows give %s's %s at the values the report reads (%v and %v): the report needs one configuration per algorithm; is this file a sweep?",
				file, algo, metricName(m), r.Vals[m].V, v.V)
		}
	}
	exists := func(name string) (string, bool) {
		path := filepath.Join(dir, name)
		_, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			d.Missing = append(d.Missing, name)
			return path, false
		}
		return path, true
	}

	if path, ok := exists(LookupFile); ok {
		file = LookupFile
		sets, err := plots.ReadBenchmarks(path)
		if err != nil {
			return nil, err
		}
		if len(sets) == 0 {
			return nil, fmt.Errorf("%s: no benchmark results (want the output of the bench package's go test -bench)", path)
		}
		for _, s := range sets {
			if strings.ContainsAny(s.Caption, "`|") {
				return nil, fmt.Errorf("%s: %q: backquotes and \"|\" are not allowed in its configuration lines", path, s.Caption)
			}
			for _, sr := range s.Series {
				for _, pt := range sr.Points {
					if pt.X < 1 || pt.X != math.Trunc(pt.X) || !(pt.Y > 0) {
						return nil, fmt.Errorf("%s: %s %s: nodes=%v, %v %s: want a whole node count >= 1 and a median > 0", path, s.Name, sr.Algo, pt.X, pt.Y, s.Unit)
					}
				}
			}
		}
		for _, s := range sets {
			switch {
			case s.Name == "Lookup" && s.Variant == "from=key" && s.Unit == "ns/op":
				d.Machine = s.Caption
				d.LookupLoN = nearest(seriesXs(s.Series), float64(p.Nodes))
				d.LookupHiN = nearest(seriesXs(s.Series), float64(p.MaxNodes))
				for _, sr := range s.Series {
					if y, ok := at(sr, d.LookupLoN); ok {
						set(sr.Algo, LookupLo, y)
					}
					if y, ok := at(sr, d.LookupHiN); ok {
						set(sr.Algo, LookupHi, y)
					}
				}
			case s.Name == "Build" && s.Variant == "" && (s.Unit == "ns/op" || s.Unit == "retained-bytes/node"):
				m := BuildNs
				if s.Unit != "ns/op" {
					m = RetainedPerNode
				}
				d.BuildN = nearest(seriesXs(s.Series), float64(p.Nodes))
				for _, sr := range s.Series {
					if y, ok := at(sr, d.BuildN); ok {
						set(sr.Algo, m, y)
					}
				}
			}
		}
	}

	// meta collects the run's description from t, refusing text that
	// would break the report's Markdown (control characters, backquotes,
	// table bars).
	meta := func(t *schema.Table) error {
		for i := range t.Len() {
			for _, c := range []string{schema.ColGoVersion, schema.ColCommit, schema.ColSeed, schema.ColPlacement, schema.ColKeyFile, schema.ColOp, schema.ColAlgo} {
				if err := plainText(t, i, c); err != nil {
					return err
				}
			}
			addOnce(&d.GoVersions, t.Str(i, schema.ColGoVersion))
			addOnce(&d.Commits, t.Str(i, schema.ColCommit))
			addOnce(&d.Seeds, t.Str(i, schema.ColSeed))
			addOnce(&d.Placements, t.Str(i, schema.ColPlacement))
			kf := t.Str(i, schema.ColKeyFile)
			if kf == "" {
				kf = "generated"
			}
			addOnce(&d.KeySources, kf)
		}
		return nil
	}

	if path, ok := exists(MovementFile); ok {
		file = MovementFile
		t, err := schema.ReadTable(path, []string{schema.ColAlgo, schema.ColOp, schema.ColFrom, schema.ColMovedOverIdeal})
		if err != nil {
			return nil, err
		}
		if err := meta(t); err != nil {
			return nil, err
		}
		if err := d.keysSets(t, MovementFile); err != nil {
			return nil, err
		}
		var ops []string
		byOp := map[string][]float64{}
		for i := range t.Len() {
			op := t.Str(i, schema.ColOp)
			n, err := t.Count(i, schema.ColFrom)
			if err != nil {
				return nil, err
			}
			addOnce(&ops, op)
			byOp[op] = append(byOp[op], n)
		}
		d.MoveShape = shapes(ops, byOp)
		if d.LeaveSpan, err = leaveSpans(t); err != nil {
			return nil, err
		}
		froms, err := column(t, schema.ColFrom, func(i int) bool { return t.Str(i, schema.ColOp) == "add" })
		if err != nil {
			return nil, err
		}
		d.MoveN = nearest(froms, float64(p.Nodes))
		for i := range t.Len() {
			from, _ := t.Num(i, schema.ColFrom)
			if from != d.MoveN {
				continue
			}
			m := JoinRatio
			switch t.Str(i, schema.ColOp) {
			case "add":
			case "remove-random":
				m = LeaveRatio
			case "remove-last":
				m = LastLeaveRatio
			default:
				continue
			}
			v, err := t.Num(i, schema.ColMovedOverIdeal)
			if err != nil {
				return nil, err
			}
			// The interval of moved/ideal is the moved fraction's over
			// the ideal fraction (a constant of the scenario).
			iv, err := t.Interval(i, schema.ColMovedFrac)
			if err != nil {
				return nil, err
			}
			ideal, err := t.Num(i, schema.ColIdealFrac)
			if err != nil || ideal <= 0 {
				if err == nil {
					err = t.Errorf(i, schema.ColIdealFrac, "%v, want > 0", ideal)
				}
				return nil, err
			}
			mv := val(iv).scaled(ideal)
			mv.V = v
			set(t.Str(i, schema.ColAlgo), m, mv)
		}
	}

	if path, ok := exists(SpreadFile); ok {
		file = SpreadFile
		t, err := schema.ReadTable(path, []string{schema.ColAlgo, schema.ColNodes, schema.ColPeakToMean, schema.ColNoisePeakToMean})
		if err != nil {
			return nil, err
		}
		if err := meta(t); err != nil {
			return nil, err
		}
		if err := d.keysSets(t, SpreadFile); err != nil {
			return nil, err
		}
		ns, err := column(t, schema.ColNodes, func(int) bool { return true })
		if err != nil {
			return nil, err
		}
		d.SpreadN = sortedUnique(ns)
		d.SpreadNUsed = nearest(ns, float64(p.Nodes))
		for i := range t.Len() {
			if n, _ := t.Num(i, schema.ColNodes); n != d.SpreadNUsed {
				continue
			}
			iv, err := t.Interval(i, schema.ColPeakToMean)
			if err != nil {
				return nil, err
			}
			set(t.Str(i, schema.ColAlgo), KeyPeak, val(iv))
			if !d.NoisePeak.OK {
				if v, err := t.Num(i, schema.ColNoisePeakToMean); err == nil {
					d.NoisePeak = Value{V: v, OK: true}
				}
			}
		}
	}

	if path, ok := exists(LoadFile); ok {
		file = LoadFile
		t, err := schema.ReadTable(path, []string{schema.ColAlgo, schema.ColNodes, "zipf", schema.ColPeakToMean})
		if err != nil {
			return nil, err
		}
		if err := meta(t); err != nil {
			return nil, err
		}
		ns, err := column(t, schema.ColNodes, func(int) bool { return true })
		if err != nil {
			return nil, err
		}
		d.LoadN = nearest(ns, float64(p.Nodes))
		zs, err := column(t, "zipf", func(i int) bool { n, _ := t.Num(i, schema.ColNodes); return n == d.LoadN })
		if err != nil {
			return nil, err
		}
		d.LoadZipf = nearestLinear(zs, p.Zipf)
		for i := range t.Len() {
			n, _ := t.Num(i, schema.ColNodes)
			z, _ := t.Num(i, "zipf")
			if n != d.LoadN || z != d.LoadZipf {
				continue
			}
			iv, err := t.Interval(i, schema.ColPeakToMean)
			if err != nil {
				return nil, err
			}
			algo := t.Str(i, schema.ColAlgo)
			switch {
			case index(algo) >= 0:
			case algo == schema.VariantPartition:
				// load.csv names the catalog's bounded by its form.
				algo = bounded.Name
			default:
				if !slices.Contains(schema.LoadPlacements(), algo) {
					return nil, t.Errorf(i, schema.ColAlgo, "%q is neither a catalog algorithm nor a form of bounded loads (%s)", algo, strings.Join(schema.LoadPlacements(), ", "))
				}
				if row(algo) == nil {
					in, _ := catalog.Describe(bounded.Name)
					in.Name = algo
					variants = append(variants, Row{Info: in, Variant: true})
				}
			}
			if algo != t.Str(i, schema.ColAlgo) || index(algo) < 0 {
				if e, ok, err := t.OptNum(i, schema.ColEps); err == nil && ok && d.LoadEps == 0 {
					d.LoadEps = e
				}
			}
			set(algo, ZipfPeak, val(iv))
			if h, ok, err := t.OptNum(i, "hot_share"); err == nil && ok && !d.HotShare.OK {
				d.HotShare = Value{V: h, OK: true}
			}
			if f, ok, err := t.OptNum(i, "floor"); err == nil && ok && !d.Floor.OK {
				d.Floor = Value{V: f, OK: true}
			}
		}
	}

	if path, ok := exists(StormFile); ok {
		file = StormFile
		t, err := schema.ReadTable(path, []string{schema.ColAlgo, schema.ColOp, schema.ColFrom, schema.ColTo, schema.ColDBMultiple})
		if err != nil {
			return nil, err
		}
		if err := meta(t); err != nil {
			return nil, err
		}
		// The default scenario is the first row's change; rows of other
		// changes are left out.
		first := func(i int) string {
			return t.Str(i, schema.ColOp) + " " + t.Str(i, schema.ColFrom) + " " + t.Str(i, schema.ColTo)
		}
		var v [5]float64
		for j, c := range []string{schema.ColFrom, schema.ColTo, schema.ColReads, schema.ColHitRatio, schema.ColWorkingSet} {
			if v[j], err = t.Num(0, c); err != nil {
				return nil, err
			}
		}
		d.Storm = fmt.Sprintf("from %s to %s nodes, %s reads/s at hit ratio %s over %s keys",
			count(v[0]), count(v[1]), count(v[2]), strconv.FormatFloat(v[3], 'g', -1, 64), count(v[4]))
		d.StormShort = fmt.Sprintf(" (%s -> %s)", count(v[0]), count(v[1]))
		for i := range t.Len() {
			if first(i) != first(0) {
				continue
			}
			iv, err := t.Interval(i, schema.ColDBMultiple)
			if err != nil {
				return nil, err
			}
			set(t.Str(i, schema.ColAlgo), StormMultiple, val(iv))
		}
	}

	if path, ok := exists(ReplicationFile); ok {
		file = ReplicationFile
		t, err := schema.ReadTable(path, []string{schema.ColAlgo, schema.ColReplicas, schema.ColOp, schema.ColFrom,
			schema.ColPairsMovedFrac, schema.ColAllLostFrac, schema.ColIdealFrac, schema.ColLoadPeakToMean})
		if err != nil {
			return nil, err
		}
		if err := meta(t); err != nil {
			return nil, err
		}
		leave := func(i int) bool { return t.Str(i, schema.ColOp) == "remove-random" }
		ns, err := column(t, schema.ColFrom, leave)
		if err != nil {
			return nil, err
		}
		for i := range t.Len() {
			if r, err := t.Count(i, schema.ColReplicas); err != nil {
				return nil, err
			} else if r > MaxReplicas {
				return nil, t.Errorf(i, schema.ColReplicas, "%v, want 1 to %d", r, MaxReplicas)
			}
		}
		if len(ns) == 0 {
			d.ReplNoLeave = true
		}
		d.ReplN = nearest(ns, float64(p.Nodes))
		rs, err := column(t, schema.ColReplicas, func(i int) bool { n, _ := t.Num(i, schema.ColFrom); return leave(i) && n == d.ReplN })
		if err != nil {
			return nil, err
		}
		d.ReplR = nearestLinear(rs, float64(p.Replicas))
		for i := range t.Len() {
			n, _ := t.Num(i, schema.ColFrom)
			r, _ := t.Num(i, schema.ColReplicas)
			if !leave(i) || n != d.ReplN || r != d.ReplR || index(t.Str(i, schema.ColAlgo)) < 0 {
				continue
			}
			moved, err := t.Interval(i, schema.ColPairsMovedFrac)
			if err != nil {
				return nil, err
			}
			lost, err := t.Interval(i, schema.ColAllLostFrac)
			if err != nil {
				return nil, err
			}
			ideal, err := t.Num(i, schema.ColIdealFrac)
			if err == nil && ideal <= 0 {
				err = t.Errorf(i, schema.ColIdealFrac, "%v, want > 0", ideal)
			}
			if err == nil && d.ReplIdeal.OK && ideal != d.ReplIdeal.V {
				err = t.Errorf(i, schema.ColIdealFrac, "%v, but an earlier row of the same scenario gives %v", ideal, d.ReplIdeal.V)
			}
			if err != nil {
				return nil, err
			}
			load, err := t.Interval(i, schema.ColLoadPeakToMean)
			if err != nil {
				return nil, err
			}
			algo := t.Str(i, schema.ColAlgo)
			set(algo, ReplicaMoved, val(moved))
			set(algo, ReplicaLost, val(lost))
			set(algo, ReplicaLoadPeak, val(load))
			d.ReplIdeal = Value{V: ideal, OK: true}
		}
	}

	if path, ok := exists(WeightsFile); ok {
		file = WeightsFile
		if err := d.weightPeaks(path, set); err != nil {
			return nil, err
		}
	}

	if path, ok := exists(BoundedFile); ok && len(variants) > 0 {
		if err := d.boundedMovement(path, variants); err != nil {
			return nil, err
		}
	}
	if dup != nil {
		return nil, dup
	}

	if all := resultFiles(); len(d.Missing) == len(all) {
		return nil, fmt.Errorf("%s: no result files (want at least one of %s)", dir, strings.Join(all, ", "))
	}
	for _, r := range rows {
		if slices.ContainsFunc(r.Vals[:], func(v Value) bool { return v.OK }) {
			d.Rows = append(d.Rows, r)
		}
		if r.Info.Name == bounded.Name {
			d.Rows = append(d.Rows, variants...)
		}
	}
	return d, nil
}

// SpanFactor is how much an algorithm's random-leave moved/ideal must
// vary across fleet sizes (largest over smallest) for the report to say
// that one size's value does not speak for the others.
const SpanFactor = 1.5

// Span is the least and the most of an algorithm's moved/ideal across
// node counts, at the counts where they occur.
type Span struct {
	Name         string
	Lo, Hi       float64
	LoAtN, HiAtN float64
}

// leaveSpans returns the Spans of the remove-random rows of movement.csv
// (t) that vary more than SpanFactor, in the order algorithms first appear.
func leaveSpans(t *schema.Table) ([]Span, error) {
	var order []string
	spans := map[string]*Span{}
	for i := range t.Len() {
		if t.Str(i, schema.ColOp) != "remove-random" {
			continue
		}
		algo := t.Str(i, schema.ColAlgo)
		n, err := t.Count(i, schema.ColFrom)
		if err != nil {
			return nil, err
		}
		v, err := t.Num(i, schema.ColMovedOverIdeal)
		if err != nil {
			return nil, err
		}
		sp, ok := spans[algo]
		if !ok {
			order = append(order, algo)
			spans[algo] = &Span{algo, v, v, n, n}
			continue
		}
		if v < sp.Lo {
			sp.Lo, sp.LoAtN = v, n
		}
		if v > sp.Hi {
			sp.Hi, sp.HiAtN = v, n
		}
	}
	var out []Span
	for _, algo := range order {
		if sp := spans[algo]; sp.Lo > 0 && sp.Hi/sp.Lo > SpanFactor {
			out = append(out, *sp)
		}
	}
	return out, nil
}

// shapes describes the node counts of each op, grouping ops that share
// them: "3..949 nodes, 11 sizes (add, remove-random)".
func shapes(ops []string, byOp map[string][]float64) []string {
	var keys []string
	groups := map[string][]string{}
	for _, op := range ops {
		ns := sortedUnique(byOp[op])
		k := count(ns[0]) + ".." + count(ns[len(ns)-1]) + " nodes, " + strconv.Itoa(len(ns)) + " sizes"
		if len(ns) == 1 {
			k = count(ns[0]) + " nodes"
		}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], op)
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + " (" + strings.Join(groups[k], ", ") + ")"
	}
	return out
}

// resultFiles returns the result files Load reads, in its order.
func resultFiles() []string {
	return []string{LookupFile, MovementFile, SpreadFile, LoadFile, StormFile, ReplicationFile, BoundedFile, WeightsFile}
}

// weightPeaks sets WeightPeak of every algorithm of weights.csv at path
// (one row per node of one weighted fleet, chbench spread -shares): the
// largest share / weight_share over its nodes, with that node's interval
// (share_lo, share_hi over weight_share), and describes the fleet in
// d.Weights from the first algorithm's rows.
func (d *Data) weightPeaks(path string, set func(string, Metric, Value)) error {
	t, err := schema.ReadTable(path, []string{schema.ColAlgo, schema.ColNodes, schema.ColWeight, schema.ColWeightShare, schema.ColShare})
	if err != nil {
		return err
	}
	var order []string
	best := map[string]Value{}
	seen := map[string]int{} // algo and node ID -> line
	var ws []string
	for i := range t.Len() {
		if err := plainText(t, i, schema.ColAlgo); err != nil {
			return err
		}
		algo := t.Str(i, schema.ColAlgo)
		if !slices.Contains(order, algo) {
			order = append(order, algo)
		}
		w, err := t.Num(i, schema.ColWeightShare)
		if err == nil && w <= 0 {
			err = t.Errorf(i, schema.ColWeightShare, "%v, want > 0", w)
		}
		if err != nil {
			return err
		}
		if wt, err := t.Num(i, schema.ColWeight); err != nil || wt <= 0 {
			if err == nil {
				err = t.Errorf(i, schema.ColWeight, "%v, want > 0", wt)
			}
			return err
		}
		id := algo + "\x00" + t.Str(i, "id")
		if l, dup := seen[id]; dup {
			return fmt.Errorf("%s: lines %d and %d both give %s's node %q", path, l, t.Line(i), algo, t.Str(i, "id"))
		}
		seen[id] = t.Line(i)
		share, err := t.Interval(i, schema.ColShare)
		if err != nil {
			return err
		}
		v := val(share).scaled(w)
		if b, ok := best[algo]; !ok || v.V > b.V {
			best[algo] = v
		}
		if algo == order[0] {
			wt, err := t.Num(i, schema.ColWeight)
			if err != nil {
				return err
			}
			ws = append(ws, strconv.FormatFloat(wt, 'g', -1, 64))
		}
	}
	for _, algo := range order {
		set(algo, WeightPeak, best[algo])
	}
	if len(ws) > 0 {
		d.Weights = fmt.Sprintf("%d nodes weighted %s (%s)", len(ws), strings.Join(ws, ", "), WeightsFile)
	}
	return nil
}

// boundedMovement sets JoinRatio and LeaveRatio of the bounded-loads
// forms vs from boundedloads.csv at path: moved over ideal fraction on a
// join and on a leave, at the node count nearest the profile's, at
// d.LoadEps (the eps load.csv ran them at) and the Zipf exponent nearest
// d.LoadZipf.
func (d *Data) boundedMovement(path string, vs []Row) error {
	t, err := schema.ReadTable(path, []string{schema.ColAlgo, schema.ColNodes, schema.ColEps, schema.ColZipf,
		"moved_join_frac", "ideal_join_frac", "moved_leave_frac", "ideal_leave_frac"})
	if err != nil {
		return err
	}
	meta := func(i int) (n, e, z float64) {
		n, _ = t.Num(i, schema.ColNodes)
		e, _ = t.Num(i, schema.ColEps)
		z, _ = t.Num(i, schema.ColZipf)
		return
	}
	ns, err := column(t, schema.ColNodes, func(int) bool { return true })
	if err != nil {
		return err
	}
	d.BoundedN = nearest(ns, float64(d.Profile.Nodes))
	zs, err := column(t, schema.ColZipf, func(i int) bool { n, e, _ := meta(i); return n == d.BoundedN && e == d.LoadEps })
	if err != nil {
		return err
	}
	if len(zs) == 0 {
		return nil // no row at load.csv's eps
	}
	d.BoundedZipf = nearestLinear(zs, d.LoadZipf)
	for i := range t.Len() {
		if n, e, z := meta(i); n != d.BoundedN || e != d.LoadEps || z != d.BoundedZipf {
			continue
		}
		j := slices.IndexFunc(vs, func(r Row) bool { return r.Info.Name == t.Str(i, schema.ColAlgo) })
		if j < 0 {
			continue
		}
		for _, c := range []struct {
			m            Metric
			moved, ideal string
		}{{JoinRatio, "moved_join_frac", "ideal_join_frac"}, {LeaveRatio, "moved_leave_frac", "ideal_leave_frac"}} {
			iv, err := t.Interval(i, c.moved)
			if err != nil {
				return err
			}
			ideal, err := t.Num(i, c.ideal)
			if err == nil && ideal <= 0 {
				err = t.Errorf(i, c.ideal, "%v, want > 0", ideal)
			}
			if err != nil {
				return err
			}
			if vs[j].Vals[c.m].OK {
				return fmt.Errorf("%s: line %d: a second row for %s at %s nodes, eps %v, Zipf s = %v", path, t.Line(i), vs[j].Info.Name, count(d.BoundedN), d.LoadEps, d.BoundedZipf)
			}
			vs[j].Vals[c.m] = val(iv).scaled(ideal)
		}
	}
	return nil
}

// keysSets adds to d.KeysSets the keys per set and sets of table t (of
// file), as ranges when its rows differ.
func (d *Data) keysSets(t *schema.Table, file string) error {
	keys, err := column(t, schema.ColKeys, func(int) bool { return true })
	if err != nil {
		return err
	}
	sets, err := column(t, schema.ColSets, func(int) bool { return true })
	if err != nil {
		return err
	}
	span := func(xs []float64) string {
		lo, hi := slices.Min(xs), slices.Max(xs)
		if lo == hi {
			return count(lo)
		}
		return count(lo) + ".." + count(hi)
	}
	d.KeysSets = append(d.KeysSets, fmt.Sprintf("%s %s keys per set x %s sets", file, span(keys), span(sets)))
	return nil
}

// plainText returns an error naming the cell of row i in column name when
// it holds a control character, a backquote or a "|", which would break
// the report's Markdown (or a terminal showing it).
func plainText(t *schema.Table, i int, name string) error {
	if s := t.Str(i, name); strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == '`' || r == '|' }) {
		return t.Errorf(i, name, "%q: control characters, backquotes and \"|\" are not allowed", s)
	}
	return nil
}

// metricName names m for messages: its short name in the report.
func metricName(m Metric) string { return metricInfos(&Data{})[m].short }

func addOnce(list *[]string, s string) {
	if s != "" && !slices.Contains(*list, s) {
		*list = append(*list, s)
	}
}

// column returns the numbers of column name in the rows keep accepts;
// node counts (from, nodes, keys, sets, replicas) must be whole numbers
// >= 1.
func column(t *schema.Table, name string, keep func(int) bool) ([]float64, error) {
	num := t.Num
	switch name {
	case schema.ColFrom, schema.ColNodes, schema.ColKeys, schema.ColSets, schema.ColReplicas:
		num = t.Count
	}
	var out []float64
	for i := range t.Len() {
		if !keep(i) {
			continue
		}
		v, err := num(i, name)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func sortedUnique(xs []float64) []float64 {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

func seriesXs(ss []plots.Series) []float64 {
	var xs []float64
	for _, s := range ss {
		for _, p := range s.Points {
			xs = append(xs, p.X)
		}
	}
	return xs
}

// at returns the point of s at x as a Value (with benchmath's interval of
// the median when the point has one).
func at(s plots.Series, x float64) (Value, bool) {
	for _, p := range s.Points {
		if p.X == x {
			return Value{p.Y, true, p.Lo, p.Hi, p.CI}, true
		}
	}
	return Value{}, false
}

// nearest returns the value of xs (all > 0) closest to target on a log
// scale (ties: the smaller), or 0 when xs is empty.
func nearest(xs []float64, target float64) float64 {
	best, dist := 0.0, math.Inf(1)
	for _, x := range sortedUnique(xs) {
		if x <= 0 {
			continue
		}
		if d := math.Abs(math.Log(x / target)); d < dist {
			best, dist = x, d
		}
	}
	return best
}

// nearestLinear returns the value of xs closest to target (ties: the
// smaller), or 0 when xs is empty. A target outside the values' range is
// first brought to its nearer end, so that a huge target (1e17) still
// picks the largest value instead of tying with every one.
func nearestLinear(xs []float64, target float64) float64 {
	if len(xs) > 0 {
		target = min(max(target, slices.Min(xs)), slices.Max(xs))
	}
	best, dist := 0.0, math.Inf(1)
	for _, x := range sortedUnique(xs) {
		if d := math.Abs(x - target); d < dist {
			best, dist = x, d
		}
	}
	return best
}

// count formats a node count or other whole number with thousands
// separators: 10000 -> "10,000".
func count(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if x != math.Trunc(x) {
		return s
	}
	return thousands(s)
}

// thousands puts commas between the groups of three digits of the
// unsigned integer s: "10000" -> "10,000".
func thousands(s string) string {
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
