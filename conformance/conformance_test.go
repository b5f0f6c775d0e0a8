package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/dump"
)

// The suite's verdicts on chbench's own algorithms: every one passes
// determinism, balance, replicas and churn and, where it applies, order
// and weights; join and leave pass wherever the catalog promises a minimal
// join or leave, and fail for modulo (which moves most keys) and maglev
// (whose table rebuild moves a few keys between nodes that stay). 5,000
// keys, 100 churn steps and a Maglev table of 5,003 entries (above 100
// entries per node up to the churn's 20 nodes) keep the 16 runs within
// seconds under -race; the thresholds follow from K (the balance bound is
// then cv 0.15, twice the ring's 0.075 at 160 virtual nodes).
func TestBuiltins(t *testing.T) {
	fails := map[string][]string{"modulo": {Join, Leave}, "maglev": {Join, Leave}}
	cfg := testConfig()
	cfg.Keys, cfg.ChurnSteps = 5000, 100
	ccfg := catalog.DefaultConfig()
	ccfg.TableSize = 5003
	for _, name := range catalog.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in, err := catalog.Describe(name)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Run(context.Background(), Open(context.Background(), name, ccfg), cfg)
			if err != nil {
				t.Fatal(err)
			}
			for p, v := range verdicts(rep) {
				want := Pass
				switch {
				case contains(fails[name], p):
					want = Fail
				case p == Reference, p == Order && in.Ordered, p == Weights && !in.Weighted:
					want = NotApplicable
				}
				if v != want {
					t.Errorf("%s: %v, want %v", p, v, want)
				}
			}
			if in.JoinMinimal && rep.Verdict(Join) != Pass || in.LeaveMinimal && rep.Verdict(Leave) != Pass {
				t.Errorf("the catalog promises a minimal join (%v) or leave (%v), conformance finds join %v, leave %v",
					in.JoinMinimal, in.LeaveMinimal, rep.Verdict(Join), rep.Verdict(Leave))
			}
			if t.Failed() {
				t.Log("\n" + report(t, rep))
			}
		})
	}
}

// writeVectors writes the owners loc gives keys as a vector file, with
// the line of index bad (if >= 0) naming another owner.
func writeVectors(t *testing.T, loc algorithms.Locator, keys []string, bad int, other string) string {
	t.Helper()
	owners := make([]int, len(keys))
	if err := loc.LocateKeys(keys, owners); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, k := range keys {
		owner := loc.Nodes()[owners[i]].ID
		if i == bad {
			owner = other
		}
		fmt.Fprintln(&b, dump.Format(k, owner))
	}
	path := filepath.Join(t.TempDir(), "vectors.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A vector file is a reference: the vectors a placement wrote agree with
// it (keys with unusual bytes included), one changed owner is a FAIL
// naming its line, an owner outside the membership says so, and a
// malformed file is a FAIL naming the file and line.
func TestVectorReference(t *testing.T) {
	ccfg := catalog.DefaultConfig()
	ccfg.Hash = "fnv1a64"
	open := Open(context.Background(), "jump", ccfg)
	b, err := open()
	if err != nil {
		t.Fatal(err)
	}
	nodes, _ := algorithms.DefaultNodes(10)
	loc, err := b.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	keys := append([]string{"", "a b", "%", "\x00\xff", "tab\tkey"}, fmt.Sprint("user:1"), "user:2", "user:3")
	for i := range 3000 {
		keys = append(keys, fmt.Sprintf("key-%d", i))
	}
	cfg := testConfig()
	cfg.Only = []string{Reference}
	for _, tc := range []struct {
		bad     int
		other   string
		verdict Verdict
		value   float64
		detail  string
	}{
		{-1, "", Pass, 0, "3008 vectors"},
		{4, "node-0x", Fail, 1.0 / 3008, "line 5, key \"tab\\tkey\""},
		{100, "node-x", Fail, 1.0 / 3008, "not a member of the checks' membership"},
	} {
		cfg.Reference = &Ref{Vectors: writeVectors(t, loc, keys, tc.bad, tc.other)}
		rep, err := Run(context.Background(), open, cfg)
		if err != nil {
			t.Fatal(err)
		}
		res := rep.Results[0]
		if res.Verdict != tc.verdict || res.Value != tc.value || !strings.Contains(res.Detail, tc.detail) {
			t.Errorf("vector %d changed to %q: %v %v %q, want %v %v and %q", tc.bad, tc.other, res.Verdict, res.Value, res.Detail, tc.verdict, tc.value, tc.detail)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.tsv")
	os.WriteFile(bad, []byte("a\tnode-1\nb\tnode-2\nno tab\n"), 0o644)
	cfg.Reference = &Ref{Vectors: bad}
	rep, err := Run(context.Background(), open, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res := rep.Results[0]; res.Verdict != Fail || res.Measured || !strings.Contains(res.Detail, "bad.tsv:3: no tab") {
		t.Errorf("malformed vector file: %+v", res)
	}
}

// A bad configuration is an error naming the value, before anything runs.
func TestConfigErrors(t *testing.T) {
	open := Open(context.Background(), "ring", catalog.DefaultConfig())
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Nodes = 2 }, "nodes 2"},
		{func(c *Config) { c.IDs = []string{"a", "b"} }, "2 node IDs"},
		{func(c *Config) { c.IDs = []string{"a", "b", "a"} }, `duplicate node ID "a"`},
		{func(c *Config) { c.Keys = 10 }, "keys 10"},
		{func(c *Config) { c.Alpha = 0.7 }, "alpha 0.7"},
		{func(c *Config) { c.CV = -1 }, "cv tolerance -1"},
		{func(c *Config) { c.Replicas = 9 }, "replicas 9"},
		{func(c *Config) { c.ChurnSteps = -1 }, "churn steps -1"},
		{func(c *Config) { c.ChurnKeys = 200000 }, "churn keys 200000"},
		{func(c *Config) { c.Reference = &Ref{} }, "exactly one of a placement"},
		{func(c *Config) { c.Only = []string{"speed"} }, `unknown property "speed"`},
	} {
		cfg := DefaultConfig()
		tc.edit(&cfg)
		if _, err := Run(context.Background(), open, cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one containing %q", err, tc.want)
		}
	}
	if _, err := Run(context.Background(), Open(context.Background(), "nope", catalog.DefaultConfig()), DefaultConfig()); err == nil ||
		!strings.Contains(err.Error(), `unknown algorithm "nope"`) {
		t.Errorf("an unknown placement: %v", err)
	}
}

// TestPlacer holds a catalog placement to the Placer contract and every
// property in one call: chbench's rendezvous passes it all (order and
// weights included).
func TestTestPlacer(t *testing.T) {
	cfg := testConfig()
	cfg.Keys, cfg.ChurnSteps = 5000, 100
	rep := TestPlacer(t, "rendezvous", catalog.DefaultConfig(), cfg)
	for _, p := range Properties() {
		want := Pass
		if p == Reference {
			want = NotApplicable
		}
		if v := rep.Verdict(p); v != want {
			t.Errorf("%s: %v, want %v", p, v, want)
		}
	}
}
