// Package libmemcached reproduces how libmemcached picks a server for a
// key: libmemcached-awesome 1.1.4 (Debian libmemcached11 1.1.4-1, the
// library under python3-pylibmc 1.6.3), following
// src/libmemcached/hosts.cc (update_continuum) and
// src/libmemcached/hash.cc (dispatch_host) for the distributions, and
// src/libhashkit/ for the key hashes ([hashkit]).
//
// Servers are node IDs host:port in the order they were added
// (memcached_server_add, pylibmc's server list); MEMCACHED_BEHAVIOR_SORT_HOSTS
// (off by default) is not modelled. The modes, as pylibmc's behaviors
// select them:
//
//   - [KetamaWeighted] ({"ketama_weighted": True}): libketama's layout.
//     Key hash MD5 (word 0, little-endian). A server of weight w among n
//     of total weight W gets 4*floor(float32(float32(w/W)*160/4*n)) points
//     (float rounding: 156 instead of 160 at 25 equal servers, see
//     [ketama.Digests]), four from each MD5 digest of the label "host-i"
//     when the port is 11211, else "host:port-i", i = 0, 1, ...
//   - [Ketama] ({"ketama": True}): not libketama's layout. 100 points per
//     server, one per label (same labels), each the configured key hash of
//     the label; the key hash defaults to one-at-a-time, so labels and keys
//     are hashed with one-at-a-time, not MD5. Weights are ignored until one
//     is > 1, which switches libmemcached to the weighted layout; this
//     dialect takes weight 1 only.
//   - [Modula] (the default distribution): hash(key) mod n over the
//     servers in order, n = number of servers, weights ignored; with the
//     key hash chosen by {"hash": NAME}: default (one-at-a-time), md5,
//     crc, fnv1_64, fnv1a_64, fnv1_32, fnv1a_32, murmur, jenkins. Debian
//     builds libhashkit without hsieh (ENABLE_HASH_HSIEH off), so "hsieh"
//     hashes every key to 1 and is not offered.
//
// Both ketama modes hold at most 100 servers: update_continuum asserts
// servers * 100 <= MEMCACHED_CONTINUUM_SIZE (10,000), and Debian's build
// aborts the process when the 101st server is added (found by the live
// check; the documentation states no limit). [MaxContinuumServers] larger
// fleets are an error here. Modula has no such limit.
//
// On the continuum a key goes to the first point at or after its hash,
// wrapping past the top; points at one position are sorted by server
// index (continuum_item_cmp), so the earlier server wins a tie. With a
// single server every key goes to it (the hash is not even computed).
// libmemcached's replicas (MEMCACHED_BEHAVIOR_NUMBER_OF_REPLICAS) and its
// auto-ejection of failing servers are not modelled: these placers are
// not Replicators.
package libmemcached

import (
	"fmt"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/hashkit"
	"github.com/chbench/chbench/algorithms/ketama"
)

// Version is the libmemcached release this package follows.
const Version = "libmemcached-awesome 1.1.4 (Debian libmemcached11 1.1.4-1)"

// DefaultPort is MEMCACHED_DEFAULT_PORT, whose servers are labelled by
// host alone.
const DefaultPort = 11211

// PointsPerServer is MEMCACHED_POINTS_PER_SERVER, the unweighted ketama
// point count.
const PointsPerServer = 100

// Hashes are the key hashes of modula (pylibmc's names), in pylibmc's order.
var Hashes = []hashkit.Named{
	{Name: "default", Func: hashkit.OneAtATime},
	{Name: "md5", Func: hashkit.MD5},
	{Name: "crc", Func: hashkit.CRC},
	{Name: "fnv1_64", Func: hashkit.FNV1_64},
	{Name: "fnv1a_64", Func: hashkit.FNV1a_64},
	{Name: "fnv1_32", Func: hashkit.FNV1_32},
	{Name: "fnv1a_32", Func: hashkit.FNV1a_32},
	{Name: "murmur", Func: hashkit.Murmur},
	{Name: "jenkins", Func: hashkit.Jenkins},
}

// Label returns the string libmemcached hashes for point group i of a
// server: "host-i" for port 11211, else "host:port-i".
func Label(hp dialect.HostPort, i int) string {
	if hp.Port == DefaultPort {
		return hp.Host + "-" + strconv.Itoa(i)
	}
	return hp.Host + ":" + strconv.Itoa(hp.Port) + "-" + strconv.Itoa(i)
}

// MaxContinuumServers is the most servers libmemcached's consistent
// distributions accept (MEMCACHED_CONTINUUM_SIZE / MEMCACHED_POINTS_PER_SERVER).
const MaxContinuumServers = 100

// continuumSize returns an error for more servers than a continuum holds.
func continuumSize(name string, nodes []algorithms.Node) error {
	if len(nodes) > MaxContinuumServers {
		return fmt.Errorf("%s: %d servers: libmemcached's continuum holds at most %d (MEMCACHED_CONTINUUM_SIZE; it aborts on the next server_add)", name, len(nodes), MaxContinuumServers)
	}
	return nil
}

// KetamaWeightedName is the registry name of the weighted ketama dialect.
const KetamaWeightedName = "libmemcached-ketama-weighted"

// KetamaWeighted builds libmemcached's MEMCACHED_DISTRIBUTION_CONSISTENT_WEIGHTED
// continuum of nodes (IDs host:port, positive weights; libmemcached takes
// whole weights, and any positive weight is accepted here as its float
// arithmetic treats it). A server whose share gives it no points is an
// error (libmemcached would silently leave it out).
func KetamaWeighted(nodes []algorithms.Node) (algorithms.Placer, error) {
	const name = KetamaWeightedName
	if err := dialect.Validate(name, nodes); err != nil {
		return nil, err
	}
	if err := continuumSize(name, nodes); err != nil {
		return nil, err
	}
	hps, err := dialect.HostPorts(name, nodes)
	if err != nil {
		return nil, err
	}
	total := algorithms.TotalWeight(nodes)
	var pts []dialect.Point
	for s, n := range nodes {
		d := ketama.Digests(n.Weight, total, len(nodes))
		if d < 1 {
			return nil, fmt.Errorf("%s: node %q: weight %v of total %v among %d servers gives 0 points", name, n.ID, n.Weight, total, len(nodes))
		}
		for i := range d {
			for _, w := range algorithms.MD5Words(Label(hps[s], i)) {
				pts = append(pts, dialect.Point{Pos: w, Owner: int32(s)})
			}
		}
	}
	return ring(name, nodes, hashkit.MD5, pts, KetamaWeighted), nil
}

// KetamaName is the registry name of the unweighted ketama dialect.
const KetamaName = "libmemcached-ketama"

// Ketama builds libmemcached's MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA
// continuum with the default key hash (one-at-a-time) of nodes (IDs
// host:port, weight 1).
func Ketama(nodes []algorithms.Node) (algorithms.Placer, error) {
	const name = KetamaName
	if err := dialect.Validate(name, nodes); err != nil {
		return nil, err
	}
	if err := dialect.UnitWeights(name, nodes); err != nil {
		return nil, err
	}
	if err := continuumSize(name, nodes); err != nil {
		return nil, err
	}
	hps, err := dialect.HostPorts(name, nodes)
	if err != nil {
		return nil, err
	}
	pts := make([]dialect.Point, 0, PointsPerServer*len(nodes))
	for s := range nodes {
		for i := range PointsPerServer {
			pts = append(pts, dialect.Point{Pos: hashkit.OneAtATime(Label(hps[s], i)), Owner: int32(s)})
		}
	}
	return ring(name, nodes, hashkit.OneAtATime, pts, Ketama), nil
}

func ring(name string, nodes []algorithms.Node, h hashkit.Func, pts []dialect.Point, again dialect.Build) algorithms.Placer {
	return &dialect.Ring{Name: name, Members: dialect.Copy(nodes), Hash: single(len(nodes), h),
		C: dialect.NewContinuum(pts, dialect.KeepAll), Again: again}
}

// single returns h, or for one server a hash that is always 0: libmemcached
// skips hashing then (the owner is the same either way).
func single(n int, h hashkit.Func) hashkit.Func {
	if n == 1 {
		return func(string) uint32 { return 0 }
	}
	return h
}

// ModulaName returns the registry name of modula with the named key hash:
// "libmemcached-modula" for the default, else "libmemcached-modula-" and
// the hash name with '_' written '-' ("libmemcached-modula-fnv1a-64").
func ModulaName(hash string) string {
	if hash == "default" {
		return "libmemcached-modula"
	}
	return "libmemcached-modula-" + hyphens(hash)
}

func hyphens(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '_' {
			b[i] = '-'
		}
	}
	return string(b)
}

// Modula returns the builder of libmemcached's MEMCACHED_DISTRIBUTION_MODULA
// with the named key hash (one of [Hashes]): nodes are IDs host:port (the
// IDs are not hashed, but libmemcached takes servers only so) of weight 1.
func Modula(hash string) (dialect.Build, error) {
	f, err := hashkit.Lookup(Hashes, hash)
	if err != nil {
		return nil, fmt.Errorf("libmemcached modula: %w", err)
	}
	name := ModulaName(hash)
	var build dialect.Build
	build = func(nodes []algorithms.Node) (algorithms.Placer, error) {
		if err := dialect.Validate(name, nodes); err != nil {
			return nil, err
		}
		if err := dialect.UnitWeights(name, nodes); err != nil {
			return nil, err
		}
		if _, err := dialect.HostPorts(name, nodes); err != nil {
			return nil, err
		}
		return &dialect.Table{Name: name, Members: dialect.Copy(nodes), Hash: single(len(nodes), f),
			Slots: dialect.Identity(len(nodes)), Again: build}, nil
	}
	return build, nil
}
