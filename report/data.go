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

	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/fleet"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// ReportFile is the file Write's caller puts the report in.
const ReportFile = schema.ReportFile

// metric identifies one headline number of an algorithm (a column of the
// trade-off table).
type metric int

// The headline metrics, in table order.
const (
	lookupLo        metric = iota // ns per lookup from a key, at the working fleet size
	lookupHi                      // ns per lookup from a key, at the largest fleet size
	buildNs                       // ns to build a placement, at the working size
	retainedPerNode               // bytes retained per node by a placement, at the working size
	joinRatio                     // moved/ideal when one node joins, at the working size
	leaveRatio                    // moved/ideal when a random node leaves, at the working size
	replicaMoved                  // key-replica pairs moved on a random leave at R replicas
	replicaLost                   // keys re-homed entirely (no replica stays) on that leave
	keyPeak                       // peak-to-mean of keys per node
	zipfPeak                      // peak-to-mean of requests per node under Zipf s
	stormMultiple                 // database reads right after the storm scenario / steady reads
	lastLeaveRatio                // moved/ideal when the last node leaves (rules only, not a column)
	replicaLoadPeak               // busiest node's replicas over the mean, at R replicas (rules only)
	weightPeak                    // weights.csv: the largest node share over its weight share (rules only)
	domainShared                  // domains.csv: keys whose replicas share a domain, one replica per domain at R (rules only)
	lookupMin                     // ns per lookup from a key at lookup.txt's smallest node count (rules only)
	lookupMax                     // ns per lookup from a key at lookup.txt's largest node count (rules only)
	numMetrics
)

// value is one measured number; OK is false when the run has none. CI is
// true when the file gives a 95% interval [Lo, Hi] for it (over key sets,
// layouts or request streams, or benchmath's interval of a median).
// Single is true for a single draw: a measured value whose interval is
// missing (one key set, one replay), unlike an exact value, which needs
// none.
type value struct {
	V      float64
	OK     bool
	Lo, Hi float64
	CI     bool
	Single bool
}

// est returns the Value of an estimate with its 95% interval read from a
// results file.
func est(mean float64, lo, hi *float64) value {
	if lo == nil || hi == nil { // no interval: the run had one key set
		return value{V: mean, OK: true, Lo: mean, Hi: mean, Single: true}
	}
	return value{V: mean, OK: true, Lo: *lo, Hi: *hi, CI: true}
}

// scaled returns v with its value and interval divided by d (> 0).
func (v value) scaled(d float64) value {
	v.V, v.Lo, v.Hi = v.V/d, v.Lo/d, v.Hi/d
	return v
}

// algoRow is one line of the trade-off table: a catalog algorithm, or a form
// of bounded loads that load.csv measures beside the catalog's bounded
// (Variant; Info is then bounded's, renamed).
type algoRow struct {
	Info    catalog.Info
	Variant bool
	Vals    [numMetrics]value
}

// Data is everything the report says, read from one results directory
// for one profile. Numbers are copied from the files (medians of
// lookup.txt computed with benchmath through schema.ReadBenchmarks); no
// algorithm is run.
type Data struct {
	dir string
	// noIntervals are the result files with values whose 95% interval is
	// missing (one key set or one replay), in reading order.
	noIntervals []string
	profile     Profile
	// fleetStorm holds fleet-storm.csv's rows when the profile is a
	// fleet's and the file is in the run, nil otherwise.
	fleetStorm []schema.Storm
	// fleetShares holds fleet-shares.csv's rows likewise.
	fleetShares []schema.ShareRow
	// fleetLoad holds fleet-load.csv's rows likewise.
	fleetLoad []schema.Load
	// fleetSwitching holds fleet-switching.csv's rows likewise.
	fleetSwitching []schema.Switch
	// fleetReplication holds fleet-replication.csv's rows likewise.
	fleetReplication []schema.Replication
	// fleetLookup holds fleet-lookup.txt's Lookup from=key ns/op set
	// likewise (nil without the file or the set).
	fleetLookup *schema.BenchSet
	rows        []algoRow // catalog order, algorithms present in at least one file
	missing     []string  // result files absent from Dir, in the order of the constants above

	// The run.
	machine    string   // lookup.txt: goos/goarch, cpu, GOMAXPROCS, runs per point
	goVersions []string // go_version cells, in order of first appearance
	commits    []string // commit cells
	seeds      []string
	keySources []string   // key_file cells ("" shown as generated keys)
	placements []string   // placement cells (fidelity runs), if any
	keyFiles   []fileKeys // per file: its keys per set and in all, and the key sources of its rows
	moveShape  []string   // per group of ops with the same node counts: "3..949 nodes, 11 sizes (add, remove-random)"
	// leaveSpan: per algorithm (catalog order) whose random-leave
	// moved/ideal over movement.csv's node counts spans more than
	// spanFactor, the least and the most, with their node counts.
	leaveSpan []leaveSpread
	spreadN   []float64

	// The values the report used (the nearest ones the files have).
	lookupLoN, lookupHiN, buildN float64
	lookupMinN, lookupMaxN       float64 // lookup.txt's smallest and largest node counts of Lookup from=key
	moveN                        float64 // movement.csv "from" used
	// moveLeftOut names the movement rows at moveN (or at every size,
	// when none expects enough moves) that the plots leave out for
	// expecting fewer than schema.MinExpectedMoves moved keys per set.
	moveLeftOut     []string
	spreadNUsed     float64
	noisePeak       value // sampling-noise floor of the peak-to-mean at SpreadNUsed
	loadN, loadZipf float64
	hotShare, floor value // load.csv: hottest key's request share and the hot-key floor (hottest key on the largest node)
	floorMin        value // load.csv: the hot-key floor with the hottest key on the smallest node
	// hotNodes: per placement of load.csv (at loadN, loadZipf), the node
	// that served its hottest key and the floor on that node.
	hotNodes map[string]hotNode
	loadEps  float64 // eps of load.csv's bounded-loads forms at LoadN, LoadZipf (0: none)
	// The bounded-loads forms' movement (boundedloads.csv), read at the
	// node count nearest the profile's, LoadEps and the Zipf exponent
	// nearest LoadZipf.
	boundedN, boundedZipf float64
	replN                 float64
	replR                 float64
	replIdeal             value             // ideal fraction of the replication rows used
	replNoLeave           bool              // replication.csv is present but has no remove-random rows
	weights               string            // weights.csv's fleet, e.g. "4 nodes weighted 1, 1, 2, 4 (weights.csv)"
	weightPeakAt          map[string]string // per algorithm: the node of its weightPeak and its weight, "`cache-17`, weight 1"
	plotLinks             string            // see LinkTo
	storm                 string            // storm scenario, e.g. "from 4 to 5 nodes, 50,000 reads/s at hit ratio 0.95 over 1,000,000 keys"
	stormShort            string            // " (4 -> 5)" for the table header
	switches              []schema.Switch   // switching.csv, as read (section "Switching clients")
	sim                   *simReport        // the fleet simulation (sim-*.csv), nil when absent

	prop propagation // propagate.csv, propagate-cache.csv, propagate-redis.csv

	// conformance: per placement of conformance.csv, in order of first
	// appearance, its verdicts.
	conformance []verdicts
	domains     domainData // the failure-domain files (readDomains)
}

// verdicts are one placement's conformance checks (conformance.csv).
type verdicts struct {
	name, facts  string
	nodes, keys  int
	pass, na     []string // the properties passed (every check) and not applicable
	fail         []string // each failed check: "join (fraction of keys moved 0.1422, threshold 0.1316)"
	measured     int      // checks that ran
	checks       int
	referenceRun bool // the reference check ran
}

// LinkTo makes the report's plot links relative to dir, the directory the
// report is written to (by default Dir itself: links "plots/NAME.png").
// Where that has no relative path to Dir the links are absolute.
func (d *Data) LinkTo(dir string) {
	plotsDir, err1 := filepath.Abs(filepath.Join(d.dir, "plots"))
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

// named is a number belonging to an algorithm (or variant) name, with
// its interval when it has one.
type named struct {
	Name string
	V    float64
	Val  value
}

// Load reads the result files in dir for profile p. A file that exists
// but is malformed is an error naming it; absent files are listed in
// the report's list of missing files. It fails when dir has none of the files.
func Load(dir string, p Profile) (*Data, error) {
	ld := newLoader(&Data{dir: dir, profile: p})
	if err := ld.readAll(); err != nil {
		return nil, err
	}
	d := ld.d
	if p.Fleet != nil && schema.FleetStormFile.Exists(dir) {
		rows, err := schema.FleetStormFile.Read(dir)
		if err != nil {
			return nil, err
		}
		if err := checkNames(ld, schema.FleetStormFile.Path(dir), rows, true); err != nil {
			return nil, err
		}
		d.fleetStorm = rows
	}
	if p.Fleet != nil && schema.FleetSharesFile.Exists(dir) {
		rows, err := schema.FleetSharesFile.Read(dir)
		if err != nil {
			return nil, err
		}
		if err := checkNames(ld, schema.FleetSharesFile.Path(dir), rows, true); err != nil {
			return nil, err
		}
		d.fleetShares = rows
	}
	if p.Fleet != nil && schema.FleetLoadFile.Exists(dir) {
		rows, err := schema.FleetLoadFile.Read(dir)
		if err != nil {
			return nil, err
		}
		if err := checkNames(ld, schema.FleetLoadFile.Path(dir), rows, true); err != nil {
			return nil, err
		}
		d.fleetLoad = rows
	}
	if p.Fleet != nil && schema.FleetSwitchingFile.Exists(dir) {
		rows, err := schema.FleetSwitchingFile.Read(dir)
		if err != nil {
			return nil, err
		}
		if err := checkNames(ld, schema.FleetSwitchingFile.Path(dir), rows, false); err != nil {
			return nil, err
		}
		d.fleetSwitching = rows
	}
	if p.Fleet != nil && schema.FleetReplicationFile.Exists(dir) {
		rows, err := schema.FleetReplicationFile.Read(dir)
		if err != nil {
			return nil, err
		}
		d.fleetReplication = rows
	}
	if path := filepath.Join(dir, schema.FleetLookupFile); p.Fleet != nil {
		if _, err := os.Stat(path); err == nil {
			sets, err := schema.ReadBenchmarks(path)
			if err != nil {
				return nil, err
			}
			for i, s := range sets {
				if s.Name == "Lookup" && s.Variant == "from=key" && s.Unit == "ns/op" {
					d.fleetLookup = &sets[i]
				}
			}
			if d.fleetLookup == nil {
				return nil, fmt.Errorf("%s: no BenchmarkLookup from=key results (want the bench package's go test -bench output at the fleet's sizes)", path)
			}
			if strings.ContainsAny(d.fleetLookup.Caption, "`|") {
				return nil, fmt.Errorf("%s: %q: backquotes and \"|\" are not allowed in its configuration lines", path, d.fleetLookup.Caption)
			}
		}
	}
	if all := resultFiles(); len(d.missing) == len(all) && d.fleetStorm == nil && d.fleetShares == nil && d.fleetLoad == nil && d.fleetReplication == nil && d.fleetLookup == nil {
		return nil, fmt.Errorf("%s: no result files (want at least one of %s)", dir, strings.Join(all, ", "))
	}
	for _, r := range ld.rows {
		if slices.ContainsFunc(r.Vals[:], func(v value) bool { return v.OK }) {
			d.rows = append(d.rows, r)
		}
		if r.Info.Name == bounded.Name {
			d.rows = append(d.rows, ld.variants...)
		}
	}
	for _, r := range ld.external {
		if slices.ContainsFunc(r.Vals[:], func(v value) bool { return v.OK }) {
			d.rows = append(d.rows, r)
		}
	}
	return d, nil
}

// loader collects the values of the result files into the rows of the
// trade-off table while Load reads them.
type loader struct {
	d    *Data
	rows []algoRow // one per catalog algorithm, in catalog order
	// variants are the forms of bounded loads other than the catalog's
	// (load.csv names that one bounded-partition), in order of
	// appearance.
	variants []algoRow
	// external are the placements the catalog does not know (programs
	// speaking the external protocol, named by their handshakes; see
	// isExternal), in order of appearance.
	external []algoRow
	file     string // the result file being read, for errors
}

func newLoader(d *Data) *loader {
	ld := &loader{d: d, rows: make([]algoRow, len(catalog.Names()))}
	for i, name := range catalog.Names() {
		ld.rows[i].Info, _ = catalog.Describe(name)
	}
	return ld
}

// readAll reads every result file of d.Dir that exists, in the order of
// resultFiles, and lists the others in d.Missing.
func (ld *loader) readAll() error {
	dir := ld.d.dir
	present := func(name string) bool {
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
			ld.d.missing = append(ld.d.missing, name)
			return false
		}
		ld.file = name
		return true
	}
	if present(schema.LookupFile) {
		if err := ld.lookup(filepath.Join(dir, schema.LookupFile)); err != nil {
			return err
		}
	}
	steps := []struct {
		name string
		read func() error
	}{
		{schema.MovementFile.Name, func() error { return readInto(ld, dir, schema.MovementFile, ld.movement) }},
		{schema.SpreadFile.Name, func() error { return readInto(ld, dir, schema.SpreadFile, ld.spread) }},
		{schema.LoadFile.Name, func() error { return readInto(ld, dir, schema.LoadFile, ld.load) }},
		{schema.StormFile.Name, func() error { return readInto(ld, dir, schema.StormFile, ld.storm) }},
		{schema.ReplicationFile.Name, func() error { return readInto(ld, dir, schema.ReplicationFile, ld.replication) }},
		{schema.SwitchingFile.Name, func() error { return readInto(ld, dir, schema.SwitchingFile, ld.switching) }},
	}
	for _, st := range steps {
		if present(st.name) {
			if err := st.read(); err != nil {
				return err
			}
		}
	}
	if present(schema.WeightsFile.Name) {
		if err := readInto(ld, dir, schema.WeightsFile, ld.weights); err != nil {
			return err
		}
	}
	if present(schema.SimSummaryFile.Name) {
		if err := ld.simulation(dir); err != nil {
			return err
		}
	}
	if present(schema.ConformanceFile.Name) {
		if err := readInto(ld, dir, schema.ConformanceFile, ld.conformance); err != nil {
			return err
		}
	}
	if err := ld.readDomains(dir); err != nil {
		return err
	}
	// boundedloads.csv gives the movement of the forms of bounded loads
	// load.csv measured: it is read only when load.csv has them.
	if present(schema.BoundedFile.Name) && len(ld.variants) > 0 {
		if err := readInto(ld, dir, schema.BoundedFile, ld.bounded); err != nil {
			return err
		}
	}
	return ld.readPropagation(present)
}

// readPropagation reads the propagation files that are present.
func (ld *loader) readPropagation(present func(string) bool) error {
	dir := ld.d.dir
	if present(schema.PropagateFile.Name) {
		if err := readInto(ld, dir, schema.PropagateFile, ld.propagate); err != nil {
			return err
		}
	}
	if present(schema.PropagateCacheFile.Name) {
		if err := readInto(ld, dir, schema.PropagateCacheFile, ld.propagateCache); err != nil {
			return err
		}
	}
	if present(schema.PropagateRedisFile.Name) {
		if err := readInto(ld, dir, schema.PropagateRedisFile, ld.redirects); err != nil {
			return err
		}
	}
	return nil
}

// readInto reads file's rows from dir and passes them to take; errors of
// take name the file's path.
func readInto[R schema.Row](ld *loader, dir string, file schema.File[R], take func([]R) error) error {
	rows, err := file.Read(dir)
	if err != nil {
		return err
	}
	if err := checkNames(ld, file.Path(dir), rows, !slices.Contains(notPlacements, file.Name)); err != nil {
		return err
	}
	if err := take(rows); err != nil {
		return fmt.Errorf("%s: %w", file.Path(dir), err)
	}
	if lacksIntervals(rows) {
		ld.d.noIntervals = append(ld.d.noIntervals, file.Name)
	}
	return nil
}

// lacksIntervals reports whether a row of rows has a value whose 95%
// interval is missing (X present, X_lo and X_hi empty: one key set or
// one replay).
func lacksIntervals[R schema.Row](rows []R) bool {
	cols := schema.Columns[R]()
	for _, r := range rows {
		for _, c := range cols {
			base, ok := strings.CutSuffix(c, "_lo")
			if !ok || !slices.Contains(cols, base) {
				continue
			}
			if v, _ := schema.Text(r, base); v == "" {
				continue
			}
			if lo, _ := schema.Text(r, c); lo == "" {
				return true
			}
		}
	}
	return false
}

// notPlacements are the result files whose algo column names something
// other than a placement: conformance.csv a reference implementation
// (c-jump, textbook-ring), switching.csv a client's placement.
var notPlacements = []string{schema.ConformanceFile.Name, schema.SwitchingFile.Name}

// checkNames returns an error naming path, the line, the column and the
// value of the first row whose op, placement or (with algos) algo is not
// a name chbench writes: an op must be one chbench names itself
// (schema.IsOp) or, with a fleet profile, one of its changes (with or
// without -step); a placement one of schema.PlacementModes; an algo a
// catalog name or dialect, a form of bounded loads, or an external
// placement's label (see isExternal). A row is one line of its file
// (schema.ReadCSV refuses line breaks inside a cell), so row i is line
// i+2.
func checkNames[R schema.Row](ld *loader, path string, rows []R, algos bool) error {
	for i, r := range rows {
		bad := func(col, v, want string) error {
			return fmt.Errorf("%s:%d: column %s: %q is not %s", path, i+2, col, v, want)
		}
		if op, ok := schema.Text(r, "op"); ok && !schema.IsOp(op) && !ld.profileChange(op) {
			return bad("op", op, "an op chbench writes (a scenario op: "+strings.Join(schema.Ops(), ", ")+
				"; grow, shrink; a fleet change: join, leave, reweight, join-<k>, leave-<p>%, reweight-<p>%-to-<w>; any of them with -step)"+
				ld.profileChanges())
		}
		if pm, ok := schema.Text(r, "placement"); ok && !schema.IsPlacementMode(pm) {
			return bad("placement", pm, "a placement mode ("+strings.Join(schema.PlacementModes(), ", ")+")")
		}
		if a, ok := schema.Text(r, "algo"); ok && algos && !knownPlacement(a) {
			return bad("algo", a, "a catalog algorithm or dialect, a form of bounded loads ("+strings.Join(schema.BoundedVariants(), ", ")+
				") or an external placement's name ("+schema.LabelRule+")")
		}
	}
	return nil
}

// knownPlacement reports whether algo is a catalog algorithm or dialect,
// a form of bounded loads, or an external placement's name.
func knownPlacement(algo string) bool {
	_, err := catalog.Describe(algo)
	return err == nil || slices.Contains(schema.BoundedVariants(), algo) || isExternal(algo)
}

// profileChange reports whether op names a change of the report's fleet
// profile, or the per-step rows of one.
func (ld *loader) profileChange(op string) bool {
	fp := ld.d.profile.Fleet
	if fp == nil {
		return false
	}
	return slices.ContainsFunc(fp.Changes, func(c fleet.Change) bool { return op == c.Name || op == c.Name+"-step" })
}

// profileChanges names the fleet profile's changes for a message, or
// says that no profile was given.
func (ld *loader) profileChanges() string {
	fp := ld.d.profile.Fleet
	if fp == nil {
		return ", and no fleet profile names other changes"
	}
	var names []string
	for _, c := range fp.Changes {
		names = append(names, c.Name)
	}
	return ", or a change of the fleet profile " + fp.Path + " (" + strings.Join(names, ", ") + ")"
}

// row returns the trade-off table row of algo (a catalog algorithm, a
// form of bounded loads met before, or an external placement, whose row
// it adds when it first meets it), or nil.
func (ld *loader) row(algo string) *algoRow {
	if i := slices.Index(catalog.Names(), algo); i >= 0 {
		return &ld.rows[i]
	}
	for _, rs := range [][]algoRow{ld.variants, ld.external} {
		for i := range rs {
			if rs[i].Info.Name == algo {
				return &rs[i]
			}
		}
	}
	if isExternal(algo) {
		ld.external = append(ld.external, algoRow{Info: catalog.Info{Name: algo, Family: catalog.ExternalFamily,
			Removal: "as its handshake declares", Weights: "as its handshake declares"}})
		return &ld.external[len(ld.external)-1]
	}
	return nil
}

// isExternal reports whether algo names a placement outside the catalog:
// a program speaking the external protocol, whose rows carry the name
// its handshake gave (a label, and not a name the catalog or any form of
// bounded loads uses: load.csv names the catalog's bounded by its form,
// bounded-partition).
func isExternal(algo string) bool {
	_, err := catalog.Describe(algo)
	return err != nil && schema.IsLabel(algo) && !slices.Contains(schema.LoadPlacements(), algo) &&
		!slices.Contains(schema.BoundedVariants(), algo)
}

// set stores v as algo's metric m. A second value for the same row and
// metric (a file holding a sweep of configurations) is an error, not
// silently dropped.
func (ld *loader) set(algo string, m metric, v value) error {
	r := ld.row(algo)
	switch {
	case r == nil:
	case !r.Vals[m].OK:
		r.Vals[m] = v
	default:
		return fmt.Errorf("%s: two rows give %s's %s at the values the report reads (%v and %v): the report needs one configuration per algorithm; is this file a sweep?",
			ld.file, algo, metricName(m), r.Vals[m].V, v.V)
	}
	return nil
}

// benchUnits are the units the bench package reports per benchmark of
// lookup.txt (B/op and allocs/op are dropped by schema.ReadBenchmarks):
// a time in any other unit is an error, not a set the report skips.
var benchUnits = map[string][]string{
	"Lookup": {"ns/op"}, "LookupParallel": {"ns/op"}, "LookupSwap": {"ns/op"}, "Hash": {"ns/op"},
	"Build": {"ns/op", "retained-bytes", "retained-bytes/node"},
}

// lookup reads the lookup and build medians of lookup.txt at path at the
// profile's node counts. A Lookup, Build or Hash result in a unit the
// bench package does not write, or of an algorithm outside the catalog,
// is an error naming the line.
func (ld *loader) lookup(path string) error {
	d, p := ld.d, ld.d.profile
	sets, err := schema.ReadBenchmarks(path)
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		return fmt.Errorf("%s: no benchmark results (want the output of the bench package's go test -bench)", path)
	}
	for _, s := range sets {
		if strings.ContainsAny(s.Caption, "`|") {
			return fmt.Errorf("%s: %q: backquotes and \"|\" are not allowed in its configuration lines", path, s.Caption)
		}
		if units, ok := benchUnits[s.Name]; ok && !slices.Contains(units, s.Unit) {
			return fmt.Errorf("%s:%d: Benchmark%s in %s: want %s (a time in another unit is not read, and would silently drop the row)", path, s.Line, s.Name, s.Unit, strings.Join(units, ", "))
		}
		for _, sr := range s.Series {
			if _, err := catalog.Describe(sr.Algo); err != nil {
				return fmt.Errorf("%s:%d: Benchmark%s algo=%s: not a catalog algorithm or dialect (the bench package measures only those)", path, sr.Line, s.Name, sr.Algo)
			}
			for _, pt := range sr.Points {
				if pt.Nodes < 1 || pt.Nodes != math.Trunc(pt.Nodes) || !(pt.Median > 0) {
					return fmt.Errorf("%s: %s %s: nodes=%v, %v %s: want a whole node count >= 1 and a median > 0", path, s.Name, sr.Algo, pt.Nodes, pt.Median, s.Unit)
				}
			}
		}
	}
	for _, s := range sets {
		var at []struct {
			n float64
			m metric
		}
		switch {
		case s.Name == "Lookup" && s.Variant == "from=key" && s.Unit == "ns/op":
			d.machine = s.Caption
			d.lookupLoN = nearest(seriesXs(s.Series), float64(p.Nodes))
			d.lookupHiN = nearest(seriesXs(s.Series), float64(p.MaxNodes))
			xs := sortedUnique(seriesXs(s.Series))
			d.lookupMinN, d.lookupMaxN = xs[0], xs[len(xs)-1]
			at = append(at, struct {
				n float64
				m metric
			}{d.lookupLoN, lookupLo}, struct {
				n float64
				m metric
			}{d.lookupHiN, lookupHi}, struct {
				n float64
				m metric
			}{d.lookupMinN, lookupMin}, struct {
				n float64
				m metric
			}{d.lookupMaxN, lookupMax})
		case s.Name == "Build" && s.Variant == "" && (s.Unit == "ns/op" || s.Unit == "retained-bytes/node"):
			m := buildNs
			if s.Unit != "ns/op" {
				m = retainedPerNode
			}
			d.buildN = nearest(seriesXs(s.Series), float64(p.Nodes))
			at = append(at, struct {
				n float64
				m metric
			}{d.buildN, m})
		}
		for _, sr := range s.Series {
			for _, a := range at {
				if v, ok := pointAt(sr, a.n); ok {
					if err := ld.set(sr.Algo, a.m, v); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// meta collects the run's description from the runs of a file's rows,
// refusing text that would break the report's Markdown (backquotes and
// table bars; control characters are refused when the file is read).
func (ld *loader) meta(runs []schema.Run) error {
	d := ld.d
	for i, r := range runs {
		for _, c := range []struct{ name, v string }{{"Go version", r.GoVersion}, {"commit", r.Commit}, {"seed", r.Seed},
			{"placement", r.Placement}, {"key file", r.KeyFile}, {"algorithm", r.Algo}} {
			if err := plainText(i, c.name, c.v); err != nil {
				return err
			}
		}
		addOnce(&d.goVersions, r.GoVersion)
		addOnce(&d.commits, r.Commit)
		addOnce(&d.seeds, r.Seed)
		addOnce(&d.placements, r.Placement)
		kf := r.KeyFile
		if kf == "" {
			kf = "generated"
		}
		addOnce(&d.keySources, kf)
	}
	return nil
}

// movement reads movement.csv: the run's shape, the random leave's span
// over the node counts, and moved/ideal of a join, a random leave and a
// last leave at the node count nearest the profile's.
func (ld *loader) movement(rows []schema.Move) error {
	d := ld.d
	if err := ld.meta(runsOf(rows)); err != nil {
		return err
	}
	if err := d.keysSets(schema.MovementFile.Name, runsOf(rows)); err != nil {
		return err
	}
	var ops []string
	byOp := map[string][]float64{}
	// The size read is one the plots draw: a point expecting too few
	// moved keys (schema.Move.EnoughMoves) is neither drawn nor quoted.
	var froms, others []float64
	for _, r := range rows {
		addOnce(&ops, r.Op)
		byOp[r.Op] = append(byOp[r.Op], float64(r.From))
		if !r.EnoughMoves() {
			continue
		}
		switch r.Op {
		case schema.OpAdd:
			froms = append(froms, float64(r.From))
		case schema.OpRemoveRandom, schema.OpRemoveLast:
			others = append(others, float64(r.From))
		}
	}
	if len(froms) == 0 {
		froms = others
	}
	d.moveShape = shapes(ops, byOp)
	d.leaveSpan = leaveSpans(rows)
	d.moveN = nearest(froms, float64(d.profile.Nodes))
	for _, r := range rows {
		m := joinRatio
		switch r.Op {
		case schema.OpAdd:
		case schema.OpRemoveRandom:
			m = leaveRatio
		case schema.OpRemoveLast:
			m = lastLeaveRatio
		default:
			continue
		}
		if !r.EnoughMoves() && (d.moveN == 0 || float64(r.From) == d.moveN) {
			addOnce(&d.moveLeftOut, fmt.Sprintf("%s from %s nodes (%s expected moved keys per key set)", r.Op, count(float64(r.From)), numfmt.Sig3(r.ExpectedMoves)))
			continue
		}
		if float64(r.From) != d.moveN {
			continue
		}
		// The interval of moved/ideal is the moved fraction's over the
		// ideal fraction (a constant of the scenario).
		mv := est(r.MovedFrac, r.MovedFracLo, r.MovedFracHi).scaled(r.IdealFrac)
		mv.V = r.MovedOverIdeal
		if err := ld.set(r.Algo, m, mv); err != nil {
			return err
		}
	}
	return nil
}

// spread reads spread.csv: peak-to-mean of keys and the noise floor at the
// node count nearest the profile's.
func (ld *loader) spread(rows []schema.Spread) error {
	d := ld.d
	if err := ld.meta(runsOf(rows)); err != nil {
		return err
	}
	if err := d.keysSets(schema.SpreadFile.Name, runsOf(rows)); err != nil {
		return err
	}
	var ns []float64
	for _, r := range rows {
		ns = append(ns, float64(r.Nodes))
	}
	d.spreadN = sortedUnique(ns)
	d.spreadNUsed = nearest(ns, float64(d.profile.Nodes))
	for _, r := range rows {
		if float64(r.Nodes) != d.spreadNUsed {
			continue
		}
		if err := ld.set(r.Algo, keyPeak, est(r.PeakToMean, r.PeakToMeanLo, r.PeakToMeanHi)); err != nil {
			return err
		}
		if !d.noisePeak.OK {
			d.noisePeak = value{V: r.NoisePeakToMean, OK: true}
		}
	}
	return nil
}

// load reads load.csv: peak-to-mean of requests at the node count and
// Zipf exponent nearest the profile's, the hottest key's share and the
// hot-key floor, and the forms of bounded loads it measures (rows of
// their own in the table) with their eps.
func (ld *loader) load(rows []schema.Load) error {
	d := ld.d
	if err := ld.meta(runsOf(rows)); err != nil {
		return err
	}
	if err := d.keysSets(schema.LoadFile.Name, runsOf(rows)); err != nil {
		return err
	}
	var ns, zs []float64
	for _, r := range rows {
		ns = append(ns, float64(r.Nodes))
	}
	d.loadN = nearest(ns, float64(d.profile.Nodes))
	for _, r := range rows {
		if float64(r.Nodes) == d.loadN && r.Zipf != nil {
			zs = append(zs, *r.Zipf)
		}
	}
	d.loadZipf = nearestLinear(zs, d.profile.Zipf)
	for i, r := range rows {
		if float64(r.Nodes) != d.loadN || r.Zipf == nil || *r.Zipf != d.loadZipf {
			continue
		}
		algo := r.Algo
		switch {
		case catalog.IsDialect(algo):
			continue // the trade-off table compares algorithms; dialects have their own section
		case slices.Contains(catalog.Names(), algo), isExternal(algo):
		case algo == schema.VariantPartition:
			algo = bounded.Name // load.csv names the catalog's bounded by its form
		default:
			if !slices.Contains(schema.LoadPlacements(), algo) {
				return fmt.Errorf("row %d: algo %q is neither a catalog algorithm or dialect, a form of bounded loads (%s) nor an external placement's name", i+1, algo, strings.Join(schema.LoadPlacements(), ", "))
			}
			if ld.row(algo) == nil {
				in, _ := catalog.Describe(bounded.Name)
				in.Name = algo
				ld.variants = append(ld.variants, algoRow{Info: in, Variant: true})
			}
		}
		if algo != r.Algo || !slices.Contains(catalog.Names(), algo) && !isExternal(algo) {
			if d.loadEps == 0 {
				d.loadEps = r.Eps
			}
		}
		if err := ld.set(algo, zipfPeak, est(r.PeakToMean, r.PeakToMeanLo, r.PeakToMeanHi)); err != nil {
			return err
		}
		if !d.hotShare.OK {
			d.hotShare = value{V: r.HotShare, OK: true}
		}
		if !d.floor.OK {
			d.floor = value{V: r.Floor, OK: true}
			d.floorMin = value{V: r.FloorMinNode, OK: true}
		}
		if d.hotNodes == nil {
			d.hotNodes = map[string]hotNode{}
		}
		d.hotNodes[algo] = hotNode{r.HotKeyNode, r.FloorHotNode}
	}
	return nil
}

// hotNode is where a placement put the hottest key of load.csv's first
// stream, and the hot-key floor on that node.
type hotNode struct {
	ID    string
	Floor float64
}

// storm reads storm.csv: the database load multiple right after the first
// row's membership change (rows of other changes are left out).
func (ld *loader) storm(rows []schema.Storm) error {
	d := ld.d
	if err := ld.meta(runsOf(rows)); err != nil {
		return err
	}
	if err := d.keysSets(schema.StormFile.Name, runsOf(rows)); err != nil {
		return err
	}
	r0 := rows[0]
	d.storm = fmt.Sprintf("from %s to %s nodes, %s reads/s at hit ratio %s over %s keys",
		count(float64(r0.From)), count(float64(r0.To)), count(r0.Reads), strconv.FormatFloat(r0.HitRatio, 'g', -1, 64), count(float64(r0.WorkingSet)))
	d.stormShort = fmt.Sprintf(" (%s -> %s)", count(float64(r0.From)), count(float64(r0.To)))
	for _, r := range rows {
		if r.Op != r0.Op || r.From != r0.From || r.To != r0.To {
			continue
		}
		if err := ld.set(r.Algo, stormMultiple, est(r.DBMultiple, r.DBMultipleLo, r.DBMultipleHi)); err != nil {
			return err
		}
	}
	return nil
}

// replication reads replication.csv: on a random leave, at the node count
// and replication factor nearest the profile's, the key-replica pairs
// moved, the keys re-homed entirely and the replica load.
func (ld *loader) replication(rows []schema.Replication) error {
	d := ld.d
	if err := ld.meta(runsOf(rows)); err != nil {
		return err
	}
	if err := d.keysSets(schema.ReplicationFile.Name, runsOf(rows)); err != nil {
		return err
	}
	var ns, rs []float64
	for i, r := range rows {
		if r.Replicas > fleet.MaxReplicas {
			return fmt.Errorf("row %d: replicas %d, want 1 to %d", i+1, r.Replicas, fleet.MaxReplicas)
		}
		if r.Op == schema.OpRemoveRandom {
			ns = append(ns, float64(r.From))
		}
	}
	d.replNoLeave = len(ns) == 0
	d.replN = nearest(ns, float64(d.profile.Nodes))
	for _, r := range rows {
		if r.Op == schema.OpRemoveRandom && float64(r.From) == d.replN {
			rs = append(rs, float64(r.Replicas))
		}
	}
	d.replR = nearestLinear(rs, float64(d.profile.Replicas))
	for i, r := range rows {
		if r.Op != schema.OpRemoveRandom || float64(r.From) != d.replN || float64(r.Replicas) != d.replR || !slices.Contains(catalog.Names(), r.Algo) {
			continue
		}
		if d.replIdeal.OK && r.IdealFrac != d.replIdeal.V {
			return fmt.Errorf("row %d: ideal fraction %v, but an earlier row of the same scenario gives %v", i+1, r.IdealFrac, d.replIdeal.V)
		}
		for _, c := range []struct {
			m metric
			v value
		}{{replicaMoved, est(r.PairsMovedFrac, r.PairsMovedFracLo, r.PairsMovedFracHi)},
			{replicaLost, est(r.AllLostFrac, r.AllLostFracLo, r.AllLostFracHi)},
			{replicaLoadPeak, est(r.LoadPeakToMean, r.LoadPeakToMeanLo, r.LoadPeakToMeanHi)}} {
			if err := ld.set(r.Algo, c.m, c.v); err != nil {
				return err
			}
		}
		d.replIdeal = value{V: r.IdealFrac, OK: true}
	}
	return nil
}

// spanFactor is how much an algorithm's random-leave moved/ideal must
// vary across fleet sizes (largest over smallest) for the report to say
// that one size's value does not speak for the others.
const spanFactor = 1.5

// leaveSpread is the least and the most of an algorithm's moved/ideal across
// node counts, at the counts where they occur.
type leaveSpread struct {
	Name         string
	Lo, Hi       float64
	LoAtN, HiAtN float64
}

// leaveSpans returns the Spans of the remove-random rows of movement.csv
// that vary more than spanFactor, in the order algorithms first appear.
func leaveSpans(rows []schema.Move) []leaveSpread {
	var order []string
	spans := map[string]*leaveSpread{}
	for _, r := range rows {
		if r.Op != schema.OpRemoveRandom || !r.EnoughMoves() {
			continue
		}
		n, v := float64(r.From), r.MovedOverIdeal
		sp, ok := spans[r.Algo]
		if !ok {
			order = append(order, r.Algo)
			spans[r.Algo] = &leaveSpread{r.Algo, v, v, n, n}
			continue
		}
		if v < sp.Lo {
			sp.Lo, sp.LoAtN = v, n
		}
		if v > sp.Hi {
			sp.Hi, sp.HiAtN = v, n
		}
	}
	var out []leaveSpread
	for _, algo := range order {
		if sp := spans[algo]; sp.Lo > 0 && sp.Hi/sp.Lo > spanFactor {
			out = append(out, *sp)
		}
	}
	return out
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

// Inputs returns the paths of the files of results directory dir that
// the report reads, links or describes (those that exist), for a command
// to register as its inputs before any work, so that no output replaces
// them: every result file of a run (schema.Files, the report itself
// aside) and of a fleet profile's runs, the plot index, and every figure
// in plots/ (the PNGs the report embeds, the SVGs beside them). Load
// registers every file it opens, too, but only as it opens it.
func Inputs(dir string) []string {
	var names []string
	for _, e := range schema.Files() {
		if e.Name != ReportFile && !strings.ContainsRune(e.Name, '*') {
			names = append(names, e.Name)
		}
	}
	names = append(names, resultFiles()...)
	names = append(names, schema.FleetStormFile.Name, schema.FleetSharesFile.Name, schema.FleetLoadFile.Name,
		schema.FleetSwitchingFile.Name, schema.FleetReplicationFile.Name, schema.FleetLookupFile,
		filepath.Join(schema.PlotsDir, schema.PlotIndex))
	var out []string
	for _, name := range names {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, ext := range []string{"*.png", "*.svg"} {
		figures, _ := filepath.Glob(filepath.Join(globEscape(dir), schema.PlotsDir, ext)) // only ErrBadPattern, which the escape rules out
		out = append(out, figures...)
	}
	return out
}

// globEscape returns path with the characters filepath.Match reads as a
// pattern escaped, so that a directory named "a[1]" globs as itself.
func globEscape(path string) string {
	var b strings.Builder
	for _, r := range path {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// resultFiles returns the result files Load reads, in its order.
func resultFiles() []string {
	return []string{schema.LookupFile, schema.MovementFile.Name, schema.SpreadFile.Name, schema.LoadFile.Name, schema.StormFile.Name,
		schema.ReplicationFile.Name, schema.BoundedFile.Name, schema.WeightsFile.Name, schema.ConformanceFile.Name,
		schema.SwitchingFile.Name, schema.SimSummaryFile.Name,
		schema.PropagateFile.Name, schema.PropagateCacheFile.Name, schema.PropagateRedisFile.Name}
}

// conformance reads conformance.csv: per placement, in order of first
// appearance, the properties it passed, failed (each failed check with
// its value and threshold) and that did not apply.
func (ld *loader) conformance(rows []schema.Conformance) error {
	byName := map[string]int{}
	for _, r := range rows {
		i, ok := byName[r.Algo]
		if !ok {
			i = len(ld.d.conformance)
			byName[r.Algo] = i
			ld.d.conformance = append(ld.d.conformance, verdicts{name: r.Algo, facts: r.Facts, nodes: r.Nodes, keys: r.Keys})
		}
		v := &ld.d.conformance[i]
		v.checks++
		if r.Value != nil {
			v.measured++
		}
		switch r.Verdict {
		case schema.VerdictFail:
			what := r.Property + " (" + r.Check
			if r.Value != nil {
				what += fmt.Sprintf(" %s, threshold %s", sig3(*r.Value), sig3(*r.Threshold))
			}
			v.fail = append(v.fail, what+")")
			v.pass = slices.DeleteFunc(v.pass, func(p string) bool { return p == r.Property })
		case schema.VerdictNA:
			if !slices.Contains(v.na, r.Property) {
				v.na = append(v.na, r.Property)
			}
		case schema.VerdictPass:
			failed := slices.ContainsFunc(v.fail, func(f string) bool { return strings.HasPrefix(f, r.Property+" (") })
			if !failed && !slices.Contains(v.pass, r.Property) {
				v.pass = append(v.pass, r.Property)
			}
			if r.Property == "reference" {
				v.referenceRun = true
			}
		}
	}
	return nil
}

// weights reads weights.csv (one row per node of one weighted fleet,
// chbench spread -shares): for every algorithm its WeightPeak, the
// largest share / weight share over its nodes, with that node's interval
// over the weight share, and the fleet's description in
// d.Weights from the first algorithm's rows.
func (ld *loader) weights(rows []schema.ShareRow) error {
	var order []string
	best := map[string]value{}
	seen := map[string]bool{} // algo and node ID
	var ws []float64
	for i, r := range rows {
		if err := plainText(i, "algorithm", r.Algo); err != nil {
			return err
		}
		if !slices.Contains(order, r.Algo) {
			order = append(order, r.Algo)
		}
		id := r.Algo + "\x00" + r.ID
		if seen[id] {
			return fmt.Errorf("two rows give %s's node %q", r.Algo, r.ID)
		}
		seen[id] = true
		v := est(r.Share.Share, r.ShareLo, r.ShareHi).scaled(r.WeightShare)
		if b, ok := best[r.Algo]; !ok || v.V > b.V {
			best[r.Algo] = v
			if ld.d.weightPeakAt == nil {
				ld.d.weightPeakAt = map[string]string{}
			}
			ld.d.weightPeakAt[r.Algo] = fmt.Sprintf("`%s`, weight %s", r.ID, strconv.FormatFloat(r.Weight, 'g', -1, 64))
		}
		if r.Algo == order[0] {
			ws = append(ws, r.Weight)
		}
	}
	for _, algo := range order {
		if err := ld.set(algo, weightPeak, best[algo]); err != nil {
			return err
		}
	}
	if len(ws) > 0 {
		ld.d.weights = fmt.Sprintf("%d nodes weighted %s (%s)", len(ws), weightClasses(ws), schema.WeightsFile.Name)
	}
	return nil
}

// weightClasses lists the weights of a fleet: each weight in order for a
// few nodes ("1, 1, 2, 4"), else each distinct weight with its node count,
// largest first ("2 (8 nodes) and 1 (32 nodes)").
func weightClasses(ws []float64) string {
	f := func(w float64) string { return strconv.FormatFloat(w, 'g', -1, 64) }
	if len(ws) <= 12 {
		parts := make([]string, len(ws))
		for i, w := range ws {
			parts[i] = f(w)
		}
		return strings.Join(parts, ", ")
	}
	counts := map[float64]int{}
	var distinct []float64
	for _, w := range ws {
		if counts[w] == 0 {
			distinct = append(distinct, w)
		}
		counts[w]++
	}
	slices.Sort(distinct)
	slices.Reverse(distinct)
	parts := make([]string, len(distinct))
	for i, w := range distinct {
		parts[i] = fmt.Sprintf("%s (%d nodes)", f(w), counts[w])
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// bounded reads boundedloads.csv: JoinRatio and LeaveRatio of the forms of
// bounded loads load.csv measured (ld.variants), moved over ideal fraction
// on a join and on a leave, at the node count nearest the profile's, at
// d.LoadEps (the eps load.csv ran them at) and the Zipf exponent nearest
// d.LoadZipf.
func (ld *loader) bounded(rows []schema.Bounded) error {
	d, vs := ld.d, ld.variants
	var ns, zs []float64
	for _, r := range rows {
		ns = append(ns, float64(r.Nodes))
	}
	d.boundedN = nearest(ns, float64(d.profile.Nodes))
	for _, r := range rows {
		if float64(r.Nodes) == d.boundedN && r.Eps == d.loadEps {
			zs = append(zs, r.Zipf)
		}
	}
	if len(zs) == 0 {
		return nil // no row at load.csv's eps
	}
	d.boundedZipf = nearestLinear(zs, d.loadZipf)
	for _, r := range rows {
		if float64(r.Nodes) != d.boundedN || r.Eps != d.loadEps || r.Zipf != d.boundedZipf {
			continue
		}
		j := slices.IndexFunc(vs, func(v algoRow) bool { return v.Info.Name == r.Algo })
		if j < 0 {
			continue
		}
		if vs[j].Vals[joinRatio].OK {
			return fmt.Errorf("a second row for %s at %s nodes, eps %v, Zipf s = %v", vs[j].Info.Name, count(d.boundedN), d.loadEps, d.boundedZipf)
		}
		vs[j].Vals[joinRatio] = est(r.MovedJoinFrac, r.MovedJoinFracLo, r.MovedJoinFracHi).scaled(r.IdealJoinFrac)
		vs[j].Vals[leaveRatio] = est(r.MovedLeaveFrac, r.MovedLeaveFracLo, r.MovedLeaveFracHi).scaled(r.IdealLeaveFrac)
	}
	return nil
}

// fileKeys is what one result file says of its keys: the key count of
// every row (schema.KeyCount) and the key files its rows were made with
// ("" for generated keys), in order of first appearance.
type fileKeys struct {
	file    string
	counts  []schema.KeyCount
	sources []string
}

// keysSets adds to d.keyFiles the key counts and key sources of the runs
// of a file. A keys or sets cell that is not a whole number is an error
// naming the row.
func (d *Data) keysSets(file string, runs []schema.Run) error {
	fk := fileKeys{file: file}
	for i, r := range runs {
		k, err := schema.KeyCountOfRun(r)
		if err != nil {
			return fmt.Errorf("row %d: %w", i+1, err)
		}
		fk.counts = append(fk.counts, k)
		if !slices.Contains(fk.sources, r.KeyFile) {
			fk.sources = append(fk.sources, r.KeyFile)
		}
	}
	d.keyFiles = append(d.keyFiles, fk)
	return nil
}

// plainText returns an error naming row i (1-based in the message) and
// what v is when v holds a backquote or a "|", which would break the
// report's Markdown.
func plainText(i int, what, v string) error {
	if strings.ContainsAny(v, "`|") {
		return fmt.Errorf("row %d: %s %q: control characters, backquotes and \"|\" are not allowed", i+1, what, v)
	}
	return nil
}

// runsOf returns the Run of every row.
func runsOf[R schema.Row](rows []R) []schema.Run {
	out := make([]schema.Run, len(rows))
	for i, r := range rows {
		out[i] = schema.RunOf(r)
	}
	return out
}

// metricName names m for messages: its short name in the report.
func metricName(m metric) string { return metricInfos(&Data{})[m].short }

func addOnce(list *[]string, s string) {
	if s != "" && !slices.Contains(*list, s) {
		*list = append(*list, s)
	}
}

func sortedUnique(xs []float64) []float64 {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

func seriesXs(ss []schema.BenchSeries) []float64 {
	var xs []float64
	for _, s := range ss {
		for _, p := range s.Points {
			xs = append(xs, p.Nodes)
		}
	}
	return xs
}

// pointAt returns the point of s at x as a Value (with benchmath's
// interval of the median when the point has one).
func pointAt(s schema.BenchSeries, x float64) (value, bool) {
	for _, p := range s.Points {
		if p.Nodes == x {
			return value{V: p.Median, OK: true, Lo: p.Lo, Hi: p.Hi, CI: p.CI}, true
		}
	}
	return value{}, false
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
var count = numfmt.Count
