package rendezvous

import (
	"cmp"
	"slices"

	"github.com/chbench/chbench/algorithms"
)

var _ algorithms.DomainReplicator = (*Rendezvous)(nil)

// DomainReplicas implements [algorithms.DomainReplicator] as rendezvous
// hashing over failure domains: the replicas are the highest-scoring
// nodes for the key (the scores of [Rendezvous.Replicas]) taken in
// decreasing score order, skipping a node whose domain already holds a
// replica; so replica k is the best node of the domains not yet used.
// When every domain holds one (fewer domains than R), the rest are the
// best of the nodes not chosen. The first replica is LocateHash's owner.
// With weights, the best node of a domain wins with probability
// proportional to the domain's total weight (the maximum of exponential
// races), the same law as choosing the domain first. O(n R) per key.
func (r *Rendezvous) DomainReplicas(h uint64, domain []int32, dst []int) []int {
	if r.weights == nil {
		return bestPerDomain(r, domain, dst, func(i int) uint64 { return algorithms.Mix64(r.seeds[i] ^ h) })
	}
	return bestPerDomain(r, domain, dst, func(i int) float64 { return Score(r.weights[i], algorithms.Mix64(r.seeds[i]^h)) })
}

// bestPerDomain fills dst[:0] with replicas chosen one at a time: the
// highest score(i) (ties to the smaller node ID) among nodes not chosen
// whose domain is unused, or among all nodes not chosen once no unused
// domain remains.
func bestPerDomain[S cmp.Ordered](r *Rendezvous, domain []int32, dst []int, score func(int) S) []int {
	want := min(len(dst), len(r.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	for len(out) < want {
		best := -1
		var bestScore S
		for pass := 0; pass < 2 && best < 0; pass++ {
			for i := range r.nodes {
				if slices.Contains(out, i) || (pass == 0 && algorithms.DomainUsed(out, domain, domain[i])) {
					continue
				}
				s := score(i)
				if best < 0 || s > bestScore || s == bestScore && r.nodes[i].ID < r.nodes[best].ID {
					best, bestScore = i, s
				}
			}
		}
		out = append(out, best)
	}
	return out
}
