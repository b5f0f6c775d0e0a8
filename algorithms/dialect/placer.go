package dialect

import (
	"slices"

	"github.com/chbench/chbench/algorithms"
)

// Build constructs a dialect's placement of a membership; a Ring or Table
// keeps its own to serve Rebalance.
type Build func(nodes []algorithms.Node) (algorithms.Placer, error)

// Ring is a dialect placement on a [Continuum]: a key's 32-bit hash is
// looked up at or after (or, with After, strictly after) its position.
// It is immutable and safe for concurrent use; lookups do not allocate.
// With Walk set it is an [algorithms.Replicator] whose replicas are the
// next distinct servers clockwise (the system's own fallback or replica
// order); otherwise it does not implement Replicas.
type Ring struct {
	Name    string
	Members []algorithms.Node
	Hash    func(string) uint32
	C       *Continuum
	After   bool // strictly after (bisect_right) instead of at or after
	Again   Build
}

// Algorithm returns the dialect's registry name.
func (r *Ring) Algorithm() string { return r.Name }

// Nodes returns the membership in configuration order.
func (r *Ring) Nodes() []algorithms.Node { return r.Members }

// HashKey returns the key's 32-bit hash, zero-extended.
func (r *Ring) HashKey(key string) uint64 { return uint64(r.Hash(key)) }

// point returns the index of the point that serves key hash h.
func (r *Ring) point(h uint64) int {
	if r.After {
		return r.C.SearchAfter(uint32(h))
	}
	return r.C.Search(uint32(h))
}

// LocateHash returns the index in Nodes() of the owner of key hash h
// (< 2^32; higher bits are ignored).
func (r *Ring) LocateHash(h uint64) int { return r.C.Owner(r.point(h)) }

// Locate returns the ID of the server that owns key.
func (r *Ring) Locate(key string) string { return r.Members[r.LocateHash(r.HashKey(key))].ID }

// Rebalance builds the dialect's placement of nodes afresh (none of these
// systems keeps state across configurations).
func (r *Ring) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) { return r.Again(nodes) }

// ExactShares returns each server's share of the 2^32 key hashes (for
// the at-or-after rule; strictly-after shifts every arc by one hash).
func (r *Ring) ExactShares() []float64 { return r.C.Shares(len(r.Members)) }

// WalkingRing is a Ring whose replicas are the next distinct servers
// clockwise from the key's point.
type WalkingRing struct{ Ring }

// Replicas writes the key's owner and the next distinct servers met
// clockwise into dst[:0] (see [algorithms.Replicator]).
func (r *WalkingRing) Replicas(h uint64, dst []int) []int {
	return r.C.Walk(r.point(h), min(len(r.Members), algorithms.MaxReplicas), dst)
}

// Table is a dialect placement that indexes a server table by a key's
// 32-bit hash modulo the table's length (libmemcached and twemproxy
// modula, spymemcached ARRAY_MOD, gomemcache, python-memcached's buckets,
// nginx's plain hash, HAProxy map-based). The table lists server indexes,
// a server of weight w appearing w times where the system expands weights
// so. It is immutable and safe for concurrent use; lookups do not allocate.
type Table struct {
	Name    string
	Members []algorithms.Node
	Hash    func(string) uint32
	Slots   []int32
	Again   Build
}

// Algorithm returns the dialect's registry name.
func (t *Table) Algorithm() string { return t.Name }

// Nodes returns the membership in configuration order.
func (t *Table) Nodes() []algorithms.Node { return t.Members }

// HashKey returns the key's 32-bit hash, zero-extended.
func (t *Table) HashKey(key string) uint64 { return uint64(t.Hash(key)) }

// LocateHash returns Slots[h mod len(Slots)] (h < 2^32).
func (t *Table) LocateHash(h uint64) int { return int(t.Slots[uint32(h)%uint32(len(t.Slots))]) }

// Locate returns the ID of the server that owns key.
func (t *Table) Locate(key string) string { return t.Members[t.LocateHash(t.HashKey(key))].ID }

// Rebalance builds the dialect's placement of nodes afresh.
func (t *Table) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) { return t.Again(nodes) }

// ExactShares returns each server's share of the 2^32 key hashes.
func (t *Table) ExactShares() []float64 {
	n := uint64(len(t.Slots))
	counts := make([]uint64, len(t.Members))
	for i, s := range t.Slots {
		// hashes h with h mod n == i, for h < 2^32
		counts[s] += (1<<32)/n + b2u(uint64(i) < (1<<32)%n)
	}
	out := make([]float64, len(counts))
	for i, c := range counts {
		out[i] = float64(c) / (1 << 32)
	}
	return out
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Expand returns the table of server indexes in which server i appears
// weights[i] times, consecutively, in server order.
func Expand(weights []int) []int32 {
	var t []int32
	for i, w := range weights {
		for range w {
			t = append(t, int32(i))
		}
	}
	return t
}

// Identity returns the table 0, 1, ..., n-1.
func Identity(n int) []int32 {
	t := make([]int32, n)
	for i := range t {
		t[i] = int32(i)
	}
	return t
}

// Copy returns a copy of nodes (placements keep their own).
func Copy(nodes []algorithms.Node) []algorithms.Node { return slices.Clone(nodes) }
