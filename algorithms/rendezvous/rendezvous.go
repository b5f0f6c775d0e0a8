// Package rendezvous places keys by highest random weight (Thaler & Ravishankar,
// "Using Name-Based Mappings to Increase Hit Rates", IEEE/ACM ToN 1998): every
// node scores the key and the highest score owns it.
//
//   - Lookup: O(n): one score per node. Node hashes are precomputed, and a
//     node's score for a key is Mix64(nodeHash ^ keyHash) (the splitmix64
//     finalizer), so a lookup hashes the key string once, not once per node.
//     With equal weights and AVX-512 (amd64, unless built with the purego
//     tag) eight scores are computed per step (hrw_amd64.s).
//   - Memory: O(n): two copies of each node's 64-bit hash (one in node-ID
//     order for the lookup), its position in that order, and its weight.
//   - Removal: any node may leave; only its keys move, each to the node with
//     its next-highest score. A joining node takes only keys it now wins.
//   - Weights: the logarithmic method (Schindelhauer & Schomaker 2005,
//     Resch's "weighted rendezvous"): score = -w / ln(u) with u =
//     (Mix64(...)>>12 + 0.5) / 2^52 in (0, 1); node i's share converges to
//     w_i / sum(w). With equal weights the score order equals the order of
//     u, and the lookup compares the 64-bit mixes directly.
//   - Order: the owner depends only on the member set, not on list order
//     (ties, which need equal 64-bit mixes, go to the smaller node ID).
package rendezvous

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "rendezvous"

// Rendezvous is an immutable HRW placement. It is safe for concurrent use.
type Rendezvous struct {
	nodes   []algorithms.Node
	seeds   []uint64  // hash of each node ID
	weights []float64 // nil when all weights are equal; else scaled by 2^-k, the largest in [0.5, 1)
	// The equal-weight lookup scans the seeds in node-ID order, so that
	// the first highest score is the owner (ties to the smaller ID) with
	// no tie test in the loop: byID[k] = seeds[perm[k]].
	byID []uint64
	perm []int32
	hash algorithms.Hash
}

// New returns the rendezvous placement of nodes under hash h (used for the
// keys and the node IDs). It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]) or when two node IDs hash to the same value
// (their scores would tie on every key).
func New(nodes []algorithms.Node, h algorithms.Hash) (*Rendezvous, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("rendezvous: %w", err)
	}
	r := &Rendezvous{nodes: append([]algorithms.Node(nil), nodes...), seeds: make([]uint64, len(nodes)), hash: h}
	seen := make(map[uint64]string, len(nodes))
	for i, n := range nodes {
		s := h.Sum(n.ID)
		if other, dup := seen[s]; dup {
			return nil, fmt.Errorf("rendezvous: node IDs %q and %q have the same %s hash %#x", other, n.ID, h.Name(), s)
		}
		seen[s] = n.ID
		r.seeds[i] = s
	}
	r.perm = make([]int32, len(nodes))
	for i := range r.perm {
		r.perm[i] = int32(i)
	}
	slices.SortFunc(r.perm, func(a, b int32) int { return strings.Compare(nodes[a].ID, nodes[b].ID) })
	r.byID = make([]uint64, len(nodes))
	for k, i := range r.perm {
		r.byID[k] = r.seeds[i]
	}
	if !algorithms.Uniform(nodes) {
		// Scores use the weights scaled by a power of two that brings the
		// largest into [0.5, 1): exact, so no comparison changes, and
		// -w/ln(u) stays finite (below 2^53) even for weights near
		// math.MaxFloat64, where unscaled scores overflow to +Inf and tie.
		maxW := 0.0
		for _, n := range nodes {
			maxW = max(maxW, n.Weight)
		}
		_, e := math.Frexp(maxW)
		r.weights = make([]float64, len(nodes))
		for i, n := range nodes {
			r.weights[i] = math.Ldexp(n.Weight, -e)
		}
	}
	return r, nil
}

// Algorithm returns "rendezvous".
func (r *Rendezvous) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New.
func (r *Rendezvous) Nodes() []algorithms.Node { return r.nodes }

// HashKey returns the configured hash of key.
func (r *Rendezvous) HashKey(key string) uint64 { return r.hash.Sum(key) }

// LocateHash returns the index of the node with the highest score for a key
// of hash h.
func (r *Rendezvous) LocateHash(h uint64) int {
	if r.weights == nil {
		return int(r.perm[maxUniform(r.byID, h)])
	}
	best, bestScore := 0, math.Inf(-1)
	for i, s := range r.seeds {
		if sc := Score(r.weights[i], algorithms.Mix64(s^h)); sc > bestScore || (sc == bestScore && r.nodes[i].ID < r.nodes[best].ID) {
			best, bestScore = i, sc
		}
	}
	return best
}

// Score returns the logarithmic-method score -w / ln(u) of a node of weight
// w whose 64-bit mix for the key is x, with u = (x + 0.5) / 2^64 taken at
// 52-bit precision (u = (x>>12 + 0.5) / 2^52, exact in a float64), so u lies
// strictly inside (0, 1) and the score is finite and positive.
func Score(w float64, x uint64) float64 {
	u := (float64(x>>12) + 0.5) / (1 << 52)
	return -w / math.Log(u)
}

// Locate returns the ID of the node that owns key.
func (r *Rendezvous) Locate(key string) string { return r.nodes[r.LocateHash(r.hash.Sum(key))].ID }

// Rebalance rebuilds the placement for nodes; HRW has no state to keep.
func (r *Rendezvous) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	return New(nodes, r.hash)
}
