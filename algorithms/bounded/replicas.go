package bounded

import (
	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/internal/preference"
)

var _ algorithms.Replicator = (*Bounded)(nil)

// Replicas implements [algorithms.Replicator] like a ring over the
// partitions: the partitions split the key-hash space into P consecutive
// ranges, and the replicas are the owner of the key's partition, then the
// owners of the following partitions (p+1, p+2, ..., wrapping past P-1)
// not already chosen. Partition owners follow the bounded-loads
// assignment, so replica loads are bounded the same way. At most one pass
// over the P partitions.
func (b *Bounded) Replicas(h uint64, dst []int) []int {
	return preference.List(b.assign, b.Partition(h), len(b.nodes), dst)
}
