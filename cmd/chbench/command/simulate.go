package command

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/trace"
	"github.com/chbench/chbench/workload"
)

// simFlags are simulate's flags: the placements and the membership, the
// traffic (a trace or a generated workload), the caches, the membership
// events and the output.
type simFlags struct {
	p          cli.Placement
	tr         cli.Trace
	wl         cli.Workload
	memory     string
	nodeMemory []string
	overhead   int64
	noFill     bool
	defValue   int
	eventsFile string
	events     []string
	joinN      int
	joinAt     time.Duration
	joinWeight float64
	window     time.Duration
	baseline   int
	workers    int
	format     string
	formats    []string
	out        string
	rows       string
	commit     string
}

func (s *simFlags) register(fs *flag.FlagSet) {
	s.p.Register(fs, "comma-separated placements, or all (default all)"+cli.AlgoHelp)
	s.p.RegisterMembership(fs)
	s.p.RegisterExec(fs)
	s.tr.Register(fs, "")
	s.wl.Register(fs)
	fs.StringVar(&s.memory, "memory", "64MiB", "cache memory of a node of weight 1, bytes with an optional unit (B, KiB, MiB, GiB); a node's memory is this times its weight")
	fs.Func("node-memory", "cache memory of named nodes: id=BYTES[,id=BYTES...] (repeatable); overrides -memory for them", func(v string) error {
		s.nodeMemory = append(s.nodeMemory, v)
		return nil
	})
	fs.Int64Var(&s.overhead, "overhead", 50, "bytes every cached item costs beyond its key and value (memcached 1.6's item header and CAS: about 50-60), >= 0")
	fs.BoolVar(&s.noFill, "no-fill", false, "misses do not fill the cache (for traces that record the client's set after each miss); by default a miss reads the database and fills, as a look-aside client does")
	fs.IntVar(&s.defValue, "default-value-size", 0, "value size a miss fills with when its request has size 0 and no size has been seen yet (later ones take the mean so far), bytes >= 0")
	fs.StringVar(&s.eventsFile, "events", "", "membership events script: one per line, `90s join node-40 weight=2 capacity=64MiB`, `2m leave node-3`, `60s fail node-7 detect=5s`, `3m reweight node-1 weight=0.5` (# comments)")
	fs.Func("event", "one membership event, a line of the -events script (repeatable)", func(v string) error {
		s.events = append(s.events, v)
		return nil
	})
	fs.IntVar(&s.joinN, "join-n", 0, "this many new nodes (node-N..., after the initial ones) join at -join-at")
	fs.DurationVar(&s.joinAt, "join-at", -1, "time of the -join-n joins after the first request (default: halfway through a generated workload; required with -trace)")
	fs.Float64Var(&s.joinWeight, "join-weight", 1, "weight of the -join-n nodes (their memory is -memory times it)")
	fs.DurationVar(&s.window, "window", 10*time.Second, "length of the time series' windows (cut at every event)")
	fs.IntVar(&s.baseline, "baseline", 5, "windows before an event its baseline miss ratio is taken from")
	fs.IntVar(&s.workers, "workers", 0, "replays computed at once (0 = one per core); results do not depend on it")
	fs.StringVar(&s.format, "format", "table", "output format(s), comma-separated: table, csv or json; several need -o")
	fs.StringVar(&s.out, "o", "", "write PREFIX-window, -node, -event, -summary and -trace .csv or .json (and PREFIX.table), through temporary files renamed once all are written")
	fs.StringVar(&s.rows, "rows", "summary", "without -o, the rows -format csv or json writes to standard output: summary, window, node, event or trace")
	fs.StringVar(&s.commit, "commit", "", "source revision recorded in results (default: the binary's VCS revision, if known)")
}

// simRun is what simulate runs: the placements' builders, the
// configuration, the traffic and what the rows record.
type simRun struct {
	names    []string
	catCfg   catalog.Config
	exec     external.Config // -exec-timeout, -exec-batch of the exec: entries
	cfg      simulate.Config
	workload *workload.Config // nil with a trace
	rc       schema.Config
}

// runSimulate replays a trace or a generated workload through a
// simulated cache fleet for every placement (simulate.Run) and writes the
// time series, the storms and the totals.
func runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var s simFlags
	fs := cli.NewFlagSet("simulate", "[-algo A[,B...]] -nodes N [-trace FILE | workload flags] [-memory BYTES] [-event E | -events FILE | -join-n K] [flags]", stderr)
	s.register(fs)
	run, err := s.parse(fs, args)
	if err != nil {
		return cli.Usage(err)
	}
	placements, closeAll, err := openPlacements(ctx, run)
	if err != nil {
		return err
	}
	defer closeAll()
	r, report, closeTrace, err := s.traffic(run, stderr)
	if err != nil {
		return err
	}
	defer closeTrace()
	out, err := simulate.Run(r, placements, run.cfg)
	report()
	if err != nil {
		return err
	}
	rows := out.Rows(run.cfg, run.rc)
	return s.write(stdout, rows)
}

// parse parses and checks the flags, before any work.
func (s *simFlags) parse(fs *flag.FlagSet, args []string) (*simRun, error) {
	set, err := cli.Parse(fs, args)
	if err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, cli.Args(fs, 0, "")
	}
	if err := s.tr.Check(set); err != nil {
		return nil, err
	}
	if g := s.wl.Given(set); s.tr.Given() && len(g) > 0 && !(len(g) == 1 && g[0] == "-seed") {
		return nil, fmt.Errorf("%s: describe a generated workload, which -trace replaces", strings.Join(g, ", "))
	}
	run := &simRun{}
	if err := s.output(); err != nil {
		return nil, err
	}
	if run.names, err = placementNames(s.p.Algo, set["algo"]); err != nil {
		return nil, err
	}
	if err := cli.RefuseUnusedConfig(set, "", run.names); err != nil {
		return nil, err
	}
	if err := s.p.CheckExec(); err != nil {
		return nil, err
	}
	run.exec = s.p.Exec
	if run.catCfg = s.p.Config(); run.catCfg.Validate() != nil {
		return nil, run.catCfg.Validate()
	}
	nodes, err := s.p.Membership(set)
	if err != nil {
		return nil, err
	}
	if !s.tr.Given() {
		wc, err := s.wl.Config()
		if err != nil {
			return nil, err
		}
		run.workload = &wc
	}
	if run.cfg, err = s.config(set, nodes, run.workload); err != nil {
		return nil, err
	}
	run.cfg.MaxItems = max(1, (run.catCfg.Budget()-64<<20)/simulate.ItemBytes/int64(len(run.names)))
	run.cfg.Memory = s.p.Budget()
	commit := s.commit
	if commit == "" {
		commit = cli.Revision()
	}
	h, err := algorithms.LookupHash(s.p.Hash)
	if err != nil {
		return nil, err
	}
	run.rc = schema.Config{Hash: h.Name(), VNodes: s.p.VNodes, Seed: s.wl.Seed(), KeyFile: s.tr.Path, GoVersion: runtime.Version(), Commit: commit}
	if err := run.cfg.Validate(); err != nil {
		return nil, err
	}
	if w := run.workload; w != nil { // the span is known: requests at the rate
		span := time.Duration(min(float64(w.Requests)/w.Rate*float64(time.Second), math.MaxInt64/2))
		if err := run.cfg.CheckRows(span, len(run.names)); err != nil {
			return nil, fmt.Errorf("-window %v: %w", s.window, err)
		}
	}
	return run, nil
}

// output checks -format, -o and -rows.
func (s *simFlags) output() error {
	var err error
	if s.formats, err = schema.ParseFormats(s.format); err != nil {
		return err
	}
	if slices.Contains(s.formats, schema.FormatBench) {
		return fmt.Errorf("format bench: simulate writes table, csv or json")
	}
	if len(s.formats) > 1 && s.out == "" {
		return fmt.Errorf("-format %s: several formats need -o PREFIX (files per format)", s.format)
	}
	if !slices.Contains([]string{"summary", "window", "node", "event", "trace"}, s.rows) {
		return fmt.Errorf("rows %q: want summary, window, node, event or trace", s.rows)
	}
	if s.workers < 0 || s.workers > 256 {
		return fmt.Errorf("workers %d: give 0 (one per core) to 256", s.workers)
	}
	var paths []string
	for _, p := range simPaths(s.out, s.formats) {
		paths = append(paths, p...)
	}
	if s.out == "" {
		return nil
	}
	exts := make([]string, len(paths))
	for i, p := range paths {
		exts[i] = strings.TrimPrefix(p, s.out)
	}
	return cli.CheckPrefix(s.out, exts)
}

// simKinds are the row files of an -o prefix, in the order written.
var simKinds = []string{"window", "node", "event", "summary", "trace"}

// simPaths returns, per format, the files -o prefix writes: PREFIX.table
// for the table, PREFIX-KIND.EXT for each row kind otherwise.
func simPaths(prefix string, formats []string) [][]string {
	out := make([][]string, len(formats))
	for i, f := range formats {
		if f == schema.FormatTable {
			out[i] = []string{prefix + schema.Ext(f)}
			continue
		}
		for _, k := range simKinds {
			out[i] = append(out[i], prefix+"-"+k+schema.Ext(f))
		}
	}
	return out
}

// placementNames parses -algo: all by default, else catalog names and
// groups followed by exec:COMMAND entries (cli.ParseAlgos).
func placementNames(algo string, given bool) ([]string, error) {
	if !given {
		return catalog.Names(), nil
	}
	return cli.ParseAlgos(algo)
}

// config returns the simulation of the flags on nodes: the memory of
// every node, the events (-events, -event, -join-n, in time order; events
// at one time keep the order given), windows and the rest.
func (s *simFlags) config(set map[string]bool, nodes []algorithms.Node, wc *workload.Config) (simulate.Config, error) {
	cfg := simulate.Config{Nodes: nodes, Window: s.window, ItemOverhead: s.overhead, NoFill: s.noFill, DefaultValueSize: s.defValue,
		Baseline: s.baseline, Workers: s.workers}
	if s.tr.Given() && set["rate"] {
		cfg.Rate = s.wl.Rate
	}
	per, err := simulate.ParseBytes(s.memory)
	if err != nil || per < 1 {
		return cfg, fmt.Errorf("-memory %q: want bytes >= 1 with an optional unit (64MiB)", s.memory)
	}
	cfg.Capacity.PerWeight = float64(per)
	cfg.Capacity.PerNode = map[string]int64{}
	for _, v := range s.nodeMemory {
		for _, f := range strings.Split(v, ",") {
			id, b, ok := strings.Cut(strings.TrimSpace(f), "=")
			n, err := simulate.ParseBytes(b)
			if !ok || err != nil || n < 1 || id == "" {
				return cfg, fmt.Errorf("-node-memory %q: want id=BYTES (node-3=128MiB)", f)
			}
			if _, dup := cfg.Capacity.PerNode[id]; dup {
				return cfg, fmt.Errorf("-node-memory: node %q named twice", id)
			}
			cfg.Capacity.PerNode[id] = n
		}
	}
	if cfg.Events, err = s.eventList(set, len(nodes), wc); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// eventList returns the events of -events, -event and -join-n, stably
// sorted by time.
func (s *simFlags) eventList(set map[string]bool, n int, wc *workload.Config) ([]simulate.Event, error) {
	var evs []simulate.Event
	if s.eventsFile != "" {
		b, err := os.ReadFile(s.eventsFile)
		if err != nil {
			return nil, fmt.Errorf("-events: %w", err)
		}
		if evs, err = simulate.ParseEvents(string(b)); err != nil {
			return nil, fmt.Errorf("-events %s: %w", s.eventsFile, err)
		}
	}
	for _, line := range s.events {
		e, err := simulate.ParseEvents(line)
		if err == nil && len(e) != 1 {
			err = fmt.Errorf("want one event")
		}
		if err != nil {
			return nil, fmt.Errorf("-event %q: %w", line, err)
		}
		evs = append(evs, e...)
	}
	switch {
	case s.joinN < 0 || s.joinN > algorithms.MaxNodes-n:
		return nil, fmt.Errorf("join-n %d: give the number of nodes that join, 1 to %d (at most %d nodes in all)", s.joinN, algorithms.MaxNodes-n, algorithms.MaxNodes)
	case s.joinN == 0 && (set["join-at"] || set["join-weight"]):
		return nil, fmt.Errorf("-join-at and -join-weight need -join-n")
	case s.joinN > 0:
		at := s.joinAt
		if !set["join-at"] {
			if wc == nil {
				return nil, fmt.Errorf("-join-n with -trace needs -join-at (the time after the trace's first request)")
			}
			at = time.Duration(float64(wc.Requests) / wc.Rate / 2 * float64(time.Second))
		}
		if at < 0 {
			return nil, fmt.Errorf("join-at %v: need a time >= 0", at)
		}
		if err := algorithms.ValidateWeight(s.joinWeight); err != nil {
			return nil, fmt.Errorf("join-weight: %w", err)
		}
		for i := range s.joinN {
			evs = append(evs, simulate.Event{At: at, Kind: simulate.Join, Node: algorithms.Node{ID: algorithms.NodeID(n + i), Weight: s.joinWeight}})
		}
	}
	slices.SortStableFunc(evs, func(a, b simulate.Event) int { return cmp.Compare(a.At, b.At) })
	return evs, nil
}

// openPlacements opens every placement of run (catalog.Open: a catalog
// algorithm, or an external program) on the initial nodes, and returns
// them with the function that closes their builders.
func openPlacements(ctx context.Context, run *simRun) ([]simulate.Placement, func(), error) {
	names, programs, err := cli.OpenPrograms(ctx, run.names, run.exec)
	if err != nil {
		return nil, nil, err
	}
	var builders []catalog.Builder
	closeAll := func() {
		for _, b := range builders {
			b.Close()
		}
		programs.Close()
	}
	var ps []simulate.Placement
	for _, name := range names {
		b, opened := programs.Opened[name]
		if !opened {
			if b, err = catalog.Open(ctx, name, run.catCfg, run.exec); err != nil {
				closeAll()
				return nil, nil, err
			}
			builders = append(builders, b)
		}
		l, err := b.New(run.cfg.Nodes)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		ps = append(ps, simulate.Placement{Label: b.Name(), Locator: l})
	}
	return ps, closeAll, nil
}

// traffic returns the reader of the run's requests: the trace, read once
// as it comes, or the generated workload; report writes what was read to
// stderr once the run has read it.
func (s *simFlags) traffic(run *simRun, stderr io.Writer) (r trace.Reader, report, closeTrace func(), err error) {
	if run.workload != nil {
		w, err := workload.New(*run.workload)
		if err != nil {
			return nil, nil, nil, err
		}
		return w, func() { fmt.Fprintf(stderr, "simulate: %s\n", w.Stats()) }, func() {}, nil
	}
	in, err := s.tr.Input(stderr, false)
	if err != nil {
		return nil, nil, nil, err
	}
	r, report, err = in.Pass()
	if err != nil {
		in.Close()
		return nil, nil, nil, err
	}
	return r, report, func() { r.(io.Closer).Close(); in.Close() }, nil
}

// write writes the rows in every -format: to the -o files, or one kind
// (-rows) to standard output.
func (s *simFlags) write(stdout io.Writer, rows simulate.Rows) error {
	writeKind := func(w io.Writer, format, kind string) error {
		switch kind {
		case "window":
			return schema.Write(w, format, rows.Windows, nil)
		case "node":
			return schema.Write(w, format, rows.Nodes, nil)
		case "event":
			return schema.Write(w, format, rows.Events, nil)
		case "trace":
			return schema.Write(w, format, rows.Trace, nil)
		}
		return schema.Write(w, format, rows.Summary, nil)
	}
	if s.out == "" {
		if s.formats[0] == schema.FormatTable {
			return simulate.WriteTable(stdout, rows)
		}
		return writeKind(stdout, s.formats[0], s.rows)
	}
	var paths []string
	var fills []func(io.Writer) error
	for i, ps := range simPaths(s.out, s.formats) {
		f := s.formats[i]
		for j, p := range ps {
			paths = append(paths, p)
			if f == schema.FormatTable {
				fills = append(fills, func(w io.Writer) error { return simulate.WriteTable(w, rows) })
				continue
			}
			kind := simKinds[j]
			fills = append(fills, func(w io.Writer) error { return writeKind(w, f, kind) })
		}
	}
	if err := schema.WriteFiles(paths, func(i int, w io.Writer) error { return fills[i](w) }); err != nil {
		return fmt.Errorf("-o %s: %w", s.out, err)
	}
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	return nil
}
