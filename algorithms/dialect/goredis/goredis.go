// Package goredis reproduces how the Go client go-redis (module
// github.com/redis/go-redis/v9 v9.23.0) routes a key among the shards of a
// Ring with the default NewConsistentHash: ring.go newRendezvous and
// internal/hashtag/rendezvous.go (rendezvous hashing, as
// dgryski/go-rendezvous computes it), after internal/hashtag/hashtag.go Key.
//
// Nodes are the shard names, the keys of RingOptions.Addrs (any strings;
// the addresses are not hashed), weight 1 (a Ring has no weights).
//
//   - Hash tags: a key containing "{...}" with something between the first
//     '{' and the first '}' after it is routed by that part alone, as in
//     Redis Cluster.
//   - The key's hash is xxHash64 (seed 0) of that part; each shard scores
//     mix64(keyhash ^ xxHash64(name)), mix64 being x ^= x>>12; x ^= x<<25;
//     x ^= x>>27; x * 2685821657736338717; the highest score wins. A Ring
//     builds the shard list from a Go map, in random order; only a tie of
//     two 64-bit scores (the first listed wins here) could depend on it.
//   - Only shards that pass the heartbeat (PING) take part: a shard that
//     goes down is left out, as [Rendezvous.Rebalance] without it gives.
//
// Lookups cost O(n) (one score per shard). Replicas are the shards in
// descending score, the order in which a Ring would fall back were the
// higher ones down.
package goredis

import (
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect"
)

// Name is the registry name of the dialect.
const Name = "go-redis-ring"

// Version is the module version this package follows.
const Version = "github.com/redis/go-redis/v9 v9.23.0"

// HashTag returns the part of key a Ring hashes: what lies between the
// first '{' and the first '}' after it when that is not empty, else key.
func HashTag(key string) string {
	if s := strings.IndexByte(key, '{'); s > -1 {
		if e := strings.IndexByte(key[s+1:], '}'); e > 0 {
			return key[s+1 : s+e+1]
		}
	}
	return key
}

// Mix64 is go-redis's xorshift-multiply score of a key and shard hash.
func Mix64(x uint64) uint64 {
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	return x * 2685821657736338717
}

// Rendezvous is a Ring's shard choice. It is immutable and safe for
// concurrent use; lookups do not allocate.
type Rendezvous struct {
	nodes []algorithms.Node
	hash  []uint64
}

var _ algorithms.Replicator = (*Rendezvous)(nil)

// New builds the rendezvous of nodes (shard names, weight 1).
func New(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := dialect.Validate(Name, nodes); err != nil {
		return nil, err
	}
	if err := dialect.UnitWeights(Name, nodes); err != nil {
		return nil, err
	}
	r := &Rendezvous{nodes: dialect.Copy(nodes), hash: make([]uint64, len(nodes))}
	for i, n := range nodes {
		r.hash[i] = xxhash.Sum64String(n.ID)
	}
	return r, nil
}

// Algorithm returns "go-redis-ring".
func (r *Rendezvous) Algorithm() string { return Name }

// Nodes returns the shards in the order given.
func (r *Rendezvous) Nodes() []algorithms.Node { return r.nodes }

// HashKey returns xxHash64 of the key's hash tag (or the whole key).
func (r *Rendezvous) HashKey(key string) uint64 { return xxhash.Sum64String(HashTag(key)) }

// LocateHash returns the shard of the highest score for key hash h.
func (r *Rendezvous) LocateHash(h uint64) int {
	best, score := 0, Mix64(h^r.hash[0])
	for i := 1; i < len(r.hash); i++ {
		if s := Mix64(h ^ r.hash[i]); s > score {
			best, score = i, s
		}
	}
	return best
}

// Locate returns the name of the shard that owns key.
func (r *Rendezvous) Locate(key string) string { return r.nodes[r.LocateHash(r.HashKey(key))].ID }

// Rebalance builds the rendezvous of nodes.
func (r *Rendezvous) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) { return New(nodes) }

// Replicas writes into dst[:0] the shards of the highest scores for key
// hash h, highest first (see [algorithms.Replicator]).
func (r *Rendezvous) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(r.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	for len(out) < want {
		best, score, found := 0, uint64(0), false
		for i := range r.hash {
			if slices.Contains(out, i) {
				continue
			}
			if s := Mix64(h ^ r.hash[i]); !found || s > score {
				best, score, found = i, s, true
			}
		}
		out = append(out, best)
	}
	return out
}
