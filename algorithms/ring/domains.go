package ring

import (
	"slices"

	"github.com/chbench/chbench/algorithms"
)

var _ algorithms.DomainReplicator = (*Ring)(nil)

// DomainReplicas implements [algorithms.DomainReplicator] as Cassandra's
// NetworkTopologyStrategy places a data centre's replicas over racks: walk
// clockwise from the key's point, as [Ring.Replicas] does, and take each
// point's owner unless that node, or another node of its domain, is
// already chosen. When a lap ends with fewer than R replicas (fewer
// domains than R), a second lap from the key's point takes the skipped
// nodes in the order met. The first replica is the key's owner. Cost: the
// points walked, about R * n/D * V for D equal domains of n nodes with V
// points each, and two laps when R exceeds the number of domains.
func (r *Ring) DomainReplicas(h uint64, domain []int32, dst []int) []int {
	want := min(len(dst), len(r.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	start := r.Search(h)
	for lap := range 2 {
		i := start
		for range len(r.pos) {
			o := int(r.owner[i])
			if !slices.Contains(out, o) && (lap == 1 || !algorithms.DomainUsed(out, domain, domain[o])) {
				if out = append(out, o); len(out) == want {
					return out
				}
			}
			if i++; i == len(r.pos) {
				i = 0
			}
		}
	}
	return out
}
