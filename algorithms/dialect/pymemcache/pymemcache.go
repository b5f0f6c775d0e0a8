// Package pymemcache reproduces python-memcached's choice of server for a
// key: python-memcached 1.59 (Debian python3-memcache 1.59-5, whose module
// still says __version__ = "1.58"), memcache.py, Client._get_server and
// cmemcache_hash.
//
// The servers are the Client's list, "host:port" strings (node IDs
// host:port) with integer weights (the ("host:port", weight) tuples).
// Client._init_buckets lists each server weight times, in order; a key
// goes to buckets[hash % len(buckets)] with
//
//	hash = ((crc32(key) & 0xffffffff) >> 16) & 0x7fff, or 1 where that is 0
//
// crc32 over the key's UTF-8 bytes (the "or 1" is not in the formula as
// usually quoted: keys whose 15 bits are 0 go to bucket 1, not 0). When
// that server is down (its connect fails) the client rehashes:
// hash = cmemcache_hash(str(hash) + str(i)) for retry i = 0, 1, ..., at
// most 10 tries in all, then gives up. [Placement.Replicas] is that
// fallback order: the distinct servers the retries reach, in order, the
// chain continuing past python-memcached's 10 tries when the replicas
// asked for need it.
package pymemcache

import (
	"hash/crc32"
	"slices"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
	"github.com/chbench/chbench/algorithms/dialect/hashkit"
)

// Name is the registry name of the dialect.
const Name = "python-memcached"

// Version is the python-memcached release this package follows.
const Version = "python-memcached 1.59 (Debian python3-memcache 1.59-5)"

// Tries is Client._SERVER_RETRIES, the number of servers python-memcached
// tries for one key.
const Tries = 10

// Hash is cmemcache_hash: bits 16..30 of the CRC-32 of key, or 1 where
// they are 0.
func Hash(key string) uint32 { return hash15(hashkit.CRC32(key)) }

func hash15(crc uint32) uint32 {
	if h := crc >> 16 & 0x7fff; h != 0 {
		return h
	}
	return 1
}

// Rehash returns the hash of retry i after hash h: cmemcache_hash of the
// decimal digits of h followed by those of i.
func Rehash(h uint32, i int) uint32 {
	var buf [24]byte
	b := strconv.AppendUint(buf[:0], uint64(h), 10)
	b = strconv.AppendInt(b, int64(i), 10)
	// The table loop keeps buf on the stack: crc32.ChecksumIEEE's assembly
	// would make it escape, and a lookup allocate.
	crc := ^uint32(0)
	for _, c := range b {
		crc = crc32.IEEETable[byte(crc)^c] ^ crc>>8
	}
	return hash15(^crc)
}

// Placement is python-memcached's bucket list. It is immutable and safe
// for concurrent use; lookups do not allocate.
type Placement struct {
	dialect.Table
}

var _ algorithms.Replicator = (*Placement)(nil)

// New builds the buckets of nodes (IDs host:port, whole weights >= 1).
func New(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(Name, nodes); err != nil {
		return nil, err
	}
	if _, err := dialect.HostPorts(Name, nodes); err != nil {
		return nil, err
	}
	ws, err := dialect.IntWeights(Name, nodes, dialect.MaxIntWeight)
	if err != nil {
		return nil, err
	}
	return &Placement{dialect.Table{Name: Name, Members: dialect.Copy(nodes), Hash: Hash, Slots: dialect.Expand(ws), Again: New}}, nil
}

// Replicas writes into dst[:0] the key's server and then the distinct
// servers python-memcached falls back to, in order, when the earlier ones
// are down (see [algorithms.Replicator]).
func (p *Placement) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(p.Members), algorithms.MaxReplicas)
	out := dst[:0]
	x := uint32(h)
	for i := 0; len(out) < want; i++ {
		if s := p.LocateHash(uint64(x)); !slices.Contains(out, s) {
			out = append(out, s)
		}
		x = Rehash(x, i)
		if i > 1<<16 {
			// Not reached for any membership (the chain visits every
			// bucket with overwhelming probability long before); kept so
			// the loop is bounded.
			for s := 0; len(out) < want; s++ {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}
