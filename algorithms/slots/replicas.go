package slots

import (
	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/internal/preference"
)

var _ algorithms.Replicator = (*Slots)(nil)

// Replicas implements [algorithms.Replicator] by slot order: the key's
// slot owner, then the owners of the following slots (slot+1, slot+2, ...,
// wrapping past 16383) that are not already chosen. Redis Cluster itself
// keeps replicas as whole-node copies of a master; this is the slot-ring
// analogue, so every node's replicas come from the nodes owning the slot
// ranges after its own. At most one pass over the 16,384 slots.
func (p *Slots) Replicas(h uint64, dst []int) []int {
	return preference.List(p.table[:], int(h&slotMask), len(p.nodes), dst)
}
