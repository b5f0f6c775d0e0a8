package command

import (
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/live"
	"github.com/chbench/chbench/schema"
)

// studyOf parses propagate's flags args and returns the study they
// describe.
func studyOf(t *testing.T, args ...string) any {
	t.Helper()
	var p cli.Propagation
	fs := cli.NewFlagSet("propagate", "", io.Discard)
	p.Register(fs)
	set, err := cli.Parse(fs, args)
	if err != nil {
		t.Fatal(err)
	}
	st, err := p.Study(set)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// -headline is the scenario the defaults describe, and the one the
// Makefile spells out for propagate.csv, so the report's headline and a
// bare `chbench propagate` are the same run.
func TestPropagateHeadlineIsTheDefault(t *testing.T) {
	h := studyOf(t, "-headline", "-commit", "x")
	if d := studyOf(t, "-commit", "x"); !reflect.DeepEqual(h, d) {
		t.Errorf("-headline:\n%+v\ndefaults:\n%+v", h, d)
	}
	mk := studyOf(t, "-algo", "all", "-from", "100", "-op", "add", "-clients", "100", "-seed", "1", "-model", "linear:T=30s",
		"-rate", "10000", "-keys", "100000", "-replays", "5", "-commit", "x")
	if !reflect.DeepEqual(h, mk) {
		t.Errorf("-headline:\n%+v\nthe Makefile's flags:\n%+v", h, mk)
	}
}

// Bad propagate flags are usage errors naming the value, before any work.
func TestPropagateBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-model", "linear"}, `model "linear": missing T=`},
		{[]string{"-model", "gossip:k=3"}, "missing p="},
		{[]string{"-model", "wave"}, `unknown model "wave"`},
		{[]string{"-clients", "0"}, "clients 0"},
		{[]string{"-rate", "0"}, "rate 0"},
		{[]string{"-windows", "0"}, "windows 0"},
		{[]string{"-keys", "0"}, "keys 0"},
		{[]string{"-writes", "1.5"}, "writes 1.5"},
		{[]string{"-zipf", "-1"}, "zipf -1"},
		{[]string{"-replays", "0"}, "replays 0"},
		{[]string{"-handoff", "-1"}, "handoff -1"},
		{[]string{"-span", "5,1"}, `span "5,1": the end must come after the start`},
		{[]string{"-span", "5"}, `span "5": want START,END`},
		{[]string{"-at", "3,1"}, `at "3,1": the change times must increase`},
		{[]string{"-at", "-1"}, "at -1: must be >= 0"},
		{[]string{"-op", "churn"}, "scenario churn from 100 nodes: 20 membership changes but one change time 0 s"},
		{[]string{"-op", "shrink-random"}, "scenario shrink-random from 100 nodes: 90 membership changes: need 1 to 31"},
		{[]string{"-every", "0", "-op", "restore"}, "every 0: need seconds > 0"},
		{[]string{"-op", "restore", "-at", "0,1,2"}, "3 change times for 2 membership changes"},
		{[]string{"-to", "100"}, "from 100 to 100"},
		{[]string{"-format", "bench"}, "format bench: propagate writes table, csv or json"},
		{[]string{"-format", "csv,json"}, "several formats need -o"},
		{[]string{"-headline", "-model", "instant"}, "-headline is a fixed scenario; it cannot be combined with -model"},
		{[]string{"-live", "-rate", "5"}, "-live runs a resharding, not a replay; it cannot be combined with -rate"},
		{[]string{"-live", "-live-slots", "0"}, "0 slots and 2 control slots"},
		{[]string{"-live", "-live-rate", "1e9"}, "live-rate 1e+09"},
		{[]string{"-join", "node-3"}, `duplicate node ID "node-3"`},
		{[]string{"-algo", "ringo"}, `unknown algorithm "ringo"`},
		{[]string{"x"}, `unexpected argument "x"`},
	} {
		_, _, err := runCLI(t, append([]string{"propagate"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || !cli.IsUsage(err) {
			t.Errorf("%v: err = %v (usage %v), want a usage error containing %q", c.args, err, cli.IsUsage(err), c.want)
		}
	}
}

// propagate -live on a small resharding (2 slots of 300 keys): the rows
// read back, every window is counted, and the run passes the model's
// checks (docs/propagate.md): the ASK count within the bracket +- 4
// binomial sd, exactly one MOVED per migrated slot. The redirect model
// itself is tested in analysis/propagate and against the full run in
// live's TestRedisReshardRedirects; this checks the command's wiring.
func TestPropagateLive(t *testing.T) {
	for _, bin := range []string{"redis-server", "redis-cli"} {
		if _, err := live.LookBinary(bin); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("CI: %v", err)
			}
			t.Skipf("skipped: %v (install the package, or run .ci/run)", err)
		}
	}
	out, _, err := runCLI(t, "propagate", "-live", "-live-slots", "2", "-live-control", "1", "-live-keys", "300", "-live-windows", "4", "-seed", "5", "-format", "csv", "-commit", "t")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := schema.ReadCSV[schema.Redirect](strings.NewReader(out), "propagate-redis.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || rows[4].Window != -1 {
		t.Fatalf("%d rows, want 4 windows and the whole run:\n%s", len(rows), out)
	}
	tot, sum := rows[4], 0
	for _, r := range rows[:4] {
		sum += r.Requests
	}
	if sum != tot.Requests || tot.Requests == 0 {
		t.Errorf("windows hold %d requests, the whole run %d", sum, tot.Requests)
	}
	if lo, hi := tot.AskModelLo-4*tot.AskSD, tot.AskModelHi+4*tot.AskSD; float64(tot.Ask) < lo || float64(tot.Ask) > hi {
		t.Errorf("%d ASK redirects, model %.1f: outside the bracket +- 4 sd %.1f..%.1f", tot.Ask, tot.AskModel, lo, hi)
	}
	if tot.Moved != 2 || tot.MovedModelLo != 2 || tot.MovedModelHi != 2 {
		t.Errorf("%d MOVED redirects, model %d..%d; want exactly 2, one per slot", tot.Moved, tot.MovedModelLo, tot.MovedModelHi)
	}
	if tot.RedisVersion == "" || tot.Slots != 2 || tot.KeysPerSlot != 300 || tot.Seed != 5 || tot.Commit != "t" {
		t.Errorf("run columns %+v", tot)
	}
}
