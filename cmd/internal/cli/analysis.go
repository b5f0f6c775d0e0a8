package cli

import (
	"context"
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
	"github.com/chbench/chbench/trace"
)

// Analysis is the flag group of the commands that stream a key source
// through placements (move, spread, replication, storm): the placement
// flags, the algorithms, hashes and vnodes swept, the keys (generated,
// -keyfile or -trace), workers, the output and the commit.
type Analysis struct {
	Placement
	Trace Trace
	// TraceStats is what OpenKeys read from -trace (nil without one).
	TraceStats *trace.Stats
	keys       int
	Sets       int
	seed       uint64
	keyFile    string
	Format     string
	Formats    []string // parsed -format
	Out        string   // -o prefix
	workers    int
	commit     string
	hashes     string // raw -hash, possibly a list
	kind       string // raw -keys-kind
	vnodesL    string // raw -vnodes, possibly a list
	place      string // -placement
}

func (a *Analysis) Register(fs *flag.FlagSet) {
	def := catalog.DefaultConfig()
	fs.StringVar(&a.Algo, "algo", "all", "comma-separated algorithms, or all ("+strings.Join(catalog.Names(), ", ")+")"+AlgoHelp)
	registerExec(fs, &a.Exec)
	fs.StringVar(&a.vnodesL, "vnodes", strconv.Itoa(def.VNodes), "virtual nodes per node of weight 1 (ring, bounded); a comma-separated list sweeps")
	fs.StringVar(&a.hashes, "hash", def.Hash, "key hash: "+strings.Join(algorithms.HashNames(), ", ")+"; a comma-separated list sweeps (slots always use CRC-16)")
	fs.Float64Var(&a.Eps, "eps", def.Eps, "bounded: load factor c = 1 + eps, eps > 0")
	fs.IntVar(&a.Partitions, "partitions", def.Partitions, fmt.Sprintf("bounded: number of fixed partitions; 0 = automatic, %d per node (at least 16,384)", catalog.PartitionsPerNode))
	registerTable(fs, &a.TableSize, &a.Probes, &a.Capacity)
	fs.StringVar(&a.place, "placement", schema.PlacementPerSet, "per-set: each key set on its own independent layout for algorithms whose layout is random (ring, bounded, ketama, maglev, multiprobe), so means and intervals cover layouts too; fixed: one layout, the given node IDs, for every set (this exact fleet)")
	fs.IntVar(&a.keys, "keys", 100000, "keys per generated key set (ignored with -keyfile)")
	fs.IntVar(&a.Sets, "sets", 5, "independent key sets; means and 95% intervals are over sets (>= 2 for an interval)")
	fs.Uint64Var(&a.seed, "seed", 1, "seed of the key generator and of random scenario choices")
	fs.StringVar(&a.kind, "keys-kind", string(keyset.KindRandom), "shape of generated keys: "+kindNames()+" (ignored with -keyfile)")
	fs.StringVar(&a.keyFile, "keyfile", "", "read keys from this file, one per line, split into -sets disjoint sets (line i -> set i mod sets); - is standard input, and a pipe or FIFO is read once")
	traceKeys := "distinct"
	if fs.Name() == "storm" { // a storm is about requests: a key weighs by its reads
		traceKeys = "requests"
	}
	a.Trace.Register(fs, traceKeys)
	if stdoutOnly[fs.Name()] {
		fs.StringVar(&a.Format, "format", "table", "output format: table, csv or json, written to standard output")
	} else {
		registerOutput(fs, &a.Format, &a.Out)
	}
	fs.IntVar(&a.workers, "workers", 0, "goroutines (0 = one per core); results do not depend on it")
	fs.StringVar(&a.commit, "commit", "", "source revision recorded in results (default: the binary's VCS revision, if known)")
	registerMem(fs, &a.Mem)
}

// Parse parses args with fs, which must leave no positional argument, and
// returns the flags given explicitly, the analysis options and the sweep
// lists (see Options).
func (a *Analysis) Parse(fs *flag.FlagSet, args []string) (map[string]bool, analysis.Options, analysis.Sweep, error) {
	set, err := Parse(fs, args)
	if err != nil {
		return nil, analysis.Options{}, analysis.Sweep{}, err
	}
	if fs.NArg() != 0 {
		return nil, analysis.Options{}, analysis.Sweep{}, Args(fs, 0, "")
	}
	if err := a.RefuseUnused(set); err != nil {
		return nil, analysis.Options{}, analysis.Sweep{}, err
	}
	if err := a.CheckTrace(set); err != nil {
		return nil, analysis.Options{}, analysis.Sweep{}, err
	}
	o, sw, err := a.Options()
	return set, o, sw, err
}

// RefuseUnused returns the error for a flag of the group given but not
// consumed ([RefuseUnused]): -keys and -keys-kind with -keyfile, which
// gives the keys itself, and a configuration flag no algorithm of -algo
// reads ([RefuseUnusedConfig]). A bad -algo is left to Options.
func (a *Analysis) RefuseUnused(set map[string]bool) error {
	if err := RefuseUnused(set, Consumes{Flags: []string{"keys", "keys-kind"}, On: a.keyFile == "", Unless: "with -keyfile (the file gives the keys)"}); err != nil {
		return err
	}
	if algos, err := ParseAlgos(a.Algo); err == nil {
		return RefuseUnusedConfig(set, "", algos)
	}
	return nil
}

// CheckTrace checks the trace flags (Trace.Check): -trace replaces
// -keyfile, -keys and -keys-kind.
func (a *Analysis) CheckTrace(set map[string]bool) error {
	return a.Trace.Check(set, "keyfile", "keys", "keys-kind")
}

// Options returns the analysis options and the sweep lists of -algo,
// -hash and -vnodes.
func (a *Analysis) Options() (analysis.Options, analysis.Sweep, error) {
	var sw analysis.Sweep
	algos, err := ParseAlgos(a.Algo)
	if err != nil {
		return analysis.Options{}, sw, err
	}
	if err := checkExec(a.Exec); err != nil {
		return analysis.Options{}, sw, err
	}
	if err := NoDuplicates("algo", algos); err != nil {
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
	if err := NoDuplicates("hash", sw.Hashes); err != nil {
		return analysis.Options{}, sw, err
	}
	if sw.VNodes, err = Ints("vnodes", a.vnodesL, 1); err != nil {
		return analysis.Options{}, sw, err
	}
	if err := CheckWorkers(a.workers); err != nil {
		return analysis.Options{}, sw, err
	}
	if a.keyFile == "" && a.keys < 1 {
		return analysis.Options{}, sw, fmt.Errorf("keys %d: need at least 1 key per set", a.keys)
	}
	if a.Sets < 1 {
		return analysis.Options{}, sw, fmt.Errorf("sets %d: need at least 1 key set", a.Sets)
	}
	if a.Sets > keyset.MaxSets {
		return analysis.Options{}, sw, fmt.Errorf("sets %d: at most %d key sets", a.Sets, keyset.MaxSets)
	}
	if a.Formats, err = parseFormats(a.Format, a.Out); err != nil {
		return analysis.Options{}, sw, err
	}
	if err := checkOut(a.Out, a.Formats); err != nil {
		return analysis.Options{}, sw, err
	}
	commit := a.commit
	if commit == "" {
		commit = Revision()
	}
	// Values written into every output format must be valid in each: a
	// newline in a commit or key file path would end a benchfmt
	// configuration line and pass the rest off as a result.
	if err := checkCommit(commit); err != nil {
		return analysis.Options{}, sw, err
	}
	for _, p := range []struct{ flag, path string }{{"keyfile", a.keyFile}, {"trace", a.Trace.Path}} {
		if slices.Contains(a.Formats, "bench") && strings.ContainsFunc(p.path, unicode.IsControl) {
			return analysis.Options{}, sw, fmt.Errorf("%s %q: a path with a control character cannot be written in -format bench", p.flag, p.path)
		}
	}
	mem := a.Budget()
	cfg := catalog.Config{Hash: sw.Hashes[0], VNodes: sw.VNodes[0], Eps: a.Eps, Partitions: a.Partitions,
		TableSize: a.TableSize, Probes: a.Probes, Capacity: a.Capacity, MemoryBudget: mem.Limit()}
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
	o := analysis.Options{Algo: algos[0], Config: cfg, Seed: a.seed, Workers: a.workers, Commit: commit, Placement: a.place, Memory: mem}
	if a.keyFile == "" && !a.Trace.Given() { // a key file or trace is opened by OpenKeys, once the flags are all checked
		g, err := keyset.NewGenerator(a.keys, a.Sets, a.seed)
		if err != nil {
			return analysis.Options{}, sw, err
		}
		if o.Keys, err = g.WithKind(kind); err != nil {
			return analysis.Options{}, sw, err
		}
	}
	return o, sw, nil
}

// OpenKeys opens -keyfile or -trace, split into -sets sets, as o.Keys,
// the run's one key source (generated keys need nothing: Options built
// them), and returns the function that closes it, removing the copy of a
// stream. A trace is read once here, to count its keys (-trace-keys) and
// write what it holds and its warnings to stderr. A file that cannot be
// read or holds too few keys is an error of the run, not of the command
// line.
func (a *Analysis) OpenKeys(o *analysis.Options, stderr io.Writer) (closeKeys func(), err error) {
	if a.Trace.Given() {
		in, err := a.Trace.Input(stderr, true)
		if err != nil {
			return nil, err
		}
		if o.Keys, a.TraceStats, err = in.KeySource(a.Sets, a.Trace.Distinct()); err != nil {
			in.Close()
			return nil, err
		}
		return in.Close, nil
	}
	if a.keyFile == "" {
		return func() {}, nil
	}
	f, err := keyset.OpenFile(a.keyFile, a.Sets, o.Memory)
	if err != nil {
		return nil, err
	}
	o.Keys = f
	return func() { f.Close() }, nil
}

// OpenPrograms starts the programs of -algo's exec: entries under ctx
// (see [OpenPrograms]) and points o and sw at them by the names they gave
// in their handshakes. A program that does not start or fails its
// handshake is an error of the run, not of the command line. The caller
// closes the Programs, on every path.
func (a *Analysis) OpenPrograms(ctx context.Context, o *analysis.Options, sw *analysis.Sweep) (*Programs, error) {
	algos, ps, err := OpenPrograms(ctx, sw.Algos, a.Exec)
	if err != nil {
		return nil, err
	}
	if i := slices.Index(sw.Algos, o.Algo); i >= 0 {
		o.Algo = algos[i]
	}
	sw.Algos, o.Opened = algos, ps.Opened
	return ps, nil
}

// stdoutOnly names the commands registering Analysis that write one
// format, table, csv or json, to standard output (see OneFormat):
// Register gives them no -o and a -format without bench, so that their
// -h offers only what they accept.
var stdoutOnly = map[string]bool{"storm": true, "replication": true, "domains": true}

// registerOutput adds -format (a list of schema's formats) and -o
// PREFIX to fs, for the commands that write any format to files.
func registerOutput(fs *flag.FlagSet, format, out *string) {
	fs.StringVar(format, "format", "table", "output format(s), comma-separated: table, csv, json or bench (Go benchmark format for benchstat); several need -o")
	fs.StringVar(out, "o", "", "write each format to `PREFIX`.csv, .json, .txt (bench) or .table instead of to standard output (leave -o out for that), through temporary files renamed once all are written; PREFIX names a file in an existing directory, and none of the files may be a directory, device or symbolic link")
}

// OneFormat returns an error naming -format unless a asks for one of
// table, csv or json (surrounding spaces trimmed, as parseFormats does):
// the formats of the stdoutOnly commands, which have no benchmark format
// and write one format to standard output.
func (a *Analysis) OneFormat(cmd string) error {
	a.Format = strings.TrimSpace(a.Format)
	if strings.Contains(a.Format, ",") {
		return fmt.Errorf("-format %q: %s writes one format, to standard output", a.Format, cmd)
	}
	if a.Format == "bench" {
		return fmt.Errorf("format bench: %s writes table, csv or json", cmd)
	}
	return nil
}

// CheckWorkers rejects a -workers value that is negative (which the
// analysis would silently read as one per core) or above
// analysis.MaxWorkers.
func CheckWorkers(w int) error {
	if w < 0 || w > analysis.MaxWorkers {
		return fmt.Errorf("workers %d: give 0 (one per core) to %d", w, analysis.MaxWorkers)
	}
	return nil
}

// ParseOps splits a -op list and checks every entry against schema.Ops
// before any work starts; the error names the bad or repeated entry.
func ParseOps(s string) ([]string, error) {
	var ops []string
	for _, op := range strings.Split(s, ",") {
		op = strings.TrimSpace(op)
		if !slices.Contains(schema.Ops(), op) {
			return nil, fmt.Errorf("unknown scenario op %q (known: %s)", op, strings.Join(schema.Ops(), ", "))
		}
		ops = append(ops, op)
	}
	return ops, NoDuplicates("op", ops)
}

// NodeCounts parses -nodes / -from: a comma-separated list of node
// counts >= 1, or "grid" for the log grid 3..10,000.
func NodeCounts(flagName, s string) ([]int, error) {
	if s == "grid" {
		return analysis.DefaultNodeGrid(), nil
	}
	ns, err := Ints(flagName, s, 1)
	if err != nil {
		return nil, err
	}
	return ns, nil
}

// Revision returns the binary's VCS revision, or "unknown".
func Revision() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return "unknown"
}

// parseFormats parses -format (schema.ParseFormats); more than one format
// needs an -o prefix (out).
func parseFormats(s, out string) ([]string, error) {
	fs, err := schema.ParseFormats(s)
	if err != nil {
		return nil, err
	}
	if len(fs) > 1 && out == "" {
		return nil, fmt.Errorf("-format %s: several formats need -o PREFIX (one file per format)", s)
	}
	return fs, nil
}

// checkOut checks, before any work, that the files of -o prefix (one per
// format) can be written (CheckPrefix).
func checkOut(prefix string, formats []string) error {
	exts := make([]string, len(formats))
	for i, f := range formats {
		exts[i] = schema.Ext(f)
	}
	return CheckPrefix(prefix, exts)
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
