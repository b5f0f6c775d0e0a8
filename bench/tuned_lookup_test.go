package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/rendezvous"
	"github.com/chbench/chbench/algorithms/ring"
)

// The ring and rendezvous lookups are tuned for speed (a lookup table of
// bucket owners; an AVX-512 kernel, off with -tags purego). These tests
// hold them to their definitions, written here independently.

// TestRingLookupMatchesSearch: the owner LocateHash reports is the owner
// of the first point at or after the key (Search, which falls back to a
// binary search), for random hashes and at, just above and just below
// every point.
func TestRingLookupMatchesSearch(t *testing.T) {
	for _, hash := range []string{"xxhash", "fnv1a32"} {
		for _, n := range []int{1, 3, 10, 100} {
			nodes, err := algorithms.DefaultNodes(n)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ring.New(nodes, 40, algorithms.MustHash(hash))
			if err != nil {
				t.Fatal(err)
			}
			shift := uint(0)
			if algorithms.MustHash(hash).Bits() == 32 {
				shift = 32
			}
			rng := rand.New(rand.NewPCG(3, uint64(n)))
			probes := []uint64{0, ^uint64(0) >> shift}
			for range 20000 {
				probes = append(probes, rng.Uint64()>>shift)
			}
			for i := range r.Len() {
				p := r.At(i).Pos >> shift
				probes = append(probes, p, p+1, p-1)
			}
			for _, h := range probes {
				h &= ^uint64(0) >> shift
				if got, want := r.LocateHash(h), r.At(r.Search(h)).Owner; got != want {
					t.Fatalf("%s, %d nodes: LocateHash(%#x) = %d, first point at or after it is owned by %d", hash, n, h, got, want)
				}
			}
		}
	}
}

// TestRendezvousMatchesDefinition: with equal weights the owner is the
// node with the highest Mix64(hash(ID) ^ keyHash), ties to the smaller ID.
// Sizes cover the scalar path, the eight-lane kernel with and without a
// scalar tail, and the order of IDs differing from the list order.
func TestRendezvousMatchesDefinition(t *testing.T) {
	h := algorithms.MustHash("xxhash")
	keys := Pool(t)[:2000]
	sizes := []int{1, 2, 7, 8, 15, 16, 17, 23, 24, 31, 33, 100, 1000}
	for _, n := range sizes {
		t.Run(fmt.Sprintf("nodes=%d", n), func(t *testing.T) {
			nodes, err := algorithms.DefaultNodes(n)
			if err != nil {
				t.Fatal(err)
			}
			// Reverse the list so list order, ID order and hash order differ.
			for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
				nodes[i], nodes[j] = nodes[j], nodes[i]
			}
			r, err := rendezvous.New(nodes, h)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range keys {
				kh := h.Sum(k)
				best := 0
				bestScore := algorithms.Mix64(h.Sum(nodes[0].ID) ^ kh)
				for i := 1; i < n; i++ {
					sc := algorithms.Mix64(h.Sum(nodes[i].ID) ^ kh)
					if sc > bestScore || (sc == bestScore && nodes[i].ID < nodes[best].ID) {
						best, bestScore = i, sc
					}
				}
				if got := r.LocateHash(kh); got != best {
					t.Fatalf("key %q: LocateHash = %d (%s), highest score is node %d (%s)", k, got, nodes[got].ID, best, nodes[best].ID)
				}
			}
		})
	}
}
