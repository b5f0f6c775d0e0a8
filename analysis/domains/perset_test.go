package domains_test

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/analysis/domains"
	"github.com/chbench/chbench/topology"
)

// renamed returns tp with every node ID prefixed by p: another random
// layout of the same fleet for the algorithms that hash node IDs.
func renamed(t *testing.T, tp *topology.Topology, p string) *topology.Topology {
	t.Helper()
	ms := tp.Members()
	for i := range ms {
		ms[i].Node.ID = p + ms[i].Node.ID
	}
	out, err := topology.New(tp.Levels(), ms)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// With one layout per key set each set runs through its own: the counts
// of set s equal those of set s of a run whose every set uses layout s
// (the key sets are the same), and the sets differ from each other for a
// plain ring, whose rack sharing depends on where its virtual nodes fell.
func TestPerSetLayouts(t *testing.T) {
	tp := racks12(t)
	prefixes := []string{"", "r1/", "r2/"}
	var layouts []domains.Layout
	for _, p := range prefixes {
		rt := renamed(t, tp, p)
		layouts = append(layouts, domains.Layout{Loc: plain(t, "ring", rt.Nodes()), Topology: rt})
	}
	src := sized(t, 5000, 3)
	per, err := domains.CountViolationsPerSet(src, layouts, "rack", 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	for s, ly := range layouts {
		one, err := domains.CountViolationsPerSet(src, []domains.Layout{ly}, "rack", 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		if per.Sets[s] != one.Sets[s] {
			t.Errorf("set %d: %+v per set, %+v with its layout for every set", s, per.Sets[s], one.Sets[s])
		}
	}
	if per.Sets[0].KeysShared == per.Sets[1].KeysShared && per.Sets[1].KeysShared == per.Sets[2].KeysShared {
		t.Errorf("three ring layouts share racks for exactly as many keys (%d): the layouts were not used", per.Sets[0].KeysShared)
	}
	locs := []algorithms.Locator{layouts[0].Loc, layouts[1].Loc, layouts[2].Loc}
	rl, err := domains.CountRankLoadPerSet(src, locs, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rl.Nodes[0].ID != "node-0" || len(rl.Sets) != 3 {
		t.Errorf("rank load per set: nodes %v, %d sets", rl.Nodes[:1], len(rl.Sets))
	}
	if _, err := domains.CountViolationsPerSet(src, layouts[:2], "rack", 3, 0); err == nil || !strings.Contains(err.Error(), "2 placements for 3 key sets") {
		t.Errorf("2 layouts for 3 sets: %v", err)
	}
}

// Within follows a join into an existing rack of the union topology,
// which the domain-aware locator alone cannot place, and keeps one
// replica per rack on the grown fleet.
func TestWithinUnion(t *testing.T) {
	union := racks12(t)
	first, err := union.Place(union.Nodes()[:11])
	if err != nil {
		t.Fatal(err)
	}
	for _, loc := range []algorithms.Locator{aware(t, "ring", first, "rack"), crushRack(t, first, "rack")} {
		if _, err := loc.Rebalance(union.Nodes()); err == nil {
			t.Fatalf("%s: Rebalance placed a node its topology lacks", loc.Algorithm())
		}
		w, err := domains.Within(loc, union)
		if err != nil {
			t.Fatal(err)
		}
		next, err := w.Rebalance(union.Nodes())
		if err != nil {
			t.Fatalf("%s within the union: %v", loc.Algorithm(), err)
		}
		if len(next.Nodes()) != 12 {
			t.Errorf("%s: %d nodes after the join, want 12", loc.Algorithm(), len(next.Nodes()))
		}
		v, err := domains.CountViolations(sized(t, 3000, 1), next, union, "rack", 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v.Sets[0].KeysShared != 0 {
			t.Errorf("%s after the join: %d keys share a rack", loc.Algorithm(), v.Sets[0].KeysShared)
		}
	}
	if _, err := domains.Within(plain(t, "ring", union.Nodes()), union); err == nil {
		t.Error("Within of a plain placement: no error")
	}
}
