package jump

import (
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
	"github.com/chbench/chbench/analysis/reference/published"
)

func mustNew(t *testing.T, n int) *Jump {
	t.Helper()
	return placertest.Build(t, n, New)
}

// Reference outputs of Lamping & Veach's jump hash (published.All: the
// Guava and C++ reference outputs).
func TestReferenceVectors(t *testing.T) {
	pub := published.All()
	j100 := mustNew(t, 100)
	for k, w := range pub.Jump100 {
		if got := j100.LocateHash(uint64(k)); got != w {
			t.Errorf("key %d, 100 buckets: bucket %d, want %d", k, got, w)
		}
	}
	v := pub.JumpLarge
	if got := mustNew(t, v.Buckets).LocateHash(v.Key); got != v.Bucket {
		t.Errorf("key %d, %d buckets: %d, want %d", v.Key, v.Buckets, got, v.Bucket)
	}
	for i, w := range pub.Jump1 {
		if got := mustNew(t, i+1).LocateHash(1); got != w {
			t.Errorf("key 1, %d buckets: %d, want %d", i+1, got, w)
		}
	}
}

// Growing n -> n+1 moves exactly the keys that land on bucket n; the moved
// fraction is Binomial(K, 1/(n+1))/K, bounded here at 5 standard errors.
func TestJoinMovesOnlyToNewBucket(t *testing.T) {
	placertest.CheckGrowth(t, func(n int) algorithms.Placer { return mustNew(t, n) },
		placertest.Keys(50000, 1), []int{1, 3, 9, 99})
}

// Removing the last bucket moves exactly its keys and no other.
func TestRemoveLastMovesOnlyItsKeys(t *testing.T) {
	before := mustNew(t, 10)
	placertest.CheckLeave(t, before, placertest.Leave(t, before, "node-9"), placertest.Keys(20000, 2), "node-9")
}

// Swap-last: removing a middle node moves its keys to the former last node,
// and the former last bucket's keys spread over the others.
func TestRemoveMiddleSwapLast(t *testing.T) {
	placertest.CheckSwapLast(t, mustNew(t, 10), placertest.Keys(20000, 3), "node-3")
}

// Rebalance keeps survivors in their buckets, fills each vacated bucket
// with the last survivor (swap-last) and appends joiners.
func TestRebalanceFillsHolesAndAppends(t *testing.T) {
	before := mustNew(t, 6)
	after, err := before.Rebalance([]algorithms.Node{
		{ID: "node-0", Weight: 1}, {ID: "node-2", Weight: 1}, {ID: "node-4", Weight: 1},
		{ID: "node-5", Weight: 1}, {ID: "x", Weight: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range after.Nodes() {
		got = append(got, n.ID)
	}
	want := []string{"node-0", "node-5", "node-2", "node-4", "x"}
	if len(got) != len(want) {
		t.Fatalf("buckets %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("buckets %v, want %v", got, want)
		}
	}
}

// Lookups allocate nothing and give every goroutine the same owners (run
// under -race).
func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	j := mustNew(t, 100)
	placertest.CheckNoAllocs(t, j)
	placertest.CheckConcurrent(t, j, placertest.Keys(2000, 4))
}

// An empty membership, unequal weights and duplicate IDs are refused.
func TestErrors(t *testing.T) {
	h := algorithms.MustHash("xxhash")
	if _, err := New(nil, h); err == nil {
		t.Error("empty membership accepted")
	}
	if _, err := New([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}}, h); err == nil {
		t.Error("unequal weights accepted")
	}
	if _, err := New([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}, h); err == nil {
		t.Error("duplicate IDs accepted")
	}
}
