package rendezvous

import (
	"cmp"

	"github.com/chbench/chbench/algorithms"
)

var _ algorithms.Replicator = (*Rendezvous)(nil)

// Replicas implements [algorithms.Replicator] as highest random weight
// does (Thaler & Ravishankar 1998): the replicas are the R nodes with the
// highest scores for the key, in decreasing score order (ties to the
// smaller node ID, as in LocateHash), so the first is the owner. A joining
// node enters a key's set only by outscoring its last member; a leaving
// node is replaced by the next-highest score. O(n R) per key.
func (r *Rendezvous) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(r.nodes), algorithms.MaxReplicas)
	if r.weights == nil {
		return topScores(r, dst, want, func(i int) uint64 { return algorithms.Mix64(r.seeds[i] ^ h) })
	}
	return topScores(r, dst, want, func(i int) float64 { return Score(r.weights[i], algorithms.Mix64(r.seeds[i]^h)) })
}

// topScores writes into dst[:0] the want (<= MaxReplicas) nodes with the
// highest score(i), highest first, ties to the smaller node ID.
func topScores[S cmp.Ordered](r *Rendezvous, dst []int, want int, score func(int) S) []int {
	var sc [algorithms.MaxReplicas]S
	out := dst[:0]
	if want == 0 {
		return out
	}
	for i := range r.nodes {
		s := score(i)
		k := len(out) // insertion point: after every better entry
		for k > 0 && (s > sc[k-1] || s == sc[k-1] && r.nodes[i].ID < r.nodes[out[k-1]].ID) {
			k--
		}
		if k >= want {
			continue
		}
		if len(out) < want {
			out = append(out, 0)
		}
		copy(out[k+1:], out[k:len(out)-1])
		copy(sc[k+1:len(out)], sc[k:len(out)-1])
		out[k], sc[k] = i, s
	}
	return out
}
