package ring

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n, vnodes int, hash string) *Ring {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(nodes, vnodes, algorithms.MustHash(hash))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Labels "ID#j" are injective: the suffix after the last '#' is the vnode.
func TestLabelsCannotCollide(t *testing.T) {
	ids := []string{"a", "a1", "a#1", "a#", "#1", "a#1#1", "a11"}
	seen := map[string][2]any{}
	for _, id := range ids {
		for j := 0; j < 120; j++ {
			l := Label(id, j)
			if prev, dup := seen[l]; dup {
				t.Fatalf("label %q made by (%v, %v) and (%q, %d)", l, prev[0], prev[1], id, j)
			}
			seen[l] = [2]any{id, j}
		}
	}
	if Label("a", 11) == Label("a1", 1) {
		t.Fatal(`"a"#11 and "a1"#1 collide`)
	}
}

// Search must agree with a plain binary search over the sorted positions,
// for random hashes, exact point positions and the wrap past the top.
func TestSearchMatchesBinarySearch(t *testing.T) {
	for _, hash := range []string{"xxhash", "fnv1a32"} {
		r := mustNew(t, 37, 50, hash)
		ref := func(h uint64) int {
			x := h << r.keyShift
			i := sort.Search(len(r.pos), func(i int) bool { return r.pos[i] >= x })
			if i == len(r.pos) {
				return 0
			}
			return i
		}
		rng := rand.New(rand.NewPCG(1, 2))
		var probes []uint64
		for i := 0; i < 20000; i++ {
			v := rng.Uint64()
			if r.keyShift == 32 {
				v >>= 32
			}
			probes = append(probes, v)
		}
		for _, p := range r.pos {
			probes = append(probes, p>>r.keyShift, (p>>r.keyShift)+1, (p>>r.keyShift)-1)
		}
		probes = append(probes, 0, math.MaxUint64>>r.keyShift)
		for _, h := range probes {
			if got, want := r.Search(h), ref(h); got != want {
				t.Fatalf("%s: Search(%#x) = %d, want %d", hash, h, got, want)
			}
		}
	}
}

// The same 20 nodes listed backwards give every key the same owner.
func TestOrderIndependent(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(20)
	h := algorithms.MustHash("xxhash")
	a, err := New(nodes, 40, h)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(placertest.Reversed(nodes), 40, h)
	if err != nil {
		t.Fatal(err)
	}
	placertest.CheckOrderIndependent(t, a, b, placertest.Keys(20000, 9))
}

// Points at the same position: a 32-bit hash over many labels collides
// (birthday bound); the owner must still not depend on input order.
func TestCollisionsDeterministic(t *testing.T) {
	nodes, _ := algorithms.DefaultNodes(2000)
	h := algorithms.MustHash("fnv1a32")
	a, err := New(nodes, 200, h)
	if err != nil {
		t.Fatal(err)
	}
	dups := 0
	for i := 1; i < len(a.pos); i++ {
		if a.pos[i] == a.pos[i-1] {
			dups++
		}
	}
	if dups == 0 {
		t.Fatal("expected 32-bit position collisions among 400,000 points; the test exercises nothing")
	}
	b, err := New(placertest.Reversed(nodes), 200, h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.pos {
		if a.pos[i] != b.pos[i] || a.nodes[a.owner[i]].ID != b.nodes[b.owner[i]].ID {
			t.Fatalf("point %d differs between orders (%d collisions)", i, dups)
		}
	}
}

// Under every hash a join moves keys only to the new node and a leave only
// the leaving node's keys.
func TestJoinAndLeave(t *testing.T) {
	keys := placertest.Keys(20000, 11)
	for _, hash := range algorithms.HashNames() {
		before := mustNew(t, 10, 160, hash)
		after, err := algorithms.Join(before, algorithms.Node{ID: "node-10", Weight: 1})
		if err != nil {
			t.Fatal(err)
		}
		placertest.CheckJoin(t, before, after, keys, "node-10")
		gone, err := algorithms.Leave(before, "node-4")
		if err != nil {
			t.Fatal(err)
		}
		placertest.CheckLeave(t, before, gone, keys, "node-4")
	}
}

// Sampled shares agree with the exact arc shares: node i's count is
// Binomial(K, share_i), bounded at 5 standard errors.
func TestExactSharesMatchSampled(t *testing.T) {
	r := mustNew(t, 8, 20, "xxhash")
	exact := r.ExactShares()
	if s := floatsSum(exact); math.Abs(s-1) > 1e-9 {
		t.Fatalf("exact shares sum to %v", s)
	}
	keys := placertest.Keys(200000, 12)
	counts := placertest.Counts(r, keys)
	for i, c := range counts {
		p := exact[i]
		got := float64(c) / float64(len(keys))
		if se := math.Sqrt(p * (1 - p) / float64(len(keys))); math.Abs(got-p) > 5*se {
			t.Errorf("node %d: sampled share %.5f, exact %.5f +- %.5f", i, got, p, 5*se)
		}
	}
}

// Karger et al.: with k points per node the per-node share has relative
// standard deviation about 1/sqrt(k) (REFERENCES.md: 0.315, 0.0997, 0.0316).
// Measured exactly over 1000 nodes, whose sample standard deviation has a
// relative error of about 1/sqrt(2*1000) = 2.2%; the bound allows 12%.
func TestShareStdErrorIsInverseSqrtK(t *testing.T) {
	for _, k := range []int{10, 100, 1000} {
		if testing.Short() && k == 1000 {
			continue
		}
		r := mustNew(t, 1000, k, "xxhash")
		shares := r.ExactShares()
		for i := range shares {
			shares[i] *= float64(len(shares)) // load / mean
		}
		sd := stat.PopStdDev(shares, nil)
		if want := 1 / math.Sqrt(float64(k)); math.Abs(sd-want) > 0.12*want {
			t.Errorf("k=%d: relative std %.4f, want about %.4f", k, sd, want)
		}
	}
}

// Virtual nodes scale with weight (500 per unit), and each node's exact
// share is its weight share within 4 relative standard errors,
// 1/sqrt(500 w) each.
func TestWeightsScaleVNodes(t *testing.T) {
	nodes := []algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 1}, {ID: "c", Weight: 2}, {ID: "d", Weight: 4}}
	r, err := New(nodes, 500, algorithms.MustHash("xxhash"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 500*8 {
		t.Fatalf("points %d, want %d", r.Len(), 4000)
	}
	// With 500 points per unit weight, a share's relative error is about
	// 1/sqrt(500 w) (4.5% at w = 1); allow 4 of those.
	for i, s := range r.ExactShares() {
		want := nodes[i].Weight / 8
		if tol := 4 * want / math.Sqrt(500*nodes[i].Weight); math.Abs(s-want) > tol {
			t.Errorf("node %s: share %.4f, want %.4f +- %.4f", nodes[i].ID, s, want, tol)
		}
	}
}

// Lookups allocate nothing and give every goroutine the same owners (run
// under -race).
func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	r := mustNew(t, 100, 160, "xxhash")
	placertest.CheckNoAllocs(t, r)
	placertest.CheckConcurrent(t, r, placertest.Keys(2000, 4))
}

// Bad memberships and settings (vnodes 0, weights 0, +Inf or too small
// for one virtual node, duplicates) are errors.
func TestErrors(t *testing.T) {
	h := algorithms.MustHash("xxhash")
	ok := []algorithms.Node{{ID: "a", Weight: 1}}
	cases := map[string]func() error{
		"empty":    func() error { _, err := New(nil, 10, h); return err },
		"vnodes 0": func() error { _, err := New(ok, 0, h); return err },
		"weight 0": func() error { _, err := New([]algorithms.Node{{ID: "a", Weight: 0}}, 10, h); return err },
		"weight inf": func() error {
			_, err := New([]algorithms.Node{{ID: "a", Weight: math.Inf(1)}}, 10, h)
			return err
		},
		"tiny weight": func() error { _, err := New([]algorithms.Node{{ID: "a", Weight: 0.01}}, 10, h); return err },
		"duplicate": func() error {
			_, err := New([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}, 10, h)
			return err
		},
		"too many": func() error { _, err := New(ok, MaxPoints+1, h); return err },
	}
	for name, f := range cases {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func floatsSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// A ring of one node gives it the whole ring: its 160 arcs sum to 2^64,
// a share of exactly 1 (float sums of the arcs ended at 1 - 2^-52).
func TestExactSharesOneNode(t *testing.T) {
	for _, h := range []string{"xxhash", "fnv1a32"} {
		if s := mustNew(t, 1, 160, h).ExactShares(); len(s) != 1 || s[0] != 1 {
			t.Errorf("%s: one node's exact shares %v, want [1]", h, s)
		}
	}
}
