package domainaware

import (
	"fmt"
	"slices"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/rendezvous"
	"github.com/chbench/chbench/topology"
)

// HierarchyName is the Algorithm name of a [Hierarchy].
const HierarchyName = "hierarchy"

// Hierarchy is the hierarchical placement: a key descends the topology
// from the outermost level, at each level choosing among the current
// domain's children by weighted rendezvous (the logarithmic method,
// -w/ln(u), w the child's total node weight), and finally a node of the
// innermost domain the same way. Replica k descends again with rank k
// salted into the scores, skipping at the failure-domain level every
// domain already holding a replica, and above it every domain whose
// failure domains all hold one; so R replicas lie in R distinct failure
// domains whenever R is at most their number (then the rest follow
// [algorithms.FillDomains]).
//
// It implements [algorithms.Placer] and [algorithms.Replicator], is
// immutable and safe for concurrent use, and its lookups do not allocate.
// Lookup: O(sum of the children met on the path) per replica.
type Hierarchy struct {
	topo     *topology.Topology
	level    int // failure-domain level
	nodes    []algorithms.Node
	hash     algorithms.Hash
	nodeSeed []uint64
	nodeDom  []int32 // failure domain of each node
	// Per level l: seed and weight of each domain, its children (domains
	// at l+1, or node indexes below the innermost level), the number of
	// failure domains under it (l <= level) and, for failure domains, the
	// ancestor at each level above.
	seed     [][]uint64
	weight   [][]float64
	children [][][]int32
	top      []int32
	under    [][]int32
	ancestor [][]int32 // [failure domain][l]
}

var (
	_ algorithms.Placer     = (*Hierarchy)(nil)
	_ algorithms.Replicator = (*Hierarchy)(nil)
)

// NewHierarchy returns the hierarchical placement of t's nodes with
// replicas in distinct domains at level failureDomain, hashing keys,
// node IDs and "level/domain" labels with h. It returns an error for a
// flat topology (no domain to choose) and for an unknown level.
func NewHierarchy(t *topology.Topology, failureDomain string, h algorithms.Hash) (*Hierarchy, error) {
	fd, err := t.Level(failureDomain)
	if err != nil {
		return nil, fmt.Errorf("hierarchy: %w", err)
	}
	levels := t.Levels()
	L := len(levels)
	p := &Hierarchy{topo: t, level: fd, nodes: t.Nodes(), hash: h,
		seed: make([][]uint64, L), weight: make([][]float64, L), children: make([][][]int32, L), under: make([][]int32, L)}
	p.nodeSeed = make([]uint64, len(p.nodes))
	for i, n := range p.nodes {
		p.nodeSeed[i] = h.Sum(n.ID)
	}
	p.nodeDom = slices.Clone(t.DomainOf(fd))
	for l := range L {
		names := t.Domains(l)
		p.seed[l] = make([]uint64, len(names))
		for d, name := range names {
			p.seed[l][d] = h.Sum(levels[l] + "/" + name)
		}
		p.weight[l] = t.DomainWeights(l)
		p.children[l] = make([][]int32, len(names))
		if l == 0 {
			for d := range names {
				p.top = append(p.top, int32(d))
			}
		} else {
			for d := range names {
				up := t.Parent(l, d)
				p.children[l-1][up] = append(p.children[l-1][up], int32(d))
			}
		}
	}
	for i := range p.nodes {
		d := t.DomainOf(L - 1)[i]
		p.children[L-1][d] = append(p.children[L-1][d], int32(i))
	}
	nfd := len(t.Domains(fd))
	p.ancestor = make([][]int32, nfd)
	for d := range nfd {
		p.ancestor[d] = make([]int32, fd+1)
		a := d
		for l := fd; l >= 0; l-- {
			p.ancestor[d][l] = int32(a)
			if l > 0 {
				a = t.Parent(l, a)
			}
		}
	}
	for l := 0; l <= fd; l++ {
		p.under[l] = make([]int32, len(t.Domains(l)))
	}
	for d := range nfd {
		for l := 0; l <= fd; l++ {
			p.under[l][p.ancestor[d][l]]++
		}
	}
	return p, nil
}

// Algorithm returns "hierarchy".
func (p *Hierarchy) Algorithm() string { return HierarchyName }

// Nodes returns the topology's nodes.
func (p *Hierarchy) Nodes() []algorithms.Node { return p.nodes }

// Topology returns the topology the placement descends.
func (p *Hierarchy) Topology() *topology.Topology { return p.topo }

// HashKey returns the configured hash of key.
func (p *Hierarchy) HashKey(key string) uint64 { return p.hash.Sum(key) }

// Locate returns the ID of the owner of key.
func (p *Hierarchy) Locate(key string) string { return p.nodes[p.LocateHash(p.hash.Sum(key))].ID }

// LocateHash returns the owner: the node the rank-0 descent reaches.
func (p *Hierarchy) LocateHash(h uint64) int { return p.descend(h, 0, nil) }

// Replicas implements [algorithms.Replicator]: one descent per rank,
// each avoiding the failure domains already used, then
// [algorithms.FillDomains] once every failure domain holds a replica.
func (p *Hierarchy) Replicas(h uint64, dst []int) []int {
	want := min(len(dst), len(p.nodes), algorithms.MaxReplicas)
	out := dst[:0]
	if want == 0 {
		return out
	}
	var used [algorithms.MaxReplicas]int32
	nfd := len(p.ancestor)
	for r := 0; r < want && r < nfd; r++ {
		n := p.descend(h, r, used[:r])
		out = append(out, n)
		used[r] = p.nodeDom[n]
	}
	return algorithms.FillDomains(out, want, len(p.nodes), p.nodeDom)
}

// score is the weighted rendezvous score of an item of seed s and weight
// w for key hash h at rank r.
func score(s uint64, w float64, h uint64, r int) float64 {
	return rendezvous.Score(w, algorithms.Mix64(s^algorithms.Mix64(h+uint64(r)*algorithms.ReplicaSalt)))
}

// full reports whether every failure domain under domain d of level l
// (l <= p.level) is in used.
func (p *Hierarchy) full(l int, d int32, used []int32) bool {
	k := int32(0)
	for _, u := range used {
		if p.ancestor[u][l] == d {
			k++
		}
	}
	return k >= p.under[l][d]
}

// descend returns the node reached by the rank-r descent avoiding the
// failure domains in used (at least one must be free).
func (p *Hierarchy) descend(h uint64, r int, used []int32) int {
	cand := p.top
	for l := range p.seed {
		best, bestScore := int32(-1), 0.0
		for _, d := range cand {
			if l <= p.level && p.full(l, d, used) {
				continue
			}
			if s := score(p.seed[l][d], p.weight[l][d], h, r); best < 0 || s > bestScore {
				best, bestScore = d, s
			}
		}
		cand = p.children[l][best]
	}
	best, bestScore := int32(-1), 0.0
	for _, i := range cand {
		if s := score(p.nodeSeed[i], p.nodes[i].Weight, h, r); best < 0 || s > bestScore {
			best, bestScore = i, s
		}
	}
	return int(best)
}

// Rebalance returns the hierarchy of the topology restricted to nodes
// (matched by ID); a node the topology does not place is an error (build
// a new topology and call NewHierarchy).
func (p *Hierarchy) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("hierarchy: %w", err)
	}
	t, err := p.topo.Place(nodes) // each node in its domains, with its new weight
	if err != nil {
		return nil, fmt.Errorf("hierarchy: %w", err)
	}
	return NewHierarchy(t, p.topo.Levels()[p.level], p.hash)
}

// Locator returns p as an [algorithms.Locator] (its own replicas) that
// also follows topology changes by rebuilding: the hierarchy depends only
// on the topology's names and weights, so RebalanceTopology is
// NewHierarchy of the new topology. hashBits is the key hash's width.
func (p *Hierarchy) Locator(hashBits int) *HierarchyLocator {
	return &HierarchyLocator{Locator: algorithms.AsLocator(p, hashBits), p: p, bits: hashBits}
}

// HierarchyLocator is the [algorithms.Locator] of a [Hierarchy].
type HierarchyLocator struct {
	algorithms.Locator
	p    *Hierarchy
	bits int
}

// Rebalance returns the locator of p.Rebalance(nodes).
func (l *HierarchyLocator) Rebalance(nodes []algorithms.Node) (algorithms.Locator, error) {
	q, err := l.p.Rebalance(nodes)
	if err != nil {
		return nil, err
	}
	return q.(*Hierarchy).Locator(l.bits), nil
}

// RebalanceTopology returns the locator of the hierarchy of t, with the
// same failure domain and hash.
func (l *HierarchyLocator) RebalanceTopology(t *topology.Topology) (algorithms.Locator, error) {
	q, err := NewHierarchy(t, l.p.topo.Levels()[l.p.level], l.p.hash)
	if err != nil {
		return nil, err
	}
	return q.Locator(l.bits), nil
}
