// Package plots draws chbench's results as PNG and SVG plots with
// gonum.org/v1/plot. It reads result files only (benchmark output and the
// CSVs written by the analysis package) and never runs an algorithm.
//
// Every algorithm has one colour, marker and dash pattern in every plot,
// fixed by its position in catalog.Names ([algoStyle]). Legends sit in a
// strip right of the axes so they never hide data. Confidence intervals
// are drawn as error bars given as offsets from the centre.
package plots

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chbench/chbench/schema"
)

// RenderAll reads the result files in dir (lookup.txt, movement.csv,
// scenarios.csv, spread.csv, vnodes.csv, hashes.csv, weights.csv,
// storm-timeline.csv, storm-zipf-timeline.csv, reweight.csv, replication.csv,
// load.csv, boundedloads.csv, hashes-sequential.csv, propagate.csv,
// propagate-cache.csv, propagate-redis.csv), writes every plot they support to dir/plots/ as
// a PNG (1200x800 pixels; line plots of more than 8 algorithms are small
// multiples, one panel per catalog family, 1600 pixels wide and 1200 high
// for up to two rows of panels; bar charts of more than 8 algorithms are
// 1600x1000; dot charts stack one panel per setting, 330 pixels each
// under a 110-pixel header, at least 800 high, 1600 wide for more than 8
// algorithms) and an SVG, and returns the paths written, in a
// fixed order. Each file is replaced atomically (temporary file + rename),
// so a failed run never leaves a partial file or destroys an older plot.
//
// Plots:
//   - lookup[-variant]: median ns/op vs nodes per algorithm, 95% CI, from
//     BenchmarkLookup (and build[-variant], etc., for every other
//     Benchmark<Name>/algo=/nodes= benchmark and every custom unit);
//   - movement-<op>: moved fraction vs nodes with the ideal line, and
//     movement-ratio-<op>: moved/ideal without modulo, for each op in
//     movement.csv and then in scenarios.csv (same columns, other ops);
//   - spread-peak-to-mean: a dot chart of peak-to-mean per algorithm, one
//     panel per node count, with CI, the sampling-noise floor, a line at
//     1 and, where known, exact values, layout bands and theory;
//   - ring-vnodes: ring peak-to-mean vs virtual nodes, from vnodes.csv, or
//     from spread.csv when it holds several ring vnodes values;
//   - spread-hashes: peak-to-mean per hash function grouped by algorithm,
//     from hashes.csv;
//   - weights: each node's share of keys per algorithm against its weight
//     share, from weights.csv;
//   - storm: database reads/s (log axis at doublings of the steady load)
//     against seconds after a cache fleet's resize, per algorithm, with
//     the steady load, from storm-timeline.csv;
//   - storm-zipf: the same with Zipf key popularity, from
//     storm-zipf-timeline.csv;
//   - fleet-changes, reweight, reweight-collateral: moved fraction against
//     the ideal, and collateral moves, of named and weighted fleet changes
//     and reweights, from reweight.csv;
//   - replication-<op>-n<from>, replication-lost-<op>-n<from>: key-replica
//     pairs moved per replication factor against the ideal, and (for
//     removals) a dot chart of the keys re-homed entirely (none of their
//     replicas stays in place), one panel per replication factor on a log
//     axis with 0 under a break, from replication.csv;
//   - load-peak-to-mean: peak-to-mean request load against the Zipf
//     exponent (ticked at the exponents measured) per placement, with the
//     hot-key floor, from load.csv; in panels, the forms of bounded loads
//     in one of their own beside the plain ring;
//   - bounded-<metric>-s<zipf>: max load / cap, away fraction, moved
//     fraction on join and leave, moves per capacity against eps for the
//     forms of bounded loads, from boundedloads.csv;
//   - spread-hashes-sequential: spread-hashes on sequential keys, from
//     hashes-sequential.csv;
//   - sim-hit-ratio, sim-db-reads: the simulated fleet's hit ratio and
//     database reads per second per window against time, per placement,
//     the membership changes as dashed lines; sim-storm-peak,
//     sim-storm-extra, sim-storm-refill: per placement and change time the
//     storm's peak multiple of the baseline, its extra database reads to
//     the refill and the refill time; sim-node-hit-ratio: per placement the
//     nodes' hit ratios over the run, one panel per node memory; from
//     sim-window.csv, sim-event.csv, sim-node.csv, sim-summary.csv and
//     sim-trace.csv (chbench simulate).
//   - switching, switching-weighted: the keys routed differently when a
//     fleet switches between two dialects of real clients and proxies, a
//     matrix with the value (and the database multiple) in every cell,
//     one per fleet of switching.csv;
//   - domains-shared: a dot chart of the keys whose replicas share a rack
//     or zone, each algorithm's own replicas, one panel per topology and
//     replication factor, against R nodes drawn at random, from
//     domains.csv;
//   - domains-ranks: a dot chart of the lightest node's share of each
//     replica rank over its weight share, each algorithm's own replicas
//     on the flat weighted fleet, beside successive sampling, from
//     domains-ranks.csv;
//   - domains-changes: a dot chart of the replicas a node, rack or zone
//     failing or a rack added copies over the ideal, one replica per
//     domain, one panel per change (modulo in the caption), from
//     domains-changes.csv;
//   - propagate, propagate-cache: requests per window while a membership
//     change propagates to the clients, stale-routed and sent astray per
//     algorithm, simulated (markers, 95% CI) beside the model (lines), on
//     a log axis, from propagate.csv and propagate-cache.csv (one figure
//     per scenario, suffixed -<op>-n<from> when a file holds several);
//   - propagate-redis: a live Redis Cluster resharding's ASK and MOVED
//     redirects per window against the redirect model and its band, from
//     propagate-redis.csv.
//
// Every plot has a caption under its title saying where its numbers came
// from (keys, sets, hash, seed and build from the CSV columns; goos,
// goarch, cpu and GOMAXPROCS from the benchmark file).
//
// A missing input file only skips its plots; the error for missing files
// (listing them) is returned only when nothing at all could be rendered.
// lookup.txt, movement.csv and spread.csv are the expected inputs; the
// other files are optional and not listed as missing.
// An input that exists but is malformed (no rows, bad number, NaN, node
// count < 1, missing column, duplicate row, an op that is neither a
// scenario op nor a fleet change label, a Zipf exponent that is not a
// number) is always an error naming the
// file, line and value; the plots of the other inputs are still written and
// returned with it. Every file goes into dir/plots: a figure whose name
// is not a plain file name (one built from such a value) is not written.
// After drawing, dir/plots/index.txt (schema.PlotIndex) lists the figures
// drawn, and the .png and .svg files of every other figure in dir/plots
// (an earlier run's, of an input now absent or failing) are removed.
func RenderAll(dir string) ([]string, error) {
	var (
		figs    []*figure
		errs    []error
		missing []string
	)
	// The inputs every run has: missing ones are listed when nothing at
	// all could be rendered; the others are optional.
	expected := func(name string) {
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, filepath.Join(dir, name))
		}
	}
	expected(schema.LookupFile)
	expected(schema.MovementFile.Name)
	expected(schema.SpreadFile.Name)
	add := func(fs []*figure, err error) {
		figs = append(figs, fs...)
		errs = appendErr(errs, err)
	}
	if p := filepath.Join(dir, schema.LookupFile); exists(p) {
		add(benchFiguresFrom(p))
	}
	add(figuresOf(dir, schema.MovementFile, movementFigures))
	add(figuresOf(dir, schema.ScenariosFile, movementFigures))
	spreadRows, err := readIfPresent(dir, schema.SpreadFile)
	errs = appendErr(errs, err)
	if spreadRows != nil {
		fs, err := one(spreadFigure(spreadRows))
		add(fs, wrapFile(schema.SpreadFile.Path(dir), err))
	}
	if schema.VNodesFile.Exists(dir) {
		add(figuresOf(dir, schema.VNodesFile, func(rows []schema.Spread) ([]*figure, error) { return one(vnodesFigure(rows)) }))
	} else if spreadRows != nil {
		// No sweep file: use spread.csv's ring rows if they sweep vnodes.
		add(one(vnodesFigure(spreadRows)))
	}
	add(figuresOf(dir, schema.HashesFile, func(rows []schema.Spread) ([]*figure, error) { return one(hashesFigure(rows)) }))
	for _, in := range []struct {
		file schema.File[schema.StormPoint]
		name string
	}{{schema.StormTimelineFile, "storm"}, {schema.StormZipfTimelineFile, "storm-zipf"}} {
		add(figuresOf(dir, in.file, func(rows []schema.StormPoint) ([]*figure, error) { return one(stormFigure(rows, in.name)) }))
	}
	add(figuresOf(dir, schema.ReweightFile, reweightFigures))
	add(figuresOf(dir, schema.ReplicationFile, replicationFigures))
	add(figuresOf(dir, schema.WeightsFile, func(rows []schema.ShareRow) ([]*figure, error) { return one(weightsFigure(rows)) }))
	// A fleet profile's members (make fleet): the same chart, its own file.
	add(figuresOf(dir, schema.FleetSharesFile, func(rows []schema.ShareRow) ([]*figure, error) {
		f, err := weightsFigure(rows)
		if f != nil {
			f.name = "fleet-weights"
		}
		return one(f, err)
	}))
	add(figuresOf(dir, schema.LoadFile, loadFigures))
	add(figuresOf(dir, schema.BoundedFile, boundedFigures))
	add(figuresOf(dir, schema.HashesSequentialFile, sequentialHashesFigure))
	add(simFiguresFrom(dir))
	add(figuresOf(dir, schema.SwitchingFile, switchingFigures))
	add(figuresOf(dir, schema.DomainsFile, domainsFigures))
	add(figuresOf(dir, schema.DomainRanksFile, domainRanksFigures))
	add(figuresOf(dir, schema.DomainChangesFile, domainChangesFigures))
	add(figuresOf(dir, schema.PropagateFile, func(rows []schema.Propagate) ([]*figure, error) { return propagateFigures(rows, "propagate") }))
	add(figuresOf(dir, schema.PropagateCacheFile, func(rows []schema.Propagate) ([]*figure, error) { return propagateFigures(rows, "propagate-cache") }))
	add(figuresOf(dir, schema.PropagateRedisFile, func(rows []schema.Redirect) ([]*figure, error) { return one(redirectFigure(rows)) }))

	out := filepath.Join(dir, schema.PlotsDir)
	var written []string
	if len(figs) > 0 {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, err
		}
	}
	names := map[string]bool{}
	for _, f := range figs {
		if names[f.name] {
			// e.g. one op in both movement.csv and scenarios.csv.
			errs = append(errs, fmt.Errorf("plot %s: more than one input gives it; drawn once, from the first", f.name))
			continue
		}
		names[f.name] = true
		paths, err := f.save(out)
		written = append(written, paths...)
		errs = appendErr(errs, err)
	}
	if len(written) == 0 && len(errs) == 0 {
		return nil, fmt.Errorf("no plots rendered from %s: missing or empty inputs (%s)", dir, strings.Join(missing, ", "))
	}
	// The figures drawn now (both formats written) are the current ones:
	// the index lists them, and an earlier run's figures of inputs now
	// absent or failing are removed, so no old image passes for new.
	drawn := map[string]bool{}
	for _, p := range written {
		if n, ok := strings.CutSuffix(filepath.Base(p), ".svg"); ok {
			drawn[n] = true
		}
	}
	stale, err := schema.StalePlots(dir, drawn)
	errs = appendErr(errs, err)
	for _, p := range stale {
		errs = appendErr(errs, os.Remove(p))
	}
	if len(written) > 0 || len(stale) > 0 {
		errs = appendErr(errs, schema.WritePlotIndex(dir, slices.Collect(maps.Keys(drawn))))
	}
	return written, errors.Join(errs...)
}

// exists reports whether path is present (a file that cannot be read
// still is: its reader says why).
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// readIfPresent reads file from dir, or returns nil rows when it is
// absent; every error names the file's path.
func readIfPresent[R schema.Row](dir string, file schema.File[R]) ([]R, error) {
	if !file.Exists(dir) {
		return nil, nil
	}
	rows, err := file.Read(dir)
	return rows, wrapFile(file.Path(dir), err)
}

// figuresOf reads file from dir, if present, and returns the figures
// build draws from its rows; an error names the file's path.
func figuresOf[R schema.Row](dir string, file schema.File[R], build func([]R) ([]*figure, error)) ([]*figure, error) {
	rows, err := readIfPresent(dir, file)
	if err != nil || rows == nil {
		return nil, err
	}
	figs, err := build(rows)
	return figs, wrapFile(file.Path(dir), err)
}

// one returns the figure f (if any) as a list.
func one(f *figure, err error) ([]*figure, error) {
	if f == nil {
		return nil, err
	}
	return []*figure{f}, err
}

// sequentialHashesFigure is hashesFigure on sequential keys
// (hashes-sequential.csv).
func sequentialHashesFigure(rows []schema.Spread) ([]*figure, error) {
	f, err := hashesFigure(rows)
	if f == nil || err != nil {
		return nil, err
	}
	f.name = "spread-hashes-sequential"
	f.title = strings.Replace(f.title, "function", "function, sequential keys user:1, user:2, ...", 1)
	return []*figure{f}, nil
}

func appendErr(errs []error, err error) []error {
	if err != nil {
		errs = append(errs, err)
	}
	return errs
}

// wrapFile prefixes err with path unless the message already names it.
func wrapFile(path string, err error) error {
	if err == nil || strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}
