package ring

import (
	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/internal/preference"
)

var _ algorithms.Replicator = (*Ring)(nil)

// Replicas implements [algorithms.Replicator] the way Dynamo and Cassandra
// place replicas on a ring (their "preference list"): walk clockwise from
// the key's point, wrapping past the top, and take the owner of each point
// unless that node is already chosen. The first replica is the key's owner;
// every node has at least one point, so the walk finds min(len(dst), n,
// MaxReplicas) distinct nodes. A joining node enters a key's replica set
// only by displacing the set's last member. Expected cost: O(R) points for
// R much smaller than n; at most one lap of the ring.
func (r *Ring) Replicas(h uint64, dst []int) []int {
	return preference.List(r.owner, r.Search(h), len(r.nodes), dst)
}
