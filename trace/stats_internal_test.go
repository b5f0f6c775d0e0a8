package trace

import (
	"math/rand/v2"
	"testing"
)

// The exact phase's hash set counts what a map counts, the hash 0 and
// hashes that collide in their low bits included, across its growth.
func TestHashSet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var s hashSet
	m := map[uint64]bool{}
	for range 50000 {
		h := uint64(r.IntN(20000)) << 20 // many equal low bits: long probe runs
		if r.IntN(100) == 0 {
			h = 0
		}
		s.add(h)
		m[h] = true
		if s.n != len(m) {
			t.Fatalf("set counts %d, map %d", s.n, len(m))
		}
	}
}
