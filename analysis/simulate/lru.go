package simulate

import (
	"math"
	"strings"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// item is a cached object: its bytes (key, value, overhead) and when it
// expires (0: never), on the simulation's clock.
type item struct {
	size    int64
	expires time.Duration
}

// lru is one node's cache: a least-recently-used list of items bounded
// by bytes. hashicorp/golang-lru's simplelru keeps the recency order and
// the index; it bounds the number of entries, so its bound is set out of
// reach and lru evicts the oldest entries itself while the bytes exceed
// the capacity. Every operation is deterministic (a list and a map
// looked up by key; nothing iterates the map).
type lru struct {
	c        *simplelru.LRU[string, item]
	bytes    int64
	capacity int64
	n        *counts // the replay's counters, shared by its caches
}

// counts are a replay's cache events, summed over all its caches.
type counts struct {
	evictions, expired, tooLarge int64
}

func newLRU(capacity int64, n *counts) *lru {
	c, err := simplelru.NewLRU[string, item](math.MaxInt, nil)
	if err != nil {
		panic(err) // only for a size <= 0
	}
	return &lru{c: c, capacity: capacity, n: n}
}

// get looks key up at time now, making it the most recently used; an
// expired item is removed and missed (memcached's lazy expiry).
func (l *lru) get(key string, now time.Duration) (item, bool) {
	it, ok := l.c.Get(key)
	if !ok {
		return item{}, false
	}
	if it.expires != 0 && now >= it.expires {
		l.c.Remove(key)
		l.bytes -= it.size
		l.n.expired++
		return item{}, false
	}
	return it, true
}

// set stores key with the given size and expiry, replacing any item
// under it, then evicts least recently used items until the bytes fit.
// An item larger than the whole cache is not stored (and an older one
// under its key is removed). key may alias a reused buffer: it is copied
// when a new entry keeps it.
func (l *lru) set(key string, size int64, expires time.Duration) {
	old, had := l.c.Peek(key)
	if had {
		l.bytes -= old.size
	}
	if size > l.capacity {
		if had {
			l.c.Remove(key)
		}
		l.n.tooLarge++
		return
	}
	if !had {
		key = strings.Clone(key)
	}
	l.c.Add(key, item{size: size, expires: expires})
	l.bytes += size
	l.fit()
}

// remove deletes key; it reports whether it was there.
func (l *lru) remove(key string) bool {
	it, ok := l.c.Peek(key)
	if ok {
		l.c.Remove(key)
		l.bytes -= it.size
	}
	return ok
}

// resize changes the capacity, evicting while the bytes exceed it.
func (l *lru) resize(capacity int64) {
	l.capacity = capacity
	l.fit()
}

func (l *lru) fit() {
	for l.bytes > l.capacity {
		_, it, ok := l.c.RemoveOldest()
		if !ok {
			return
		}
		l.bytes -= it.size
		l.n.evictions++
	}
}

func (l *lru) items() int64 { return int64(l.c.Len()) }
