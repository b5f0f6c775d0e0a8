package analysis

import (
	"math"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/ketama"
	"github.com/chbench/chbench/schema"
)

// Staged growth 40 -> 60 one node at a time reports each step apart: 20
// rows "grow-step" from 40 -> 41 to 59 -> 60, each with its own ideal
// 1/(n+1) and expected moves, whose moved fractions sum, set by set, to
// the whole change's (a key can move at several steps), then the whole
// "grow" row. Jump moves exactly the keys that land on the new bucket:
// each step within 5 binomial standard errors of its ideal.
func TestStagedGrowthPerStep(t *testing.T) {
	sc, err := Staged(40, 60, 1)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Algo: "jump", Config: catalog.DefaultConfig(), Keys: genKeys(20000, 3, 7), Seed: 7, Placement: schema.PlacementFixed}
	rs, err := MovementSteps(o, sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 21 {
		t.Fatalf("%d rows, want 20 steps and the whole", len(rs))
	}
	total := rs[20]
	if total.Op != schema.OpGrow || total.From != 40 || total.To != 60 || total.Steps != 20 {
		t.Errorf("whole row %s %d -> %d in %d steps", total.Op, total.From, total.To, total.Steps)
	}
	sums := make([]float64, 3)
	for i, r := range rs[:20] {
		n := 40 + i
		ideal := 1 / float64(n+1)
		if r.Op != "grow-step" || r.From != n || r.To != n+1 || r.Steps != 1 || math.Abs(r.IdealFrac-ideal) > 1e-15 || math.Abs(r.ExpectedMoves-20000*ideal) > 1e-9 {
			t.Errorf("step %d: %s %d -> %d, steps %d, ideal %v, expected moves %v", i, r.Op, r.From, r.To, r.Steps, r.IdealFrac, r.ExpectedMoves)
		}
		if se := math.Sqrt(ideal * (1 - ideal) / (3 * 20000)); math.Abs(r.MovedFrac-ideal) > 5*se {
			t.Errorf("jump %d -> %d: moved %v, ideal %v (5 se = %v)", n, n+1, r.MovedFrac, ideal, 5*se)
		}
		for s, smp := range r.Samples {
			sums[s] += smp.Moved
		}
	}
	for s, smp := range total.Samples {
		if math.Abs(sums[s]-smp.Moved) > 1e-12 {
			t.Errorf("set %d: steps sum to %v, the whole moved %v", s, sums[s], smp.Moved)
		}
	}
}

// Ketama at equal weights gives each server 4*floor(t) points with t
// rounded to float32 as twemproxy computes it, which falls just below 40
// at some fleet sizes (ketama.Digests): a step into or out of such a size
// re-rounds every server's points and moves about twice the ideal, a step
// between two sizes with the same count moves about the ideal. The steps
// of 40 -> 60 are told apart at 1.5x: a new node's share of 160 points
// is within 1.5x of the mean by over 6 of its standard deviations
// (1/sqrt(160)), and a re-rounding step measured here moves 2.0-2.4x.
func TestStagedGrowthShowsKetamaSteps(t *testing.T) {
	sc, err := Staged(40, 60, 1)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Algo: "ketama", Config: catalog.DefaultConfig(), Keys: genKeys(20000, 3, 7), Seed: 7, Placement: schema.PlacementFixed}
	rs, err := MovementSteps(o, sc)
	if err != nil {
		t.Fatal(err)
	}
	rerounds := 0
	for _, r := range rs[:len(rs)-1] {
		jumpy := ketama.Digests(1, float64(r.From), r.From) != ketama.Digests(1, float64(r.To), r.To)
		if jumpy {
			rerounds++
		}
		if jumpy != (r.MovedOverIdeal > 1.5) {
			t.Errorf("ketama %d -> %d: moved/ideal %.2f; points per server %d -> %d", r.From, r.To, r.MovedOverIdeal, 4*ketama.Digests(1, float64(r.From), r.From), 4*ketama.Digests(1, float64(r.To), r.To))
		}
	}
	if rerounds == 0 {
		t.Error("no step of 40 -> 60 re-rounds ketama's points: the test checks nothing")
	}
}
