package propagate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
)

// fixedDelays is a test model: client i learns every change after
// delays[i] seconds.
type fixedDelays []float64

func (m fixedDelays) Spec() string                       { return fmt.Sprintf("fixed:%v", []float64(m)) }
func (m fixedDelays) Validate() error                    { return nil }
func (m fixedDelays) Draw(learn []float64, _ *rand.Rand) { copy(learn, m) }
func (m fixedDelays) Curve(int) (Curve, error)           { return stepCurve(append([]float64(nil), m...)), nil }

func nodes(t *testing.T, n int) []algorithms.Node {
	t.Helper()
	ns, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// movingKeys returns a key that algorithm name places on different nodes
// before and after the change, and one it leaves in place.
func movingKeys(t *testing.T, name string, before, after []algorithms.Node) (moved, stays string) {
	t.Helper()
	p0, err := catalog.New(name, before, catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	p1, err := p0.Rebalance(after)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; moved == "" || stays == ""; i++ {
		k := fmt.Sprintf("key-%d", i)
		if p0.Locate(k) != p1.Locate(k) {
			moved = cmpOr(moved, k)
		} else {
			stays = cmpOr(stays, k)
		}
	}
	return moved, stays
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// A scripted cache-aside scenario with exact counts. Key k moves from X0
// to X1 when the membership changes at t = 1; client 0 learns at once,
// client 1 two seconds later (t = 3). Request by request (window = second):
//
//	0.5  c0 read k   hit on X0 (warm)
//	1.5  c1 write k  db 1, deletes X0's copy          stale, misrouted
//	1.55 c1 read k2  k2 did not move: hit             stale
//	1.6  c0 read k   miss on X1, fill X1 (v1, db 1)
//	1.7  c1 read k   miss on X0 while X1 holds db 1, filled through view 1
//	                 after the change: a split miss; fill X0, now two
//	                 copies both views in use name: double-cached;
//	                 store: X0 no longer owns k (any more)   stale, misrouted
//	1.8  c1 write k  db 2, deletes X0's copy only     stale, misrouted
//	1.9  c0 read k   hit on X1 with db 1 < 2: a stale read
//	2.0  c1 read k   miss on X0; X1's copy is old, so not a split miss;
//	                 fill X0: double-cached again; any more  stale, misrouted
//	3.5  c1 read k   (learned at 3) hit on X1 with db 1 < 2: a stale read
//	3.6  c0 write k  db 3, deletes X1's copy
//	3.7  c0 read k   miss on X1; X0 holds db 2 but only view 0 names it, and
//	                 nobody routes with view 0 any more: not double-cached
//
// Totals: 5 stale, 4 misrouted, 4 misses, 1 split miss, 2 double-cached,
// 2 stale reads, 2 reads any more. With a hand-off of 1 s (the data is on
// X1 from t = 2) client 0's reads at 1.6 and 1.9 go to X1 before it owns k
// (not yet), and client 1's at 2.0 to X0 after (any more).
func TestCacheAsideScript(t *testing.T) {
	before, after := nodes(t, 2), nodes(t, 3)
	k, k2 := movingKeys(t, "modulo", before, after)
	reqs := Requests{
		{0.5, 0, k, Read}, {1.5, 1, k, Write}, {1.55, 1, k2, Read}, {1.6, 0, k, Read}, {1.7, 1, k, Read},
		{1.8, 1, k, Write}, {1.9, 0, k, Read}, {2.0, 1, k, Read}, {3.5, 1, k, Read}, {3.6, 0, k, Write},
		{3.7, 0, k, Read},
	}
	cfg := Config{Algorithms: []string{"modulo"}, Catalog: catalog.DefaultConfig(), Nodes: before,
		Changes: []Change{{At: 1, Nodes: after}}, Model: fixedDelays{0, 2}, Clients: 2,
		Start: 0, End: 4, Windows: 4, Replays: 1, Cache: true}
	res, err := Run(cfg, reqs)
	if err != nil {
		t.Fatal(err)
	}
	tot := res.Totals[0]
	for name, c := range map[string][2]float64{
		"stale": {tot.Stale.Mean, 5}, "misrouted": {tot.Misrouted.Mean, 4}, "misses": {tot.Misses.Mean, 4},
		"split misses": {tot.SplitMisses.Mean, 1}, "double-cached": {tot.DoubleCached.Mean, 2},
		"stale reads": {tot.StaleReads.Mean, 2}, "not yet": {tot.NotYet.Mean, 0}, "any more": {tot.AnyMore.Mean, 2},
		"requests": {tot.Requests, 11}, "reads": {tot.Reads, 8},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %v, want %v", name, c[0], c[1])
		}
	}
	var stale []float64
	for _, w := range res.Windows {
		stale = append(stale, w.Stale.Mean)
	}
	if !reflect.DeepEqual(stale, []float64{0, 4, 1, 0}) {
		t.Errorf("stale per window %v, want [0 4 1 0]", stale)
	}

	cfg.Handoff = 1
	res, err = Run(cfg, reqs)
	if err != nil {
		t.Fatal(err)
	}
	if tot := res.Totals[0]; tot.NotYet.Mean != 2 || tot.AnyMore.Mean != 1 {
		t.Errorf("hand-off 1 s: not yet %v, any more %v; want 2 and 1", tot.NotYet.Mean, tot.AnyMore.Mean)
	}
}

// scenario is a join of one node to n at t = 1 s, replayed over [0, end)
// at rate requests/s from clients clients, 10% writes, uniform keys.
func scenario(t *testing.T, algos []string, n, clients int, rate, end float64, m Model, replays int) (Config, Source) {
	t.Helper()
	src, err := NewGenerated(GeneratedConfig{Keys: 20000, Rate: rate, Start: 0, End: end, Clients: clients, Writes: 0.1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	ns := nodes(t, n)
	return Config{Algorithms: algos, Catalog: catalog.DefaultConfig(), Nodes: ns,
		Changes: []Change{{At: 1, Nodes: Joined(ns, algorithms.Node{ID: algorithms.NodeID(n), Weight: 1})}},
		Model:   m, Clients: clients, Start: 0, End: end, Windows: 8, Replays: replays, Seed: 3}, src
}

// All at once: no request is ever routed by a stale view, so nothing is
// misrouted, no store read goes astray, and the cache-aside fleet sees
// misses (the storm of the moved keys) but no split miss, no key cached on
// two reachable servers and no stale read; the expectations are 0 too.
func TestInstantNothingStale(t *testing.T) {
	cfg, src := scenario(t, []string{"modulo", "ring"}, 5, 20, 2000, 3, Instant{}, 2)
	cfg.Cache = true
	res, err := Run(cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Totals {
		for name, e := range map[string]analysis.Estimate{"stale": r.Stale, "misrouted": r.Misrouted, "not yet": r.NotYet,
			"any more": r.AnyMore, "split misses": r.SplitMisses, "double-cached": r.DoubleCached, "stale reads": r.StaleReads} {
			if e.Mean != 0 || !e.HasInterval() || *e.Lo != 0 || *e.Hi != 0 {
				t.Errorf("%s: %s = %+v, want 0", r.Algorithm, name, e)
			}
		}
		if r.StaleExpected != 0 || r.MisroutedExpected != 0 || r.NotYetExpected != 0 || r.AnyMoreExpected != 0 {
			t.Errorf("%s: expectations %v %v %v %v, want 0", r.Algorithm, r.StaleExpected, r.MisroutedExpected, r.NotYetExpected, r.AnyMoreExpected)
		}
		if r.Misses.Mean == 0 {
			t.Errorf("%s: no misses, but the moved keys must miss once", r.Algorithm)
		}
	}
}

// The same inputs give the same result for any number of workers, and
// again on a second run.
func TestRunDeterministic(t *testing.T) {
	cfg, src := scenario(t, []string{"modulo", "ring", "jump", "slots"}, 8, 30, 3000, 3, Linear{Duration: 1.5}, 2)
	cfg.Cache = true
	var first *Result
	for _, w := range []int{1, 3, 1} {
		cfg.Workers = w
		res, err := Run(cfg, src)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
		} else if !reflect.DeepEqual(first, res) {
			t.Fatalf("workers %d: result differs from the first run", w)
		}
	}
}

// Bad configurations and requests are errors that name the bad value.
func TestRunErrors(t *testing.T) {
	good, src := scenario(t, []string{"ring"}, 4, 10, 100, 2, Instant{}, 1)
	for name, tc := range map[string]struct {
		edit func(*Config)
		src  Source
		want string
	}{
		"no algorithms":    {func(c *Config) { c.Algorithms = nil }, src, "no algorithms"},
		"unknown":          {func(c *Config) { c.Algorithms = []string{"ringo"} }, src, `unknown algorithm "ringo"`},
		"twice":            {func(c *Config) { c.Algorithms = []string{"ring", "ring"} }, src, `"ring" listed twice`},
		"no changes":       {func(c *Config) { c.Changes = nil }, src, "0 changes"},
		"order":            {func(c *Config) { c.Changes = append(c.Changes, Change{At: 0.5, Nodes: c.Nodes}) }, src, "change 1 at 0.5 s is not after"},
		"no model":         {func(c *Config) { c.Model = nil }, src, "no propagation model"},
		"bad model":        {func(c *Config) { c.Model = Linear{} }, src, "duration T 0 s"},
		"clients":          {func(c *Config) { c.Clients = 0 }, src, "clients 0"},
		"span":             {func(c *Config) { c.End = c.Start }, src, "span 0..0 s"},
		"windows":          {func(c *Config) { c.Windows = 0 }, src, "windows 0"},
		"replays":          {func(c *Config) { c.Replays = 0 }, src, "replays 0"},
		"handoff":          {func(c *Config) { c.Handoff = -1 }, src, "hand-off -1 s"},
		"membership":       {func(c *Config) { c.Changes[0].Nodes = nil }, src, "change 0: ring: membership is empty"},
		"late request":     {nil, Requests{{5, 0, "a", Read}}, "request 0 at 5 s: outside the replay span [0, 2) s"},
		"out of order":     {nil, Requests{{1, 0, "a", Read}, {0.5, 0, "b", Read}}, "request 1 at 0.5 s: before the previous request at 1 s"},
		"client":           {nil, Requests{{1, 10, "a", Read}}, "request 0: client 10: need 0..9"},
		"empty key":        {nil, Requests{{1, 0, "", Read}}, "request 0: empty key"},
		"unknown op":       {nil, Requests{{1, 0, "a", Op(7)}}, "request 0: unknown op 7"},
		"no request input": {nil, nil, "no request source"},
	} {
		cfg := good
		cfg.Changes = append([]Change(nil), good.Changes...)
		if tc.edit != nil {
			tc.edit(&cfg)
		}
		_, err := Run(cfg, tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", name, err, tc.want)
		}
	}
}
