package maglev

import (
	"math/bits"
	"slices"

	"github.com/chbench/chbench/algorithms"
)

var _ algorithms.Replicator = (*Maglev)(nil)

// Replicas implements [algorithms.Replicator] by table order: starting at
// the key's lookup table entry floor(h' * M / 2^64) (see
// [Maglev.LocateHash]), it takes the owner of each entry e, e+1, e+2, ...
// (wrapping past M-1) unless that node is already chosen. The paper defines
// no replica scheme (a Maglev keeps one backend per connection and its
// connection tracking table covers backend changes); probing the next
// table entries is what deployments do when the key's backend cannot
// serve (praxis-proxy's Maglev strategy, its pull request 925, passes over
// an unhealthy endpoint to the owners of the neighbouring entries), and it
// is the table's analogue of the ring's clockwise walk. Because the nodes fill the table in round-robin
// turns from independent permutations, neighbouring entries have nearly
// independent owners, so with n equal nodes the walk reads about
// n/n + n/(n-1) + ... + n/(n-R+1) entries for R replicas (about R for R
// much smaller than n); every node owns at least one entry, so one lap
// finds min(len(dst), n, MaxReplicas) distinct nodes.
//
// Movement: a key's replica set depends on the owners of the entries from
// its own entry up to its R-th distinct owner, so it changes whenever a
// membership change reassigns any of them. A join or leave rebuilds the
// table and also reassigns some entries between nodes that stay (the
// paper's extra disruption), so unlike the ring a join can drop a staying
// node from a set without the new node entering it, and a leave can
// change sets that did not hold the leaving node.
func (g *Maglev) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(g.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	e, _ := bits.Mul64(h<<g.keyShift, g.m)
	for range g.m {
		if o := g.Entry(int(e)); !slices.Contains(out, o) {
			if out = append(out, o); len(out) == want {
				break
			}
		}
		if e++; e == g.m {
			e = 0
		}
	}
	return out
}
