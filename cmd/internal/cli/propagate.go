package cli

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/propagate"
	"github.com/chbench/chbench/internal/numfmt"
	"github.com/chbench/chbench/schema"
)

// Propagation is the flag group of propagate: the placements, the
// membership and its changes (-from/-to/-op and the fleet flags of
// [Change]), the change times, the propagation model, the clients and
// their requests, the replays, the cache-aside and store workloads, and
// the output. Its defaults are the headline scenario
// (propagate.DefaultHeadline), which -headline runs by name.
type Propagation struct {
	Placement
	Change   Change
	at       string
	every    float64
	model    string
	clients  int
	rate     float64
	span     string
	windows  int
	keys     int
	zipf     float64
	writes   float64
	replays  int
	seed     uint64
	cache    bool
	handoff  float64
	workers  int
	Headline bool
	Trace    Trace // -trace: a recorded request stream in place of the generated requests
	Format   string
	Formats  []string // parsed -format
	Out      string   // -o prefix
	commit   string
}

// defaultFrom is -from's default: the headline's fleet.
const defaultFrom = 100

func (p *Propagation) Register(fs *flag.FlagSet) {
	h := propagate.DefaultHeadline()
	def := catalog.DefaultConfig()
	fs.StringVar(&p.Algo, "algo", "all", "comma-separated algorithms, or all ("+strings.Join(catalog.Names(), ", ")+")")
	fs.IntVar(&p.VNodes, "vnodes", def.VNodes, "virtual nodes per node of weight 1 (ring, bounded)")
	fs.StringVar(&p.Hash, "hash", def.Hash, "key hash: "+strings.Join(algorithms.HashNames(), ", ")+" (slots always use CRC-16)")
	fs.Float64Var(&p.Eps, "eps", def.Eps, "bounded: load factor c = 1 + eps, eps > 0")
	fs.IntVar(&p.Partitions, "partitions", def.Partitions, fmt.Sprintf("bounded: number of fixed partitions; 0 = automatic, %d per node (at least 16,384)", catalog.PartitionsPerNode))
	registerTable(fs, &p.TableSize, &p.Probes, &p.Capacity)
	p.Change.Register(fs, fmt.Sprintf("node count(s) before the change, comma-separated or grid (default %d; or the fleet flags' membership)", defaultFrom),
		"node count after the change: nodes join, or the last nodes leave, all in one change",
		"scenario op(s), comma-separated (default add: one node joins): "+strings.Join(schema.Ops(), ", ")+"; a multi-step op makes one change per step")
	fs.StringVar(&p.at, "at", "0", "seconds on the requests' clock at which the changes happen: one per change, comma-separated, or the first alone with -every")
	fs.Float64Var(&p.every, "every", 0, "seconds between successive changes of a multi-step scenario, after the first at -at (> 0)")
	fs.StringVar(&p.model, "model", propagate.Linear{Duration: h.Rollout}.Spec(), "how each change reaches the clients: instant; linear:T=30s; push:dist=exp,mean=2s | push:dist=uniform,min=0s,max=10s | push:dist=lognormal,median=1s,sigma=0.8; gossip:k=3,p=200ms[,seeds=1][,fresh=0][,transmits=0][,latency=0s] (see docs/propagate.md)")
	fs.IntVar(&p.clients, "clients", h.Clients, fmt.Sprintf("C, the clients that route requests, each learning a change at its own time (1..%d)", propagate.MaxClients))
	fs.Float64Var(&p.rate, "rate", h.Rate, "requests per second from all clients together, evenly spaced (> 0)")
	fs.StringVar(&p.span, "span", "auto", "START,END seconds of the replay, counted in -windows windows; auto = from the first change until the last has reached the clients (T after it for linear:T, else the 99.9th percentile of the learn delays)")
	fs.IntVar(&p.windows, "windows", h.Windows, fmt.Sprintf("equal time windows the span is counted in (1..%d)", propagate.MaxWindows))
	fs.IntVar(&p.keys, "keys", h.Keys, fmt.Sprintf("keys in the universe the requests name (1..%d; keyset.Keys(keys, seed))", propagate.MaxGeneratedKeys))
	fs.Float64Var(&p.zipf, "zipf", h.Zipf, "Zipf exponent s >= 0 of the keys' popularity (0 = uniform)")
	fs.Float64Var(&p.writes, "writes", 0, "fraction of requests that are writes, 0..1 (cache-aside: a write updates the database and deletes the key on the writer's server)")
	fs.IntVar(&p.replays, "replays", h.Replays, "independent replays (propagation draws and request streams); 95% intervals are over them (>= 2 for an interval)")
	fs.Uint64Var(&p.seed, "seed", h.Seed, "seed of the keys, the requests, the propagation draws and random scenario choices")
	fs.BoolVar(&p.cache, "cache", false, "add the cache-aside workload: misses, split misses, keys cached on two servers, stale reads (keeps state per key and algorithm)")
	fs.Float64Var(&p.handoff, "handoff", 0, "store workload: seconds after a change at which its data is on the new owners (>= 0)")
	fs.IntVar(&p.workers, "workers", 0, "goroutines (0 = one per core); results do not depend on it")
	fs.BoolVar(&p.Headline, "headline", false, fmt.Sprintf("the report's headline scenario: one join at %d nodes rolled out linearly over %g s to %d clients at %s requests/s on %s uniform keys (the defaults of the scenario flags, which it cannot be combined with)",
		h.Nodes, h.Rollout, h.Clients, numfmt.Thousands(h.Rate), numfmt.Int(h.Keys)))
	p.Trace.Register(fs, "")
	fs.StringVar(&p.Format, "format", "table", "output format(s), comma-separated: table, csv or json; several need -o")
	fs.StringVar(&p.Out, "o", "", "write each format to `PREFIX`.csv, .json or .table instead of to standard output, through temporary files renamed once all are written")
	fs.StringVar(&p.commit, "commit", "", "source revision recorded in results (default: the binary's VCS revision, if known)")
	registerMem(fs, &p.Mem)
}

// scenarioFlags are the flags that describe the scenario, which
// -headline fixes: the membership and its changes, the model and the
// requests.
var scenarioFlags = append([]string{"from", "to", "op", "at", "every", "model", "clients", "rate", "span", "windows", "keys", "zipf", "writes", "cache", "handoff", "trace", "trace-format"}, fleetFlagNames...)

// traceReplaces are the flags of the generated requests, which -trace
// replaces: its requests come with their keys, times and operations.
var traceReplaces = []string{"rate", "keys", "zipf", "writes"}

// ScenarioGiven returns the scenario flags given explicitly, as "-name".
func ScenarioGiven(set map[string]bool) []string {
	var out []string
	for _, n := range scenarioFlags {
		if set[n] {
			out = append(out, "-"+n)
		}
	}
	return out
}

// Seed returns -seed.
func (p *Propagation) Seed() uint64 { return p.seed }

// Output checks -format, -o and -commit and returns the commit to record.
func (p *Propagation) Output() (string, error) {
	var err error
	if p.Formats, err = parseFormats(p.Format, p.Out); err != nil {
		return "", err
	}
	if slices.Contains(p.Formats, schema.FormatBench) {
		return "", fmt.Errorf("format bench: propagate writes table, csv or json")
	}
	if err := checkOut(p.Out, p.Formats); err != nil {
		return "", err
	}
	commit := p.commit
	if commit == "" {
		commit = Revision()
	}
	return commit, checkCommit(commit)
}

// Study validates the flags (set: those given explicitly) and returns the
// study they describe; every error names the flag or value.
func (p *Propagation) Study(set map[string]bool) (propagate.Study, error) {
	commit, err := p.Output()
	if err != nil {
		return propagate.Study{}, err
	}
	algos, cfg, err := p.placements()
	if err != nil {
		return propagate.Study{}, err
	}
	if err := RefuseUnusedConfig(set, "", algos); err != nil {
		return propagate.Study{}, err
	}
	if p.Headline {
		if given := ScenarioGiven(set); len(given) > 0 {
			return propagate.Study{}, fmt.Errorf("-headline is a fixed scenario; it cannot be combined with %s", strings.Join(given, ", "))
		}
		h := propagate.DefaultHeadline()
		h.Algorithms, h.Catalog, h.Replays, h.Seed, h.Workers = algos, cfg, p.replays, p.seed, p.workers
		if h.Replays < 1 {
			return propagate.Study{}, fmt.Errorf("replays %d: need at least 1", h.Replays)
		}
		st, err := h.Study(commit)
		if err != nil {
			return st, err
		}
		return st, st.Check()
	}
	if err := p.Trace.Check(set); err != nil {
		return propagate.Study{}, err
	}
	if err := RefuseUnused(set, Consumes{Flags: traceReplaces, On: !p.Trace.Given(), Unless: "with -trace (the trace gives the requests: their keys, times and operations)"}); err != nil {
		return propagate.Study{}, err
	}
	st := propagate.Study{Algorithms: algos, Catalog: cfg, Every: p.every, Clients: p.clients,
		Requests: propagate.GeneratedConfig{Keys: p.keys, Zipf: p.zipf, Rate: p.rate, Writes: p.writes, Seed: p.seed},
		Windows:  p.windows, Replays: p.replays, Seed: p.seed, Cache: p.cache, Handoff: p.handoff, Workers: p.workers, Commit: commit}
	if st.Model, err = propagate.ParseModel(p.model); err != nil {
		return st, err
	}
	if err := p.checkNumbers(set); err != nil {
		return st, err
	}
	if st.At, err = Floats("at", p.at, 0, false); err != nil {
		return st, err
	}
	if !slices.IsSorted(st.At) {
		return st, fmt.Errorf("at %q: the change times must increase", p.at)
	}
	if p.span != "auto" {
		if st.Start, st.End, err = parseSpan(p.span); err != nil {
			return st, err
		}
	}
	if st.Scenarios, err = p.scenarios(set); err != nil {
		return st, err
	}
	if p.Trace.Given() { // opened by OpenTrace, once the flags are checked
		st.Trace = &propagate.Trace{Path: p.Trace.Path}
	}
	return st, st.Check()
}

// OpenTrace reads -trace once to the end, writing its summary, warnings
// and first unreadable records to stderr, and gives st the trace to
// replay (each replay reads it again: standard input is first copied to
// a temporary file, which the returned function removes). It returns an
// error for a trace that cannot be read, has no clock (Format.HasTime
// false: propagate replays requests at their times), or is not in time
// order, and the memory estimate's error (Study.Check) with the trace's
// distinct keys. Without -trace it does nothing.
func (p *Propagation) OpenTrace(st *propagate.Study, stderr io.Writer) (func(), error) {
	if !p.Trace.Given() {
		return func() {}, nil
	}
	in, err := p.Trace.Input(stderr, true)
	if err != nil {
		return func() {}, err
	}
	r, done, err := in.Pass()
	if err != nil {
		in.Close()
		return func() {}, err
	}
	for r.Scan() {
	}
	done()
	r.(io.Closer).Close()
	stats := r.Stats()
	switch name := in.Path(); {
	case r.Err() != nil:
		err = r.Err()
	case !stats.HasTime:
		err = fmt.Errorf("trace %q: format %s has no timestamps; propagate replays requests at their times (docs/traces.md names the formats with a clock)", name, stats.Format)
	case stats.Backwards > 0:
		err = fmt.Errorf("trace %q: %d requests earlier than the one before them; propagate needs the requests in time order", name, stats.Backwards)
	}
	if err != nil {
		in.Close()
		return func() {}, err
	}
	st.Trace = &propagate.Trace{Path: in.Path(), Keys: int(min(stats.DistinctKeys, math.MaxInt32)),
		Open: in.Reopen}
	if err := st.Check(); err != nil {
		in.Close()
		return func() {}, err
	}
	return in.Close, nil
}

// placements checks -algo and the catalog flags.
func (p *Propagation) placements() ([]string, catalog.Config, error) {
	if err := NoExec("propagate", "algo", p.Algo, "it builds every placement in process, once per membership version its clients hold"); err != nil {
		return nil, catalog.Config{}, err
	}
	algos, err := catalog.ParseNames(p.Algo)
	if err != nil {
		return nil, catalog.Config{}, err
	}
	if err := NoDuplicates("algo", algos); err != nil {
		return nil, catalog.Config{}, err
	}
	if err := CheckWorkers(p.workers); err != nil {
		return nil, catalog.Config{}, err
	}
	cfg := p.Config()
	return algos, cfg, cfg.Validate()
}

// checkNumbers checks the numbers the library would otherwise name in
// its own terms, so that the error names the flag.
func (p *Propagation) checkNumbers(set map[string]bool) error {
	switch {
	case p.clients < 1 || p.clients > propagate.MaxClients:
		return fmt.Errorf("clients %d: need 1 to %d", p.clients, propagate.MaxClients)
	case !(p.rate > 0):
		return fmt.Errorf("rate %v: need requests per second > 0", p.rate)
	case p.windows < 1 || p.windows > propagate.MaxWindows:
		return fmt.Errorf("windows %d: need 1 to %d", p.windows, propagate.MaxWindows)
	case p.keys < 1 || p.keys > propagate.MaxGeneratedKeys:
		return fmt.Errorf("keys %d: need 1 to %d", p.keys, propagate.MaxGeneratedKeys)
	case p.zipf < 0:
		return fmt.Errorf("zipf %v: need an exponent >= 0 (0 = uniform)", p.zipf)
	case p.writes < 0 || p.writes > 1:
		return fmt.Errorf("writes %v: need a fraction 0..1", p.writes)
	case p.replays < 1:
		return fmt.Errorf("replays %d: need at least 1", p.replays)
	case p.handoff < 0:
		return fmt.Errorf("handoff %v: need seconds >= 0", p.handoff)
	case set["every"] && !(p.every > 0):
		return fmt.Errorf("every %v: need seconds > 0 between changes", p.every)
	}
	return nil
}

// parseSpan parses -span START,END.
func parseSpan(s string) (float64, float64, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, fmt.Errorf("span %q: want START,END in seconds (or auto)", s)
	}
	start, err := algorithms.ParseDecimal(a)
	if err != nil {
		return 0, 0, fmt.Errorf("span %q: start %w", s, err)
	}
	end, err := algorithms.ParseDecimal(b)
	if err != nil {
		return 0, 0, fmt.Errorf("span %q: end %w", s, err)
	}
	if !(end > start) {
		return 0, 0, fmt.Errorf("span %q: the end must come after the start", s)
	}
	return start, end, nil
}

// scenarios returns the membership histories: the fleet flags' change,
// the resize -from N -to M, or each -from count with each -op (default
// -from 100 -op add).
func (p *Propagation) scenarios(set map[string]bool) ([]analysis.Scenario, error) {
	if !set["from"] && !p.Change.Fleet.Explicit() {
		p.Change.From = strconv.Itoa(defaultFrom)
		set["from"] = true
	}
	var sw analysis.Sweep
	if err := p.Change.Sweep(&sw, set, p.seed, "-from is required"); err != nil {
		return nil, err
	}
	if sw.Scenarios != nil {
		return sw.Scenarios, nil
	}
	var out []analysis.Scenario
	for _, n := range sw.Nodes {
		for _, op := range sw.Ops {
			sc, err := analysis.NewScenario(op, n, p.seed)
			if err != nil {
				return nil, err
			}
			out = append(out, sc)
		}
	}
	return out, nil
}
