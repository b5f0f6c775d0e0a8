package pymemcache

import (
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/dialect/hashkit"
	"github.com/chbench/chbench/algorithms/placertest"
)

// The vectors were recorded from python-memcached 1.59's _get_server
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

// cmemcache_hash turns a zero 15-bit hash into 1; the rehash of retry i
// hashes the decimal text of the previous hash followed by i.
func TestHashAndRehash(t *testing.T) {
	keys := placertest.Keys(200000, 3)
	zero := ""
	for _, k := range keys {
		if hashkit.CRC(k) == 0 {
			zero = k
			break
		}
	}
	if zero == "" {
		t.Fatal("no key with 15 zero bits among 200,000 (expected about 6)")
	}
	if h := Hash(zero); h != 1 {
		t.Errorf("Hash(%q) = %d, want 1 (15 bits are 0)", zero, h)
	}
	if got, want := Rehash(12345, 0), Hash("123450"); got != want {
		t.Errorf("Rehash(12345, 0) = %d, want Hash(\"123450\") = %d", got, want)
	}
	if a := testing.AllocsPerRun(100, func() { Rehash(32767, 9) }); a != 0 {
		t.Errorf("Rehash allocates %v", a)
	}
}
