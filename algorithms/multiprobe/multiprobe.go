// Package multiprobe places keys with multi-probe consistent hashing
// (Appleton & O'Reilly, "Multi-probe consistent hashing", arXiv 1505.00062,
// 2015): each node sits on a ring at one point, each key is hashed to k
// probe positions, and the key belongs to the node whose point follows one
// of the probes most closely (the smallest clockwise distance from a probe
// to the next node point).
//
//   - Lookup: O(k) expected: per probe one read of a lookup table over the
//     top bits of a position (2^b >= 2n buckets) and a scan of about one
//     point; the worst case per probe is the largest bucket.
//   - Memory: 12 bytes per node (64-bit position, 32-bit owner) plus 4 bytes
//     per lookup-table entry (2 to 4 per node): about 20-28 bytes per node,
//     against 28-44 per virtual node for the ring.
//   - Balance: the paper's result: with k probes the peak-to-mean ratio of
//     node shares is about 1 + 1/(k-1) (k = 21 probes: 1.05) with one point
//     per node, the balance a ring reaches only with hundreds of virtual
//     nodes per node. The price is k probes per lookup.
//   - Removal: any node may leave; only its keys move (each key's closest
//     remaining node was already closest among the others). A joining node
//     takes keys only for itself.
//   - Weights: not supported; unequal weights are rejected.
//   - Order: the placement depends only on the member set; points at the
//     same position are ordered by node ID and the first owns it.
//   - Hash: a node's point is the splitmix64 mix of the configured hash of
//     its ID; probe i of a key with hash h is the splitmix64 mix of
//     h + (i+1) * 0x9E3779B97F4A7C15 (the paper uses k seeded hashes of the
//     key; mixing one key hash keeps the key hashed once and gives 64-bit
//     positions even for 32-bit hashes).
//   - Replicas: the paper places one copy; [MultiProbe.Replicas] extends
//     its closest-point rule to the R nodes whose points lie closest after
//     any probe. A node's distance ignores the other nodes, so, as with
//     rendezvous hashing, a join only adds the new node to the sets it
//     enters and a leave only replaces the leaving node.
//   - Reference outputs: the paper publishes none (its evaluation is
//     statistical); the tests check the balance it promises.
package multiprobe

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "multiprobe"

// DefaultProbes is the paper's recommended number of probes, 21, for a
// peak-to-mean ratio of about 1.05.
const DefaultProbes = 21

// MaxProbes bounds the probes per lookup.
const MaxProbes = 1 << 12

// probeStep is the Weyl increment between probe positions (2^64 / golden
// ratio), as in splitmix64.
const probeStep = 0x9E3779B97F4A7C15

// MultiProbe is an immutable multi-probe placement. It is safe for
// concurrent use.
type MultiProbe struct {
	nodes  []algorithms.Node
	hash   algorithms.Hash
	probes int
	pos    []uint64 // node points, ascending
	owner  []int32  // owner[i] = index in nodes of the point pos[i]
	lut    []uint32 // lut[t] = index of the first point whose top bits are >= t
	shift  uint     // 64 - b
}

var _ algorithms.Placer = (*MultiProbe)(nil)

// ValidateProbes checks a probe count: 1 to MaxProbes. The error names k.
func ValidateProbes(k int) error {
	if k < 1 || k > MaxProbes {
		return fmt.Errorf("probes %d: need 1 to %d probes per key", k, MaxProbes)
	}
	return nil
}

// Point returns the ring position of a node whose ID has configured hash
// idHash.
func Point(idHash uint64) uint64 { return algorithms.Mix64(idHash) }

// Probe returns probe i (0-based) of a key with hash h.
func Probe(h uint64, i int) uint64 { return algorithms.Mix64(h + uint64(i+1)*probeStep) }

// New returns the multi-probe placement of nodes with k probes per key under
// hash h. It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]), unequal weights, or k outside 1..MaxProbes.
func New(nodes []algorithms.Node, k int, h algorithms.Hash) (*MultiProbe, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("multiprobe: %w", err)
	}
	if err := algorithms.CheckUniform(Name, nodes); err != nil {
		return nil, err
	}
	if err := ValidateProbes(k); err != nil {
		return nil, fmt.Errorf("multiprobe: %w", err)
	}
	n := len(nodes)
	p := &MultiProbe{nodes: slices.Clone(nodes), hash: h, probes: k}
	idx := make([]int32, n)
	pts := make([]uint64, n)
	for i, nd := range nodes {
		idx[i] = int32(i)
		pts[i] = Point(h.Sum(nd.ID))
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := cmp.Compare(pts[a], pts[b]); c != 0 {
			return c
		}
		return cmp.Compare(nodes[a].ID, nodes[b].ID)
	})
	p.pos = make([]uint64, n)
	p.owner = make([]int32, n)
	for j, i := range idx {
		p.pos[j], p.owner[j] = pts[i], i
	}
	b := bits.Len(uint(2*n - 1)) // 2^b >= 2n
	p.shift = uint(64 - b)
	p.lut = make([]uint32, 1<<b+1) // one sentinel entry past the top bucket
	j := 0
	for t := range p.lut {
		for j < n && p.pos[j]>>p.shift < uint64(t) {
			j++
		}
		p.lut[t] = uint32(j)
	}
	return p, nil
}

// Algorithm returns "multiprobe".
func (p *MultiProbe) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New.
func (p *MultiProbe) Nodes() []algorithms.Node { return p.nodes }

// Probes returns the number of probes per key.
func (p *MultiProbe) Probes() int { return p.probes }

// HashKey returns the configured hash of key.
func (p *MultiProbe) HashKey(key string) uint64 { return p.hash.Sum(key) }

// successor returns the index of the first point at or after x, wrapping
// to 0 past the top.
func (p *MultiProbe) successor(x uint64) int {
	t := x >> p.shift
	j, end := int(p.lut[t]), int(p.lut[t+1])
	for j < end && p.pos[j] < x {
		j++
	}
	if j == len(p.pos) {
		return 0
	}
	return j
}

// LocateHash returns the index into Nodes() of the owner of a key with hash
// h: over the probes, the node point with the smallest clockwise distance
// from a probe (the first probe wins ties).
func (p *MultiProbe) LocateHash(h uint64) int {
	best, bestDist := 0, ^uint64(0)
	for i := 0; i < p.probes; i++ {
		x := Probe(h, i)
		j := p.successor(x)
		if d := p.pos[j] - x; d < bestDist { // wraps modulo 2^64
			best, bestDist = j, d
		}
	}
	return int(p.owner[best])
}

// Locate returns the ID of the node that owns key.
func (p *MultiProbe) Locate(key string) string { return p.nodes[p.LocateHash(p.hash.Sum(key))].ID }

// Rebalance rebuilds the placement for nodes with the same probes and hash;
// it depends only on the member set, so there is no state to keep.
func (p *MultiProbe) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	next, err := New(nodes, p.probes, p.hash)
	if err != nil {
		return nil, err
	}
	return next, nil
}

var _ algorithms.ExactSharer = (*MultiProbe)(nil)

// ExactShares returns each node's exact share of the key hash space,
// indexed like Nodes(), under the model that the k probes of a key are
// independent and uniform. With g_j the arc before node j's point (as a
// fraction of the ring) and F(d) = sum_i min(d, g_i) the chance that one
// probe lands within distance d before some point, node j owns a key when
// its closest probe is at distance d < g_j before it and no probe is
// closer to any point:
//
//	share_j = integral over 0 <= d < g_j of k (1 - F(d))^(k-1) dd,
//
// which is piecewise polynomial between the sorted arcs and is summed here
// in closed form. Points at the same position leave the later one (by node
// ID) an arc of 0 and a share of 0.
func (p *MultiProbe) ExactShares() []float64 {
	n := len(p.pos)
	shares := make([]float64, len(p.nodes))
	if n == 1 {
		shares[p.owner[0]] = 1
		return shares
	}
	const ring = 18446744073709551616.0 // 2^64
	gaps := make([]float64, n)
	order := make([]int, n)
	for j := range p.pos {
		prev := p.pos[(j+n-1)%n]
		gaps[j] = float64(p.pos[j]-prev) / ring // wraps modulo 2^64 for j == 0
		order[j] = j
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(gaps[a], gaps[b]) })
	k := float64(p.probes)
	pow := func(x float64) float64 { return math.Pow(math.Max(0, 1-x), k) }
	// Between consecutive sorted arcs g_(m-1) <= d <= g_(m), F(d) = (sum of
	// the m shorter arcs) + (n-m) d, and the integral of k (1-F)^(k-1) is
	// ((1-F(g_(m-1)))^k - (1-F(g_(m)))^k) / (n-m).
	var cum, below, lo float64 // running share, sum of the shorter arcs, F at the previous arc
	for m, j := range order {
		active := float64(n - m)
		hi := below + active*gaps[j]
		cum += (pow(lo) - pow(hi)) / active
		shares[p.owner[j]] = cum
		below += gaps[j]
		lo = hi
	}
	return shares
}
