package goplacer

import (
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

// chbench's suite, run from this module's own go test: the Placer
// contract (allocation-free lookups, concurrent lookups, immutability) and
// every property straw promises (determinism, order, balance, minimal join
// and leave, weights, replicas, churn), on 20,000 keys.
func TestConformance(t *testing.T) {
	cfg := conformance.DefaultConfig()
	cfg.Keys, cfg.ChurnSteps = 20000, 300
	rep := conformance.TestPlacer(t, Name, catalog.DefaultConfig(), cfg)
	for _, p := range []string{conformance.Order, conformance.Weights} {
		if rep.Verdict(p) != conformance.Pass {
			t.Errorf("%s: %v, want PASS", p, rep.Verdict(p))
		}
	}
}

// placertest's finer checks, which chbench's own algorithms use: a join
// that moves keys only to the new node, removals that move only the
// leaving node's keys and undo exactly.
func TestPlacertest(t *testing.T) {
	p := placertest.Build(t, 10, New)
	keys := placertest.Keys(20000, 1)
	q, err := algorithms.Join(p, algorithms.Node{ID: "new", Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	placertest.CheckJoin(t, p, q, keys, "new")
	placertest.CheckRemovalsThenRestores(t, p, keys, 4, 7)
}
