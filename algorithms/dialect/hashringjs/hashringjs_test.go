package hashringjs

import (
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/placertest"
)

// The vectors were recorded from npm hashring 3.2.0's get under Node.js
// (live.TestDialectVectors re-checks them against it).
func TestVectors(t *testing.T) {
	dialecttest.Check(t, "testdata/vectors.tsv", 40, map[string]func([]algorithms.Node) (algorithms.Placer, error){Name: New})
}

func TestLookupContract(t *testing.T) {
	p, err := New(dialecttest.Fleet(dialecttest.Weighted))
	if err != nil {
		t.Fatal(err)
	}
	dialecttest.CheckPlacer(t, p, placertest.Keys(500, 1))
}

// Double precision keeps 40 digests at every equal-weight fleet size
// where libmemcached's float32 falls to 39 (n = 25, 47, 50, ...).
func TestDigests(t *testing.T) {
	for _, n := range []int{1, 10, 25, 47, 50, 100, 1000} {
		if d := Digests(1, float64(n), n); d != VNodes {
			t.Errorf("%d equal servers: %d digests, want %d", n, d, VNodes)
		}
	}
	if d := Digests(2, 5, 4); d != 64 {
		t.Errorf("weight 2 of 5 among 4: %d digests, want floor(0.4*40*4) = 64", d)
	}
}
