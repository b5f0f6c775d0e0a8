package uhashring

import (
	"fmt"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/dialecttest"
	"github.com/chbench/chbench/algorithms/placertest"
)

// The vectors were recorded from uhashring 2.1's get_node
// (live.TestDialectVectors re-checks them against it).
func TestVectors(t *testing.T) {
	dialecttest.Check(t, "testdata/vectors.tsv", 90, map[string]func([]algorithms.Node) (algorithms.Placer, error){MetaName: NewMeta, KetamaName: Ketama})
}

func TestLookupContract(t *testing.T) {
	for _, b := range []func([]algorithms.Node) (algorithms.Placer, error){NewMeta, Ketama} {
		p, err := b(dialecttest.Fleet(dialecttest.Weighted))
		if err != nil {
			t.Fatal(err)
		}
		dialecttest.CheckPlacer(t, p, placertest.Keys(500, 1))
	}
}

// Ketama mode counts digests in integers: 40 per server at 25 equal
// servers (libmemcached's float count gives 39), 160 points each.
func TestKetamaPointCount(t *testing.T) {
	nodes := make([]algorithms.Node, 25)
	for i := range nodes {
		nodes[i] = algorithms.Node{ID: fmt.Sprintf("s%d", i), Weight: 1}
	}
	p, err := Ketama(nodes)
	if err != nil {
		t.Fatal(err)
	}
	if n := p.(*dialect.WalkingRing).C.Len(); n != 25*160 {
		t.Errorf("%d points, want %d", n, 25*160)
	}
}
