package fliphash

import (
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n int) *FlipHash {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	f, err := New(nodes, algorithms.MustHash("xxhash"))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Outputs of Datadog's fliphash_64 (testdata/fliphash.txt says how they
// were produced).
func TestReferenceVectors(t *testing.T) {
	vs := placertest.ReadVectors(t, "testdata/fliphash.txt")
	for _, v := range vs {
		if got := bucket(v.Hash, v.N-1); got != v.Bucket {
			t.Errorf("key %#x, %d buckets: %d, fliphash_64 %d", v.Hash, v.N, got, v.Bucket)
		}
	}
	if len(vs) < 150 {
		t.Fatalf("only %d vectors", len(vs))
	}
}

// The largest range: every 64-bit value is a bucket; the result is the
// power-of-two hash itself and needs no redraw.
func TestFullRange(t *testing.T) {
	for _, h := range placertest.Hashes(1000, 9) {
		if got, want := bucket(h, ^uint64(0)), flip(h, mix(h, 0, 0), ^uint64(0)); got != want {
			t.Fatalf("key %#x: %d, want the flip %d", h, got, want)
		}
	}
}

func bucketInt(h uint64, n int) int { return int(bucket(h, uint64(n-1))) }

func TestMonotone(t *testing.T) {
	placertest.CheckMonotone(t, bucketInt, placertest.Hashes(2000, 1), 1000)
}

func TestJoinMovesOnlyToNewBucket(t *testing.T) {
	placertest.CheckGrowth(t, func(n int) algorithms.Placer { return mustNew(t, n) },
		placertest.Keys(50000, 2), []int{1, 3, 9, 99, 999})
}

func TestUniform(t *testing.T) {
	keys := placertest.Keys(200000, 3)
	for _, n := range []int{2, 10, 100, 1000} {
		placertest.CheckUniform(t, mustNew(t, n), keys, 1e-4)
	}
}

func TestDeterministic(t *testing.T) {
	a, b := mustNew(t, 37), mustNew(t, 37)
	for _, k := range placertest.Keys(5000, 5) {
		if a.Locate(k) != b.Locate(k) {
			t.Fatalf("key %q: %q then %q", k, a.Locate(k), b.Locate(k))
		}
	}
}

func TestRemoveLastMovesOnlyItsKeys(t *testing.T) {
	before := mustNew(t, 10)
	after, err := algorithms.Leave(before, "node-9")
	if err != nil {
		t.Fatal(err)
	}
	placertest.CheckLeave(t, before, after, placertest.Keys(20000, 6), "node-9")
}

func TestRemoveMiddleSwapLast(t *testing.T) {
	before := mustNew(t, 10)
	after, err := algorithms.Leave(before, "node-3")
	if err != nil {
		t.Fatal(err)
	}
	if nodes := after.Nodes(); len(nodes) != 9 || nodes[3].ID != "node-9" {
		t.Fatalf("bucket order after removing node-3: %v, want node-9 in bucket 3", nodes)
	}
	for _, k := range placertest.Keys(20000, 7) {
		a, b := before.Locate(k), after.Locate(k)
		switch {
		case a == "node-3" && b != "node-9":
			t.Fatalf("key %q of node-3 went to %q, want node-9", k, b)
		case a != "node-3" && a != "node-9" && a != b:
			t.Fatalf("key %q moved from %q to %q", k, a, b)
		}
	}
}

func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	f := mustNew(t, 100)
	placertest.CheckNoAllocs(t, f)
	placertest.CheckConcurrent(t, f, placertest.Keys(2000, 8))
}

func TestErrors(t *testing.T) {
	h := algorithms.MustHash("xxhash")
	if _, err := New(nil, h); err == nil {
		t.Error("empty membership accepted")
	}
	if _, err := New([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}}, h); err == nil || !strings.Contains(err.Error(), Name) {
		t.Errorf("unequal weights: err = %v", err)
	}
	if _, err := mustNew(t, 3).Rebalance([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}); err == nil {
		t.Error("duplicate IDs accepted")
	}
}
