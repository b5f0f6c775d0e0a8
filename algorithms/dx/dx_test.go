package dx

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n, a int) *Dx {
	t.Helper()
	return placertest.Build(t, n, func(nodes []algorithms.Node, h algorithms.Hash) (*Dx, error) { return New(nodes, a, h) })
}

// Buckets follow the removed stack, as in the SUPSI Java suite's DxEngine
// (java-consistent-hashing-algorithms): the first node added to a new
// placement takes bucket n; a removed bucket is the next one taken;
// buckets come back in reverse order of removal (removing the nodes on
// buckets 0, 3, 1, 4, 5 of 6 and adding five nodes gives them 5, 4, 1, 3,
// 0).
func TestBucketBookkeeping(t *testing.T) {
	p := mustNew(t, 6, 6)
	var q algorithms.Placer = p
	for _, b := range []string{"node-0", "node-3", "node-1", "node-4", "node-5"} {
		var err error
		if q, err = algorithms.Leave(q, b); err != nil {
			t.Fatal(err)
		}
	}
	var got []int
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		var err error
		if q, err = algorithms.Join(q, algorithms.Node{ID: id, Weight: 1}); err != nil {
			t.Fatal(err)
		}
		got = append(got, q.(*Dx).Bucket(len(q.Nodes())-1))
	}
	if want := []int{5, 4, 1, 3, 0}; !slices.Equal(got, want) {
		t.Errorf("buckets taken %v, want %v", got, want)
	}
	q, _ = algorithms.Join(mustNew(t, 4, 10), algorithms.Node{ID: "x", Weight: 1})
	if b := q.(*Dx).Bucket(4); b != 4 {
		t.Errorf("first node added to 4 of 10: bucket %d, want 4", b)
	}
	// A key belongs to the first active bucket of its Sequence.
	q, _ = algorithms.Leave(mustNew(t, 20, 40), "node-2", "node-11")
	dq := q.(*Dx)
	r := rand.New(rand.NewPCG(2, 2))
	for range 1000 {
		h := r.Uint64()
		i := 0
		for dq.owner[Sequence(h, i, 40)] < 0 {
			i++
		}
		if got, want := dq.LocateHash(h), int(dq.owner[Sequence(h, i, 40)]); got != want {
			t.Fatalf("hash %#x: node %d, first active bucket of the sequence is node %d's", h, got, want)
		}
	}
	// One active bucket: every key lands on it, through the fallback scan
	// when 1,024 random steps miss (1 of 4096 buckets: (1-1/4096)^1024 = 78%).
	one := mustNew(t, 1, 4096)
	for range 200 {
		if i := one.LocateHash(r.Uint64()); i != 0 {
			t.Fatalf("one node: key on node %d", i)
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
// (array of 200): the paper proves the shares stay equal.
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
