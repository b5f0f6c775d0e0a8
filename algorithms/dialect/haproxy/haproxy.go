// Package haproxy reproduces how HAProxy picks a server for a hashed
// balance (`balance hdr(...)`, `url_param`, `uri` ...): HAProxy 2.6.12
// (Debian haproxy 2.6.12-1+deb12u4), with `hash-type consistent`
// (src/lb_chash.c: chash_init_server_tree, chash_get_server_hash) and
// `hash-type map-based` (src/lb_map.c: init_server_map,
// recalc_server_map, map_get_server_hash), the key hashes of src/hash.c
// (sdbm, the default; djb2, wt6, crc32) chosen in src/backend.c gen_hash,
// and the `avalanche` modifier (full_hash, include/haproxy/intops.h).
// The sources read are those of the v2.6.0 tag; the 2.6 maintenance
// releases did not change these paths.
//
// A node is one `server` line of the backend, in configuration order, with
// `weight` as Node.Weight (whole, 1..256). Nothing about a server is
// hashed: a server's place comes from its position.
//
//   - consistent: server i (puid i+1, the automatic ID in declaration
//     order) has 16 points per unit of weight (BE_WEIGHT_SCALE), point j at
//     full_hash((i+1)*4096 + j). Removing a server renumbers those after
//     it, so their points move too: a leave moves far more than the
//     leaving server's keys. The lookup takes the point at or after the
//     key's hash and the one before it and picks the nearer (the earlier
//     on a tie of distances), not simply the next point.
//   - map-based: a table of W = sum of ceil(16*w/g) entries (g the gcd of
//     the weights), filled by HAProxy's smooth weighted order (each entry
//     goes to the first server of the highest (score+W)/W after every
//     server's score grows by its effective weight), indexed by hash mod W.
//
// A backend of one server sends every key to it unhashed. Backup servers,
// `hash-balance-factor` and explicit `id`s are not modelled; HAProxy has no
// replicas (its `avoid` on a redispatch is not modelled either).
package haproxy

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/hashkit"
)

// Version is the HAProxy release this package follows.
const Version = "HAProxy 2.6.12 (Debian haproxy 2.6.12-1+deb12u4)"

// BEWeightScale is BE_WEIGHT_SCALE; EWghtRange is SRV_EWGHT_RANGE.
const (
	BEWeightScale = 16
	EWghtRange    = 256 * BEWeightScale
	MaxWeight     = 256
)

// SDBM is hash_sdbm.
func SDBM(key string) uint32 {
	var h uint32
	for i := 0; i < len(key); i++ {
		h = uint32(key[i]) + h<<6 + h<<16 - h
	}
	return h
}

// DJB2 is hash_djb2.
func DJB2(key string) uint32 {
	h := uint32(5381)
	for i := 0; i < len(key); i++ {
		h = h<<5 + h + uint32(key[i])
	}
	return h
}

// WT6 is hash_wt6.
func WT6(key string) uint32 {
	h0, h1 := uint32(0xa53c965a), uint32(0x5ca6953a)
	step0, step1 := 6, 18
	for i := 0; i < len(key); i++ {
		t := uint32(key[i])
		h0 = ^(h0 ^ t)
		h1 = ^(h1 + t)
		t = bits.RotateLeft32(h1, step0)
		h1 = bits.RotateLeft32(h0, step1)
		h0 = t
		t = (h0>>16 ^ h1) & 0xffff
		step0 = int(t & 0x1f)
		step1 = int(t >> 11)
	}
	return h0 ^ h1
}

// FullHash is HAProxy 2.6's full_hash: Bob Jenkins' 32-bit integer hash
// followed by a multiplication by 3221225473.
func FullHash(a uint32) uint32 {
	a = (a + 0x7ed55d16) + a<<12
	a = (a ^ 0xc761c23c) ^ a>>19
	a = (a + 0x165667b1) + a<<5
	a = (a + 0xd3a2646c) ^ a<<9
	a = (a + 0xfd7046c5) + a<<3
	a = (a ^ 0xb55a4f09) ^ a>>16
	return a * 3221225473
}

// Hashes are `hash-type`'s functions, sdbm (the default) first.
var Hashes = []hashkit.Named{
	{Name: "sdbm", Func: SDBM},
	{Name: "djb2", Func: DJB2},
	{Name: "wt6", Func: WT6},
	{Name: "crc32", Func: hashkit.CRC32},
}

// Name returns the registry name of a hash-type method ("consistent" or
// "map-based"), function and avalanche modifier: "haproxy-" + method,
// then "-" + function unless it is sdbm, then "-avalanche".
func Name(method, function string, avalanche bool) string {
	n := "haproxy-" + method
	if function != "sdbm" {
		n += "-" + function
	}
	if avalanche {
		n += "-avalanche"
	}
	return n
}

func keyHash(n int, f hashkit.Func, avalanche bool) hashkit.Func {
	switch {
	case n == 1:
		return func(string) uint32 { return 0 }
	case avalanche:
		return func(k string) uint32 { return FullHash(f(k)) }
	}
	return f
}

// Consistent returns the builder of `hash-type consistent FUNCTION
// [avalanche]` (FUNCTION one of [Hashes]).
func Consistent(function string, avalanche bool) (dialect.Build, error) {
	f, err := hashkit.Lookup(Hashes, function)
	if err != nil {
		return nil, fmt.Errorf("haproxy: %w", err)
	}
	name := Name("consistent", function, avalanche)
	var build dialect.Build
	build = func(nodes []algorithms.Node) (algorithms.Placer, error) {
		if err := dialect.Validate(name, nodes); err != nil {
			return nil, err
		}
		ws, err := dialect.IntWeights(name, nodes, MaxWeight)
		if err != nil {
			return nil, err
		}
		var pts []point
		for i, w := range ws {
			for j := range w * BEWeightScale {
				pts = append(pts, point{FullHash(uint32(i+1)*EWghtRange + uint32(j)), int32(i)})
			}
		}
		slices.SortStableFunc(pts, func(a, b point) int { return cmp.Compare(a.pos, b.pos) })
		t := &Tree{name: name, nodes: dialect.Copy(nodes), hash: keyHash(len(nodes), f, avalanche), again: build,
			pos: make([]uint32, len(pts)), owner: make([]int32, len(pts))}
		for i, p := range pts {
			t.pos[i], t.owner[i] = p.pos, p.owner
		}
		return t, nil
	}
	return build, nil
}

type point struct {
	pos   uint32
	owner int32
}

// Tree is HAProxy's consistent-hash tree, as a sorted array. It is
// immutable and safe for concurrent use; lookups do not allocate.
type Tree struct {
	name  string
	nodes []algorithms.Node
	hash  hashkit.Func
	pos   []uint32
	owner []int32
	again dialect.Build
}

// Algorithm returns the dialect's registry name.
func (t *Tree) Algorithm() string { return t.name }

// Nodes returns the membership in configuration order.
func (t *Tree) Nodes() []algorithms.Node { return t.nodes }

// HashKey returns the key's 32-bit hash (after avalanche, when set).
func (t *Tree) HashKey(key string) uint64 { return uint64(t.hash(key)) }

// LocateHash returns the owner of the nearer of the first point at or
// after h and the point before it (chash_get_server_hash).
func (t *Tree) LocateHash(h uint64) int {
	x := uint32(h)
	next, _ := slices.BinarySearch(t.pos, x)
	if next == len(t.pos) {
		next = 0
	}
	prev := next - 1
	if prev < 0 {
		prev = len(t.pos) - 1
	}
	if x-t.pos[prev] <= t.pos[next]-x {
		return int(t.owner[prev])
	}
	return int(t.owner[next])
}

// Locate returns the ID of the node that owns key.
func (t *Tree) Locate(key string) string { return t.nodes[t.LocateHash(t.HashKey(key))].ID }

// Rebalance builds the backend's tree of nodes afresh, renumbering the
// servers by their new positions.
func (t *Tree) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) { return t.again(nodes) }

// MapBased returns the builder of `hash-type map-based FUNCTION
// [avalanche]` (FUNCTION one of [Hashes]).
func MapBased(function string, avalanche bool) (dialect.Build, error) {
	f, err := hashkit.Lookup(Hashes, function)
	if err != nil {
		return nil, fmt.Errorf("haproxy: %w", err)
	}
	name := Name("map-based", function, avalanche)
	var build dialect.Build
	build = func(nodes []algorithms.Node) (algorithms.Placer, error) {
		if err := dialect.Validate(name, nodes); err != nil {
			return nil, err
		}
		ws, err := dialect.IntWeights(name, nodes, MaxWeight)
		if err != nil {
			return nil, err
		}
		return &dialect.Table{Name: name, Members: dialect.Copy(nodes), Hash: keyHash(len(nodes), f, avalanche),
			Slots: Map(ws), Again: build}, nil
	}
	return build, nil
}

// Map returns HAProxy's map of servers for weights (each 1..256):
// init_server_map's effective weights ceil(16*w/g), g the gcd, and
// recalc_server_map's order.
func Map(weights []int) []int32 {
	g := weights[0]
	for _, w := range weights[1:] {
		for w != 0 {
			g, w = w, g%w
		}
	}
	ew := make([]int, len(weights))
	tot := 0
	for i, w := range weights {
		ew[i] = (w*BEWeightScale + g - 1) / g
		tot += ew[i]
	}
	score := make([]int, len(weights))
	m := make([]int32, tot)
	for o := range m {
		best, bestV := -1, 0
		for i := range weights {
			score[i] += ew[i]
			if v := (score[i] + tot) / tot; best < 0 || v > bestV {
				best, bestV = i, v
			}
		}
		m[o] = int32(best)
		score[best] -= tot
	}
	return m
}
