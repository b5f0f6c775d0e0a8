package slots

import (
	"slices"

	"github.com/chbench/chbench/algorithms"
)

var _ algorithms.DomainReplicator = (*Slots)(nil)

// DomainReplicas implements [algorithms.DomainReplicator] for a slot
// table: replicas on other nodes, preferring other domains, as Redis
// Cluster's `redis-cli --cluster create` gives a master replicas away from
// its own host. From the key's slot onward (slot+1, slot+2, ..., wrapping)
// take each slot's owner unless that node or its domain already holds a
// replica; when a pass over the 16,384 slots ends short (fewer domains
// than R), a second pass takes the other nodes in the order met. The
// first replica is the slot's owner. At most two passes over the table,
// comparing only the owners of runs of slots.
func (p *Slots) DomainReplicas(h uint64, domain []int32, dst []int) []int {
	want := min(len(dst), len(p.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	start := int(h & slotMask)
	for pass := range 2 {
		s := start
		last := -1 // the owner just rejected: runs of one owner are skipped cheaply
		for range NumSlots {
			o := int(p.table[s])
			if o == last {
				s = (s + 1) & slotMask
				continue
			}
			last = o
			if !slices.Contains(out, o) && (pass == 1 || !algorithms.DomainUsed(out, domain, domain[o])) {
				if out = append(out, o); len(out) == want {
					return out
				}
			}
			s = (s + 1) & slotMask
		}
	}
	return out
}
