package simulate

import (
	"container/list"
	"math/rand/v2"
	"testing"
	"time"
)

// refLRU is the plain definition of an LRU bounded by bytes: a list in
// recency order and a map, evicting from the back.
type refLRU struct {
	l        *list.List
	m        map[uint64]*list.Element
	bytes    int64
	capacity int64
}

type refItem struct {
	h       uint64
	size    int64
	expires time.Duration
}

func (r *refLRU) get(h uint64, now time.Duration) bool {
	e, ok := r.m[h]
	if !ok {
		return false
	}
	it := e.Value.(refItem)
	if it.expires != 0 && now >= it.expires {
		r.remove(h)
		return false
	}
	r.l.MoveToFront(e)
	return true
}

func (r *refLRU) set(h uint64, size int64, expires time.Duration) {
	r.remove(h)
	if size > r.capacity {
		return
	}
	r.m[h] = r.l.PushFront(refItem{h, size, expires})
	r.bytes += size
	for r.bytes > r.capacity {
		r.remove(r.l.Back().Value.(refItem).h)
	}
}

func (r *refLRU) remove(h uint64) {
	if e, ok := r.m[h]; ok {
		r.bytes -= e.Value.(refItem).size
		r.l.Remove(e)
		delete(r.m, h)
	}
}

// The table-based LRU agrees with the plain definition, operation by
// operation and in its final recency order, over 200,000 random gets,
// sets (some larger than the cache), removes and resizes, with hashes
// drawn so that their low bits collide in long probe runs (the table's
// backward-shift deletion must keep every run reachable).
func TestLRUMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var n counts
	l := newLRU(5000, &n)
	ref := &refLRU{l: list.New(), m: map[uint64]*list.Element{}, capacity: 5000}
	hashes := make([]uint64, 600)
	for i := range hashes {
		hashes[i] = uint64(rng.IntN(8))<<40 | uint64(rng.IntN(64)) // few distinct low bits
	}
	for step := range 200000 {
		h := hashes[rng.IntN(len(hashes))]
		now := time.Duration(step) * time.Millisecond
		switch op := rng.IntN(10); {
		case op < 5:
			_, got := l.get(h, now)
			if want := ref.get(h, now); got != want {
				t.Fatalf("step %d: get %x = %v, want %v", step, h, got, want)
			}
		case op < 8:
			size := int64(1 + rng.IntN(300))
			if rng.IntN(100) == 0 {
				size = 6000 // larger than the cache
			}
			var exp time.Duration
			if rng.IntN(4) == 0 {
				exp = now + time.Duration(rng.IntN(2000))*time.Millisecond
			}
			l.set(h, size, exp)
			ref.set(h, size, exp)
		case op < 9:
			_, had := ref.m[h]
			if got := l.remove(h); got != had {
				t.Fatalf("step %d: remove %x = %v, want %v", step, h, got, had)
			}
			ref.remove(h)
		default:
			if rng.IntN(50) == 0 {
				c := int64(2000 + rng.IntN(6000))
				l.resize(c)
				ref.capacity = c
				for ref.bytes > ref.capacity {
					ref.remove(ref.l.Back().Value.(refItem).h)
				}
			}
		}
		if l.bytes != ref.bytes || l.n != len(ref.m) {
			t.Fatalf("step %d: %d bytes in %d items, want %d in %d", step, l.bytes, l.n, ref.bytes, len(ref.m))
		}
	}
	i, e := l.head, ref.l.Front()
	for ; i != 0 && e != nil; i, e = l.ents[i].next, e.Next() {
		if l.ents[i].h != e.Value.(refItem).h {
			t.Fatalf("recency order differs at %x, want %x", l.ents[i].h, e.Value.(refItem).h)
		}
	}
	if i != 0 || e != nil {
		t.Fatal("recency lists differ in length")
	}
}
