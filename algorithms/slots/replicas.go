package slots

import (
	"slices"

	"github.com/chbench/chbench/algorithms"
)

var _ algorithms.Replicator = (*Slots)(nil)

// Replicas implements [algorithms.Replicator] by slot order: the key's
// slot owner, then the owners of the following slots (slot+1, slot+2, ...,
// wrapping past 16383) that are not already chosen. Redis Cluster itself
// keeps replicas as whole-node copies of a master; this is the slot-ring
// analogue, so every node's replicas come from the nodes owning the slot
// ranges after its own. At most one pass over the 16,384 slots.
func (p *Slots) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(p.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	s := int(h & slotMask)
	for range NumSlots {
		if o := int(p.table[s]); !slices.Contains(out, o) {
			if out = append(out, o); len(out) == want {
				break
			}
		}
		s = (s + 1) & slotMask
	}
	return out
}
