// Package ring places keys with consistent hashing on a ring of virtual
// nodes (Karger et al., "Consistent Hashing and Random Trees", STOC 1997;
// virtual nodes as in Dynamo and Cassandra): each node is hashed onto the
// ring at V points, and a key belongs to the first point at or after its
// hash, wrapping past the top.
//
//   - Lookup: O(1) expected. The sorted points are indexed by their top b
//     bits (2^b >= number of points), so a lookup reads one index entry and
//     scans about one point; the worst case is the largest bucket.
//   - Memory: 12 bytes per point (64-bit position and 32-bit owner) plus 4
//     bytes per index entry: about 16 * V * n bytes, plus O(n).
//   - Removal: any node may leave; only its keys move, each to the owner of
//     the next point. A joining node takes only keys from the points it lands
//     before. With k points per node the per-node share has a relative
//     standard error of about 1/sqrt(k).
//   - Weights: node i gets round(V * w_i) virtual nodes (at least 1, else an
//     error), so weight 1 means V points.
//   - Labels: virtual node j of node ID is hashed as the string "ID#j" (j in
//     decimal, 0..V_i-1). The suffix after the last '#' is always the vnode
//     number, so two different (ID, j) pairs never make the same label.
//   - Collisions: points at the same position are ordered by (node ID, j),
//     so the first of them owns the position. The ring depends only on the
//     member set, not on the order the nodes are listed in.
//   - Positions are 32-bit when the configured hash is 32-bit (fnv1a32,
//     murmur3) and 64-bit otherwise; internally 32-bit positions are stored
//     in the top half of a uint64, which keeps their order.
package ring

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unsafe"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "ring"

// DefaultVNodes is the default number of virtual nodes per unit of weight.
const DefaultVNodes = 160

// MaxPoints bounds the ring size (all virtual nodes of all nodes).
const MaxPoints = 1 << 28

// Ring is an immutable consistent-hash ring. It is safe for concurrent use.
type Ring struct {
	nodes  []algorithms.Node
	vnodes int
	hash   algorithms.Hash
	// Structure of arrays: pos[i] is point i's position (sorted ascending),
	// owner[i] the index of its node.
	pos   []uint64
	owner []int32
	// index[t] is the first point whose position's top bits are >= t; it
	// has 2^b+1 entries. shift = 64 - b.
	index    []uint32
	shift    uint
	keyShift uint // 32 for 32-bit hashes (positions kept in the top half), else 0
}

// Point is one virtual node on the ring, for callers that walk it (bounded
// loads).
type Point struct {
	Pos   uint64 // position, top-aligned: a 32-bit hash value v is stored as v<<32
	Owner int    // index of the node in Nodes()
}

// VNodeCount returns how many virtual nodes a node of weight w gets with V
// per unit of weight: round(V * w). It returns an error when that is < 1.
func VNodeCount(vnodes int, w float64) (int, error) {
	k := math.Round(float64(vnodes) * w)
	if k < 1 {
		return 0, fmt.Errorf("weight %v with %d virtual nodes per unit of weight gives %v virtual nodes (need >= 1)", w, vnodes, k)
	}
	if k > MaxPoints {
		return 0, fmt.Errorf("weight %v with %d virtual nodes per unit of weight gives %v virtual nodes (max %d)", w, vnodes, k, MaxPoints)
	}
	return int(k), nil
}

// Label returns the label of virtual node j of node id, "id#j".
func Label(id string, j int) string { return id + "#" + strconv.Itoa(j) }

// New builds the ring for nodes with vnodes virtual nodes per unit of weight
// under hash h. It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]), vnodes < 1, a node whose weight gives fewer
// than one virtual node, or more than MaxPoints points.
func New(nodes []algorithms.Node, vnodes int, h algorithms.Hash) (*Ring, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("ring: %w", err)
	}
	if vnodes < 1 {
		return nil, fmt.Errorf("ring: vnodes %d: need at least 1 virtual node per node", vnodes)
	}
	counts := make([]int, len(nodes))
	total := 0
	for i, n := range nodes {
		k, err := VNodeCount(vnodes, n.Weight)
		if err != nil {
			return nil, fmt.Errorf("ring: node %q: %w", n.ID, err)
		}
		counts[i] = k
		total += k
		if total > MaxPoints {
			return nil, fmt.Errorf("ring: %d nodes x %d virtual nodes exceed %d points", len(nodes), vnodes, MaxPoints)
		}
	}
	r := &Ring{nodes: append([]algorithms.Node(nil), nodes...), vnodes: vnodes, hash: h}
	if h.Bits() == 32 {
		r.keyShift = 32
	}
	type point struct {
		pos   uint64
		owner int32
		vnode int32
	}
	pts := make([]point, 0, total)
	var buf []byte
	for i, n := range nodes {
		buf = append(buf[:0], n.ID...)
		buf = append(buf, '#')
		base := len(buf)
		for j := 0; j < counts[i]; j++ {
			buf = strconv.AppendInt(buf[:base], int64(j), 10)
			// The hash only reads the label; no copy is needed.
			p := h.Sum(unsafe.String(unsafe.SliceData(buf), len(buf))) << r.keyShift
			pts = append(pts, point{pos: p, owner: int32(i), vnode: int32(j)})
		}
	}
	slices.SortFunc(pts, func(a, b point) int {
		if c := cmp.Compare(a.pos, b.pos); c != 0 {
			return c
		}
		if c := cmp.Compare(nodes[a.owner].ID, nodes[b.owner].ID); c != 0 {
			return c
		}
		return cmp.Compare(a.vnode, b.vnode)
	})
	r.pos = make([]uint64, total)
	r.owner = make([]int32, total)
	for i, p := range pts {
		r.pos[i], r.owner[i] = p.pos, p.owner
	}
	b := bits.Len(uint(total - 1)) // 2^b >= total
	if b < 1 {
		b = 1
	}
	r.shift = uint(64 - b)
	r.index = make([]uint32, 1<<b+1)
	i := 0
	for t := range r.index[:1<<b] {
		for i < total && r.pos[i]>>r.shift < uint64(t) {
			i++
		}
		r.index[t] = uint32(i)
	}
	r.index[1<<b] = uint32(total)
	return r, nil
}

// Algorithm returns "ring".
func (r *Ring) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New.
func (r *Ring) Nodes() []algorithms.Node { return r.nodes }

// VNodes returns the configured virtual nodes per unit of weight.
func (r *Ring) VNodes() int { return r.vnodes }

// Len returns the number of points on the ring.
func (r *Ring) Len() int { return len(r.pos) }

// HashKey returns the configured hash of key.
func (r *Ring) HashKey(key string) uint64 { return r.hash.Sum(key) }

// LocateHash returns the index of the owner of the first point at or after
// h, wrapping to the first point.
func (r *Ring) LocateHash(h uint64) int { return int(r.owner[r.Search(h)]) }

// Search returns the index (0..Len()-1) of the first point at or after key
// hash h, wrapping to 0 past the last point.
func (r *Ring) Search(h uint64) int {
	x := h << r.keyShift
	t := x >> r.shift
	i, end := r.index[t], r.index[t+1]
	for i < end && r.pos[i] < x {
		i++
	}
	if int(i) == len(r.pos) {
		return 0
	}
	return int(i)
}

// At returns point i (0 <= i < Len()).
func (r *Ring) At(i int) Point { return Point{Pos: r.pos[i], Owner: int(r.owner[i])} }

// Locate returns the ID of the node that owns key.
func (r *Ring) Locate(key string) string { return r.nodes[r.LocateHash(r.hash.Sum(key))].ID }

// Rebalance rebuilds the ring for nodes with the same vnodes and hash; the
// ring depends only on the member set, so it has no state to keep.
func (r *Ring) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	return New(nodes, r.vnodes, r.hash)
}

// ExactShares returns each node's exact share of the ring: the sum of the
// arcs (previous point, point] of its points, as a fraction of 2^64 (2^32
// for 32-bit hashes, which is the same fraction).
func (r *Ring) ExactShares() []float64 {
	shares := make([]float64, len(r.nodes))
	last := r.pos[len(r.pos)-1]
	prev := last
	for i, p := range r.pos {
		arc := p - prev // wraps modulo 2^64 for i == 0
		if i == 0 && len(r.pos) == 1 {
			shares[r.owner[0]] = 1
			return shares
		}
		shares[r.owner[i]] += float64(arc) / 18446744073709551616.0
		prev = p
	}
	return shares
}
