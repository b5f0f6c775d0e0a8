package ring

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/chbench/chbench/algorithms"
)

// The lookup reads a top-bits lookup table (see the Ring fields). This
// test holds it to the ring's definition, computed here without it: hash
// every label "ID#j", sort the points by (position, ID, j), and give a key
// to the first point at or after its hash, wrapping past the top.

// refPoint is one virtual node of the reference ring.
type refPoint struct {
	pos uint64 // top-aligned, as in Point.Pos
	id  string
	j   int
}

// refRing returns the sorted points of the ring of nodes with vnodes per
// unit of weight under h, and the shift that top-aligns h's values.
func refRing(t *testing.T, nodes []algorithms.Node, vnodes int, h algorithms.Hash) ([]refPoint, uint) {
	t.Helper()
	shift := uint(64 - h.Bits())
	var pts []refPoint
	for _, n := range nodes {
		k, err := VNodeCount(vnodes, n.Weight)
		if err != nil {
			t.Fatal(err)
		}
		for j := range k {
			pts = append(pts, refPoint{pos: h.Sum(fmt.Sprintf("%s#%d", n.ID, j)) << shift, id: n.ID, j: j})
		}
	}
	slices.SortFunc(pts, func(a, b refPoint) int {
		return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.id, b.id), cmp.Compare(a.j, b.j))
	})
	return pts, shift
}

// refSearch returns the index of the first point at or after the
// top-aligned position x by binary search, wrapping to 0.
func refSearch(pts []refPoint, x uint64) int {
	i := sort.Search(len(pts), func(i int) bool { return pts[i].pos >= x })
	if i == len(pts) {
		return 0
	}
	return i
}

// probes returns key hashes (in the hash's range, not top-aligned): random
// ones, 0, the largest, and every point's position, one above and one
// below.
func probes(pts []refPoint, shift uint, seed uint64) []uint64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	top := ^uint64(0) >> shift
	hs := []uint64{0, top}
	for range 20000 {
		hs = append(hs, rng.Uint64()>>shift)
	}
	for _, p := range pts {
		v := p.pos >> shift
		hs = append(hs, v, (v+1)&top, (v-1)&top)
	}
	return hs
}

// TestLookupMatchesDefinition compares LocateHash, Locate's index, Search,
// At and Replicas with the reference ring over memberships that cover 1
// virtual node, 1 node, weights, 32- and 64-bit hashes, and 32-bit
// position collisions (fnv1a32 over 400,000 labels: about 18 expected).
func TestLookupMatchesDefinition(t *testing.T) {
	type membership struct {
		nodes, vnodes int
		weighted      bool
		hashes        []string
	}
	all := algorithms.HashNames()
	cases := []membership{
		{1, 1, false, all},
		{1, 160, false, all},
		{2, 1, false, all},
		{7, 1, true, all},
		{5, 3, false, all},
		{37, 50, true, all},
		{100, 160, false, all},
		{120, 160, true, []string{"xxhash", "fnv1a32", "murmur3"}},
		{1000, 160, false, []string{"xxhash", "murmur3"}},
		{2000, 200, false, []string{"fnv1a32"}},
	}
	if testing.Short() {
		cases = cases[:len(cases)-2]
	}
	collisions := 0
	for ci, c := range cases {
		nodes, err := algorithms.DefaultNodes(c.nodes)
		if err != nil {
			t.Fatal(err)
		}
		if c.weighted {
			rng := rand.New(rand.NewPCG(uint64(ci), 3))
			for i := range nodes {
				nodes[i].Weight = 0.25 + 3*rng.Float64()
			}
		}
		for _, name := range c.hashes {
			h := algorithms.MustHash(name)
			r, err := New(nodes, c.vnodes, h)
			if err != nil {
				t.Fatal(err)
			}
			pts, shift := refRing(t, nodes, c.vnodes, h)
			what := fmt.Sprintf("%s, %d nodes x %d vnodes (weighted %v)", name, c.nodes, c.vnodes, c.weighted)
			if r.Len() != len(pts) {
				t.Fatalf("%s: %d points, want %d", what, r.Len(), len(pts))
			}
			for i, p := range pts {
				if i > 0 && p.pos == pts[i-1].pos {
					collisions++
				}
				if got := r.At(i); got.Pos != p.pos || nodes[got.Owner].ID != p.id {
					t.Fatalf("%s: point %d is (%#x, %s), want (%#x, %s#%d)", what, i, got.Pos, nodes[got.Owner].ID, p.pos, p.id, p.j)
				}
			}
			dst := make([]int, algorithms.MaxReplicas)
			for k, hv := range probes(pts, shift, uint64(ci)) {
				want := refSearch(pts, hv<<shift)
				if got := r.Search(hv); got != want {
					t.Fatalf("%s: Search(%#x) = %d, want %d", what, hv, got, want)
				}
				if got := nodes[r.LocateHash(hv)].ID; got != pts[want].id {
					t.Fatalf("%s: LocateHash(%#x) is %s, want %s", what, hv, got, pts[want].id)
				}
				if k%16 != 0 {
					continue
				}
				// Replicas: the distinct owners met walking clockwise.
				var ref []string
				for s := 0; s < len(pts) && len(ref) < min(len(dst), len(nodes)); s++ {
					if id := pts[(want+s)%len(pts)].id; !slices.Contains(ref, id) {
						ref = append(ref, id)
					}
				}
				got := r.Replicas(hv, dst)
				if len(got) != len(ref) {
					t.Fatalf("%s: Replicas(%#x) has %d nodes, want %d", what, hv, len(got), len(ref))
				}
				for i, o := range got {
					if nodes[o].ID != ref[i] {
						t.Fatalf("%s: replica %d of %#x is %s, want %s", what, i, hv, nodes[o].ID, ref[i])
					}
				}
			}
		}
	}
	if !testing.Short() && collisions == 0 {
		t.Fatal("no two points share a position: the tie rule was not exercised")
	}
}

// TestIndexTies drives the bucket index with synthetic positions drawn
// from a few buckets, suffixes and low bits, so that buckets hold many
// points, suffixes tie while the full positions differ, and positions
// repeat: next must agree with a binary search over the positions, and
// LocateHash with the owner of the point it finds.
