package simulate

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkLRUGet is one cache's hit path (lookup and move to the front)
// at several sizes, keys drawn uniformly: the cost of the memory the
// cache spans.
func BenchmarkLRUGet(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 16, 1 << 20} {
		b.Run("items="+itoa(n), func(b *testing.B) {
			var c counts
			l := newLRU(1<<62, &c)
			hs := make([]uint64, n)
			rng := rand.New(rand.NewPCG(1, 1))
			for i := range hs {
				hs[i] = rng.Uint64()
				l.set(hs[i], 100, 0)
			}
			idx := make([]int32, 1<<20)
			for i := range idx {
				idx[i] = int32(rng.IntN(n))
			}
			i := 0
			for b.Loop() {
				l.get(hs[idx[i&(len(idx)-1)]], 0)
				i++
			}
		})
	}
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

var warmSink uint64

// BenchmarkLRUGetWarmed is BenchmarkLRUGet in batches of 256 lookups whose
// table slots and entries are read in a first pass (independent loads the
// processor overlaps), then looked up.
func BenchmarkLRUGetWarmed(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 16, 1 << 20} {
		b.Run("items="+itoa(n), func(b *testing.B) {
			var c counts
			l := newLRU(1<<62, &c)
			hs := make([]uint64, n)
			rng := rand.New(rand.NewPCG(1, 1))
			for i := range hs {
				hs[i] = rng.Uint64()
				l.set(hs[i], 100, 0)
			}
			idx := make([]int32, 1<<20)
			for i := range idx {
				idx[i] = int32(rng.IntN(n))
			}
			i := 0
			for b.Loop() {
				if i&255 == 0 {
					var s uint64
					for j := i; j < i+256; j++ {
						s += l.warm(hs[idx[j&(len(idx)-1)]])
					}
					warmSink += s
				}
				l.get(hs[idx[i&(len(idx)-1)]], 0)
				i++
			}
		})
	}
}
