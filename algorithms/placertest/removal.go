package placertest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/chbench/chbench/algorithms"
)

// This file holds the checks of placers that let any node leave and come
// back (anchor, dx, memento): removing any node moves only its keys,
// removals undone in reverse order restore every key, and the shares stay
// equal after removals.

// CheckRemoveAny removes each node named in ids from p and restores it (see
// [CheckRestore]), and asserts that each removal moved a fraction of keys
// within [Z] binomial standard errors of 1/n, the share of one of p's n
// nodes (the moved count is Binomial(K, 1/n) over K independent keys).
func CheckRemoveAny(t *testing.T, p algorithms.Placer, keys []string, ids ...string) {
	t.Helper()
	want := 1 / float64(len(p.Nodes()))
	se := math.Sqrt(want * (1 - want) / float64(len(keys)))
	for _, id := range ids {
		if got := CheckRestore(t, p, keys, id); math.Abs(got-want) > Z*se {
			t.Errorf("%s: removing %s moved %.4f, want %.4f +- %.4f", p.Algorithm(), id, got, want, Z*se)
		}
	}
}

// RemoveRandom removes count nodes from p one at a time, each drawn
// uniformly from the current membership by a PCG seeded (seed, seed),
// asserts for each removal that only the leaving node's keys move (see
// [CheckLeave]; nil keys check nothing), and returns the last placement and
// the removed nodes in order of removal. It fails t when a removal fails.
func RemoveRandom(t *testing.T, p algorithms.Placer, keys []string, count int, seed uint64) (algorithms.Placer, []algorithms.Node) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	var gone []algorithms.Node
	for range count {
		nodes := p.Nodes()
		nd := nodes[r.IntN(len(nodes))]
		next := Leave(t, p, nd.ID)
		CheckLeave(t, p, next, keys, nd.ID)
		gone = append(gone, nd)
		p = next
	}
	return p, gone
}

// CheckRemovalsThenRestores removes count random nodes from start (see
// [RemoveRandom]: each removal moves only the leaving node's keys), lets
// them join again in reverse order, asserting each time that keys move only
// to the returning node (see [CheckJoin]), and asserts that every key ends
// on its owner in start.
func CheckRemovalsThenRestores(t *testing.T, start algorithms.Placer, keys []string, count int, seed uint64) {
	t.Helper()
	cur, gone := RemoveRandom(t, start, keys, count, seed)
	for i := len(gone) - 1; i >= 0; i-- {
		next, err := algorithms.Join(cur, gone[i])
		if err != nil {
			t.Fatal(err)
		}
		CheckJoin(t, cur, next, keys, gone[i].ID)
		cur = next
	}
	for _, k := range keys {
		if a, b := start.Locate(k), cur.Locate(k); a != b {
			t.Fatalf("%s: key %q on %q after the history, was on %q", start.Algorithm(), k, b, a)
		}
	}
}

// CheckBalance asserts that the per-node counts of k uniform 64-bit hashes
// (drawn by a PCG seeded (seed, seed)) looked up with p.LocateHash are what
// equal shares give: Pearson's chi-square below its 0.999 quantile with n-1
// degrees of freedom, and every count within 4.5 binomial standard
// deviations of k/n.
func CheckBalance(t *testing.T, p algorithms.Placer, k int, seed uint64) {
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
			t.Errorf("%s: node %s: %v of %d keys, want %.0f +- %.0f", p.Algorithm(), p.Nodes()[i].ID, c, k, mean, 4.5*sd)
		}
	}
	if q := (distuv.ChiSquared{K: float64(n - 1)}).Quantile(0.999); chi2 > q {
		t.Errorf("%s: chi-square %.1f over %d nodes above its 0.999 quantile %.1f", p.Algorithm(), chi2, n, q)
	}
}

// CheckFixedCapacity asserts the rules of a placer on a fixed array of a
// buckets (anchor, dx) built by build(nodes, a, h), a package's New whose
// largest a is maxCapacity: 3 nodes on 4 buckets take a fourth node but not
// a fifth (an error naming the capacity of 4 and the 5 nodes) and keep
// capacity 4; New fails, naming the bad value, for an empty membership, a =
// 2 for 3 nodes, a = maxCapacity+1 and unequal weights; Rebalance to a
// membership with a duplicate ID fails.
func CheckFixedCapacity[P interface {
	algorithms.Placer
	Capacity() int
}](t *testing.T, build func([]algorithms.Node, int, algorithms.Hash) (P, error), maxCapacity int) {
	t.Helper()
	h := algorithms.MustHash("xxhash")
	nodes, err := algorithms.DefaultNodes(3)
	if err != nil {
		t.Fatal(err)
	}
	p, err := build(nodes, 4, h)
	if err != nil {
		t.Fatal(err)
	}
	q, err := algorithms.Join(p, algorithms.Node{ID: "x", Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = algorithms.Join(q, algorithms.Node{ID: "y", Weight: 1})
	if err == nil || !strings.Contains(err.Error(), "capacity of 4") || !strings.Contains(err.Error(), "5 nodes") {
		t.Errorf("%s: 5 nodes on a capacity of 4: error %v, want one naming both", p.Algorithm(), err)
	}
	if c := q.(P).Capacity(); c != 4 {
		t.Errorf("%s: capacity changed to %d", p.Algorithm(), c)
	}
	for _, tc := range []struct {
		nodes []algorithms.Node
		a     int
		want  string
	}{
		{nil, 10, "empty"},
		{nodes, 2, "capacity 2 for 3 nodes"},
		{nodes, maxCapacity + 1, fmt.Sprint("capacity ", maxCapacity+1)},
		{[]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 2}}, 4, `"b" 2`},
	} {
		_, err := build(tc.nodes, tc.a, h)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: New(%d nodes, a=%d): error %v, want one containing %q", p.Algorithm(), len(tc.nodes), tc.a, err, tc.want)
		}
	}
	r, err := build(nodes, 6, h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Rebalance([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "a", Weight: 1}}); err == nil {
		t.Errorf("%s: Rebalance accepted duplicate IDs", p.Algorithm())
	}
}
