// Package ketama places keys on libketama's continuum, the consistent-hash
// ring layout of memcached clients and proxies (libketama, Last.fm 2007;
// twemproxy's `distribution: ketama`, src/hashkit/nc_ketama.c; libmemcached
// has ketama-compatible modes, not checked here). It reproduces twemproxy
// (nutcracker 0.5.0) point for point, and libketama's own regression
// output, so a user can ask which server THEIR proxy sends a key to, and
// what a membership change moves:
//
//   - Points: a server of weight w among n servers of total weight W gets
//     4*floor(t) points, t = float32(float32(float32(w)/float32(W)) * 160 / 4) * n,
//     each step rounded to float32 as twemproxy's C computes it. At equal
//     weights that is 160 points per server for most n, but 156 for n = 25,
//     47, 50, 55, 61, 71, 94, 100, ... (2,200 of n = 1..20,000), where the
//     float32 product lands just below 40. libketama computes the same
//     product in double precision and differs from twemproxy for a few n
//     (264 of 1..20,000); this package follows twemproxy.
//   - Labels: point group i (0 <= i < floor(t)) of a server is the MD5
//     digest (RFC 1321) of the label "ID-i" (i in decimal), and gives four
//     32-bit points: digest bytes 0-3, 4-7, 8-11 and 12-15, each read
//     little-endian ([algorithms.MD5Words]). The node ID is twemproxy's
//     server name: the `name` given in the server line, else "host:port",
//     or "host" alone when the port is 11211 (twemproxy keeps libmemcached's
//     labels). Like twemproxy, a label longer than 272 bytes is cut to 272.
//   - Keys: a key's hash is word 0 of its MD5 digest (the "md5" key hash,
//     twemproxy's `hash: md5`); the configured key hash is not used. Its
//     owner is the server of the first point >= the hash, wrapping to the
//     first point past the top. (twemproxy hashes an empty key to 0 instead
//     of MD5(""); memcached refuses empty keys, so it never matters.)
//   - Ties: points at the same position keep twemproxy's build order:
//     servers sorted by name (shorter name first, then bytewise, as
//     twemproxy sorts its server list), then label index, then digest word.
//     That is what twemproxy's qsort gives where glibc sorts stably (a merge
//     sort below a memory threshold). The continuum depends only on the
//     member set, not on the order nodes are listed in.
//   - Lookup: O(1) expected: a table over the top bits of a position (at
//     least 2 buckets per point, at most 2^24) holds each bucket's first
//     point, from which a lookup scans the bucket (under one point on
//     average).
//   - Memory: 8 bytes per point (32-bit position, 32-bit owner) plus 8 to 16
//     bytes of table per point: 16 to 24 bytes per point, about 2.6-3.8 KB
//     per server at 160 points.
//   - Removal: any server may leave. At equal weights every server keeps its
//     points (160 per server before and after, unless n crosses one of the
//     156-point counts above), so only the leaving server's keys move, and a
//     joining server takes keys only for itself. With unequal weights every
//     server's count is relative to the total weight, so a join or leave can
//     add or drop points of servers that stay, and move keys between them.
//   - Replicas: twemproxy has none, and libmemcached copies to the next
//     servers of its server list, not of the continuum; [Ketama.Replicas]
//     walks the continuum clockwise to the next distinct servers (Dynamo's
//     preference list, as the ring package does), which at equal weights
//     only adds a joining server to the sets it enters.
//   - Weights: proportional, as above; twemproxy takes integer weights, and
//     this package reproduces it exactly for integer weights below 2^24.
//     A server whose share gives floor(t) = 0 is an error here (twemproxy
//     would silently give it no points).
package ketama

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "ketama"

// PointsPerServer is the number of points a server of average weight gets
// (libketama's and twemproxy's 160: 40 digests of 4 points each).
const PointsPerServer = 160

// PointsPerDigest is the number of points one MD5 digest gives.
const PointsPerDigest = 4

// MaxLabel is twemproxy's label buffer minus its terminating NUL: longer
// labels are cut to this many bytes before hashing.
const MaxLabel = 272

// Ketama is an immutable ketama continuum. It is safe for concurrent use.
type Ketama struct {
	nodes []algorithms.Node
	// pos[i] is point i's position (sorted ascending, ties in build order),
	// owner[i] the index in nodes of its server.
	pos   []uint32
	owner []int32
	// lut[t] is the index of the first point whose top bits (pos >> shift)
	// are >= t, for t = 0..2^b; lut[2^b] = len(pos). Bucket t's points are
	// pos[lut[t]:lut[t+1]].
	lut   []uint32
	shift uint
}

// Point is one point of the continuum.
type Point struct {
	Pos   uint32 // position on the continuum (0..2^32-1)
	Owner int    // index in Nodes() of the server
}

// Digests returns how many MD5 digests (point groups of four) a server of
// weight w gets among n servers of total weight total: floor(t) for t =
// w/total * 160/4 * n, each step rounded to float32 as in twemproxy's
// ketama_update. Preconditions: w > 0, total >= w, n >= 1.
func Digests(w, total float64, n int) int {
	pct := float32(w) / float32(total)
	t := float32(pct * PointsPerServer)
	t = float32(t / PointsPerDigest)
	t = float32(t * float32(n))
	if !(t >= 0) || math.IsInf(float64(t), 0) {
		return 0 // weights beyond float32's range: no usable share
	}
	return int(math.Floor(float64(t)))
}

// Label returns the label of point group i of the server named id: "id-i",
// cut to MaxLabel bytes.
func Label(id string, i int) string {
	l := id + "-" + strconv.Itoa(i)
	if len(l) > MaxLabel {
		l = l[:MaxLabel]
	}
	return l
}

// nameCompare orders server names as twemproxy sorts its server list:
// shorter first, then bytewise.
func nameCompare(a, b string) int {
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// New builds the continuum of nodes. It returns an error for an invalid
// membership (see [algorithms.ValidateNodes]) or a node whose weight share
// gives it no points (see [Digests]).
func New(nodes []algorithms.Node) (*Ketama, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("ketama: %w", err)
	}
	total := algorithms.TotalWeight(nodes)
	counts := make([]int, len(nodes))
	points := 0
	for i, n := range nodes {
		d := Digests(n.Weight, total, len(nodes))
		if d < 1 {
			return nil, fmt.Errorf("ketama: node %q: weight %v of total %v among %d nodes gives 0 points (need a share of at least 1/(40*n))", n.ID, n.Weight, total, len(nodes))
		}
		counts[i] = d
		points += PointsPerDigest * d
	}
	// twemproxy's build order: servers by name, then label index, then
	// digest word. A stable sort by position keeps it for ties.
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return nameCompare(nodes[a].ID, nodes[b].ID) })
	type point struct {
		pos   uint32
		owner int32
	}
	pts := make([]point, 0, points)
	for _, s := range order {
		for i := 0; i < counts[s]; i++ {
			for _, w := range algorithms.MD5Words(Label(nodes[s].ID, i)) {
				pts = append(pts, point{pos: w, owner: int32(s)})
			}
		}
	}
	slices.SortStableFunc(pts, func(a, b point) int { return cmp.Compare(a.pos, b.pos) })
	k := &Ketama{nodes: append([]algorithms.Node(nil), nodes...), pos: make([]uint32, points), owner: make([]int32, points)}
	for i, p := range pts {
		k.pos[i], k.owner[i] = p.pos, p.owner
	}
	k.buildLUT()
	return k, nil
}

// buildLUT fills lut and shift (see the Ketama fields): b bits with 2^b >=
// 2 * points, between 1 and 24.
func (k *Ketama) buildLUT() {
	b := min(max(bits.Len(uint(2*len(k.pos)-1)), 1), 24)
	k.shift = uint(32 - b)
	k.lut = make([]uint32, 1<<b+1)
	i := 0
	for t := range k.lut {
		for i < len(k.pos) && k.pos[i]>>k.shift < uint32(t) {
			i++
		}
		k.lut[t] = uint32(i)
	}
}

// Algorithm returns "ketama".
func (k *Ketama) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New.
func (k *Ketama) Nodes() []algorithms.Node { return k.nodes }

// Len returns the number of points on the continuum.
func (k *Ketama) Len() int { return len(k.pos) }

// At returns point i (0 <= i < Len()) in continuum order.
func (k *Ketama) At(i int) Point { return Point{Pos: k.pos[i], Owner: int(k.owner[i])} }

// HashKey returns the md5 key hash of key: word 0 of its MD5 digest, in
// [0, 2^32).
func (k *Ketama) HashKey(key string) uint64 { return uint64(algorithms.MD5Words(key)[0]) }

// Search returns the index (0..Len()-1) of the first point at or after
// key hash h, wrapping to 0 past the last point: twemproxy's
// ketama_dispatch. h must be < 2^32 (as HashKey returns); higher bits are
// ignored. It reads one table entry and scans the key's bucket.
func (k *Ketama) Search(h uint64) int {
	x := uint32(h)
	t := x >> k.shift
	i, end := k.lut[t], k.lut[t+1]
	for i < end && k.pos[i] < x {
		i++
	}
	if int(i) == len(k.pos) {
		return 0
	}
	return int(i)
}

// LocateHash returns the index in Nodes() of the server of the point
// [Ketama.Search] finds for h.
func (k *Ketama) LocateHash(h uint64) int { return int(k.owner[k.Search(h)]) }

// Locate returns the ID of the server that owns key.
func (k *Ketama) Locate(key string) string { return k.nodes[k.LocateHash(k.HashKey(key))].ID }

// Rebalance builds the continuum of nodes; it depends only on the member
// set and weights, so there is no state to keep.
func (k *Ketama) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	p, err := New(nodes)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ExactShares returns each server's exact share of the 2^32 key hashes:
// the sum of the arcs (previous point, point] of its points.
func (k *Ketama) ExactShares() []float64 {
	counts := make([]uint64, len(k.nodes))
	prev := k.pos[len(k.pos)-1]
	for i, p := range k.pos {
		arc := uint64(p - prev) // wraps modulo 2^32 for i == 0
		if i == 0 && arc == 0 {
			arc = 1 << 32 // every point at one position: the first owns the circle
		}
		counts[k.owner[i]] += arc
		prev = p
	}
	shares := make([]float64, len(counts))
	for i, c := range counts {
		shares[i] = float64(c) / (1 << 32)
	}
	return shares
}
