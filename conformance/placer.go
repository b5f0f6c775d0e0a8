package conformance

import (
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/placertest"
	"github.com/chbench/chbench/keyset"
)

// TestPlacer is the suite for a Go placement in the catalog (built in, or
// added with catalog.Register), in one call from the author's go test: the
// Placer contract chbench's own algorithms are held to, then every
// property of [Test]. The contract: Locate and LocateHash do not allocate
// (testing.AllocsPerRun == 0); lookups from several goroutines at once
// agree (run it under -race); Locate is the ID of LocateHash(HashKey);
// Rebalance leaves the receiver's membership and owners as they were
// (placements are immutable). name is built with ccfg on cfg's membership.
func TestPlacer(t *testing.T, name string, ccfg catalog.Config, cfg Config) *Report {
	t.Helper()
	full, err := cfg.filled()
	if err != nil {
		t.Fatal(err)
	}
	nodes := equal(full.IDs)
	p, err := catalog.New(name, nodes, ccfg)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := keyset.Keys(min(full.Keys, 20000), full.Seed)
	if err != nil {
		t.Fatal(err)
	}
	placertest.CheckNoAllocs(t, p)
	placertest.CheckConcurrent(t, p, keys)
	before := make([]string, len(keys))
	for i, k := range keys {
		before[i] = p.Locate(k)
		if id := p.Nodes()[p.LocateHash(p.HashKey(k))].ID; id != before[i] {
			t.Fatalf("%s: key %q: Locate gives %q, LocateHash(HashKey) %q", name, k, before[i], id)
		}
	}
	members := slices.Clone(p.Nodes())
	if _, err := algorithms.Join(p, algorithms.Node{ID: "immutability-check", Weight: 1}); err != nil {
		t.Fatalf("%s: a join: %v", name, err)
	}
	if !slices.Equal(p.Nodes(), members) {
		t.Errorf("%s: Rebalance changed the receiver's membership from %v to %v", name, members, p.Nodes())
	}
	for i, k := range keys {
		if got := p.Locate(k); got != before[i] {
			t.Fatalf("%s: after a Rebalance the receiver places %q on %q, before on %q: a placement must not change", name, k, got, before[i])
		}
	}
	return Test(t, Open(t.Context(), name, ccfg), cfg)
}
