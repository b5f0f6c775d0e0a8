package memento

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

func mustNew(t *testing.T, n int) *Memento {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(nodes, algorithms.MustHash("xxhash"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// With nothing removed MementoHash is jump hash: the published jump
// vectors (Lamping & Veach's reference outputs, as in package jump's tests)
// hold for the bucket of each key.
func TestJumpVectorsWithoutRemovals(t *testing.T) {
	want100 := []int{0, 55, 62, 8, 45, 59, 86, 97, 82, 59, 73, 37, 17, 56, 86, 21, 90, 37, 38, 83}
	p := mustNew(t, 100)
	for k, w := range want100 {
		if got := p.e.bucket(uint64(k)); got != w {
			t.Errorf("key %d, 100 buckets: bucket %d, want %d", k, got, w)
		}
	}
	if got := mustNew(t, 1024).e.bucket(256); got != 520 {
		t.Errorf("key 256, 1024 buckets: %d, want 520", got)
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
	keys := placertest.Keys(40000, 1)
	p := mustNew(t, 50)
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
	start := algorithms.Placer(mustNew(t, 40))
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
		before := mustNew(t, n)
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
// (the paper proves the shares stay equal).
func TestBalanceAfterRemovals(t *testing.T) {
	p := algorithms.Placer(mustNew(t, 100))
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

func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	p := mustNew(t, 100)
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
	for _, tc := range []struct {
		nodes []algorithms.Node
		want  string
	}{
		{nil, "empty"},
		{[]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}}, `"b" 2`},
	} {
		_, err := New(tc.nodes, h)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%d nodes): error %v, want one containing %q", len(tc.nodes), err, tc.want)
		}
	}
	nodes, _ := algorithms.DefaultNodes(3)
	p, _ := New(nodes, h)
	if _, err := p.Rebalance([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}); err == nil {
		t.Error("Rebalance accepted duplicate IDs")
	}
}
