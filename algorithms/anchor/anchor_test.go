package anchor

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n, a int) *Anchor {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(nodes, a, algorithms.MustHash("xxhash"))
	if err != nil {
		t.Fatal(err)
	}
	return p
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
	keys := placertest.Keys(40000, 1)
	p := mustNew(t, 50, 100)
	for _, id := range []string{"node-0", "node-17", "node-33", "node-49"} {
		got := placertest.CheckRestore(t, p, keys, id)
		want := 1.0 / 50
		if se := math.Sqrt(want * (1 - want) / float64(len(keys))); math.Abs(got-want) > 5*se {
			t.Errorf("removing %s moved %.4f, want %.4f +- %.4f", id, got, want, 5*se)
		}
	}
}

// A history of random removals, each moving only the leaving node's keys,
// then restores in reverse order, each moving keys only to the returning
// node, ends where it started.
func TestRemovalsThenRestoresInReverse(t *testing.T) {
	keys := placertest.Keys(20000, 2)
	start := algorithms.Placer(mustNew(t, 40, 80))
	r := rand.New(rand.NewPCG(3, 3))
	cur := start
	var gone []algorithms.Node
	for range 15 {
		nodes := cur.Nodes()
		nd := nodes[r.IntN(len(nodes))]
		next, err := algorithms.Leave(cur, nd.ID)
		if err != nil {
			t.Fatal(err)
		}
		placertest.CheckLeave(t, cur, next, keys, nd.ID)
		gone = append(gone, nd)
		cur = next
	}
	for i := len(gone) - 1; i >= 0; i-- {
		next, err := algorithms.Join(cur, gone[i])
		if err != nil {
			t.Fatal(err)
		}
		placertest.CheckJoin(t, cur, next, keys, gone[i].ID)
		cur = next
	}
	for _, k := range keys {
		if a, b := start.Locate(k), cur.Locate(k); a != b {
			t.Fatalf("key %q on %q after the history, was on %q", k, b, a)
		}
	}
}

// A new node takes keys only for itself, about 1/(n+1) of them.
func TestJoinMovesOnlyToNewNode(t *testing.T) {
	keys := placertest.Keys(40000, 4)
	for _, n := range []int{1, 9, 50} {
		before := mustNew(t, n, 2*n+2)
		after, err := algorithms.Join(before, algorithms.Node{ID: "new", Weight: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := placertest.CheckJoin(t, before, after, keys, "new")
		want := 1 / float64(n+1)
		if se := math.Sqrt(want * (1 - want) / float64(len(keys))); math.Abs(got-want) > 5*se {
			t.Errorf("n=%d: moved %.4f, want %.4f +- %.4f", n, got, want, 5*se)
		}
	}
}

// checkBalance asserts that the per-node counts of k uniform hashes on p
// are what equal shares give: Pearson's chi-square below its 0.999
// quantile with n-1 degrees of freedom, and every count within 4.5
// binomial standard deviations of k/n (fixed seed).
func checkBalance(t *testing.T, p algorithms.Placer, k int, seed uint64) {
	t.Helper()
	n := len(p.Nodes())
	counts := make([]float64, n)
	r := rand.New(rand.NewPCG(seed, seed))
	for range k {
		counts[p.LocateHash(r.Uint64())]++
	}
	mean := float64(k) / float64(n)
	sd := math.Sqrt(mean * (1 - 1/float64(n)))
	chi2 := 0.0
	for i, c := range counts {
		chi2 += (c - mean) * (c - mean) / mean
		if math.Abs(c-mean) > 4.5*sd {
			t.Errorf("node %s: %v of %d keys, want %.0f +- %.0f", p.Nodes()[i].ID, c, k, mean, 4.5*sd)
		}
	}
	if q := (distuv.ChiSquared{K: float64(n - 1)}).Quantile(0.999); chi2 > q {
		t.Errorf("chi-square %.1f over %d nodes above its 0.999 quantile %.1f", chi2, n, q)
	}
}

// Balance holds initially and after 30 random removals of 100 nodes
// (anchor of 200): the paper proves the shares stay equal.
func TestBalanceAfterRemovals(t *testing.T) {
	p := algorithms.Placer(mustNew(t, 100, 200))
	checkBalance(t, p, 300000, 1)
	r := rand.New(rand.NewPCG(5, 5))
	for range 30 {
		nodes := p.Nodes()
		var err error
		if p, err = algorithms.Leave(p, nodes[r.IntN(len(nodes))].ID); err != nil {
			t.Fatal(err)
		}
	}
	checkBalance(t, p, 300000, 2)
}

func TestCapacity(t *testing.T) {
	p := mustNew(t, 3, 4)
	q, err := algorithms.Join(p, algorithms.Node{ID: "x", Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = algorithms.Join(q, algorithms.Node{ID: "y", Weight: 1})
	if err == nil || !strings.Contains(err.Error(), "capacity of 4") || !strings.Contains(err.Error(), "5 nodes") {
		t.Errorf("5 nodes on an anchor of 4: error %v, want one naming both", err)
	}
	if q.(*Anchor).Capacity() != 4 {
		t.Errorf("capacity changed to %d", q.(*Anchor).Capacity())
	}
}

func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	p := mustNew(t, 100, 200)
	q, err := algorithms.Leave(p, "node-3", "node-50", "node-99")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []algorithms.Placer{p, q} {
		placertest.CheckNoAllocs(t, x)
		placertest.CheckConcurrent(t, x, placertest.Keys(2000, 4))
	}
}

func TestErrors(t *testing.T) {
	h := algorithms.MustHash("xxhash")
	nodes, _ := algorithms.DefaultNodes(3)
	for _, tc := range []struct {
		nodes []algorithms.Node
		a     int
		want  string
	}{
		{nil, 10, "empty"},
		{nodes, 2, "capacity 2 for 3 nodes"},
		{nodes, MaxCapacity + 1, "capacity 4194305"},
		{[]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}}, 4, `"b" 2`},
	} {
		_, err := New(tc.nodes, tc.a, h)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%d nodes, a=%d): error %v, want one containing %q", len(tc.nodes), tc.a, err, tc.want)
		}
	}
	p, _ := New(nodes, 6, h)
	if _, err := p.Rebalance([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}); err == nil {
		t.Error("Rebalance accepted duplicate IDs")
	}
}
