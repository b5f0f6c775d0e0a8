package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
)

// TestLookupNoAlloc asserts the Placer contract the benchmarks rely on:
// Locate and LocateHash never allocate, for every algorithm and every
// benchmarked dialect, at the smallest and largest fleet the lookup
// benchmarks place it on (catalog's TestDialectsBuild holds all 56
// dialects to it at 25 servers).
func TestLookupNoAlloc(t *testing.T) {
	keys := Pool(t)
	sizes := func(algo string) []int {
		if catalog.IsDialect(algo) {
			c := dialectNodeCounts(algo)
			return []int{c[0], c[len(c)-1]}
		}
		return []int{10, 1000}
	}
	for _, algo := range lookupNames() {
		for _, n := range sizes(algo) {
			t.Run(fmt.Sprintf("algo=%s/nodes=%d", algo, n), func(t *testing.T) {
				p := NewPlacer(t, algo, n)
				hs := hashes(p, keys)
				i := 0
				if a := testing.AllocsPerRun(1000, func() { sinkID = p.Locate(keys[i&poolMask]); i++ }); a != 0 {
					t.Errorf("Locate: %v allocs per lookup, want 0", a)
				}
				if a := testing.AllocsPerRun(1000, func() { sinkIndex = p.LocateHash(hs[i&poolMask]); i++ }); a != 0 {
					t.Errorf("LocateHash: %v allocs per lookup, want 0", a)
				}
			})
		}
	}
}

// TestLocateMatchesLocateHash checks that the two lookup benchmarks measure
// the same placement: Locate(k) is the ID of Nodes()[LocateHash(HashKey(k))].
func TestLocateMatchesLocateHash(t *testing.T) {
	keys := Pool(t)[:4096]
	for _, algo := range lookupNames() {
		t.Run("algo="+algo, func(t *testing.T) {
			p := NewPlacer(t, algo, 100)
			nodes := p.Nodes()
			for _, k := range keys {
				i := p.LocateHash(p.HashKey(k))
				if i < 0 || i >= len(nodes) {
					t.Fatalf("LocateHash(HashKey(%q)) = %d, outside 0..%d", k, i, len(nodes)-1)
				}
				if got := p.Locate(k); got != nodes[i].ID {
					t.Fatalf("Locate(%q) = %q, LocateHash says %q", k, got, nodes[i].ID)
				}
			}
		})
	}
}

// TestRetainedBytes checks the heap measurement of BenchmarkBuild on a
// value of known size: a 1 MiB slice must count as 1 MiB, give or take
// the allocations of the testing framework.
func TestRetainedBytes(t *testing.T) {
	const size = 1 << 20
	got, err := retainedBytes(func() (any, error) { return make([]byte, size), nil })
	if err != nil {
		t.Fatal(err)
	}
	// Other allocations in the process (the testing framework's) move the
	// live heap by a few KiB; 64 KiB is 6% of the value measured.
	const slack = 64 << 10
	if got < size-slack || got > size+slack {
		t.Errorf("retained bytes of a %d-byte slice = %d, want %d..%d", size, got, size-slack, size+slack)
	}
	// A build that copies what it captures: the source stays live, so the
	// copy is counted in full (not offset by the source's release).
	src := make([]byte, size)
	got, err = retainedBytes(func() (any, error) { return append([]byte(nil), src...), nil })
	if err != nil {
		t.Fatal(err)
	}
	if got < size-slack || got > size+slack {
		t.Errorf("retained bytes of a copy of a captured %d-byte slice = %d, want %d..%d", size, got, size-slack, size+slack)
	}
}

// NewPlacerWithout removes the requested number of nodes, the same ones
// every time, and the result no longer lists them.
func TestNewPlacerWithout(t *testing.T) {
	a := NewPlacerWithout(t, "jump", 10, 3)
	b := NewPlacerWithout(t, "jump", 10, 3)
	if len(a.Nodes()) != 7 {
		t.Fatalf("%d nodes left, want 7", len(a.Nodes()))
	}
	for i := range a.Nodes() {
		if a.Nodes()[i] != b.Nodes()[i] {
			t.Fatalf("two builds differ: %v and %v", a.Nodes(), b.Nodes())
		}
	}
	if got := NewPlacerWithout(t, "jump", 10, 0); len(got.Nodes()) != 10 {
		t.Errorf("removed 0: %d nodes", len(got.Nodes()))
	}
}

// LookupDialects stand for every dialect's lookup: each of the dialects'
// placer types is among theirs, so a dialect of a new shape is
// benchmarked or this fails. Each one is a dialect, and its fleet sizes
// are ones its system accepts.
func TestLookupDialectsCoverShapes(t *testing.T) {
	shape := func(name string) string {
		p := NewPlacer(t, name, 10)
		return fmt.Sprintf("%T", p)
	}
	benched := map[string]string{}
	for _, name := range LookupDialects {
		if !catalog.IsDialect(name) {
			t.Fatalf("LookupDialects: %q is not a dialect", name)
		}
		benched[shape(name)] = name
		for _, n := range dialectNodeCounts(name) {
			NewPlacer(t, name, n)
		}
	}
	for _, name := range catalog.Dialects() {
		if s := shape(name); benched[s] == "" {
			t.Errorf("dialect %s is a %s, a lookup shape none of LookupDialects has: add it", name, s)
		}
	}
	if len(benched) != len(LookupDialects) {
		t.Errorf("LookupDialects repeat a shape: %v", benched)
	}
}

// -fleet-nodes and -fleet-algos replace BenchmarkLookup's node counts
// and placements with a fleet's (chbench fleet -lookup-args): the counts
// sorted without repeats, a dialect at exactly those counts (not capped
// to DialectNodeCounts), and a bad count or unknown placement an error
// naming it. Without them the defaults hold.
func TestFleetLookupFlags(t *testing.T) {
	defer func(n, a string) { *fleetNodes, *fleetAlgos = n, a }(*fleetNodes, *fleetAlgos)
	if got, err := lookupCounts("rendezvous"); err != nil || fmt.Sprint(got) != fmt.Sprint(nodeCounts(true)) {
		t.Errorf("default counts: %v, %v; want %v", got, err, nodeCounts(true))
	}
	*fleetNodes, *fleetAlgos = "60,40,60", "rendezvous,twemproxy-ketama-fnv1a-64"
	for _, algo := range []string{"rendezvous", "twemproxy-ketama-fnv1a-64"} {
		if got, err := lookupCounts(algo); err != nil || fmt.Sprint(got) != "[40 60]" {
			t.Errorf("%s: counts %v, %v; want [40 60]", algo, got, err)
		}
	}
	if got, err := lookupPlacements(); err != nil || fmt.Sprint(got) != "[rendezvous twemproxy-ketama-fnv1a-64]" {
		t.Errorf("placements %v, %v", got, err)
	}
	*fleetNodes, *fleetAlgos = "40,0", "rendezvous,nosuch"
	if _, err := lookupCounts("rendezvous"); err == nil || !strings.Contains(err.Error(), `"0" is not a node count`) {
		t.Errorf("-fleet-nodes 40,0: %v", err)
	}
	if _, err := lookupPlacements(); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("-fleet-algos with nosuch: %v", err)
	}
}
