package goplacer

import (
	"context"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/placertest"
	"github.com/chbench/chbench/conformance"
)

func TestMain(m *testing.M) {
	if err := catalog.Register(Info); err != nil {
		panic(err)
	}
	m.Run()
}

// chbench's conformance suite, run from this module's own go test: every
// property straw promises (determinism, order, balance, minimal join and
// leave, weights, replicas, churn) passes on 20,000 keys.
func TestConformance(t *testing.T) {
	cfg := conformance.DefaultConfig()
	cfg.Keys, cfg.ChurnSteps = 20000, 300
	rep := conformance.Test(t, conformance.Open(context.Background(), Name, catalog.DefaultConfig()), cfg)
	for _, p := range []string{conformance.Order, conformance.Weights} {
		if rep.Verdict(p) != conformance.Pass {
			t.Errorf("%s: %v, want PASS", p, rep.Verdict(p))
		}
	}
}

// The Placer contract as chbench's own algorithms test it: lookups that
// do not allocate and agree across goroutines, a join that moves keys only
// to the new node, removals that move only the leaving node's keys and
// undo exactly.
func TestPlacerContract(t *testing.T) {
	p := placertest.Build(t, 10, New)
	keys := placertest.Keys(20000, 1)
	placertest.CheckNoAllocs(t, p)
	placertest.CheckConcurrent(t, p, keys[:2000])
	q, err := algorithms.Join(p, algorithms.Node{ID: "new", Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	placertest.CheckJoin(t, p, q, keys, "new")
	placertest.CheckRemovalsThenRestores(t, p, keys, 4, 7)
}
