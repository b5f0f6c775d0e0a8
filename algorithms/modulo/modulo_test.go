package modulo

import (
	"math"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/placertest"
)

func mustNew(t *testing.T, n int, hash string) *Modulo {
	t.Helper()
	nodes, err := algorithms.DefaultNodes(n)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(nodes, algorithms.MustHash(hash))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A key stays iff h mod n == h mod m, so the moved fraction is
// 1 - min(n,m)/lcm(n,m) (REFERENCES.md), within 5 binomial standard errors.
func TestMovedFractionMatchesLCM(t *testing.T) {
	keys := placertest.Keys(50000, 7)
	for _, c := range []struct{ n, m int }{{3, 4}, {4, 5}, {9, 10}, {10, 11}, {4, 8}, {6, 4}} {
		a, b := mustNew(t, c.n, "xxhash"), mustNew(t, c.m, "xxhash")
		moved := 0
		for _, k := range keys {
			if a.Locate(k) != b.Locate(k) {
				moved++
			}
		}
		p, err := MovedFraction(c.n, c.m)
		if err != nil {
			t.Fatal(err)
		}
		got := float64(moved) / float64(len(keys))
		if se := math.Sqrt(p * (1 - p) / float64(len(keys))); math.Abs(got-p) > 5*se+1e-12 {
			t.Errorf("%d -> %d: moved %.4f, want %.4f +- %.4f", c.n, c.m, got, p, 5*se)
		}
	}
}

// MovedFraction is the law itself: exact values from counting one period
// of hash values, and errors for node counts below 1.
func TestMovedFraction(t *testing.T) {
	for _, c := range []struct{ n, m int }{{3, 4}, {4, 5}, {4, 8}, {6, 4}, {7, 7}, {1, 3}, {12, 18}} {
		period := c.n * c.m // a multiple of lcm(n, m)
		moved := 0
		for h := range period {
			if h%c.n != h%c.m {
				moved++
			}
		}
		got, err := MovedFraction(c.n, c.m)
		if want := float64(moved) / float64(period); err != nil || math.Abs(got-want) > 1e-15 {
			t.Errorf("MovedFraction(%d, %d) = %v, %v; counted %v", c.n, c.m, got, err, want)
		}
	}
	for _, c := range [][2]int{{0, 4}, {4, 0}, {-1, 3}} {
		if _, err := MovedFraction(c[0], c[1]); err == nil {
			t.Errorf("MovedFraction(%d, %d): no error", c[0], c[1])
		}
	}
}

// LocateHash is the key hash mod n.
func TestLocateHashIsMod(t *testing.T) {
	m := mustNew(t, 7, "fnv1a32")
	for h := uint64(0); h < 100; h++ {
		if got := m.LocateHash(h); got != int(h%7) {
			t.Fatalf("LocateHash(%d) = %d", h, got)
		}
	}
}

// Exact shares count the hash values each node owns: with a 32-bit hash on
// 3 nodes node 0 gets the one value more, and 1,000 shares sum to 1
// within rounding.
func TestExactShares(t *testing.T) {
	// 2^32 = 3 * 1431655765 + 1: node 0 gets one value more.
	s := mustNew(t, 3, "murmur3").ExactShares()
	want := []float64{1431655766.0 / (1 << 32), 1431655765.0 / (1 << 32), 1431655765.0 / (1 << 32)}
	for i := range want {
		if s[i] != want[i] {
			t.Errorf("share %d = %v, want %v", i, s[i], want[i])
		}
	}
	sum := 0.0
	for _, v := range mustNew(t, 1000, "xxhash").ExactShares() {
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("shares sum to %v", sum)
	}
}

// Lookups allocate nothing and give every goroutine the same owners (run
// under -race).
func TestLookupsAllocFreeAndConcurrent(t *testing.T) {
	m := mustNew(t, 10, "xxhash")
	placertest.CheckNoAllocs(t, m)
	placertest.CheckConcurrent(t, m, placertest.Keys(2000, 4))
}

// An empty membership, unequal weights and a NaN weight are refused.
func TestErrors(t *testing.T) {
	h := algorithms.MustHash("xxhash")
	if _, err := New(nil, h); err == nil {
		t.Error("empty membership accepted")
	}
	if _, err := New([]algorithms.Node{{ID: "a", Weight: 1}, {ID: "b", Weight: 3}}, h); err == nil {
		t.Error("unequal weights accepted")
	}
	if _, err := New([]algorithms.Node{{ID: "a", Weight: math.NaN()}}, h); err == nil {
		t.Error("NaN weight accepted")
	}
}

// One node owns the whole hash space: with a 64-bit hash its 2^64 values
// are a share of exactly 1 (a uint64 count of them wrapped to 0).
func TestExactSharesOneNode(t *testing.T) {
	for _, h := range []string{"xxhash", "murmur3"} {
		if s := mustNew(t, 1, h).ExactShares(); len(s) != 1 || s[0] != 1 {
			t.Errorf("%s: one node's exact shares %v, want [1]", h, s)
		}
	}
}
