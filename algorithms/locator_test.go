package algorithms_test

import (
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/keyset"
)

// TestAsLocatorMatchesPlacer checks that the Locator view of every catalog
// placement reports, for each key, the owner Locate names and the replicas
// Replicas names, so a measure written against Locator sees the same
// owners as one written against Placer.
func TestAsLocatorMatchesPlacer(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(7)
	keys := mustKeys(t, 500, 3)
	for _, name := range catalog.Names() {
		p := build(t, name, nodes)
		bits := defaultBits
		l := algorithms.AsLocator(p, bits)
		owners := make([]int, len(keys))
		if err := l.LocateKeys(keys, owners); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		const r = 3
		reps := make([]int, r*len(keys))
		if err := l.ReplicateKeys(keys, r, reps); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf [r]int
		for i, k := range keys {
			if got, want := l.Nodes()[owners[i]].ID, p.Locate(k); got != want {
				t.Fatalf("%s: key %q: LocateKeys names %s, Locate %s", name, k, got, want)
			}
			want := algorithms.Replicas(p, p.HashKey(k), bits, buf[:])
			for j := range r {
				if reps[i*r+j] != want[j] {
					t.Fatalf("%s: key %q: ReplicateKeys %v, Replicas %v", name, k, reps[i*r:(i+1)*r], want)
				}
			}
		}
		if back, ok := algorithms.PlacerOf(l); !ok || back != p {
			t.Fatalf("%s: PlacerOf does not return the placer", name)
		}
	}
}

// TestAsLocatorRefusesShortBuffers checks the length and replica-count
// errors, which an external implementation of Locator must give too.
func TestAsLocatorRefusesShortBuffers(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(3)
	l := algorithms.AsLocator(build(t, "ring", nodes), 64)
	keys := []string{"a", "b"}
	if err := l.LocateKeys(keys, make([]int, 1)); err == nil {
		t.Error("LocateKeys accepted 1 owner slot for 2 keys")
	}
	if err := l.ReplicateKeys(keys, 2, make([]int, 3)); err == nil {
		t.Error("ReplicateKeys accepted 3 owner slots for 2 keys x 2 replicas")
	}
	for _, r := range []int{0, 4, algorithms.MaxReplicas + 1} {
		if err := l.ReplicateKeys(keys, r, make([]int, 64)); err == nil {
			t.Errorf("ReplicateKeys accepted r = %d on 3 nodes", r)
		}
	}
}

// TestAsLocatorRebalance checks that Rebalance gives the Locator of the
// placer's own Rebalance: after node-3 joins, owners equal a fresh build's
// for a stateless algorithm.
func TestAsLocatorRebalance(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(4)
	l := algorithms.AsLocator(build(t, "rendezvous", nodes[:3]), 64)
	next, err := l.Rebalance(nodes)
	if err != nil {
		t.Fatal(err)
	}
	fresh := build(t, "rendezvous", nodes)
	keys := mustKeys(t, 200, 5)
	owners := make([]int, len(keys))
	if err := next.LocateKeys(keys, owners); err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		if next.Nodes()[owners[i]].ID != fresh.Locate(k) {
			t.Fatalf("key %q: rebalanced locator disagrees with a fresh build", k)
		}
	}
	if !slices.Equal(next.Nodes(), nodes) {
		t.Fatalf("rebalanced membership %v, want %v", next.Nodes(), nodes)
	}
}

// TestAsLocatorDoesNotAllocate holds the Locator view to the Placer
// contract: a batch lookup allocates nothing.
func TestAsLocatorDoesNotAllocate(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(10)
	keys := mustKeys(t, 64, 1)
	owners := make([]int, 3*len(keys))
	for _, name := range catalog.Names() {
		l := algorithms.AsLocator(build(t, name, nodes), defaultBits)
		if a := testing.AllocsPerRun(20, func() { _ = l.LocateKeys(keys, owners) }); a != 0 {
			t.Errorf("%s: LocateKeys allocates %v times per batch", name, a)
		}
		if a := testing.AllocsPerRun(20, func() { _ = l.ReplicateKeys(keys, 3, owners) }); a != 0 {
			t.Errorf("%s: ReplicateKeys allocates %v times per batch", name, a)
		}
	}
}

// defaultBits is the key-hash width of the default configuration, which
// the analyses pass to AsLocator.
var defaultBits = algorithms.MustHash(catalog.DefaultConfig().Hash).Bits()

func mustKeys(t *testing.T, n int, seed uint64) []string {
	t.Helper()
	keys, err := keyset.Keys(n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
