package switching

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/dialect/hashkit"
	"github.com/chbench/chbench/keyset"
)

func fleet(n int) []algorithms.Node {
	nodes := make([]algorithms.Node, n)
	for i := range nodes {
		nodes[i] = algorithms.Node{ID: fmt.Sprintf("10.0.0.%d:11212", i+1), Weight: 1}
	}
	return nodes
}

func locator(t *testing.T, name string, nodes []algorithms.Node) algorithms.Locator {
	t.Helper()
	p, err := catalog.New(name, nodes, catalog.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return algorithms.AsLocator(p, 32)
}

// sets returns s key sets of k generated keys each (seeds 1..s).
func sets(t *testing.T, s, k int) [][]string {
	t.Helper()
	out := make([][]string, s)
	for i := range out {
		keys, err := keyset.Keys(k, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = keys
	}
	return out
}

// A placement compared with itself, and a ring compared with the ring of
// the same nodes listed in reverse (matched by ID), route every key alike.
func TestSamePlacementCostsNothing(t *testing.T) {
	nodes := fleet(10)
	ks := sets(t, 3, 2000)
	rev := slices.Clone(nodes)
	slices.Reverse(rev)
	for _, pair := range [][2]algorithms.Locator{
		{locator(t, "nginx-hash-consistent", nodes), locator(t, "nginx-hash-consistent", nodes)},
		{locator(t, "ring", nodes), locator(t, "ring", rev)},
	} {
		r, err := Compare(pair[0], pair[1], ks, 5)
		if err != nil {
			t.Fatal(err)
		}
		if r.Differ != 0 || r.Fraction != 0 || r.Lo == nil || *r.Lo != 0 || *r.Hi != 0 || len(r.First) != 0 {
			t.Errorf("%s vs itself: %d differ, fraction %v [%v, %v], first %v", r.From, r.Differ, r.Fraction, r.Lo, r.Hi, r.First)
		}
		for _, f := range r.Flows {
			if f.From != f.To {
				t.Errorf("%s vs itself: flow %+v off the diagonal", r.From, f)
			}
		}
	}
}

// python-memcached and nginx's plain hash compute the same 15 bits of
// CRC-32 mod n, except that python-memcached turns a 0 into 1: at n = 10
// they differ exactly on the keys whose 15 bits are 0, each going to node 0
// under nginx and node 1 under python-memcached. The count is derived here
// from the hash directly.
func TestPythonMemcachedVersusNginxHash(t *testing.T) {
	nodes := fleet(10)
	ks := sets(t, 4, 100000)
	var want int64
	var firstKey string
	for _, set := range ks {
		for _, k := range set {
			if hashkit.CRC(k) == 0 {
				if want++; want == 1 {
					firstKey = k
				}
			}
		}
	}
	if want == 0 {
		t.Fatal("no key with 15 zero bits among 400,000 (expected about 12): the check tells nothing")
	}
	r, err := Compare(locator(t, "nginx-hash", nodes), locator(t, "python-memcached", nodes), ks, 3)
	if err != nil {
		t.Fatal(err)
	}
	if r.Differ != want || r.Keys != 400000 {
		t.Errorf("%d of %d keys differ, want %d", r.Differ, r.Keys, want)
	}
	if len(r.First) == 0 || r.First[0] != (Mismatch{Key: firstKey, From: nodes[0].ID, To: nodes[1].ID}) {
		t.Errorf("first mismatch %+v, want %q from %s to %s", r.First, firstKey, nodes[0].ID, nodes[1].ID)
	}
	m := r.Matrix()
	if m[0][1] != want {
		t.Errorf("matrix[0][1] = %d, want %d", m[0][1], want)
	}
	if math.Abs(r.Fraction-float64(want)/400000) > 1e-15 {
		t.Errorf("fraction %v, want %v", r.Fraction, float64(want)/400000)
	}
}

// Two modulo placements with unrelated hashes (libmemcached's
// one-at-a-time and gomemcache's CRC-32) agree on a key with probability
// 1/n, so at n = 10 they differ on 90% of keys. With 5 x 20,000 keys the
// fraction's standard deviation is sqrt(0.9 * 0.1 / 100,000) = 0.00095; 5
// of them (0.0047) bound the mean. The matrix's rows sum to each node's
// keys under the first placement, and all cells to the keys.
func TestUnrelatedModulaDifferOnNineTenths(t *testing.T) {
	nodes := fleet(10)
	ks := sets(t, 5, 20000)
	from, to := locator(t, "libmemcached-modula", nodes), locator(t, "gomemcache", nodes)
	r, err := Compare(from, to, ks, 10)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Fraction-0.9) > 5*math.Sqrt(0.9*0.1/100000) {
		t.Errorf("fraction %v, want 0.9 within 0.0047", r.Fraction)
	}
	if !(*r.Lo <= r.Fraction && r.Fraction <= *r.Hi && *r.Hi-*r.Lo < 0.02) {
		t.Errorf("interval [%v, %v] around %v", *r.Lo, *r.Hi, r.Fraction)
	}
	if len(r.PerSet) != 5 || len(r.First) != 10 {
		t.Errorf("%d per-set fractions, %d first mismatches", len(r.PerSet), len(r.First))
	}
	rows := make([]int64, len(nodes))
	var total int64
	for _, f := range r.Flows {
		rows[f.From] += f.Keys
		total += f.Keys
	}
	if total != r.Keys {
		t.Errorf("matrix holds %d keys of %d", total, r.Keys)
	}
	owners := make([]int, 20000)
	want := make([]int64, len(nodes))
	for _, set := range ks {
		if err := from.LocateKeys(set, owners); err != nil {
			t.Fatal(err)
		}
		for _, o := range owners {
			want[o]++
		}
	}
	if !slices.Equal(rows, want) {
		t.Errorf("matrix rows %v, want the first placement's counts %v", rows, want)
	}
	for _, mm := range r.First {
		if from.Nodes()[indexOf(from, mm.Key)].ID != mm.From || mm.From == mm.To {
			t.Errorf("mismatch %+v is not one", mm)
		}
	}
}

func indexOf(l algorithms.Locator, key string) int {
	o := []int{0}
	l.LocateKeys([]string{key}, o)
	return o[0]
}

func TestCompareErrors(t *testing.T) {
	a := locator(t, "gomemcache", fleet(10))
	b := locator(t, "gomemcache", fleet(9))
	c := locator(t, "gomemcache", append(fleet(9), algorithms.Node{ID: "10.9.9.9:1", Weight: 1}))
	ks := sets(t, 2, 100)
	for _, tc := range []struct {
		from, to algorithms.Locator
		sets     [][]string
		first    int
		want     string
	}{
		{a, b, ks, 1, `"10.0.0.10:11212"`},
		{b, a, ks, 1, `"10.0.0.10:11212"`},
		{a, c, ks, 1, `"10.9.9.9:1"`},
		{a, a, nil, 1, "no key sets"},
		{a, a, [][]string{ks[0], {}}, 1, "key set 1 is empty"},
		{a, a, ks, -1, "first mismatches -1"},
	} {
		if _, err := Compare(tc.from, tc.to, tc.sets, tc.first); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one containing %s", err, tc.want)
		}
	}
}

// With one key set the interval is undefined and reported as the value
// itself, never NaN.
func TestOneSetHasNoInterval(t *testing.T) {
	nodes := fleet(10)
	r, err := Compare(locator(t, "libmemcached-modula", nodes), locator(t, "gomemcache", nodes), sets(t, 1, 5000), 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Lo != nil || r.Hi != nil || math.IsNaN(r.Fraction) || len(r.First) != 0 {
		t.Errorf("one set: %v [%v, %v], %d first, want no interval", r.Fraction, r.Lo, r.Hi, len(r.First))
	}
}

// Pairs over a generated source gives, for every pair, what Compare gives
// on the same key sets held in memory: the same counts, interval, matrix
// and first mismatches, whichever placement the fleet order comes from.
func TestPairsMatchesCompare(t *testing.T) {
	nodes := fleet(12)
	names := []string{"libmemcached-ketama-weighted", "nginx-hash-consistent", "python-memcached"}
	var ls []algorithms.Locator
	for _, n := range names {
		ls = append(ls, locator(t, n, nodes))
	}
	g, err := keyset.NewGenerator(9000, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	var inMemory [][]string
	for s := range g.Sets() {
		inMemory = append(inMemory, g.SetKeys(nil, s))
	}
	pairs := []Pair{{0, 1}, {0, 2}, {1, 2}}
	got, err := Pairs(ls, pairs, g, Options{MaxFirst: 4, Flows: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pairs {
		want, err := Compare(ls[p.From], ls[p.To], inMemory, 4)
		if err != nil {
			t.Fatal(err)
		}
		g := got[i]
		if p.From != 0 { // Pairs' flows index ls[0]'s order; this fleet lists the same order everywhere
			want.Nodes = g.Nodes
		}
		if g.Differ != want.Differ || g.Keys != want.Keys || g.Fraction != want.Fraction || *g.Lo != *want.Lo || *g.Hi != *want.Hi ||
			!slices.Equal(g.Flows, want.Flows) || !slices.Equal(g.First, want.First) || g.From != names[p.From] || g.To != names[p.To] {
			t.Errorf("%s -> %s: Pairs %+v\nCompare %+v", names[p.From], names[p.To], g, want)
		}
	}
}

// The from -> to matrix is the count of each (owner, owner) pair, held
// densely or, above DenseFlowNodes nodes, in a map: both give the counts a
// direct tally of the owners gives, and without Flows there is none.
func TestPairsFlows(t *testing.T) {
	for _, n := range []int{7, DenseFlowNodes + 44} {
		nodes := fleet(n)
		a, b := locator(t, "gomemcache", nodes), locator(t, "twemproxy-ketama-md5", nodes)
		ks := sets(t, 2, 20000)
		want := map[[2]int]int64{}
		oa, ob := make([]int, 20000), make([]int, 20000)
		for _, s := range ks {
			if err := a.LocateKeys(s, oa); err != nil {
				t.Fatal(err)
			}
			if err := b.LocateKeys(s, ob); err != nil {
				t.Fatal(err)
			}
			for i := range s {
				want[[2]int{oa[i], ob[i]}]++
			}
		}
		rs, err := Pairs([]algorithms.Locator{a, b}, []Pair{{0, 1}}, sliceSource(ks), Options{Flows: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rs[0].Flows) != len(want) {
			t.Errorf("n = %d: %d flows, want %d", n, len(rs[0].Flows), len(want))
		}
		for _, f := range rs[0].Flows {
			if want[[2]int{f.From, f.To}] != f.Keys {
				t.Errorf("n = %d: flow %d -> %d = %d keys, want %d", n, f.From, f.To, f.Keys, want[[2]int{f.From, f.To}])
			}
		}
		rs, err = Pairs([]algorithms.Locator{a, b}, []Pair{{0, 1}}, sliceSource(ks), Options{})
		if err != nil || rs[0].Flows != nil || rs[0].Differ == 0 {
			t.Errorf("n = %d without flows: flows %v, differ %d, error %v", n, rs[0].Flows, rs[0].Differ, err)
		}
	}
}

// Bad input to Pairs is an error naming the bad value.
func TestPairsErrors(t *testing.T) {
	a, b := locator(t, "gomemcache", fleet(3)), locator(t, "gomemcache", fleet(4))
	ks := sliceSource(sets(t, 1, 10))
	for _, c := range []struct {
		ls    []algorithms.Locator
		pairs []Pair
		keys  keyset.Source
		o     Options
		want  string
	}{
		{[]algorithms.Locator{a, a}, []Pair{{0, 2}}, ks, Options{}, "0 -> 2"},
		{[]algorithms.Locator{a, b}, []Pair{{0, 1}}, ks, Options{}, "10.0.0.4:11212"},
		{[]algorithms.Locator{a, a}, []Pair{{0, 1}}, ks, Options{MaxFirst: -1}, "-1"},
		{[]algorithms.Locator{a, a}, []Pair{{0, 1}}, sliceSource{{"k"}, {}}, Options{}, "key set 1 is empty"},
		{[]algorithms.Locator{a}, nil, ks, Options{}, "no placements or no pairs"},
	} {
		if _, err := Pairs(c.ls, c.pairs, c.keys, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Pairs(%v): error %v, want one containing %q", c.pairs, err, c.want)
		}
	}
}
