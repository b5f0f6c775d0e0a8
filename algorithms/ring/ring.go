// Package ring places keys with consistent hashing on a ring of virtual
// nodes (Karger et al., "Consistent Hashing and Random Trees", STOC 1997;
// virtual nodes as in Dynamo and Cassandra): each node is hashed onto the
// ring at V points, and a key belongs to the first point at or after its
// hash, wrapping past the top.
//
//   - Lookup: O(1) expected. A lookup table over the top b bits of a
//     position (2^b >= 4 * number of points) holds, for each bucket without
//     a point, the owner of the whole bucket (one read ends the lookup; at
//     least e^-1/4 = 78% of buckets) and otherwise the first point in the
//     bucket, from which a lookup scans about one point; the worst case is
//     the largest bucket.
//   - Memory: 12 bytes per point (64-bit position and 32-bit owner) plus 4
//     bytes per table entry, 4 to 8 entries per point: 28 to 44 bytes per
//     point, about 28-44 * V * n bytes, plus O(n). The table trades memory
//     for speed: with 2 entries per point, end-to-end lookups at 1000 nodes
//     took about 20% longer on the reference machine.
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
	// lut is a lookup table over the top b bits of a position (shift =
	// 64 - b, 2^b >= 4 * Len()): bucket t covers the positions whose top
	// bits are t. If no point lies in bucket t, every key in it has the same
	// owner, and lut[t] is that owner's index with lutOwner set: a lookup
	// ends after one read (for at least 3/4 of the buckets, since there
	// are at least four times as many buckets as points). Otherwise lut[t]
	// is the index of the first point in bucket t, where a short scan
	// starts.
	lut      []uint32
	shift    uint
	keyShift uint // 32 for 32-bit hashes (positions kept in the top half), else 0
}

// lutOwner marks a lut entry that holds an owner instead of a point index.
// Point indexes stay below MaxPoints = 2^28, so the bit is free.
const lutOwner = 1 << 31

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
	r.buildLUT()
	return r, nil
}

// buildLUT fills lut and shift from the sorted points (see the Ring
// fields). It takes O(2^b + Len()) time.
func (r *Ring) buildLUT() {
	total := len(r.pos)
	b := bits.Len(uint(4*total - 1)) // 2^b >= 4 * total
	r.shift = uint(64 - b)
	r.lut = make([]uint32, 1<<b)
	i := 0 // first point whose bucket is >= t
	for t := range r.lut {
		for i < total && r.pos[i]>>r.shift < uint64(t) {
			i++
		}
		if i < total && r.pos[i]>>r.shift == uint64(t) {
			r.lut[t] = uint32(i)
			continue
		}
		// Empty bucket: its keys belong to the first point after it,
		// wrapping past the top.
		next := i
		if next == total {
			next = 0
		}
		r.lut[t] = uint32(r.owner[next]) | lutOwner
	}
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
// h, wrapping to the first point. It reads one lookup-table entry, and only
// when the key's bucket holds points, scans them (about one on average).
func (r *Ring) LocateHash(h uint64) int {
	x := h << r.keyShift
	e := r.lut[x>>r.shift]
	if e&lutOwner != 0 {
		return int(e &^ lutOwner)
	}
	pos := r.pos
	i := int(e)
	// Points after this bucket lie above x, so the scan stops at the
	// latest at the first of them.
	for i < len(pos) && pos[i] < x {
		i++
	}
	if i == len(pos) {
		i = 0
	}
	return int(r.owner[i])
}

// Search returns the index (0..Len()-1) of the first point at or after key
// hash h, wrapping to 0 past the last point. It is O(1) expected when the
// key's lookup-table bucket holds points and O(log Len()) (binary search)
// when it does not; LocateHash does not need it.
func (r *Ring) Search(h uint64) int {
	x := h << r.keyShift
	var i int
	if e := r.lut[x>>r.shift]; e&lutOwner == 0 {
		i = int(e)
		for i < len(r.pos) && r.pos[i] < x {
			i++
		}
	} else {
		i, _ = slices.BinarySearch(r.pos, x)
	}
	if i == len(r.pos) {
		return 0
	}
	return i
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
// for 32-bit hashes, which is the same fraction). Each node's arcs are
// summed exactly, in 128 bits (a node holding the whole ring sums 2^64),
// and rounded once, so a single node's share is exactly 1.
func (r *Ring) ExactShares() []float64 {
	hi := make([]uint64, len(r.nodes))
	lo := make([]uint64, len(r.nodes))
	prev := r.pos[len(r.pos)-1]
	for i, p := range r.pos {
		arc := p - prev // wraps modulo 2^64 for i == 0
		if len(r.pos) == 1 {
			hi[r.owner[0]] = 1 // one point owns the whole ring (arc 0 = 2^64)
			break
		}
		var carry uint64
		lo[r.owner[i]], carry = bits.Add64(lo[r.owner[i]], arc, 0)
		hi[r.owner[i]] += carry
		prev = p
	}
	shares := make([]float64, len(r.nodes))
	for i := range shares {
		shares[i] = float64(hi[i]) + float64(lo[i])/18446744073709551616.0
	}
	return shares
}
