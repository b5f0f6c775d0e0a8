package bounded

import (
	"slices"

	"github.com/chbench/chbench/algorithms"
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
	want := min(len(dst), len(b.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	p := b.Partition(h)
	for range len(b.assign) {
		if o := int(b.assign[p]); !slices.Contains(out, o) {
			if out = append(out, o); len(out) == want {
				break
			}
		}
		if p++; p == len(b.assign) {
			p = 0
		}
	}
	return out
}
