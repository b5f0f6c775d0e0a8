package ketama

import (
	"slices"

	"github.com/chbench/chbench/algorithms"
)

var _ algorithms.Replicator = (*Ketama)(nil)

// Replicas implements [algorithms.Replicator] by walking the continuum:
// from the key's point ([Ketama.Search]) clockwise, wrapping past the top,
// it takes the server of each point unless it is already chosen, as
// Dynamo's preference list does on a ring (the ring package's scheme).
// Neither memcached client this package follows defines it: twemproxy has
// no replication, and libmemcached's replication
// (MEMCACHED_BEHAVIOR_NUMBER_OF_REPLICAS, libmemcached/storage.cc) writes
// the copies to the servers at the next indexes of its server list
// (server_key+1, +2, ..., wrapping), not along the continuum; that order
// depends on how the servers are listed, and a join or leave in the middle
// of the list shifts the replicas of every key, so chbench does not use
// it. Every server has at least four points, so the walk finds
// min(len(dst), n, MaxReplicas) distinct servers within one lap.
//
// Movement: at equal weights a join or leave keeps every other server's
// points (unless n crosses one of the 156-point counts, see the package
// doc), so a joining server enters a key's set only by displacing its
// last member, and a leaving server is replaced by the next distinct
// server clockwise. With unequal weights the other servers' point counts
// change too, and so can their replica sets.
func (k *Ketama) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(k.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	i := k.Search(h)
	for range len(k.pos) {
		if o := int(k.owner[i]); !slices.Contains(out, o) {
			if out = append(out, o); len(out) == want {
				break
			}
		}
		if i++; i == len(k.pos) {
			i = 0
		}
	}
	return out
}
