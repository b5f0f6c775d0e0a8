package dialect

import (
	"cmp"
	"math/bits"
	"slices"
)

// Point is one point of a continuum: a 32-bit position and the index of
// the server that owns it.
type Point struct {
	Pos   uint32
	Owner int32
}

// Tie says which of several points at one position a system keeps.
type Tie uint8

const (
	// KeepAll keeps every point, sorted stably, so the first inserted of
	// equal positions is found first (a stable qsort or TimSort of an
	// array: libmemcached, npm hashring).
	KeepAll Tie = iota
	// KeepFirst keeps only the first inserted point of each position
	// (nginx removes later duplicates after a stable sort).
	KeepFirst
	// KeepLast keeps only the last inserted point of each position (a map
	// from position to server whose later puts overwrite: Java's TreeMap
	// in spymemcached, Python's dict in uhashring).
	KeepLast
)

// Continuum is a sorted ring of 32-bit points. It is immutable and safe
// for concurrent use; searches read one table entry and scan the key's
// bucket (under one point on average), without allocating.
type Continuum struct {
	pos   []uint32
	owner []int32
	// lut[t] is the index of the first point whose top bits (pos >> shift)
	// are >= t, t = 0..2^b; lut[2^b] = len(pos).
	lut   []uint32
	shift uint
}

// NewContinuum sorts points (given in the system's insertion order) by
// position, stably, and resolves equal positions by tie. points must not
// be empty; it is reordered in place.
func NewContinuum(points []Point, tie Tie) *Continuum {
	slices.SortStableFunc(points, func(a, b Point) int { return cmp.Compare(a.Pos, b.Pos) })
	kept := points[:0]
	for i, p := range points {
		switch {
		case tie == KeepFirst && len(kept) > 0 && kept[len(kept)-1].Pos == p.Pos:
			continue
		case tie == KeepLast && i+1 < len(points) && points[i+1].Pos == p.Pos:
			continue
		}
		kept = append(kept, p)
	}
	c := &Continuum{pos: make([]uint32, len(kept)), owner: make([]int32, len(kept))}
	for i, p := range kept {
		c.pos[i], c.owner[i] = p.Pos, p.Owner
	}
	b := min(max(bits.Len(uint(2*len(c.pos)-1)), 1), 24)
	c.shift = uint(32 - b)
	c.lut = make([]uint32, 1<<b+1)
	i := 0
	for t := range c.lut {
		for i < len(c.pos) && c.pos[i]>>c.shift < uint32(t) {
			i++
		}
		c.lut[t] = uint32(i)
	}
	return c
}

// Len returns the number of points kept.
func (c *Continuum) Len() int { return len(c.pos) }

// At returns point i (0 <= i < Len()) in ring order.
func (c *Continuum) At(i int) Point { return Point{Pos: c.pos[i], Owner: c.owner[i]} }

// Search returns the index of the first point at or after h, wrapping to
// 0 past the last point (libketama's rule).
func (c *Continuum) Search(h uint32) int {
	t := h >> c.shift
	i, end := c.lut[t], c.lut[t+1]
	for i < end && c.pos[i] < h {
		i++
	}
	if int(i) == len(c.pos) {
		return 0
	}
	return int(i)
}

// SearchAfter returns the index of the first point strictly after h,
// wrapping to 0 past the last point (Python's bisect_right).
func (c *Continuum) SearchAfter(h uint32) int {
	t := h >> c.shift
	i, end := c.lut[t], c.lut[t+1]
	for i < end && c.pos[i] <= h {
		i++
	}
	if int(i) == len(c.pos) {
		return 0
	}
	return int(i)
}

// Owner returns the owner of point i.
func (c *Continuum) Owner(i int) int { return int(c.owner[i]) }

// Walk writes into dst[:0] the distinct owners met walking clockwise from
// point i (i's owner first), at most min(len(dst), nodes) of them, and
// returns that slice. It does not allocate.
func (c *Continuum) Walk(i int, nodes int, dst []int) []int {
	want := min(len(dst), nodes)
	out := dst[:0]
	for k := 0; k < len(c.pos) && len(out) < want; k++ {
		o := int(c.owner[(i+k)%len(c.pos)])
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// Shares returns each owner's exact share (0..1) of the 2^32 key hashes
// under the at-or-after rule: the arcs (previous point, point].
func (c *Continuum) Shares(nodes int) []float64 {
	counts := make([]uint64, nodes)
	prev := c.pos[len(c.pos)-1]
	for i, p := range c.pos {
		arc := uint64(p - prev)
		if i == 0 && arc == 0 {
			arc = 1 << 32
		}
		counts[c.owner[i]] += arc
		prev = p
	}
	s := make([]float64, nodes)
	for i, n := range counts {
		s[i] = float64(n) / (1 << 32)
	}
	return s
}
