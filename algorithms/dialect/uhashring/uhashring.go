// Package uhashring reproduces the consistent hash rings of the Python
// library uhashring 2.1 (Debian python3-uhashring 2.1-3): HashRing's
// default ring (uhashring/ring_meta.py, MetaRing) and its ketama mode
// (hash_fn="ketama", uhashring/ring_ketama.py, KetamaRing), looked up by
// HashRing.get_node (uhashring/ring.py).
//
// Nodes are uhashring's node names, any strings, in the order given (a
// list, or a dict of name -> weight; whole weights). Both rings differ
// from libketama where it matters for agreement:
//
//   - Lookup: the first point strictly after the key's hash (Python's
//     bisect, i.e. bisect_right), wrapping to the first point; libketama
//     takes the first point at or after it.
//   - Default ring ([Meta]): 160 points per unit of weight, point i of a
//     node being the MD5 digest of "name-i" read as one 128-bit big-endian
//     integer (int(hexdigest, 16)); the key's hash is the 128-bit MD5 of
//     the key. Points and keys are compared as 128-bit numbers.
//   - Ketama mode ([Ketama]): floor(40 * n * w / W) digests per node in
//     integer arithmetic (Python's //), four little-endian 32-bit points
//     each, of labels "name-i"; the key's hash is word 0 of its MD5. At
//     equal weights that is 40 digests (160 points) for every n, where
//     libmemcached and twemproxy compute the count in float and get 156
//     points for n = 25, 47, 50, ...; so the two agree at 10 servers but
//     not at 25.
//   - Ties: points are dict keys, so a later node's point at the same
//     position replaces an earlier one (nodes in the order given).
//
// Strings are hashed as their UTF-8 bytes (str(key).encode("utf-8")).
// Replicas are HashRing.range(key, unique=True): the distinct nodes met
// walking clockwise from the key's point.
package uhashring

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
)

// Version is the uhashring release this package follows.
const Version = "uhashring 2.1 (Debian python3-uhashring 2.1-3)"

// Names of the two dialects.
const (
	MetaName   = "uhashring"
	KetamaName = "uhashring-ketama"
)

// VNodes are the rings' default vnodes: 160 points per unit of weight in
// the default ring, 40 digests (of 4 points) in ketama mode.
const (
	MetaVNodes   = 160
	KetamaVNodes = 40
)

func label(name string, i int) string { return name + "-" + strconv.Itoa(i) }

// Ketama builds uhashring's ketama-mode ring of nodes (any names, whole
// weights >= 1).
func Ketama(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(KetamaName, nodes); err != nil {
		return nil, err
	}
	ws, err := dialect.IntWeights(KetamaName, nodes, dialect.MaxIntWeight)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, w := range ws {
		total += w
	}
	var pts []dialect.Point
	for s, n := range nodes {
		ks := KetamaVNodes * len(nodes) * ws[s] / total
		if ks < 1 {
			return nil, fmt.Errorf("%s: node %q: weight %d of %d among %d nodes gives 0 points", KetamaName, n.ID, ws[s], total, len(nodes))
		}
		for i := range ks {
			for _, w := range algorithms.MD5Words(label(n.ID, i)) {
				pts = append(pts, dialect.Point{Pos: w, Owner: int32(s)})
			}
		}
	}
	return &dialect.WalkingRing{Ring: dialect.Ring{Name: KetamaName, Members: dialect.Copy(nodes),
		Hash: func(k string) uint32 { return algorithms.MD5Words(k)[0] }, C: dialect.NewContinuum(pts, dialect.KeepLast),
		After: true, Again: Ketama}}, nil
}

// Meta is uhashring's default ring: 128-bit points, compared as numbers.
// It is immutable and safe for concurrent use; lookups do not allocate.
type Meta struct {
	nodes []algorithms.Node
	hi    []uint64 // sorted points, top 64 bits
	lo    []uint64 // and bottom 64 bits
	owner []int32
}

var _ algorithms.Replicator = (*Meta)(nil)

// digest128 returns the MD5 digest of s as a 128-bit big-endian number.
func digest128(s string) (hi, lo uint64) {
	d := md5.Sum(unsafe.Slice(unsafe.StringData(s), len(s)))
	return binary.BigEndian.Uint64(d[:8]), binary.BigEndian.Uint64(d[8:])
}

// NewMeta builds uhashring's default ring of nodes (any names, whole
// weights >= 1; node weight w gets 160*w points).
func NewMeta(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(MetaName, nodes); err != nil {
		return nil, err
	}
	ws, err := dialect.IntWeights(MetaName, nodes, 1<<16)
	if err != nil {
		return nil, err
	}
	type pt struct {
		hi, lo uint64
		owner  int32
	}
	total := 0
	for _, w := range ws {
		total += MetaVNodes * w
	}
	pts := make([]pt, 0, total)
	for s, n := range nodes {
		for i := range MetaVNodes * ws[s] {
			hi, lo := digest128(label(n.ID, i))
			pts = append(pts, pt{hi, lo, int32(s)})
		}
	}
	slices.SortStableFunc(pts, func(a, b pt) int {
		if a.hi != b.hi {
			if a.hi < b.hi {
				return -1
			}
			return 1
		}
		if a.lo != b.lo {
			if a.lo < b.lo {
				return -1
			}
			return 1
		}
		return 0
	})
	m := &Meta{nodes: dialect.Copy(nodes), hi: make([]uint64, 0, len(pts)), lo: make([]uint64, 0, len(pts)), owner: make([]int32, 0, len(pts))}
	for i, p := range pts {
		if i+1 < len(pts) && pts[i+1].hi == p.hi && pts[i+1].lo == p.lo {
			continue // a later node's equal point replaces it (dict key)
		}
		m.hi, m.lo, m.owner = append(m.hi, p.hi), append(m.lo, p.lo), append(m.owner, p.owner)
	}
	return m, nil
}

// Algorithm returns "uhashring".
func (m *Meta) Algorithm() string { return MetaName }

// Nodes returns the membership in the order given.
func (m *Meta) Nodes() []algorithms.Node { return m.nodes }

// HashKey returns the top 64 bits of the key's 128-bit MD5 number.
func (m *Meta) HashKey(key string) uint64 { hi, _ := digest128(key); return hi }

// after returns the index of the first point > (hi, lo), wrapping.
func (m *Meta) after(hi, lo uint64) int {
	i, j := 0, len(m.hi)
	for i < j {
		h := int(uint(i+j) >> 1)
		if m.hi[h] < hi || m.hi[h] == hi && m.lo[h] <= lo {
			i = h + 1
		} else {
			j = h
		}
	}
	if i == len(m.hi) {
		return 0
	}
	return i
}

// LocateHash returns the owner of the first point after the key hash h,
// taking the key's bottom 64 bits as 0: it differs from Locate only for a
// key whose top 64 bits equal a point's (probability about points/2^64).
func (m *Meta) LocateHash(h uint64) int { return int(m.owner[m.after(h, 0)]) }

// Locate returns the name of the node that owns key, comparing all 128
// bits as uhashring does.
func (m *Meta) Locate(key string) string {
	hi, lo := digest128(key)
	return m.nodes[m.owner[m.after(hi, lo)]].ID
}

// Rebalance builds the ring of nodes afresh.
func (m *Meta) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) { return NewMeta(nodes) }

// Replicas writes the key's node and the next distinct nodes clockwise
// into dst[:0] (HashRing.range with unique=True).
func (m *Meta) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(m.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	i := m.after(h, 0)
	for k := 0; k < len(m.hi) && len(out) < want; k++ {
		o := int(m.owner[(i+k)%len(m.hi)])
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}
