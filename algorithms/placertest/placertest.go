// Package placertest holds property checks shared by the placement
// algorithms' tests: consistency on join and leave, allocation-free
// lookups, concurrent lookups, and order independence (this file); the
// range hashes' reference vectors, monotonicity, growth, balance and
// swap-last removal (rangehash.go); removal of any node, restores, balance
// after removals and fixed capacities (removal.go). Each package's test
// calls them with its own constructor, keys, seeds and sizes. It is
// imported only by _test files.
package placertest

import (
	"sync"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/keyset"
)

// Keys returns k deterministic pseudo-random keys drawn with the given
// seed: keyset.Keys(k, seed), the keys the analyses generate (nil for
// k < 1).
func Keys(k int, seed uint64) []string {
	keys, _ := keyset.Keys(k, seed)
	return keys
}

// Build returns the placer that build makes of n nodes
// (algorithms.DefaultNodes(n)) under the xxhash key hash, failing t on an
// error; build is typically a package's New.
func Build[P any](t testing.TB, n int, build func([]algorithms.Node, algorithms.Hash) (P, error)) P {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	p, err := build(nodes, algorithms.MustHash("xxhash"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Leave returns algorithms.Leave(p, ids...), failing t on an error.
func Leave(t testing.TB, p algorithms.Placer, ids ...string) algorithms.Placer {
	t.Helper()
	q, err := algorithms.Leave(p, ids...)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// CheckJoin asserts that every key whose owner differs between before and
// after now belongs to one of the joining node IDs (no collateral moves),
// and returns the moved fraction.
func CheckJoin(t *testing.T, before, after algorithms.Placer, keys []string, joining ...string) float64 {
	t.Helper()
	isNew := make(map[string]bool, len(joining))
	for _, id := range joining {
		isNew[id] = true
	}
	moved := 0
	for _, k := range keys {
		a, b := before.Locate(k), after.Locate(k)
		if a == b {
			continue
		}
		moved++
		if !isNew[b] {
			t.Fatalf("%s: key %q moved from %q to %q, which did not join", before.Algorithm(), k, a, b)
		}
	}
	return float64(moved) / float64(len(keys))
}

// CheckLeave asserts that only keys owned by the leaving node IDs changed
// owner, and that all of those did; it returns the moved fraction.
func CheckLeave(t *testing.T, before, after algorithms.Placer, keys []string, leaving ...string) float64 {
	t.Helper()
	gone := make(map[string]bool, len(leaving))
	for _, id := range leaving {
		gone[id] = true
	}
	moved := 0
	for _, k := range keys {
		a, b := before.Locate(k), after.Locate(k)
		if gone[a] {
			moved++
			if gone[b] {
				t.Fatalf("%s: key %q still on departed node %q", before.Algorithm(), k, b)
			}
			continue
		}
		if a != b {
			t.Fatalf("%s: key %q moved from surviving %q to %q", before.Algorithm(), k, a, b)
		}
	}
	return float64(moved) / float64(len(keys))
}

// CheckNoAllocs asserts that HashKey, LocateHash and Locate do not allocate.
func CheckNoAllocs(t *testing.T, p algorithms.Placer) {
	t.Helper()
	h := p.HashKey("user:1000")
	if a := testing.AllocsPerRun(200, func() { _ = p.Locate("user:1000") }); a != 0 {
		t.Errorf("%s: Locate allocates %v per call", p.Algorithm(), a)
	}
	if a := testing.AllocsPerRun(200, func() { _ = p.LocateHash(h) }); a != 0 {
		t.Errorf("%s: LocateHash allocates %v per call", p.Algorithm(), a)
	}
}

// CheckConcurrent looks keys up from several goroutines at once (run it
// under -race) and asserts every goroutine sees the same owners.
func CheckConcurrent(t *testing.T, p algorithms.Placer, keys []string) {
	t.Helper()
	want := make([]string, len(keys))
	for i, k := range keys {
		want[i] = p.Locate(k)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, k := range keys {
				if got := p.Locate(k); got != want[i] {
					errs <- k
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for k := range errs {
		t.Errorf("%s: concurrent lookup of %q disagreed", p.Algorithm(), k)
	}
}

// CheckOrderIndependent asserts that p and q (the same membership listed
// in different orders) give every key the same owner.
func CheckOrderIndependent(t *testing.T, p, q algorithms.Placer, keys []string) {
	t.Helper()
	for _, k := range keys {
		if a, b := p.Locate(k), q.Locate(k); a != b {
			t.Fatalf("%s: key %q owned by %q in one order and %q in another", p.Algorithm(), k, a, b)
		}
	}
}

// Reversed returns a reversed copy of nodes.
func Reversed(nodes []algorithms.Node) []algorithms.Node {
	out := make([]algorithms.Node, len(nodes))
	for i, n := range nodes {
		out[len(nodes)-1-i] = n
	}
	return out
}

// Counts returns how many of keys each node of p owns, indexed like
// p.Nodes().
func Counts(p algorithms.Placer, keys []string) []int {
	c := make([]int, len(p.Nodes()))
	for _, k := range keys {
		c[p.LocateHash(p.HashKey(k))]++
	}
	return c
}

// CheckRestore removes the node with ID id from p, asserts that only its
// keys move (see CheckLeave), lets the same node join again (appended, as
// [algorithms.Join] does), asserts that keys move only to it (see
// CheckJoin), and that every key is back on its owner in p: net movement 0.
// It returns the moved fraction of the removal.
func CheckRestore(t *testing.T, p algorithms.Placer, keys []string, id string) float64 {
	t.Helper()
	i := algorithms.IndexOf(p.Nodes(), id)
	if i < 0 {
		t.Fatalf("%s: node %q is not a member", p.Algorithm(), id)
	}
	node := p.Nodes()[i]
	gone, err := algorithms.Leave(p, id)
	if err != nil {
		t.Fatalf("%s: removing %q: %v", p.Algorithm(), id, err)
	}
	moved := CheckLeave(t, p, gone, keys, id)
	back, err := algorithms.Join(gone, node)
	if err != nil {
		t.Fatalf("%s: restoring %q: %v", p.Algorithm(), id, err)
	}
	CheckJoin(t, gone, back, keys, id)
	for _, k := range keys {
		if a, b := p.Locate(k), back.Locate(k); a != b {
			t.Fatalf("%s: after removing and restoring %q, key %q is on %q, was on %q", p.Algorithm(), id, k, b, a)
		}
	}
	return moved
}
