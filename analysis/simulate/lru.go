package simulate

import "time"

// lru is one node's cache: items in least-recently-used order, bounded by
// bytes. An item is known by its key's 64-bit hash (keyHash), so the cache
// holds no key bytes; two distinct keys share a hash with probability
// 2^-64, so among D keys about D^2/2^65 pairs are merged (2.7e-4 for
// D = 10^8).
//
// It is an open-addressing hash table (linear probing, backward-shift
// deletion, at most half full) from hash to a slot of a flat array of
// entries, which a doubly linked list threads in recency order by index.
// Nothing holds a pointer, so the garbage collector never scans a cache,
// and a lookup touches the table slot and the entry. Every operation is
// deterministic: nothing depends on addresses or map order.
type lru struct {
	slots    []slot  // power-of-two sized; i == 0 marks an empty slot
	ents     []entry // ents[0] is unused, so index 0 means none
	free     int32   // head of the free entries, chained by next
	head     int32   // most recently used
	tail     int32   // least recently used
	n        int     // items held
	bytes    int64
	capacity int64
	c        *counts // the replay's counters, shared by its caches
}

type slot struct {
	h uint64
	i int32
}

type entry struct {
	h          uint64
	size       int64
	expires    time.Duration // 0: never
	prev, next int32
}

// item is what get returns of an entry.
type item struct {
	size    int64
	expires time.Duration
}

// counts are a replay's cache events, summed over all its caches.
type counts struct {
	evictions, expired, tooLarge int64
	items                        int64 // items held by the replay's live caches
}

func newLRU(capacity int64, c *counts) *lru {
	return &lru{slots: make([]slot, 16), ents: make([]entry, 1, 8), capacity: capacity, c: c}
}

// find returns the slot holding h, or the empty slot where it would go.
func (l *lru) find(h uint64) int {
	mask := len(l.slots) - 1
	s := int(h) & mask
	for l.slots[s].i != 0 && l.slots[s].h != h {
		s = (s + 1) & mask
	}
	return s
}

// get looks h up at time now, making it the most recently used; an
// expired item is removed and missed (memcached's lazy expiry).
func (l *lru) get(h uint64, now time.Duration) (item, bool) {
	s := l.find(h)
	i := l.slots[s].i
	if i == 0 {
		return item{}, false
	}
	e := &l.ents[i]
	if e.expires != 0 && now >= e.expires {
		l.c.expired++
		l.drop(s)
		return item{}, false
	}
	l.touch(i)
	return item{size: e.size, expires: e.expires}, true
}

// set stores h with the given size and expiry as the most recently used
// item, replacing any item under h, then evicts least recently used items
// until the bytes fit. An item larger than the whole cache is not stored
// (and an older one under h is removed).
func (l *lru) set(h uint64, size int64, expires time.Duration) {
	s := l.find(h)
	if i := l.slots[s].i; i != 0 {
		if size > l.capacity {
			l.c.tooLarge++
			l.drop(s)
			return
		}
		e := &l.ents[i]
		l.bytes += size - e.size
		e.size, e.expires = size, expires
		l.touch(i)
		l.fit()
		return
	}
	if size > l.capacity {
		l.c.tooLarge++
		return
	}
	i := l.alloc()
	l.ents[i] = entry{h: h, size: size, expires: expires, next: l.head}
	if l.head != 0 {
		l.ents[l.head].prev = i
	} else {
		l.tail = i
	}
	l.head = i
	l.slots[s] = slot{h: h, i: i}
	l.n++
	l.c.items++
	l.bytes += size
	if 2*l.n > len(l.slots) {
		l.grow()
	}
	l.fit()
}

// remove deletes h; it reports whether it was there.
func (l *lru) remove(h uint64) bool {
	s := l.find(h)
	if l.slots[s].i == 0 {
		return false
	}
	l.drop(s)
	return true
}

// resize changes the capacity, evicting while the bytes exceed it.
func (l *lru) resize(capacity int64) {
	l.capacity = capacity
	l.fit()
}

func (l *lru) items() int64 { return int64(l.n) }

func (l *lru) fit() {
	for l.bytes > l.capacity && l.tail != 0 {
		l.drop(l.find(l.ents[l.tail].h))
		l.c.evictions++
	}
}

// touch moves entry i to the head of the list.
func (l *lru) touch(i int32) {
	if l.head == i {
		return
	}
	e := &l.ents[i]
	l.ents[e.prev].next = e.next // i is not the head, so prev != 0
	if e.next != 0 {
		l.ents[e.next].prev = e.prev
	} else {
		l.tail = e.prev
	}
	e.prev, e.next = 0, l.head
	l.ents[l.head].prev = i
	l.head = i
}

// drop removes the item in slot s: from the list, the entries and the
// table (shifting later slots of its probe run back, so no tombstones).
func (l *lru) drop(s int) {
	i := l.slots[s].i
	e := &l.ents[i]
	if e.prev != 0 {
		l.ents[e.prev].next = e.next
	} else {
		l.head = e.next
	}
	if e.next != 0 {
		l.ents[e.next].prev = e.prev
	} else {
		l.tail = e.prev
	}
	l.bytes -= e.size
	l.n--
	l.c.items--
	*e = entry{next: l.free}
	l.free = i
	mask := len(l.slots) - 1
	for j := (s + 1) & mask; l.slots[j].i != 0; j = (j + 1) & mask {
		home := int(l.slots[j].h) & mask
		// Slot j's item may move to s if s lies on its probe run from
		// home to j (cyclically).
		if (j-home)&mask >= (j-s)&mask {
			l.slots[s] = l.slots[j]
			s = j
		}
	}
	l.slots[s] = slot{}
}

// alloc returns a free entry index.
func (l *lru) alloc() int32 {
	if l.free != 0 {
		i := l.free
		l.free = l.ents[i].next
		return i
	}
	l.ents = append(l.ents, entry{})
	return int32(len(l.ents) - 1)
}

// grow doubles the table, re-placing every item in the order of the old
// table (a sequential read, unlike a walk of the recency list).
func (l *lru) grow() {
	old := l.slots
	l.slots = make([]slot, 2*len(old))
	for _, sl := range old {
		if sl.i != 0 {
			l.slots[l.find(sl.h)] = sl
		}
	}
}

// warm reads the table slot and the entry h would use, without changing
// anything, so that a later get finds them in the processor's cache; the
// loads of many warms are independent, so the processor overlaps their
// memory latencies. It returns a value of the entry for the caller to
// keep (so the loads are not removed).
func (l *lru) warm(h uint64) uint64 {
	sl := l.slots[int(h)&(len(l.slots)-1)]
	return sl.h + l.ents[sl.i].h
}
