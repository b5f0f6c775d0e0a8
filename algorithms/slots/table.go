package slots

import (
	"fmt"
	"slices"

	"github.com/chbench/chbench/algorithms"
)

// FromTable returns the slot assignment given explicitly by owner:
// owner[s] is the index in nodes of the node that owns hash slot s, for
// all 16,384 slots. It is how chbench takes over a real cluster's layout
// (read from CLUSTER SLOTS) and asks what its own rebalancing would do
// from there. Unlike New and Rebalance it accepts a node owning no slots
// (a master that has just joined). It returns an error for an invalid
// membership, more than 16,384 nodes, or a table of the wrong length or
// with an index outside nodes, naming the slot.
func FromTable(nodes []algorithms.Node, owner []int) (*Slots, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("slots: %w", err)
	}
	if len(nodes) > NumSlots {
		return nil, fmt.Errorf("slots: %d nodes exceed the %d hash slots", len(nodes), NumSlots)
	}
	if len(owner) != NumSlots {
		return nil, fmt.Errorf("slots: slot table of %d entries, want %d", len(owner), NumSlots)
	}
	p := &Slots{nodes: slices.Clone(nodes), counts: make([]int, len(nodes))}
	for s, o := range owner {
		if o < 0 || o >= len(nodes) {
			return nil, fmt.Errorf("slots: slot %d owned by node index %d, outside 0..%d", s, o, len(nodes)-1)
		}
		p.table[s] = uint16(o)
		p.counts[o]++
	}
	return p, nil
}
