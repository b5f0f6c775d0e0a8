package multiprobe

import (
	"slices"

	"github.com/chbench/chbench/algorithms"
)

var _ algorithms.Replicator = (*MultiProbe)(nil)

// Replicas implements [algorithms.Replicator] by extending the paper's
// closest-point rule (Appleton & O'Reilly 2015 place one copy; they define
// no replicas): a node's distance from a key is the smallest clockwise
// distance from any of the key's k probes to the node's point, and the
// replicas are the R nodes with the smallest distances, closest first (ties
// to the earlier probe, then to the earlier point in ring order, as in
// LocateHash), so the first is the owner. Round r takes, for every probe,
// the first point clockwise whose node is not yet chosen (one point per
// node, so at most r-1 points are skipped) and keeps the closest: the node
// with the next-smallest distance is always the first unchosen point after
// the probe that achieves its distance. O(k R^2) point reads.
//
// Movement: a node's distance depends only on its own point and the key's
// probes, not on the other nodes, so the order is a rendezvous-style
// ranking: a joining node enters a key's set only by displacing its last
// member, a leaving node is replaced by the next-closest node, and no
// other set changes.
func (p *MultiProbe) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(p.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	out = append(out, p.LocateHash(h))
	for len(out) < want {
		best, bestDist := -1, uint64(0)
		for i := 0; i < p.probes; i++ {
			x := Probe(h, i)
			j := p.successor(x)
			for slices.Contains(out, int(p.owner[j])) {
				if j++; j == len(p.pos) {
					j = 0
				}
			}
			if d := p.pos[j] - x; best < 0 || d < bestDist { // wraps modulo 2^64
				best, bestDist = j, d
			}
		}
		out = append(out, int(p.owner[best]))
	}
	return out
}
