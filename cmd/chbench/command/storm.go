package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/live"
	"github.com/chbench/chbench/schema"
	"github.com/chbench/chbench/trace"
)

// stormFlags are storm's flags: the analysis flags, the resize or fleet
// change, the cache fleet's model, the timeline and -live.
type stormFlags struct {
	a        cli.Analysis
	fleet    cli.Fleet
	live     liveFlags
	from, to int
	m        analysis.StormModel
	timeline bool
	points   int
	span     float64
}

func (s *stormFlags) register(fs *flag.FlagSet) {
	s.a.Register(fs)
	def := analysis.DefaultStormModel()
	fs.IntVar(&s.from, "from", 4, "cache nodes before the change")
	fs.IntVar(&s.to, "to", 5, "cache nodes after the change (node-N... join, or the last nodes leave)")
	fs.Float64Var(&s.m.Reads, "reads", def.Reads, "reads per second reaching the cache fleet, Q > 0")
	fs.Float64Var(&s.m.HitRatio, "hit", def.HitRatio, "steady hit ratio before the change, 0 <= h < 1")
	fs.IntVar(&s.m.WorkingSet, "working-set", def.WorkingSet, "distinct keys the fleet serves, K >= 1 (refill time constant K/Q; the moved fraction is measured on -keys x -sets sample keys)")
	fs.Float64Var(&s.m.Zipf, "zipf", 0, "Zipf exponent s of the key popularity, >= 0: key i of the working set is read with probability (i+1)^-s / H(K, s); 0 = uniform (the warm-up then decays as one exponential)")
	fs.BoolVar(&s.timeline, "timeline", false, "with -format csv: the warm-up curve, one row per algorithm and time point, instead of one row per algorithm")
	fs.IntVar(&s.points, "points", 120, "timeline: time steps from 0 to -span time constants")
	fs.Float64Var(&s.span, "span", 6, "timeline: time covered, in time constants K/Q (> 0)")
	s.fleet.Register(fs)
	s.live.register(fs)
}

// runStorm derives the cache miss storm of a resize or a fleet's change
// from the measured moved fraction of every algorithm
// (analysis.SweepStorm), or with -live measures it against real memcached
// servers.
func runStorm(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	var s stormFlags
	fs := cli.NewFlagSet("storm", "-algo A[,B...] -from N (-to M | -leave ID | -join ID[,W] | ...) [-reads Q] [-hit H] [-working-set K] [-zipf S] [flags]", stderr)
	s.register(fs)
	set, err := s.parse(fs, args)
	if err != nil {
		return cli.Usage(err)
	}
	if s.live.on {
		return runStormLive(&s, set, stdout, stderr)
	}
	ts, o, sw, err := s.sweep(set, stderr)
	if err != nil {
		return cli.Usage(err)
	}
	closeKeys, err := s.a.OpenKeys(&o, stderr)
	if err != nil {
		return err
	}
	defer closeKeys()
	if s.a.Trace.Given() {
		if ts, err = s.fromTrace(set, o, stderr); err != nil {
			return err
		}
	}
	progs, err := s.a.OpenPrograms(ctx, &o, &sw) // a program that fails to start: an error of the run
	if err != nil {
		return err
	}
	defer progs.CloseInto(&err)
	points := 0
	if s.timeline {
		points = len(ts) - 1
	}
	// Every configuration and change, and the memory of the run, before
	// the first key is streamed.
	if err := analysis.CheckStorm(o, sw, s.m, points); err != nil {
		return cli.Usage(err)
	}
	bar := cli.StartProgress(stderr, analysis.SweepKeys(o, sw)) // stderr terminals only
	o.Progress = bar.Hook()
	defer bar.Stop()
	rows, err := analysis.SweepStorm(o, sw, s.m)
	if err != nil {
		return err
	}
	bar.Stop()
	if s.timeline {
		pts, err := analysis.StormTimeline(rows, ts, o.Memory)
		if err != nil {
			return err
		}
		return schema.WriteCSV(stdout, pts)
	}
	return schema.Write(stdout, s.a.Format, rows, analysis.WriteStormTable)
}

// fromTrace sets the storm model's reads per second and working set from
// the trace OpenKeys read, where -reads and -working-set were not given:
// the trace's reads (get, gets) over its time span, and its distinct
// keys (the exact count of -trace-keys distinct, else the reader's, an
// estimate past trace.ExactDistinct). It says on stderr what it took, and
// returns the timeline's times for the model. A trace without a clock
// needs -reads.
func (s *stormFlags) fromTrace(set map[string]bool, o analysis.Options, stderr io.Writer) ([]float64, error) {
	st := s.a.TraceStats
	if !set["reads"] {
		reads := st.Ops[trace.OpGet] + st.Ops[trace.OpGets]
		if !st.HasTime || st.Span() <= 0 || reads == 0 {
			return nil, fmt.Errorf("trace %q: no reads over a time span to take the read rate from: give -reads", s.a.Trace.Path)
		}
		s.m.Reads = float64(reads) / st.Span().Seconds()
		fmt.Fprintf(stderr, "storm: -reads %s: the trace's %d reads over %v\n", strconv.FormatFloat(s.m.Reads, 'g', 6, 64), reads, st.Span())
	}
	if !set["working-set"] {
		k := st.DistinctKeys
		if s.a.Trace.Distinct() {
			k = int64(o.Keys.(analysis.FileSource).Keys())
		}
		if k > math.MaxInt32 {
			return nil, fmt.Errorf("trace %q: %d distinct keys: give -working-set", s.a.Trace.Path, k)
		}
		s.m.WorkingSet = int(k)
		fmt.Fprintf(stderr, "storm: -working-set %d: the trace's distinct keys\n", k)
	}
	if err := s.m.Validate(); err != nil {
		return nil, err
	}
	return analysis.StormTimes(s.m, s.points, s.span)
}

// parse parses storm's flags and checks what every storm needs: one
// format to standard output, -timeline only with csv, a valid model.
func (s *stormFlags) parse(fs *flag.FlagSet, args []string) (map[string]bool, error) {
	set, err := cli.Parse(fs, args)
	if err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, cli.Args(fs, 0, "")
	}
	if err := s.a.OneFormat("storm"); err != nil {
		return nil, err
	}
	// What each mode consumes: the timeline's flags, -live's flags.
	if err := cli.RefuseUnused(set,
		cli.Consumes{Flags: []string{"points"}, On: s.timeline, Unless: "without -timeline"},
		cli.Consumes{Flags: []string{"span"}, On: s.timeline || s.live.on, Unless: "without -timeline or -live"},
		cli.Consumes{Flags: []string{"live-mem", "live-reads", "live-windows", "live-rate", "live-steady", "live-timeout"}, On: s.live.on, Unless: "without -live"},
	); err != nil {
		return nil, err
	}
	if err := s.a.RefuseUnused(set); err != nil {
		return nil, err
	}
	if err := s.a.CheckTrace(set); err != nil {
		return nil, err
	}
	if s.timeline && s.a.Format != schema.FormatCSV {
		return nil, fmt.Errorf("-timeline needs -format csv, got -format %s", s.a.Format)
	}
	if err := s.m.Validate(); err != nil {
		return nil, err
	}
	if s.live.on {
		if set["keyfile"] && set["working-set"] {
			return nil, fmt.Errorf("-keyfile with -live: the working set is the file's keys; leave -working-set out")
		}
		if math.IsNaN(s.span) || math.IsInf(s.span, 0) || s.span <= 0 {
			return nil, fmt.Errorf("span %v: need a finite number of time constants > 0", s.span)
		}
	}
	return set, nil
}

// sweep returns the timeline's times, the options and the sweep of
// changes: the fleet flags' scenarios (a named or seeded change of one
// membership) or the resize -from N -to M.
func (s *stormFlags) sweep(set map[string]bool, stderr io.Writer) ([]float64, analysis.Options, analysis.Sweep, error) {
	ts, err := analysis.StormTimes(s.m, s.points, s.span)
	if err != nil {
		return nil, analysis.Options{}, analysis.Sweep{}, err
	}
	o, sw, err := s.a.Options()
	if err != nil {
		return nil, o, sw, err
	}
	s.fleet.Memory = o.Memory // a members file's nodes are reserved from -mem
	if sw.Scenarios, err = s.changes(set, o.Seed); err != nil {
		return nil, o, sw, err
	}
	// Node IDs chbench generates are server addresses when the sweep has
	// a dialect; the user's stay as given.
	if err := cli.AddressSweep(&sw, !s.fleet.Explicit(), stderr); err != nil {
		return nil, o, sw, err
	}
	cli.NamedPlacement(&o, set, s.fleet.Named(), stderr)
	if s.fleet.Used(set) {
		cli.KeepWeighted(&s.a, &o, &sw, stderr)
	}
	return ts, o, sw, nil
}

// changes returns the membership changes the storm runs: the fleet
// flags' scenarios (a named or seeded change of one membership) or the
// resize -from N -to M.
func (s *stormFlags) changes(set map[string]bool, seed uint64) ([]analysis.Scenario, error) {
	if set["step"] && set["to"] && !s.fleet.Explicit() && len(s.fleet.Given(set)) == 1 { // only -step: a staged resize
		sc, err := analysis.Staged(s.from, s.to, s.fleet.StepSize())
		return []analysis.Scenario{sc}, err
	}
	if !s.fleet.Used(set) {
		sc, err := analysis.Resize(s.from, s.to)
		return []analysis.Scenario{sc}, err
	}
	if set["to"] {
		return nil, s.fleet.Conflict("to", set)
	}
	from := ""
	if set["from"] || !s.fleet.Explicit() {
		from = strconv.Itoa(s.from)
	}
	return s.fleet.Scenarios(from, set, seed)
}

// Bounds and defaults of storm -live: seconds of load on loopback, never
// minutes.
const (
	liveAlgos         = "modulo,ring,rendezvous,jump,ketama"
	liveWorkingSet    = 20000   // default working set K with -live
	liveMaxWorkingSet = 200000  // most keys -live warms
	liveMaxReads      = 1000000 // most reads -live replays per algorithm after the change
	liveMaxMemMB      = 1024
	liveMaxRate       = 1e6
	liveMaxTimeout    = 10 * time.Minute
	liveValueBytes    = 100 // bytes of every cached value
	liveExchange      = 10 * time.Second
)

// liveFlags are the flags of storm -live.
type liveFlags struct {
	on      bool
	memMB   int
	reads   int
	windows int
	rate    float64
	timeout time.Duration
	steady  string // how the steady misses arise: expiry or lru
}

func (l *liveFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&l.on, "live", false, "run the storm against real memcached servers started on 127.0.0.1, one per node (default -algo "+liveAlgos+", -working-set 20000)")
	fs.IntVar(&l.memMB, "live-mem", 16, "live: memcached item memory per instance, megabytes (1.."+strconv.Itoa(liveMaxMemMB)+")")
	fs.IntVar(&l.reads, "live-reads", 0, "live: reads replayed after the change per algorithm (0 = -span working sets, i.e. -span time constants; at most "+strconv.Itoa(liveMaxReads)+")")
	fs.IntVar(&l.windows, "live-windows", 12, "live: windows the reads after the change are counted in (the steady window before it has as many reads as one)")
	fs.Float64Var(&l.rate, "live-rate", 100000, "live: most reads per second sent to the servers (wall clock; the model's clock is -reads)")
	fs.StringVar(&l.steady, "live-steady", "expiry", "live: how the steady misses arise: expiry (the client deletes the key before a fraction 1 - hit of reads, as a TTL would) or lru (no expiries: memcached evicts when -live-mem cannot hold a node's keys; choose -live-mem and -working-set so the steady window shows -hit)")
	fs.DurationVar(&l.timeout, "live-timeout", time.Minute, "live: wall-clock limit of the whole run, servers included (at most 10m)")
}

// check applies -live's defaults to s (-algo, -working-set) and returns
// the reads to replay after the change, or an error naming a bad flag.
func (l *liveFlags) check(s *stormFlags, set map[string]bool) (reads int, err error) {
	if !set["algo"] {
		s.a.Algo = liveAlgos
	}
	if !set["working-set"] && !set["keyfile"] {
		s.m.WorkingSet = liveWorkingSet
	}
	for _, f := range []string{"timeline", "trace"} {
		if set[f] {
			return 0, fmt.Errorf("-%s cannot be combined with -live", f)
		}
	}

	switch {
	case s.m.WorkingSet > liveMaxWorkingSet:
		return 0, fmt.Errorf("working set %d: -live warms at most %d keys", s.m.WorkingSet, liveMaxWorkingSet)
	case l.memMB < 1 || l.memMB > liveMaxMemMB:
		return 0, fmt.Errorf("live-mem %d: need 1..%d megabytes", l.memMB, liveMaxMemMB)
	case l.windows < 1 || l.windows > 1000:
		return 0, fmt.Errorf("live-windows %d: need 1..1000", l.windows)
	case math.IsNaN(l.rate) || l.rate <= 0 || l.rate > liveMaxRate:
		return 0, fmt.Errorf("live-rate %v: need 0 < rate <= %g reads per second", l.rate, liveMaxRate)
	case l.timeout <= 0 || l.timeout > liveMaxTimeout:
		return 0, fmt.Errorf("live-timeout %v: need 0 < timeout <= %v", l.timeout, liveMaxTimeout)
	case l.steady != "expiry" && l.steady != "lru":
		return 0, fmt.Errorf("live-steady %q: need expiry or lru", l.steady)
	case l.reads < 0 || l.reads > liveMaxReads:
		return 0, fmt.Errorf("live-reads %d: need 0 (= -span working sets) to %d", l.reads, liveMaxReads)
	}
	reads = l.reads
	if reads == 0 {
		reads = int(math.Min(math.Round(s.span*float64(s.m.WorkingSet)), liveMaxReads))
	}
	if reads < l.windows {
		return 0, fmt.Errorf("live-reads %d: need at least one read per window (-live-windows %d)", reads, l.windows)
	}
	// The reads after the change alone, paced at the rate, must end
	// within the timeout: a run that cannot finish is refused before any
	// server starts.
	if need := float64(reads) / l.rate; need > l.timeout.Seconds() {
		return 0, fmt.Errorf("live-rate %v: %d reads at %v reads per second take %.3g s, over -live-timeout %v: raise the rate or the timeout, or lower -live-reads", l.rate, reads, l.rate, need, l.timeout)
	}
	return reads, nil
}

// runStormLive is storm -live: for each algorithm, live.RunStorm against
// real memcached servers, beside the warm-up model over the same windows
// (analysis.SweepStormLive).
func runStormLive(s *stormFlags, set map[string]bool, stdout, stderr io.Writer) error {
	keys, err := s.liveKeyFile(set) // a key file that cannot be read: an error of the run
	if err != nil {
		return err
	}
	cfg, o, sw, sc, err := s.liveConfig(set, keys, stderr)
	if err != nil {
		return cli.Usage(err)
	}
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	ctx, cancel := context.WithTimeout(ctx, s.live.timeout)
	defer cancel()
	rows, err := analysis.SweepStormLive(o, sw, sc, s.m, func(o analysis.Options, before, after algorithms.Locator) (analysis.LiveRun, error) {
		c := cfg
		c.Before, c.After, c.Seed = before, after, o.Seed
		run, err := live.RunStorm(ctx, c)
		if err != nil {
			return analysis.LiveRun{}, err
		}
		lr := analysis.LiveRun{Moved: run.Moved, MemMB: c.MemMB, ValueBytes: c.ValueBytes, Steady: analysis.LiveWindow(run.Steady)}
		for _, w := range run.Windows {
			lr.Windows = append(lr.Windows, analysis.LiveWindow(w))
		}
		return lr, nil
	})
	return writeLive(stdout, s.a.Format, rows, sw.Algos, s.live.steady == "lru", s.live.timeout, err)
}

// writeLive writes the rows of a live storm run that ended with runErr.
// A run cut short by -live-timeout or an interrupt keeps what it
// finished: the rows of every algorithm that completed are written (the
// table ends with a line naming those not measured), and the error
// returned names the ones left out. Any other error writes nothing.
func writeLive(w io.Writer, format string, rows []schema.StormLive, algos []string, lru bool, timeout time.Duration, runErr error) error {
	switch {
	case runErr == nil:
	case errors.Is(runErr, context.DeadlineExceeded):
		runErr = fmt.Errorf("wall-clock limit -live-timeout %v reached, every server stopped (fewer -live-reads or -algo, or a higher -live-rate); %s: %w", timeout, leftOut(rows, algos), runErr)
	case errors.Is(runErr, context.Canceled):
		runErr = fmt.Errorf("interrupted, every server stopped; %s: %w", leftOut(rows, algos), runErr)
	default:
		return runErr
	}
	werr := schema.Write(w, format, rows, func(w io.Writer, rows []schema.StormLive) error {
		if err := analysis.WriteStormLiveTable(w, rows, lru); err != nil || runErr == nil {
			return err
		}
		_, err := fmt.Fprintf(w, "not measured: %s\n", leftOut(rows, algos))
		return err
	})
	if runErr != nil {
		return runErr
	}
	return werr
}

// leftOut names the algorithms of algos without rows, after the rows
// written: "written: ring; left out: jump, rendezvous".
func leftOut(rows []schema.StormLive, algos []string) string {
	var done, left []string
	for _, a := range algos {
		if slices.ContainsFunc(rows, func(r schema.StormLive) bool { return r.Algo == a }) {
			done = append(done, a)
		} else {
			left = append(left, a)
		}
	}
	if len(done) == 0 {
		return "no algorithm finished: left out " + strings.Join(left, ", ")
	}
	return "written: " + strings.Join(done, ", ") + "; left out: " + strings.Join(left, ", ")
}

// liveKeyFile reads -keyfile for -live: its keys, every set's, are the
// working set (at most liveMaxWorkingSet), and -working-set becomes their
// count. Without -keyfile it returns nil (generated keys).
func (s *stormFlags) liveKeyFile(set map[string]bool) ([]string, error) {
	if !set["keyfile"] {
		return nil, nil
	}
	o := analysis.Options{}
	closeKeys, err := s.a.OpenKeys(&o, io.Discard)
	if err != nil {
		return nil, err
	}
	defer closeKeys()
	f := o.Keys.(*keyset.File)
	if f.Keys() > liveMaxWorkingSet {
		return nil, fmt.Errorf("key file %q: %d keys; -live warms at most %d", f.Path(), f.Keys(), liveMaxWorkingSet)
	}
	keys := make([]string, 0, f.Keys())
	if err := f.Scan(func(k string) error { keys = append(keys, strings.Clone(k)); return nil }); err != nil {
		return nil, err
	}
	s.m.WorkingSet = len(keys)
	return keys, nil
}

// liveConfig checks -live's flags and returns the storm every algorithm
// runs (its placements and seed left to fill), the options, the sweep and
// the resize; every error is a usage error.
func (s *stormFlags) liveConfig(set map[string]bool, keys []string, stderr io.Writer) (live.StormConfig, analysis.Options, analysis.Sweep, analysis.Scenario, error) {
	var cfg live.StormConfig
	reads, err := s.live.check(s, set)
	if err != nil {
		return cfg, analysis.Options{}, analysis.Sweep{}, analysis.Scenario{}, err
	}
	o, sw, err := s.a.Options()
	if err != nil {
		return cfg, o, sw, analysis.Scenario{}, err
	}
	scs, err := s.changes(set, o.Seed)
	if err != nil {
		return cfg, o, sw, analysis.Scenario{}, err
	}
	if len(scs) != 1 || len(scs[0].Steps) != 1 {
		return cfg, o, sw, analysis.Scenario{}, fmt.Errorf("-live runs one membership change of one step; the flags give %d", len(scs))
	}
	sc := scs[0]
	// The servers are started per node ID; IDs chbench generates become
	// server addresses for a dialect, the user's stay as given.
	if analysis.HasDialect(sw.Algos) && !s.fleet.Explicit() {
		if sc, err = analysis.AddressScenario(sc); err != nil {
			return cfg, o, sw, sc, err
		}
		cli.NoteAddresses(stderr)
	}
	sw.Scenarios = []analysis.Scenario{sc}
	cli.NamedPlacement(&o, set, s.fleet.Named(), stderr)
	if !set["algo"] { // the default list, narrowed to what takes the fleet's weights
		if skip := sw.KeepWeighted(); len(skip) > 0 {
			fmt.Fprintf(stderr, "chbench: skipping %s: no weights other than 1\n", strings.Join(skip, ", "))
		}
		o.Algo = sw.Algos[0]
	}
	if keys == nil {
		if keys, err = keyset.Keys(s.m.WorkingSet, o.Seed); err != nil {
			return cfg, o, sw, sc, err
		}
	}
	if _, err := live.LookBinary("memcached"); err != nil {
		return cfg, o, sw, sc, fmt.Errorf("-live: %w", err)
	}
	cfg = live.StormConfig{Keys: keys, Expire: 1 - s.m.HitRatio, Reads: reads, Windows: s.live.windows, MemMB: s.live.memMB,
		ValueBytes: liveValueBytes, Rate: s.live.rate, Timeout: liveExchange}
	if s.live.steady == "lru" {
		cfg.Expire = 0
	}
	if s.m.Zipf > 0 { // nil Popularity: uniform reads
		z, err := analysis.NewZipf(s.m.WorkingSet, s.m.Zipf) // rank i is keys[i]: random keys, so rank and placement are independent
		if err != nil {
			return cfg, o, sw, sc, err
		}
		cfg.Popularity = z
	}
	return cfg, o, sw, sc, nil
}
