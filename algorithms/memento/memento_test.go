package memento

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
	"github.com/chbench/chbench/analysis/reference/published"
)

func mustNew(t *testing.T, n int) *Memento {
	t.Helper()
	return placertest.Build(t, n, New)
}

// With nothing removed MementoHash is jump hash: the published jump
// vectors (Lamping & Veach's reference outputs, published.All as in package
// jump's tests) hold for the bucket of each key.
func TestJumpVectorsWithoutRemovals(t *testing.T) {
	pub := published.All()
	p := mustNew(t, 100)
	for k, w := range pub.Jump100 {
		if got := p.e.bucket(uint64(k)); got != w {
			t.Errorf("key %d, 100 buckets: bucket %d, want %d", k, got, w)
		}
	}
	v := pub.JumpLarge
	if got := mustNew(t, v.Buckets).e.bucket(v.Key); got != v.Bucket {
		t.Errorf("key %d, %d buckets: %d, want %d", v.Key, v.Buckets, got, v.Bucket)
	}
}

// The bucket bookkeeping matches the SUPSI Java suite's MementoEngine tests
// (java-consistent-hashing-algorithms, MementoEngineTests): removing
// buckets 0, 3, 1, 4, 5 of 6 and adding five back gives 5, 4, 1, 3, 0;
// removing the last bucket of a jump-like state shrinks the b-array and
// adding restores it; removing 0 then 9 of 10 leaves 8 working in a
// b-array of 10, and two additions restore 10 of 10.
func TestBucketBookkeeping(t *testing.T) {
	e := newEngine(6)
	for _, b := range []int{0, 3, 1, 4, 5} {
		e.remove(b)
	}
	var got []int
	for range 5 {
		got = append(got, e.add())
	}
	if want := []int{5, 4, 1, 3, 0}; !slices.Equal(got, want) {
		t.Errorf("restored %v, want %v", got, want)
	}
	if e.working() != 6 || e.size != 6 {
		t.Errorf("after restoring: %d working of %d, want 6 of 6", e.working(), e.size)
	}
	e = newEngine(7)
	e.remove(6)
	if e.working() != 6 || e.size != 6 {
		t.Errorf("removing the last of 7: %d working of %d, want 6 of 6", e.working(), e.size)
	}
	if b := e.add(); b != 6 || e.size != 7 {
		t.Errorf("adding back: bucket %d, b-array %d; want 6, 7", b, e.size)
	}
	e = newEngine(10)
	e.remove(0)
	e.remove(9)
	if e.working() != 8 || e.size != 10 {
		t.Errorf("removing 0 then 9 of 10: %d working of %d, want 8 of 10", e.working(), e.size)
	}
	e.add()
	e.add()
	if e.working() != 10 || e.size != 10 {
		t.Errorf("two additions: %d working of %d, want 10 of 10", e.working(), e.size)
	}
	// A new bucket beyond the b-array is added when nothing is removed.
	if b := e.add(); b != 10 || e.size != 11 {
		t.Errorf("adding to a full b-array of 10: bucket %d, size %d; want 10, 11", b, e.size)
	}
	// All but one bucket removed: every key lands on it.
	e = newEngine(12)
	for _, b := range []int{3, 0, 11, 7, 1, 2, 10, 4, 6, 9, 8} {
		e.remove(b)
	}
	r := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		if b := e.bucket(r.Uint64()); b != 5 {
			t.Fatalf("only bucket 5 of 12 working: key on bucket %d", b)
		}
	}
}

// Removing ANY node moves only its keys (about 1/n of them) and restoring
// it brings every key back (net movement 0).
func TestRemoveAnyAndRestore(t *testing.T) {
	placertest.CheckRemoveAny(t, mustNew(t, 50), placertest.Keys(40000, 1), "node-0", "node-17", "node-33", "node-49")
}

// A history of random removals, each moving only the leaving node's keys,
// then restores in reverse order, each moving keys only to the returning
// node, ends where it started.
func TestRemovalsThenRestoresInReverse(t *testing.T) {
	placertest.CheckRemovalsThenRestores(t, mustNew(t, 40), placertest.Keys(20000, 2), 15, 3)
}

// A new node takes keys only for itself, about 1/(n+1) of them.
func TestJoinMovesOnlyToNewNode(t *testing.T) {
	placertest.CheckGrowth(t, func(n int) algorithms.Placer { return mustNew(t, n) },
		placertest.Keys(40000, 4), []int{1, 9, 50})
}

// Balance holds initially and after 30 random removals of 100 nodes
// (the paper proves the shares stay equal).
func TestBalanceAfterRemovals(t *testing.T) {
	p := mustNew(t, 100)
	placertest.CheckBalance(t, p, 300000, 1)
	q, _ := placertest.RemoveRandom(t, p, nil, 30, 5)
	placertest.CheckBalance(t, q, 300000, 2)
}

// Lookups allocate nothing and give every goroutine the same owners, also
// after removals have put the placement on its slower path (run under
// -race).
func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	p := mustNew(t, 100)
	for _, x := range []algorithms.Placer{p, placertest.Leave(t, p, "node-3", "node-50", "node-99")} {
		placertest.CheckNoAllocs(t, x)
		placertest.CheckConcurrent(t, x, placertest.Keys(2000, 4))
	}
}

// An empty membership, unequal weights and a duplicate ID on Rebalance
// are errors naming the problem (placertest.CheckEqualWeightErrors).
func TestErrors(t *testing.T) {
	placertest.CheckEqualWeightErrors(t, New, `"b" 2`)
}
