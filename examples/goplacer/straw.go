// Package goplacer is an example of a placement written outside chbench,
// in its own Go module, and plugged into chbench without forking it: it
// implements algorithms.Placer, describes itself in a catalog.Info, and
// is registered with catalog.Register. Its test runs chbench's
// conformance suite and placertest's checks on it; cmd/chbench-straw runs
// chbench on it from its own main.
//
// The placement is "straw": weighted rendezvous hashing with exponential
// draws, as Ceph's straw2 buckets place data (Weil et al., SC 2006; Ceph
// src/crush/mapper.c). Node i draws ln(u_i)/w_i for a key, u_i uniform in
// (0, 1) from the key's hash mixed with the node's, and the largest draw
// wins, so node i owns w_i/W of the keys and a change of one node's
// weight or presence moves keys only to or from that node.
package goplacer

import (
	"fmt"
	"math"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// Name is the placement's catalog name.
const Name = "straw"

// Info is the catalog entry: name, promises and constructor.
var Info = catalog.Info{
	Name: Name, Lookup: "O(n)", Memory: "16 B per node", Removal: "any; only its keys move (1/n)",
	Weights: "exponential draws ln(u)/w", Source: "straw2 (Weil et al. 2006)", UsesHash: true,
	Weighted: true, JoinMinimal: true, LeaveMinimal: true,
	Build: func(nodes []algorithms.Node, cfg catalog.Config) (algorithms.Placer, error) {
		return New(nodes, algorithms.MustHash(cfg.Hash))
	},
}

// Straw is an immutable straw placement, safe for concurrent use; lookups
// do not allocate.
type Straw struct {
	nodes []algorithms.Node
	seeds []uint64  // per node: the hash of its ID
	inv   []float64 // per node: 1/w
	hash  algorithms.Hash
}

// New returns the straw placement of nodes under the key hash h. It
// returns an error for an invalid membership (algorithms.ValidateNodes).
func New(nodes []algorithms.Node, h algorithms.Hash) (*Straw, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	s := &Straw{nodes: append([]algorithms.Node(nil), nodes...), seeds: make([]uint64, len(nodes)), inv: make([]float64, len(nodes)), hash: h}
	for i, n := range nodes {
		s.seeds[i] = algorithms.Mix64(h.Sum(n.ID))
		s.inv[i] = 1 / n.Weight
	}
	return s, nil
}

func (s *Straw) Algorithm() string         { return Name }
func (s *Straw) Nodes() []algorithms.Node  { return s.nodes }
func (s *Straw) HashKey(key string) uint64 { return s.hash.Sum(key) }
func (s *Straw) Locate(key string) string  { return s.nodes[s.LocateHash(s.HashKey(key))].ID }

// LocateHash returns the node with the largest draw ln(u_i)/w_i, u_i =
// (top 53 bits of Mix64(h ^ seed_i) + 0.5) / 2^53, in (0, 1); ties (which
// need equal draws) go to the smaller node ID.
func (s *Straw) LocateHash(h uint64) int {
	best, bestDraw := 0, math.Inf(-1)
	for i, seed := range s.seeds {
		u := (float64(algorithms.Mix64(h^seed)>>11) + 0.5) / (1 << 53)
		d := math.Log(u) * s.inv[i]
		if d > bestDraw || d == bestDraw && s.nodes[i].ID < s.nodes[best].ID {
			best, bestDraw = i, d
		}
	}
	return best
}

// Rebalance returns the placement of a new membership (straw is
// stateless: it rebuilds).
func (s *Straw) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	return New(nodes, s.hash)
}
