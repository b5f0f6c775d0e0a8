package nginx

import (
	"hash/crc32"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/placertest"
)

// The vectors were recorded from nginx 1.22.1 proxying to backends
// (live.TestDialectVectors re-checks them against it).
func TestVectors(t *testing.T) {
	dialecttest.Check(t, "testdata/vectors.tsv", 90, map[string]func([]algorithms.Node) (algorithms.Placer, error){ConsistentName: Consistent, HashName: Hash})
}

func TestLookupContract(t *testing.T) {
	for _, b := range []func([]algorithms.Node) (algorithms.Placer, error){Consistent, Hash} {
		p, err := b(dialecttest.Fleet(dialecttest.Weighted))
		if err != nil {
			t.Fatal(err)
		}
		dialecttest.CheckPlacer(t, p, placertest.Keys(500, 1))
	}
}

func TestSplitServer(t *testing.T) {
	for s, want := range map[string][2]string{
		"127.0.0.1:8080": {"127.0.0.1", "8080"}, "backend": {"backend", ""}, "[::1]:80": {"[::1]", "80"},
		"unix:/tmp/s": {"/tmp/s", ""}, "host:x1": {"host:x1", ""},
	} {
		if h, p := SplitServer(s); h != want[0] || p != want[1] {
			t.Errorf("SplitServer(%q) = %q, %q; want %q, %q", s, h, p, want[0], want[1])
		}
	}
}

// Point j is the CRC-32 of host NUL port and point j-1 (little-endian),
// point -1 being 0: the chain is recomputed here byte by byte.
func TestPointChain(t *testing.T) {
	pts := Points(nil, "127.0.0.1:8080", 3)
	prev := []byte{0, 0, 0, 0}
	for j, p := range pts {
		want := crc32.ChecksumIEEE(append([]byte("127.0.0.1\x008080"), prev...))
		if p != want {
			t.Errorf("point %d = %#x, want %#x", j, p, want)
		}
		prev = []byte{byte(p), byte(p >> 8), byte(p >> 16), byte(p >> 24)}
	}
	c, err := Consistent(dialecttest.Fleet(dialecttest.Weighted))
	if err != nil {
		t.Fatal(err)
	}
	if n := c.(*dialect.WalkingRing).C.Len(); n != 8*PointsPerWeight {
		t.Errorf("total weight 8: %d points, want %d", n, 8*PointsPerWeight)
	}
}
