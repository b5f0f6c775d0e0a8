package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/chbench/chbench/analysis/propagate"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/live"
)

// runPropagate replays requests from clients that learn membership
// changes at different times and counts, per algorithm, the requests
// routed by a stale view and sent astray (propagate.Study), or with -live
// counts the redirects of a live Redis Cluster resharding beside their
// model; the end of ctx (Main's: SIGINT, SIGTERM) stops the live run and
// its servers.
func runPropagate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var p cli.Propagation
	var l reshardFlags
	fs := cli.NewFlagSet("propagate", "[-algo A[,B...]] [-from N] [-op OP | -to M | fleet flags] [-at T[,T...]] [-model SPEC] [-clients C] [-rate R | -trace FILE] [flags] | -headline | -live", stderr)
	p.Register(fs)
	l.register(fs)
	set, err := cli.Parse(fs, args)
	if err == nil && fs.NArg() != 0 {
		err = cli.Args(fs, 0, "")
	}
	if err != nil {
		return cli.Usage(err)
	}
	if l.on {
		return runReshard(ctx, &p, &l, set, stdout)
	}
	st, err := p.Study(set)
	if err != nil {
		return cli.Usage(err)
	}
	closeTrace, err := p.OpenTrace(&st, stderr) // read by the run: its errors are not the command line's
	if err != nil {
		return err
	}
	defer closeTrace()
	rows, err := st.Rows()
	if err != nil {
		return err
	}
	return cli.WriteRows(stdout, p.Out, p.Formats, rows, propagate.WriteTable)
}

// Bounds of propagate -live: seconds of load on loopback, never minutes.
const (
	reshardMaxRate    = 100000
	reshardMaxTimeout = 10 * time.Minute
)

// reshardFlags are the flags of propagate -live.
type reshardFlags struct {
	on                          bool
	slots, control, keys, pipel int
	rate, writes                float64
	windows                     int
	lead, tail, timeout         time.Duration
}

func (l *reshardFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&l.on, "live", false, "instead of a replay: reshard a live Redis Cluster of 3 masters on 127.0.0.1 (redis-server, redis-cli) while a client that caches the slot map reads and writes, and count its MOVED and ASK redirects beside the model")
	fs.IntVar(&l.slots, "live-slots", 8, "live: slots redis-cli moves from the first master to the second (its lowest; 1..5461 with -live-control)")
	fs.IntVar(&l.control, "live-control", 2, "live: slots after them that stay and hold keys too (never redirected)")
	fs.IntVar(&l.keys, "live-keys", 1000, "live: keys loaded into each of those slots (1..100,000)")
	fs.IntVar(&l.pipel, "live-pipeline", 1, "live: keys per MIGRATE (redis-cli --cluster-pipeline)")
	fs.Float64Var(&l.rate, "live-rate", 4000, fmt.Sprintf("live: most requests per second the client sends (wall clock; at most %d)", reshardMaxRate))
	fs.Float64Var(&l.writes, "live-writes", 0.2, "live: fraction of requests that are SETs, 0..1 (every GET must return the last SET)")
	fs.IntVar(&l.windows, "live-windows", 12, "live: equal windows of the run the redirects are counted in")
	fs.DurationVar(&l.lead, "live-lead", 300*time.Millisecond, "live: how long the client runs before the resharding starts")
	fs.DurationVar(&l.tail, "live-tail", 300*time.Millisecond, "live: how long it runs after redis-cli exits (long enough for every migrated slot's MOVED)")
	fs.DurationVar(&l.timeout, "live-timeout", 90*time.Second, "live: wall-clock limit of the whole run, servers included (at most 10m)")
}

// liveOnly are the flags -live reads besides its own; the replay's other
// flags do not apply to it.
var liveOnly = map[string]bool{"seed": true, "format": true, "o": true, "commit": true}

// config checks -live's flags and returns the resharding to run.
func (l *reshardFlags) config(set map[string]bool, seed uint64) (live.ReshardConfig, error) {
	var other []string
	for _, name := range slices.Sorted(maps.Keys(set)) {
		if name != "live" && !strings.HasPrefix(name, "live-") && !liveOnly[name] {
			other = append(other, "-"+name)
		}
	}
	if len(other) > 0 {
		return live.ReshardConfig{}, fmt.Errorf("-live runs a resharding, not a replay; it cannot be combined with %s", strings.Join(other, ", "))
	}
	switch {
	case l.windows < 1 || l.windows > propagate.MaxWindows:
		return live.ReshardConfig{}, fmt.Errorf("live-windows %d: need 1 to %d", l.windows, propagate.MaxWindows)
	case math.IsNaN(l.rate) || l.rate <= 0 || l.rate > reshardMaxRate:
		return live.ReshardConfig{}, fmt.Errorf("live-rate %v: need 0 < rate <= %d requests per second", l.rate, reshardMaxRate)
	case l.timeout <= 0 || l.timeout > reshardMaxTimeout:
		return live.ReshardConfig{}, fmt.Errorf("live-timeout %v: need 0 < timeout <= %v", l.timeout, reshardMaxTimeout)
	}
	c := live.ReshardConfig{Slots: l.slots, ControlSlots: l.control, KeysPerSlot: l.keys, Pipeline: l.pipel, Rate: l.rate, Writes: l.writes,
		Lead: l.lead, Tail: l.tail, Seed: seed, Timeout: l.timeout}
	return c, c.Validate()
}

// runReshard is propagate -live: live.RunReshard, then the redirect model
// of the same migration (propagate.ExpectRedirects), written as rows.
func runReshard(ctx context.Context, p *cli.Propagation, l *reshardFlags, set map[string]bool, stdout io.Writer) error {
	commit, err := p.Output()
	if err != nil {
		return cli.Usage(err)
	}
	seed := p.Seed()
	cfg, err := l.config(set, seed)
	if err != nil {
		return cli.Usage(err)
	}
	for _, bin := range []string{"redis-server", "redis-cli"} {
		if _, err := live.LookBinary(bin); err != nil {
			return fmt.Errorf("-live: %w", err)
		}
	}
	run, err := live.RunReshard(ctx, cfg)
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("wall-clock limit -live-timeout %v reached, every server stopped: %w", l.timeout, err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted, every server stopped: %w", err)
	default:
		return err
	}
	migs, reqs := run.Migrations(), run.SlotRequests()
	p50, p999, slack, err := propagate.Slack(reqs)
	if err != nil {
		return err
	}
	model, err := propagate.ExpectRedirects(migs, reqs, slack, 0, reqs[len(reqs)-1].Done, l.windows)
	if err != nil {
		return err
	}
	rs := propagate.Resharding{Slots: cfg.Slots, ControlSlots: cfg.ControlSlots, KeysPerSlot: cfg.KeysPerSlot, Pipeline: cfg.Pipeline,
		Rate: cfg.Rate, Writes: cfg.Writes, Seed: seed, RedisVersion: run.Version,
		MigrationStart: migs[0].Start, MigrationEnd: migs[len(migs)-1].End, RoundTripP50: p50, RoundTripP999: p999, Commit: commit}
	return cli.WriteRows(stdout, p.Out, p.Formats, propagate.RedirectRows(rs, model), propagate.WriteRedirectTable)
}
