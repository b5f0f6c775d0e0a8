package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// A weighted join: A = 1, B = 2, then C = 1 joins. Ring (vnodes =
// round(V w), each node's points fixed by its ID) and rendezvous (each
// node's score depends on its ID and weight only) move keys only to C, so
// their collateral is exactly zero; the moved fraction is near the ideal
// C's share 1/4.
func TestWeightedJoinZeroCollateral(t *testing.T) {
	initial := []algorithms.Node{{ID: "A", Weight: 1}, {ID: "B", Weight: 2}}
	sc, err := Change("", initial, Step{Join: []algorithms.Node{{ID: "C", Weight: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Op != "join" {
		t.Errorf("op %q, want join", sc.Op)
	}
	for _, algo := range []string{"ring", "rendezvous"} {
		o := Options{Algo: algo, Config: catalog.DefaultConfig(), Keys: genKeys(20000, 3, 3), Seed: 3}
		r, err := Movement(o, sc)
		if err != nil {
			t.Fatal(err)
		}
		if r.CollateralFrac != 0 || r.CollateralFracHi == nil || *r.CollateralFracHi != 0 {
			t.Errorf("%s: collateral %v, want exactly 0", algo, r.CollateralFrac)
		}
		if math.Abs(r.IdealFrac-0.25) > 1e-15 {
			t.Errorf("%s: ideal %v, want 1/4", algo, r.IdealFrac)
		}
		// Rendezvous gives C exactly its weight share in expectation: 3.29
		// binomial standard errors over 60,000 keys. The ring's share is a
		// random draw of its 160 points (cv ~ 1/sqrt(160)): 0.25 ± 0.08.
		tol := 3.29 * math.Sqrt(0.25*0.75/60000)
		if algo == "ring" {
			tol = 0.08
		}
		if math.Abs(r.MovedFrac-0.25) > tol {
			t.Errorf("%s: moved %v, want 0.25 ± %v", algo, r.MovedFrac, tol)
		}
	}
}

// The ideal fraction of a reweight is the total-variation distance between
// the old and new weight shares, (1/2) sum |old - new| = sum of the
// decreases. 25 of 500 nodes (5%) go from weight 1 to 127: the 475 others
// fall from 1/500 to 1/3650 each, 475 (1/500 - 1/3650) = 0.819863...
func TestReweightIdealIsTotalVariation(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(500)
	sc, err := ReweightFraction(nodes, 0.05, 127, 9)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Op != "reweight-5%-1-to-127" || len(sc.Steps[0].Reweight) != 25 {
		t.Fatalf("op %q with %d reweighted, want reweight-5%%-1-to-127 with 25", sc.Op, len(sc.Steps[0].Reweight))
	}
	ms, err := sc.Memberships()
	if err != nil {
		t.Fatal(err)
	}
	want := 475 * (1.0/500 - 1.0/3650)
	var tv float64
	wb, wa := algorithms.TotalWeight(ms[0]), algorithms.TotalWeight(ms[1])
	for i := range ms[0] {
		if ms[0][i].ID != ms[1][i].ID {
			t.Fatalf("reweight moved node %d: %q -> %q (must stay in place)", i, ms[0][i].ID, ms[1][i].ID)
		}
		tv += 0.5 * math.Abs(ms[0][i].Weight/wb-ms[1][i].Weight/wa)
	}
	got := IdealFraction(ms[0], ms[1])
	if math.Abs(got-want) > 1e-12 || math.Abs(got-tv) > 1e-12 {
		t.Errorf("ideal %v, want %v (hand) = %v (total variation)", got, want, tv)
	}
	// 1 -> 3 for one of four nodes: shares 1/4 -> 3/6, 1/6, 1/6, 1/6.
	four, _ := algorithms.DefaultNodes(4)
	sc, err = Change("", four, Step{Reweight: []algorithms.Node{{ID: "node-2", Weight: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	ms, _ = sc.Memberships()
	if got := IdealFraction(ms[0], ms[1]); math.Abs(got-0.25) > 1e-15 || sc.Op != "reweight" || ms[1][2].Weight != 3 {
		t.Errorf("ideal %v op %q node-2 weight %v, want 0.25, reweight, 3", got, sc.Op, ms[1][2].Weight)
	}
}

// Rendezvous's logarithmic method scores -w/ln(u): multiplying every
// reweighted node's weight by the same factor moves keys only from the
// unchanged nodes to them, so its collateral is 0; a ring adds points to
// every reweighted node, which also moves keys between two of them.
func TestReweightCollateral(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(40)
	for i := range nodes {
		nodes[i].Weight = 25
	}
	sc, err := ReweightFraction(nodes, 0.5, 75, 1)
	if err != nil {
		t.Fatal(err)
	}
	res := map[string]schema.Move{}
	for _, algo := range []string{"rendezvous", "ring"} {
		c := catalog.DefaultConfig()
		c.VNodes = 4
		r, err := Movement(Options{Algo: algo, Config: c, Keys: genKeys(20000, 2, 1), Seed: 1}, sc)
		if err != nil {
			t.Fatal(err)
		}
		res[algo] = r
	}
	if c := res["rendezvous"].CollateralFrac; c != 0 {
		t.Errorf("rendezvous collateral %v, want 0", c)
	}
	// Ring: half the nodes triple their points; a key moves when one of
	// the new points lands before it on its arc: about 1 - 1/2 = 50% of
	// keys move, of which the moves between two reweighted nodes (half of
	// the old owners) are collateral.
	if c := res["ring"].CollateralFrac; c < 0.15 || c > 0.35 {
		t.Errorf("ring collateral %v, want ~0.25", c)
	}
}

// A named change that cannot apply (an unknown or repeated reweight, an
// unknown leaver, a joiner already present, nothing left, no change) is an
// error naming the node.
func TestChangeBadInput(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(4)
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"unknown reweight", func() error {
			_, err := Change("", nodes, Step{Reweight: []algorithms.Node{{ID: "x", Weight: 2}}})
			return err
		}, `"x" is not a member`},
		{"reweight twice", func() error {
			_, err := Change("", nodes, Step{Reweight: []algorithms.Node{{ID: "node-1", Weight: 2}, {ID: "node-1", Weight: 3}}})
			return err
		}, "twice"},
		{"bad weight", func() error {
			_, err := Change("", nodes, Step{Reweight: []algorithms.Node{{ID: "node-1", Weight: math.Inf(1)}}})
			return err
		}, "weight +Inf"},
		{"nothing", func() error { _, err := Change("", nodes, Step{}); return err }, "no membership change"},
		{"same weight", func() error {
			_, err := Change("", nodes, Step{Reweight: []algorithms.Node{{ID: "node-1", Weight: 1}}})
			return err
		}, "ideal fraction 0"},
		{"all reweighted alike", func() error { _, err := ReweightFraction(nodes, 1, 5, 1); return err }, "ideal fraction 0"},
		{"fraction 0", func() error { _, err := ReweightFraction(nodes, 0, 5, 1); return err }, "fraction 0"},
		{"fraction NaN", func() error { _, err := LeaveFraction(nodes, math.NaN(), 1); return err }, "fraction NaN"},
		{"all leave", func() error { _, err := LeaveFraction(nodes, 1, 1); return err }, "no node would remain"},
		{"join 0", func() error { _, err := JoinCount(nodes, 0, 1); return err }, "join count 0"},
	}
	for _, c := range cases {
		if err := c.run(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// Joining nodes get the first free default IDs.
	named := []algorithms.Node{{ID: "node-1", Weight: 1}, {ID: "x", Weight: 1}}
	sc, err := JoinCount(named, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if j := sc.Steps[0].Join; j[0].ID != "node-2" || j[1].ID != "node-3" {
		t.Errorf("joined %v, want node-2, node-3", j)
	}
}

// A reweight counts toward the chain's work bound like a join: ring
// vnodes grow with the new weight.
func TestReweightChainBound(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(10)
	sc, err := Change("", nodes, Step{Reweight: []algorithms.Node{{ID: "node-0", Weight: 1e6}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Movement(Options{Algo: "ring", Config: catalog.DefaultConfig(), Keys: genKeys(10, 1, 1), Seed: 1}, sc)
	if err == nil || !strings.Contains(err.Error(), "would build more than") {
		t.Errorf("ring reweighted to 1e6 x 160 vnodes: err = %v, want the chain bound", err)
	}
}
