package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/schema"
)

// analysisFlags are the flags move and spread share beyond placementFlags.
type analysisFlags struct {
	placementFlags
	keys    int
	sets    int
	seed    uint64
	keyFile string
	format  string
	formats []string // parsed -format
	out     string   // -o prefix
	workers int
	commit  string
	hashes  string // raw -hash, possibly a list
	kind    string // raw -keys-kind
	vnodesL string // raw -vnodes, possibly a list
	place   string // -placement
}

func (a *analysisFlags) register(fs *flag.FlagSet) {
	def := catalog.DefaultConfig()
	fs.StringVar(&a.algo, "algo", "all", "comma-separated algorithms, or all ("+strings.Join(catalog.Names(), ", ")+")")
	fs.StringVar(&a.vnodesL, "vnodes", strconv.Itoa(def.VNodes), "virtual nodes per node of weight 1 (ring, bounded); a comma-separated list sweeps")
	fs.StringVar(&a.hashes, "hash", def.Hash, "key hash: "+strings.Join(algorithms.HashNames(), ", ")+"; a comma-separated list sweeps (slots always use CRC-16)")
	fs.Float64Var(&a.eps, "eps", def.Eps, "bounded: load factor c = 1 + eps, eps > 0")
	fs.IntVar(&a.partitions, "partitions", def.Partitions, fmt.Sprintf("bounded: number of fixed partitions; 0 = automatic, %d per node (at least 16,384)", catalog.PartitionsPerNode))
	registerTableFlags(fs, &a.tableSize, &a.probes, &a.capacity)
	fs.StringVar(&a.place, "placement", schema.PlacementPerSet, "per-set: each key set on its own independent layout for algorithms whose layout is random (ring, bounded, ketama, maglev, multiprobe), so means and intervals cover layouts too; fixed: one layout, the given node IDs, for every set (this exact fleet)")
	fs.IntVar(&a.keys, "keys", 100000, "keys per generated key set (ignored with -keyfile)")
	fs.IntVar(&a.sets, "sets", 5, "independent key sets; means and 95% intervals are over sets (>= 2 for an interval)")
	fs.Uint64Var(&a.seed, "seed", 1, "seed of the key generator and of random scenario choices")
	fs.StringVar(&a.kind, "keys-kind", string(keyset.KindRandom), "shape of generated keys: "+kindNames()+" (ignored with -keyfile)")
	fs.StringVar(&a.keyFile, "keyfile", "", "read keys from this file, one per line, split into -sets disjoint sets (line i -> set i mod sets); - is standard input, and a pipe or FIFO is read once")
	if stdoutOnly[fs.Name()] {
		fs.StringVar(&a.format, "format", "table", "output format: table, csv or json, written to standard output")
	} else {
		registerOutput(fs, &a.format, &a.out)
	}
	fs.IntVar(&a.workers, "workers", 0, "goroutines (0 = one per core); results do not depend on it")
	fs.StringVar(&a.commit, "commit", "", "source revision recorded in results (default: the binary's VCS revision, if known)")
	registerMem(fs, &a.mem)
}

// parse parses args with fs, which must leave no positional argument, and
// returns the flags given explicitly, the analysis options and the sweep
// lists (see options).
func (a *analysisFlags) parse(fs *flag.FlagSet, args []string) (map[string]bool, analysis.Options, analysis.Sweep, error) {
	set, err := parse(fs, args)
	if err != nil {
		return nil, analysis.Options{}, analysis.Sweep{}, err
	}
	if fs.NArg() != 0 {
		return nil, analysis.Options{}, analysis.Sweep{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	o, sw, err := a.options()
	return set, o, sw, err
}

// options returns the analysis options and the sweep lists of -algo,
// -hash and -vnodes.
func (a *analysisFlags) options() (analysis.Options, analysis.Sweep, error) {
	var sw analysis.Sweep
	algos, err := catalog.ParseNames(a.algo)
	if err != nil {
		return analysis.Options{}, sw, err
	}
	if err := noDuplicates("algo", algos); err != nil {
		return analysis.Options{}, sw, err
	}
	sw.Algos = algos
	for _, h := range strings.Split(a.hashes, ",") {
		h = strings.TrimSpace(h)
		if h == "" { // LookupHash would read "" as the default
			return analysis.Options{}, sw, fmt.Errorf("hash %q: empty entry in the list", a.hashes)
		}
		if _, err := algorithms.LookupHash(h); err != nil {
			return analysis.Options{}, sw, err
		}
		sw.Hashes = append(sw.Hashes, h)
	}
	if err := noDuplicates("hash", sw.Hashes); err != nil {
		return analysis.Options{}, sw, err
	}
	if sw.VNodes, err = parseInts("vnodes", a.vnodesL, 1); err != nil {
		return analysis.Options{}, sw, err
	}
	if err := checkWorkers(a.workers); err != nil {
		return analysis.Options{}, sw, err
	}
	if a.keyFile == "" && a.keys < 1 {
		return analysis.Options{}, sw, fmt.Errorf("keys %d: need at least 1 key per set", a.keys)
	}
	if a.sets < 1 {
		return analysis.Options{}, sw, fmt.Errorf("sets %d: need at least 1 key set", a.sets)
	}
	if a.sets > keyset.MaxSets {
		return analysis.Options{}, sw, fmt.Errorf("sets %d: at most %d key sets", a.sets, keyset.MaxSets)
	}
	if a.formats, err = parseFormats(a.format, a.out); err != nil {
		return analysis.Options{}, sw, err
	}
	if err := checkOutPrefix(a.out, a.formats); err != nil {
		return analysis.Options{}, sw, err
	}
	commit := a.commit
	if commit == "" {
		commit = vcsRevision()
	}
	// Values written into every output format must be valid in each: a
	// newline in a commit or key file path would end a benchfmt
	// configuration line and pass the rest off as a result.
	if err := checkCommit(commit); err != nil {
		return analysis.Options{}, sw, err
	}
	if slices.Contains(a.formats, "bench") && strings.ContainsFunc(a.keyFile, unicode.IsControl) {
		return analysis.Options{}, sw, fmt.Errorf("keyfile %q: a path with a control character cannot be written in -format bench", a.keyFile)
	}
	applyMem(a.mem)
	cfg := catalog.Config{Hash: sw.Hashes[0], VNodes: sw.VNodes[0], Eps: a.eps, Partitions: a.partitions,
		TableSize: a.tableSize, Probes: a.probes, Capacity: a.capacity, MemoryBudget: int64(a.mem)}
	if err := cfg.Validate(); err != nil {
		return analysis.Options{}, sw, err
	}
	if !slices.Contains(schema.PlacementModes(), a.place) {
		return analysis.Options{}, sw, fmt.Errorf("placement %q: want %s", a.place, strings.Join(schema.PlacementModes(), " or "))
	}
	kind, err := keyset.ParseKeyKind(a.kind)
	if err != nil {
		return analysis.Options{}, sw, err
	}
	o := analysis.Options{Algo: algos[0], Config: cfg, Seed: a.seed, Workers: a.workers, Commit: commit, Placement: a.place}
	if a.keyFile == "" { // a key file is opened by openKeys, once the flags are all checked
		g, err := keyset.NewGenerator(a.keys, a.sets, a.seed)
		if err != nil {
			return analysis.Options{}, sw, err
		}
		if o.Keys, err = g.WithKind(kind); err != nil {
			return analysis.Options{}, sw, err
		}
	}
	return o, sw, nil
}

// openKeys opens -keyfile, split into -sets sets, as o.Keys, the run's one
// key source (generated keys need nothing: options built them), and
// returns the function that closes it, removing the copy of a stream. A
// file that cannot be read or holds too few keys is an error of the run,
// not of the command line.
func (a *analysisFlags) openKeys(o *analysis.Options) (closeKeys func(), err error) {
	if a.keyFile == "" {
		return func() {}, nil
	}
	f, err := keyset.NewFile(a.keyFile, a.sets)
	if err != nil {
		return nil, err
	}
	o.Keys = f
	return func() { f.Close() }, nil
}

// stdoutOnly names the commands registering analysisFlags that write one
// format, table, csv or json, to standard output (see tableCSVOrJSON):
// register gives them no -o and a -format without bench, so that their
// -h offers only what they accept.
var stdoutOnly = map[string]bool{"storm": true, "replication": true}

// registerOutput adds -format (a list of formatExt's formats) and -o
// PREFIX to fs, for the commands that write any format to files.
func registerOutput(fs *flag.FlagSet, format, out *string) {
	fs.StringVar(format, "format", "table", "output format(s), comma-separated: table, csv, json or bench (Go benchmark format for benchstat); several need -o")
	fs.StringVar(out, "o", "", "write each format to `PREFIX`.csv, .json, .txt (bench) or .table instead of to standard output (leave -o out for that), through temporary files renamed once all are written; PREFIX names a file in an existing directory, and none of the files may be a directory, device or symbolic link")
}

// tableCSVOrJSON returns an error naming -format unless a asks for one of
// table, csv or json (surrounding spaces trimmed, as parseFormats does):
// the formats of the stdoutOnly commands, which have no benchmark format
// and write one format to standard output.
func (a *analysisFlags) tableCSVOrJSON(cmd string) error {
	a.format = strings.TrimSpace(a.format)
	if strings.Contains(a.format, ",") {
		return fmt.Errorf("-format %q: %s writes one format, to standard output", a.format, cmd)
	}
	if a.format == "bench" {
		return fmt.Errorf("format bench: %s writes table, csv or json", cmd)
	}
	return nil
}

// parseInts parses a comma-separated list of distinct integers >= min
// ("grid" is not accepted here); the error names the flag and the bad or
// repeated entry.
func parseInts(flagName, s string, min int) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("%s %q: not an integer", flagName, p)
		}
		if v < min {
			return nil, fmt.Errorf("%s %d: must be at least %d", flagName, v, min)
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("%s %d: listed twice (each configuration would run and be written twice)", flagName, v)
		}
		out = append(out, v)
	}
	return out, nil
}

// noDuplicates returns an error naming the flag and the first entry of
// list that appears twice: a repeated entry would run its configuration
// twice and write duplicate rows, which the plots reject.
func noDuplicates(flagName string, list []string) error {
	for i, x := range list {
		if slices.Contains(list[:i], x) {
			return fmt.Errorf("%s %q: listed twice (each configuration would run and be written twice)", flagName, x)
		}
	}
	return nil
}

// checkWorkers rejects a -workers value that is negative (which the
// analysis would silently read as one per core) or above
// analysis.MaxWorkers.
func checkWorkers(w int) error {
	if w < 0 || w > analysis.MaxWorkers {
		return fmt.Errorf("workers %d: give 0 (one per core) to %d", w, analysis.MaxWorkers)
	}
	return nil
}

// parseOps splits a -op list and checks every entry against schema.Ops
// before any work starts; the error names the bad or repeated entry.
func parseOps(s string) ([]string, error) {
	var ops []string
	for _, op := range strings.Split(s, ",") {
		op = strings.TrimSpace(op)
		if !slices.Contains(schema.Ops(), op) {
			return nil, fmt.Errorf("unknown scenario op %q (known: %s)", op, strings.Join(schema.Ops(), ", "))
		}
		ops = append(ops, op)
	}
	return ops, noDuplicates("op", ops)
}

// parseNodeList parses -nodes / -from: a comma-separated list of node
// counts >= 1, or "grid" for the log grid 3..10,000.
func parseNodeList(flagName, s string) ([]int, error) {
	if s == "grid" {
		return analysis.DefaultNodeGrid(), nil
	}
	ns, err := parseInts(flagName, s, 1)
	if err != nil {
		return nil, err
	}
	return ns, nil
}

func vcsRevision() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return "unknown"
}

// runMove measures the moved fraction of each algorithm on a resize or a
// scenario.
func runMove(args []string, stdout, stderr io.Writer) error {
	var a analysisFlags
	fs := newFlagSet("move", "-algo A[,B...] -from N[,N...] [-to M | -op OP[,OP...]] [flags]", stderr)
	a.register(fs)
	from := fs.String("from", "", "node count(s) before the change: N, a comma-separated list, or grid (log grid 3..10,000)")
	to := fs.Int("to", 0, "node count after the change (one -from only); nodes node-N... join, or the last nodes leave")
	ops := fs.String("op", "", "scenario(s) instead of -to, comma-separated: "+strings.Join(schema.Ops(), ", ")+" (default add)")
	minMoves := fs.Int("min-moves", 1000, "generated keys: raise the keys per set to ceil(min-moves / ideal fraction) so every key set expects at least this many moved keys; 0 = exactly -keys")
	maxKeys := fs.Int("max-keys", 2_000_000, "with -min-moves: at most this many keys per set; scenarios that would need more are left out (listed on stderr)")
	var ff fleetFlags
	ff.register(fs)
	fs.String("replicas", "", "replication factor(s) R: measure replica sets instead (same as chbench replication)")
	var resize *analysis.Scenario // set by -to
	var set map[string]bool
	o, sw, err := func() (analysis.Options, analysis.Sweep, error) {
		var o analysis.Options
		var sw analysis.Sweep
		var err error
		set, o, sw, err = a.parse(fs, args)
		if err != nil || set["replicas"] || ff.used(set) {
			return o, sw, err
		}
		if *from == "" {
			return o, sw, fmt.Errorf("-from is required")
		}
		if sw.Nodes, err = parseNodeList("from", *from); err != nil {
			return o, sw, err
		}
		if *minMoves < 0 {
			return o, sw, fmt.Errorf("min-moves %d: give 0 (off) or more", *minMoves)
		}
		if *maxKeys < 1 {
			return o, sw, fmt.Errorf("max-keys %d: need at least 1 key per set", *maxKeys)
		}
		o.MinMoves, o.MaxKeys = *minMoves, *maxKeys
		sw.Ops = []string{schema.OpAdd}
		if *ops != "" {
			if sw.Ops, err = parseOps(*ops); err != nil {
				return o, sw, err
			}
		}
		if set["to"] {
			if *ops != "" {
				return o, sw, fmt.Errorf("-to %d and -op %q: give one or the other", *to, *ops)
			}
			if len(sw.Nodes) != 1 {
				return o, sw, fmt.Errorf("-to %d needs a single -from, got %q", *to, *from)
			}
			sc, err := analysis.Resize(sw.Nodes[0], *to)
			if err != nil {
				return o, sw, err
			}
			resize = &sc
		}
		return o, sw, nil
	}()
	if err != nil {
		return badUsage(err)
	}
	if set["replicas"] {
		return runReplication(args, stdout, stderr)
	}
	if ff.used(set) {
		return runFleetMove(&a, &ff, *from, set, stdout, stderr)
	}
	closeKeys, err := a.openKeys(&o) // a missing or empty key file, before any work
	if err != nil {
		return err
	}
	defer closeKeys()
	// Every algorithm x membership x scenario x configuration, before the
	// first key is streamed: a bad one would otherwise fail after the
	// others had run.
	if resize != nil {
		err = sw.EachConfig(o, func(o analysis.Options) error { return analysis.CheckMovement(o, *resize) })
	} else {
		err = sw.CheckMove(o)
	}
	if err != nil {
		return badUsage(err)
	}
	bar := startProgress(stderr, &o, sweepKeys(o, sw, len(sw.Nodes)*len(sw.Ops))) // stderr terminals only
	defer bar.stop()
	var results []schema.Move
	var skipped []string
	if resize != nil {
		err = sw.EachConfig(o, func(o analysis.Options) error {
			r, err := analysis.Movement(o, *resize)
			if errors.Is(err, analysis.ErrTooFewMoves) {
				if msg := err.Error(); !slices.Contains(skipped, msg) {
					skipped = append(skipped, msg)
				}
				return nil
			}
			results = append(results, r)
			return err
		})
	} else {
		results, skipped, err = analysis.SweepMove(o, sw)
	}
	if err != nil {
		return err
	}
	bar.stop()
	for _, s := range skipped {
		fmt.Fprintln(stderr, "move: left out:", s)
	}
	if len(results) == 0 {
		return fmt.Errorf("no scenario could reach -min-moves %d within -max-keys %d", *minMoves, *maxKeys)
	}
	return writeMoves(&a, stdout, results)
}

// writeMoves writes movement results in each format of a (to standard
// output, or to a.out's files).
func writeMoves(a *analysisFlags, stdout io.Writer, rows []schema.Move) error {
	return writeOutputs(stdout, a.out, a.formats, func(format string, w io.Writer) error {
		switch format {
		case "csv":
			return schema.WriteCSV(w, rows)
		case "json":
			return schema.WriteJSON(w, rows)
		case "bench":
			return schema.WriteBench(w, rows)
		}
		return analysis.WriteMoveTable(w, rows)
	})
}

// runSpread measures how evenly each algorithm spreads keys over nodes.
func runSpread(args []string, stdout, stderr io.Writer) error {
	var a analysisFlags
	fs := newFlagSet("spread", "-algo A[,B...] -nodes N[,N...] [flags]", stderr)
	a.register(fs)
	nodesL := fs.String("nodes", "", "node count(s): N, a comma-separated list, or grid (log grid 3..10,000); or give -node-ids")
	fs.StringVar(&a.weights, "weights", "", "comma-separated node weights > 0, one per node (one -nodes value only)")
	fs.StringVar(&a.nodeIDs, "node-ids", "", "comma-separated unique node IDs (default node-0 ... node-{n-1})")
	draws := fs.Int("draws", 200, "algorithms with a random layout (ring, bounded, ...): summarise the exact peak-to-mean and cv over this many independent layouts (mean, 5th-95th percentile); 0 = off")
	shares := fs.Bool("shares", false, "with -format csv: one row per node (id, weight share, measured and exact share) instead of one per configuration")
	var members []algorithms.Node // one explicit membership (-weights, -node-ids)
	o, sw, err := func() (analysis.Options, analysis.Sweep, error) {
		set, o, sw, err := a.parse(fs, args)
		if err != nil {
			return o, sw, err
		}
		if *draws < 0 || *draws > analysis.MaxDraws {
			return o, sw, fmt.Errorf("draws %d: give 0 to %d layouts", *draws, analysis.MaxDraws)
		}
		o.Draws = *draws
		if *shares && !slices.Contains(a.formats, "csv") {
			return o, sw, fmt.Errorf("-shares needs -format csv, got -format %s", a.format)
		}
		if a.weights != "" || a.nodeIDs != "" {
			if set["nodes"] {
				if a.nodes, err = strconv.Atoi(*nodesL); err != nil {
					return o, sw, fmt.Errorf("nodes %q: one node count with -weights or -node-ids", *nodesL)
				}
			}
			members, err = a.membership(set)
			return o, sw, err
		}
		if *nodesL == "" {
			return o, sw, fmt.Errorf("-nodes is required (or -node-ids)")
		}
		sw.Nodes, err = parseNodeList("nodes", *nodesL)
		return o, sw, err
	}()
	if err != nil {
		return badUsage(err)
	}
	closeKeys, err := a.openKeys(&o) // a missing or empty key file, before any work
	if err != nil {
		return err
	}
	defer closeKeys()
	// Every algorithm x membership x configuration, before the first key.
	if members != nil {
		err = sw.CheckSpreadEach(o, members)
	} else {
		err = sw.CheckSpread(o)
	}
	if err != nil {
		return badUsage(err)
	}
	runs := len(sw.Nodes)
	if members != nil {
		runs = 1
	}
	bar := startProgress(stderr, &o, sweepKeys(o, sw, runs)) // stderr terminals only
	defer bar.stop()
	var results []schema.Spread
	if members != nil {
		results, err = eachConfig(o, sw, func(o analysis.Options) (schema.Spread, error) { return analysis.Spread(o, members) })
	} else {
		results, err = analysis.SweepSpread(o, sw)
	}
	if err != nil {
		return err
	}
	bar.stop()
	rows := results
	return writeOutputs(stdout, a.out, a.formats, func(format string, w io.Writer) error {
		switch {
		case format == "csv" && *shares:
			return schema.WriteCSV(w, schema.SharesOf(rows))
		case format == "csv":
			return schema.WriteCSV(w, rows)
		case format == "json":
			return schema.WriteJSON(w, rows)
		case format == "bench":
			return schema.WriteBench(w, rows)
		}
		return analysis.WriteSpreadTable(w, rows)
	})
}

// eachConfig runs measure once per configuration of sw (algorithms,
// hashes, vnodes) and returns the results in sw.EachConfig's order.
func eachConfig[R any](o analysis.Options, sw analysis.Sweep, measure func(analysis.Options) (R, error)) ([]R, error) {
	var out []R
	err := sw.EachConfig(o, func(o analysis.Options) error {
		r, err := measure(o)
		out = append(out, r)
		return err
	})
	return out, err
}

// formatExt is the file name extension of each output format with -o.
var formatExt = map[string]string{"table": ".table", "csv": ".csv", "json": ".json", "bench": ".txt"}

// parseFormats parses -format: a comma-separated list of distinct formats
// of formatExt. More than one needs an -o prefix (out).
func parseFormats(s, out string) ([]string, error) {
	var fs []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if _, ok := formatExt[f]; !ok {
			return nil, fmt.Errorf("unknown format %q (known: table, csv, json, bench)", f)
		}
		fs = append(fs, f)
	}
	if err := noDuplicates("format", fs); err != nil {
		return nil, err
	}
	if len(fs) > 1 && out == "" {
		return nil, fmt.Errorf("-format %s: several formats need -o PREFIX (one file per format)", s)
	}
	return fs, nil
}

// writeOutputs writes the results in each format with write: to stdout
// when prefix is empty (one format), else to prefix plus the format's
// extension through schema.WriteFiles (every file is replaced only once
// all are written, so a failed run leaves an earlier run's files whole),
// then prints each path written.
func writeOutputs(stdout io.Writer, prefix string, formats []string, write func(format string, w io.Writer) error) error {
	if prefix == "" {
		return write(formats[0], stdout)
	}
	paths := make([]string, len(formats))
	for i, f := range formats {
		paths[i] = prefix + formatExt[f]
	}
	if err := schema.WriteFiles(paths, func(i int, w io.Writer) error { return write(formats[i], w) }); err != nil {
		return fmt.Errorf("-o %s: %w", prefix, err)
	}
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	return nil
}

// checkCommit refuses a -commit that could not be written in every output
// and read back by the report: a control character would end a benchfmt
// configuration line, a backquote or "|" would break the report's Markdown.
func checkCommit(commit string) error {
	if strings.ContainsFunc(commit, unicode.IsControl) {
		return fmt.Errorf("commit %q: contains a control character", commit)
	}
	if strings.ContainsAny(commit, "`|") {
		return fmt.Errorf("commit %q: contains a backquote or \"|\", which the report cannot show", commit)
	}
	return nil
}
