package conformance

import (
	"context"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/internal/exampleprog"
)

// testConfig is the suite's configuration in these tests: 20,000 keys
// (the thresholds follow from K, so the verdicts keep their alpha and the
// balance test keeps a power above 0.99 against cv 0.15) and 300 churn
// steps of 50 keys, enough to reach the churn example's bug.
func testConfig() Config {
	c := DefaultConfig()
	c.Keys, c.ChurnSteps, c.ChurnKeys = 20000, 300, 50
	return c
}

// execOpener returns the Opener of the shell command cmd as an external
// placement. Python's per-process hash randomization is left on
// (PYTHONHASHSEED=random) whatever the environment says: the determinism
// example relies on it.
func execOpener(cmd string) Opener {
	return func() (catalog.Builder, error) {
		return catalog.Open(context.Background(), external.Prefix+cmd, catalog.DefaultConfig(), external.Config{Env: []string{"PYTHONHASHSEED=random"}})
	}
}

// verdicts returns the verdict of every property of rep.
func verdicts(rep *Report) map[string]Verdict {
	m := map[string]Verdict{}
	for _, p := range Properties() {
		m[p] = rep.Verdict(p)
	}
	return m
}

func report(t *testing.T, rep *Report) string {
	var b strings.Builder
	rep.WriteText(&b)
	return b.String()
}

// The two shipped examples pass every property they promise: the Python
// textbook ring (weighted, any node leaves, unordered, replicas) and the C
// jump hash, which also agrees key for key, replicas included, with
// chbench's own jump under FNV-1a 64 (the reference).
func TestShippedExamples(t *testing.T) {
	jumpRef := &Ref{Name: "chbench jump (fnv1a64)", Open: Open(context.Background(), "jump", catalog.Config{Hash: "fnv1a64", VNodes: 1, Eps: 1, TableSize: 65537, Probes: 21})}
	for _, tc := range []struct {
		name string
		cmd  func(t *testing.T) string
		ref  *Ref
		na   []string
	}{
		{"python-ring", func(t *testing.T) string { return exampleprog.PythonCommand(t, "examples/python/ring.py") }, nil, []string{Reference}},
		{"c-jump", func(t *testing.T) string { return exampleprog.Quote(exampleprog.BuildC(t, "examples/c/jump.c")) }, jumpRef, []string{Order, Weights}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig()
			cfg.Reference = tc.ref
			rep, err := Run(context.Background(), execOpener(tc.cmd(t)), cfg)
			if err != nil {
				t.Fatal(err)
			}
			for p, v := range verdicts(rep) {
				want := Pass
				if contains(tc.na, p) {
					want = NotApplicable
				}
				if v != want {
					t.Errorf("%s: %v, want %v", p, v, want)
				}
			}
			if t.Failed() || testing.Verbose() {
				t.Log("\n" + report(t, rep))
			}
		})
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Each deliberately broken example fails exactly the property it was
// written to break, and passes every other one that applies to it. They
// run on 5,000 keys and 200 churn steps of 20 keys: each breaks its
// property by far more than the thresholds at that size (the smallest,
// order, has 6 keys of 5,000 expected to change owner for a threshold of
// 0), and fewer keys keep the nine Python programs within a few seconds.
func TestBrokenExamples(t *testing.T) {
	jumpRef := &Ref{Name: "chbench jump (fnv1a64)", Open: Open(context.Background(), "jump", catalog.Config{Hash: "fnv1a64", VNodes: 1, Eps: 1, TableSize: 65537, Probes: 21})}
	for _, tc := range []struct {
		script, fails string
		na            []string
	}{
		{"determinism_hash.py", Determinism, nil},
		{"order_ties.py", Order, []string{Weights}},
		{"balance_widths.py", Balance, []string{Weights}},
		{"join_capped.py", Join, nil},
		{"leave_indexed.py", Leave, []string{Order}},
		{"weights_linear.py", Weights, nil},
		{"replicas_repeat.py", Replicas, nil},
		{"churn_holes.py", Churn, []string{Order, Weights, Replicas}},
		{"reference_typo.py", Reference, []string{Order, Weights, Replicas}},
	} {
		t.Run(tc.script, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig()
			cfg.Keys, cfg.ChurnSteps, cfg.ChurnKeys = 5000, 200, 20
			if tc.fails == Reference {
				cfg.Reference = jumpRef
			}
			rep, err := Run(context.Background(), execOpener(exampleprog.PythonCommand(t, "examples/broken/"+tc.script)), cfg)
			if err != nil {
				t.Fatal(err)
			}
			for p, v := range verdicts(rep) {
				want := Pass
				switch {
				case p == tc.fails:
					want = Fail
				case contains(tc.na, p) || (p == Reference && tc.fails != Reference):
					want = NotApplicable
				}
				if v != want {
					t.Errorf("%s: %v, want %v", p, v, want)
				}
			}
			if t.Failed() || testing.Verbose() {
				t.Log("\n" + report(t, rep))
			}
		})
	}
}
