package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/keyset"
	"github.com/chbench/chbench/live"
	"github.com/chbench/chbench/schema"
)

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

// runStormLive is storm -live: for each algorithm, RunStorm against real
// memcached servers, beside the warm-up model over the same windows.
func runStormLive(a *analysisFlags, set map[string]bool, l liveFlags, from, to int, m analysis.StormModel, span float64, stdout, stderr io.Writer) (err error) {
	usage := true
	defer func() {
		if usage {
			err = badUsage(err)
		}
	}()
	if !set["algo"] {
		a.algo = liveAlgos
	}
	if !set["working-set"] {
		m.WorkingSet = liveWorkingSet
	}
	for _, f := range []string{"keyfile", "timeline"} {
		if set[f] {
			return fmt.Errorf("-%s cannot be combined with -live", f)
		}
	}
	switch {
	case m.WorkingSet > liveMaxWorkingSet:
		return fmt.Errorf("working set %d: -live warms at most %d keys", m.WorkingSet, liveMaxWorkingSet)
	case l.memMB < 1 || l.memMB > liveMaxMemMB:
		return fmt.Errorf("live-mem %d: need 1..%d megabytes", l.memMB, liveMaxMemMB)
	case l.windows < 1 || l.windows > 1000:
		return fmt.Errorf("live-windows %d: need 1..1000", l.windows)
	case math.IsNaN(l.rate) || l.rate <= 0 || l.rate > liveMaxRate:
		return fmt.Errorf("live-rate %v: need 0 < rate <= %g reads per second", l.rate, liveMaxRate)
	case l.timeout <= 0 || l.timeout > liveMaxTimeout:
		return fmt.Errorf("live-timeout %v: need 0 < timeout <= %v", l.timeout, liveMaxTimeout)
	case l.steady != "expiry" && l.steady != "lru":
		return fmt.Errorf("live-steady %q: need expiry or lru", l.steady)
	case l.reads < 0 || l.reads > liveMaxReads:
		return fmt.Errorf("live-reads %d: need 0 (= -span working sets) to %d", l.reads, liveMaxReads)
	}
	reads := l.reads
	if reads == 0 {
		reads = int(math.Min(math.Round(span*float64(m.WorkingSet)), liveMaxReads))
	}
	if reads < l.windows {
		return fmt.Errorf("live-reads %d: need at least one read per window (-live-windows %d)", reads, l.windows)
	}
	o, sw, err := a.options()
	if err != nil {
		return err
	}
	sc, err := analysis.Resize(from, to)
	if err != nil {
		return err
	}
	keys, err := keyset.Keys(m.WorkingSet, o.Seed)
	if err != nil {
		return err
	}
	if _, err := live.LookBinary("memcached"); err != nil {
		return fmt.Errorf("-live: %w", err)
	}
	var pop live.Sampler // nil: uniform reads, the sequence of earlier releases
	if m.Zipf > 0 {
		z, err := analysis.NewZipf(m.WorkingSet, m.Zipf) // rank i is keys[i]: random keys, so rank and placement are independent
		if err != nil {
			return err
		}
		pop = z
	}
	expire := 1 - m.HitRatio
	if l.steady == "lru" {
		expire = 0
	}
	usage = false

	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	var rows []schema.StormLive
	err = sw.EachConfig(o, func(o analysis.Options) error {
		chain, err := analysis.Placements(o, sc)
		if err != nil {
			return err
		}
		run, err := live.RunStorm(ctx, live.StormConfig{
			Before: chain[0], After: chain[1], Keys: keys, Expire: expire,
			Reads: reads, Windows: l.windows, MemMB: l.memMB, ValueBytes: liveValueBytes,
			Rate: l.rate, Seed: o.Seed, Timeout: liveExchange, Popularity: pop,
		})
		if err != nil {
			return err
		}
		rows = append(rows, liveRows(o, sc, m, l.memMB, run)...)
		return nil
	})
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("wall-clock limit -live-timeout %v reached, every server stopped (fewer -live-reads or -algo, or a higher -live-rate): %w", l.timeout, err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted, every server stopped: %w", err)
	default:
		return err
	}
	switch a.format {
	case "csv":
		return schema.WriteCSV(stdout, rows)
	case "json":
		return schema.WriteJSON(stdout, rows)
	}
	return writeStormLiveTable(stdout, sc, m, l, rows)
}

// liveRows turns a live run into rows: the steady window (-1), then each
// window after the change, each beside the model's mean over it.
func liveRows(o analysis.Options, sc analysis.Scenario, m analysis.StormModel, memMB int, run *live.StormRun) []schema.StormLive {
	f := float64(run.Moved) / float64(m.WorkingSet)
	hash := o.Config.Hash
	if h, err := algorithms.LookupHash(hash); err == nil { // validated by the options
		hash = h.Name()
	}
	base := schema.StormLive{
		Op: sc.Op, From: len(sc.Initial), To: len(sc.Initial) + len(sc.Steps[0].Join) - len(sc.Steps[0].Leave),
		Reads: m.Reads, HitRatio: m.HitRatio, WorkingSet: m.WorkingSet, Zipf: m.Zipf, MovedFrac: f,
		LiveMemMB: memMB, ValueBytes: liveValueBytes, DBSteady: m.SteadyDBReads(),
		Config: schema.Config{Algo: o.Algo, Hash: hash, VNodes: o.Config.VNodes, Keys: m.WorkingSet, Sets: 1, Seed: o.Seed, GoVersion: runtime.Version(), Commit: o.Commit},
	}
	row := func(i int, w live.StormWindow, hitSim float64) schema.StormLive {
		r := base
		r.Window = i
		r.TimeS, r.TimeEndS = float64(w.First)/m.Reads, float64(w.End)/m.Reads
		r.WindowReads, r.ExpiredReads = w.Reads, w.Expired
		r.HitLive = float64(w.Hits) / float64(w.Reads)
		r.DBReadsLive = m.Reads * (1 - r.HitLive)
		r.HitSim = hitSim
		r.DBReadsSim = m.Reads * (1 - hitSim)
		return r
	}
	rows := []schema.StormLive{row(-1, run.Steady, m.HitRatio)}
	for i, w := range run.Windows {
		rows = append(rows, row(i, w, m.MeanHitBetween(f, float64(w.First)/m.Reads, float64(w.End)/m.Reads)))
	}
	return rows
}

// writeStormLiveTable writes the live rows as an aligned table, live and
// simulated side by side.
func writeStormLiveTable(w io.Writer, sc analysis.Scenario, m analysis.StormModel, l liveFlags, rows []schema.StormLive) error {
	if len(rows) == 0 {
		return nil
	}
	r0 := rows[0]
	fmt.Fprintf(w, "live storm: %s %d -> %d, one memcached per node on 127.0.0.1 (-m %d MB), working set %s keys of %d-byte values\n",
		sc.Op, r0.From, r0.To, l.memMB, thousands(float64(m.WorkingSet)), liveValueBytes)
	how := "emulated by expiring the key before " + percent(1-m.HitRatio) + " of reads"
	if l.steady == "lru" {
		how = "left to memcached's LRU eviction (no expiries)"
	}
	fmt.Fprintf(w, "clock: %s reads/s (read i at i/Q s; tau = K/Q = %s s); model's steady hit %s, live %s; db = Q x miss ratio\n",
		thousands(m.Reads), strconv.FormatFloat(m.TimeConstant(), 'g', 4, 64), percent(m.HitRatio), how)
	if m.Zipf > 0 {
		fmt.Fprintf(w, "popularity: Zipf s = %s over the working set (seeded draws, model summed over the same law)\n", strconv.FormatFloat(m.Zipf, 'g', -1, 64))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algo\tmoved\twindow\tseconds\treads\thit live\thit sim\tdb reads/s live\tdb reads/s sim")
	for _, r := range rows {
		win := strconv.Itoa(r.Window)
		if r.Window < 0 {
			win = "before"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s..%s\t%s\t%s\t%s\t%s\t%s\n", r.Algo, percent(r.MovedFrac), win,
			strconv.FormatFloat(r.TimeS, 'f', 2, 64), strconv.FormatFloat(r.TimeEndS, 'f', 2, 64), thousands(float64(r.WindowReads)),
			percent(r.HitLive), percent(r.HitSim), thousands(r.DBReadsLive), thousands(r.DBReadsSim))
	}
	return tw.Flush()
}

func percent(x float64) string { return strconv.FormatFloat(100*x, 'f', 2, 64) + "%" }

// thousands formats x rounded to a whole number with thousands separators.
func thousands(x float64) string {
	s := strconv.FormatFloat(math.Abs(math.Round(x)), 'f', 0, 64)
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if math.Round(x) < 0 {
		return "-" + string(b)
	}
	return string(b)
}
