package haproxy

import (
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/placertest"
)

func builders(t *testing.T) map[string]func([]algorithms.Node) (algorithms.Placer, error) {
	b := map[string]func([]algorithms.Node) (algorithms.Placer, error){}
	for _, h := range Hashes {
		for _, a := range []bool{false, true} {
			c, err := Consistent(h.Name, a)
			if err != nil {
				t.Fatal(err)
			}
			m, err := MapBased(h.Name, a)
			if err != nil {
				t.Fatal(err)
			}
			b[Name("consistent", h.Name, a)], b[Name("map-based", h.Name, a)] = c, m
		}
	}
	return b
}

// The vectors were recorded from HAProxy 2.6.12 proxying to backends
// (live.TestDialectVectors re-checks them against it).
func TestVectors(t *testing.T) {
	dialecttest.Check(t, "testdata/vectors.tsv", 400, builders(t))
}

func TestLookupContract(t *testing.T) {
	for name, b := range builders(t) {
		p, err := b(dialecttest.Fleet(dialecttest.Weighted))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		dialecttest.CheckPlacer(t, p, placertest.Keys(500, 1))
	}
}

// The map: 16 entries a unit of weight divided by the weights' gcd, in
// the smooth order that starts with the first server.
func TestMap(t *testing.T) {
	m := Map([]int{2, 4})
	if len(m) != 48 || m[0] != 0 || m[1] != 1 || m[2] != 1 {
		t.Fatalf("map of weights 2, 4: %d entries, first %v; want 48 (16*2/2 + 16*4/2) starting 0 1 1 (the first declared server wins ties)", len(m), m[:3])
	}
	counts := []int{0, 0}
	for _, s := range m {
		counts[s]++
	}
	if !slices.Equal(counts, []int{16, 32}) {
		t.Errorf("entries per server %v, want [16 32]", counts)
	}
	if eq := Map([]int{1, 1, 1}); eq[0] != 0 || eq[1] != 1 || eq[2] != 2 || len(eq) != 48 {
		t.Errorf("equal weights: %v...", eq[:6])
	}
	_, err := MapBased("sdbm", false)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Consistent("sdbm", false)
	if _, err := b([]algorithms.Node{{ID: "s1", Weight: 257}}); err == nil || !strings.Contains(err.Error(), "1..256") {
		t.Errorf("weight 257: %v", err)
	}
}

func TestHashes(t *testing.T) {
	// sdbm and djb2 of "a": 97, and 5381*33 + 97.
	if SDBM("a") != 97 || DJB2("a") != 5381*33+97 || SDBM("") != 0 || DJB2("") != 5381 {
		t.Errorf("sdbm(a) = %d, djb2(a) = %d", SDBM("a"), DJB2("a"))
	}
	if got := Name("map-based", "wt6", true); got != "haproxy-map-based-wt6-avalanche" {
		t.Errorf("Name = %q", got)
	}
}
