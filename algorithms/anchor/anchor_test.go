package anchor

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n, a int) *Anchor {
	t.Helper()
	return placertest.Build(t, n, func(nodes []algorithms.Node, h algorithms.Hash) (*Anchor, error) { return New(nodes, a, h) })
}

// The bucket bookkeeping follows the paper's AddBucket/RemoveBucket, as the
// SUPSI Java suite's AnchorEngine tests state it: a new engine adds bucket
// n first; a removed bucket is the next one added; buckets come back in
// reverse order of removal (their 6-bucket case, written for MementoHash:
// remove 0, 3, 1, 4, 5, then add 5, 4, 1, 3, 0).
func TestBucketBookkeeping(t *testing.T) {
	e := newEngine(6, 6)
	for _, b := range []uint32{0, 3, 1, 4, 5} {
		e.remove(b)
	}
	var got []uint32
	for range 5 {
		got = append(got, e.add())
	}
	if want := []uint32{5, 4, 1, 3, 0}; !slices.Equal(got, want) {
		t.Errorf("restored %v, want %v", got, want)
	}
	e = newEngine(10, 4)
	if b := e.add(); b != 4 {
		t.Errorf("first bucket added to 4 of 10: %d, want 4", b)
	}
	e.remove(2)
	if b := e.add(); b != 2 {
		t.Errorf("bucket added after removing 2: %d, want 2", b)
	}
	// One working bucket: every key lands on it.
	e = newEngine(10, 1)
	r := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		if b := e.bucket(r.Uint64()); b != 0 {
			t.Fatalf("one working bucket of 10: key on bucket %d", b)
		}
	}
}

// Removing ANY node moves only its keys (about 1/n of them) and restoring
// it brings every key back (net movement 0).
func TestRemoveAnyAndRestore(t *testing.T) {
	placertest.CheckRemoveAny(t, mustNew(t, 50, 100), placertest.Keys(40000, 1), "node-0", "node-17", "node-33", "node-49")
}

// A history of random removals, each moving only the leaving node's keys,
// then restores in reverse order, each moving keys only to the returning
// node, ends where it started.
func TestRemovalsThenRestoresInReverse(t *testing.T) {
	placertest.CheckRemovalsThenRestores(t, mustNew(t, 40, 80), placertest.Keys(20000, 2), 15, 3)
}

// A new node takes keys only for itself, about 1/(n+1) of them.
func TestJoinMovesOnlyToNewNode(t *testing.T) {
	placertest.CheckGrowth(t, func(n int) algorithms.Placer { return mustNew(t, n, 2*n+2) },
		placertest.Keys(40000, 4), []int{1, 9, 50})
}

// Balance holds initially and after 30 random removals of 100 nodes
// (anchor of 200): the paper proves the shares stay equal.
func TestBalanceAfterRemovals(t *testing.T) {
	p := mustNew(t, 100, 200)
	placertest.CheckBalance(t, p, 300000, 1)
	q, _ := placertest.RemoveRandom(t, p, nil, 30, 5)
	placertest.CheckBalance(t, q, 300000, 2)
}

// The capacity is fixed when the placement is built; New and Rebalance
// reject bad memberships and capacities, naming the value.
func TestCapacityAndErrors(t *testing.T) {
	placertest.CheckFixedCapacity(t, New, MaxCapacity)
}

// Lookups allocate nothing and give every goroutine the same owners, also
// after removals have put the placement on its slower path (run under
// -race).
func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	p := mustNew(t, 100, 200)
	for _, x := range []algorithms.Placer{p, placertest.Leave(t, p, "node-3", "node-50", "node-99")} {
		placertest.CheckNoAllocs(t, x)
		placertest.CheckConcurrent(t, x, placertest.Keys(2000, 4))
	}
}
