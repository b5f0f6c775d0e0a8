// Package algorithms states the model shared by every key-placement
// algorithm in chbench: a [Node] (ID and weight), the [Placer] interface that
// the algorithm packages under algorithms/ implement, the membership helpers
// ([Join], [Leave], [ValidateNodes]) and the registry of key hash functions
// ([LookupHash]).
//
// The algorithms themselves live in one small package each under
// algorithms/; the catalog package lists them, maps their names to
// constructors and states their facts, so that the CLI, benchmarks,
// analyses and plots iterate one list.
package algorithms

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chbench/chbench/internal/text"
)

// Node is one member of a placement: a unique ID (the owner name reported at
// every boundary) and a relative weight, > 0 and finite. A node of weight 2
// should own twice the keys of a node of weight 1, as far as the algorithm
// supports weights.
type Node struct {
	ID     string
	Weight float64
}

// Placer is a placement of keys on one membership. A Placer is immutable:
// every method is safe for concurrent use, and the lookups (HashKey,
// LocateHash, Locate) never allocate and never lock. A service changes
// membership by building the next Placer with Rebalance and swapping it in
// with an atomic pointer.
type Placer interface {
	// Algorithm returns the registry name of the algorithm ("ring", "jump", ...).
	Algorithm() string
	// Nodes returns the membership, indexed as LocateHash reports owners.
	// The order is the placer's own (for jump, bucket order), which may
	// differ from the order the nodes were given in. Callers must not modify
	// the returned slice.
	Nodes() []Node
	// HashKey returns the hash of key that LocateHash takes: the configured
	// hash function's value (zero-extended when 32-bit), or for slots the
	// Redis Cluster hash slot 0..16383.
	HashKey(key string) uint64
	// LocateHash returns the index into Nodes() of the owner of a key whose
	// HashKey is h. It is the placement step alone, without hashing the key.
	LocateHash(h uint64) int
	// Locate returns the ID of the node that owns key.
	Locate(key string) string
	// Rebalance returns the placement for a new membership, derived from
	// this one: stateless algorithms rebuild, stateful ones (slots,
	// bounded, anchor, memento, dx; catalog Info.Stateful) move as little
	// as their rule allows from their current assignment.
	// Nodes are matched by ID. The receiver is unchanged. It returns the
	// same errors as the algorithm's constructor.
	Rebalance(nodes []Node) (Placer, error)
}

// ErrNoNodes is returned (wrapped) when a placement is asked for on an
// empty membership.
var ErrNoNodes = errors.New("membership is empty: a placement needs at least one node")

// MaxNodes is the largest membership chbench accepts (2^20 nodes). It keeps
// a mistyped node count (say 100,000,000) a prompt error instead of tens of
// gigabytes of node lists, ID maps and ring points before any algorithm
// could object; the largest published comparisons use 10^4 to 10^5 nodes.
const MaxNodes = 1 << 20

// MinWeightShare is the smallest weight share w_i/W a node may have: 2^-53,
// the relative precision of a float64. A smaller weight vanishes in the
// rounding of the total weight W (1 + 2^-60 == 1), and the normalised load
// share_i/(w_i/W) of the spread analysis would overflow or divide by zero.
const MinWeightShare = 0x1p-53

// ValidateNodes checks a membership: 1 to MaxNodes nodes, every ID
// non-empty, plain text (internal/text: valid UTF-8, no control
// characters such as newline or tab, since owners are printed one per
// line, and no invisible format characters such as a byte-order mark,
// since two IDs that look the same must be the same), without white space
// at either end, and unique, every weight > 0 and finite, the total
// weight W finite, and every weight share w_i/W at least MinWeightShare, so
// that every algorithm and analysis can compute shares (the same rule for
// every algorithm: weights are refused, never rescaled). The error names
// the first bad value and its position (0-based).
func ValidateNodes(nodes []Node) error {
	if len(nodes) == 0 {
		return ErrNoNodes
	}
	if len(nodes) > MaxNodes {
		return fmt.Errorf("%d nodes: at most %d nodes", len(nodes), MaxNodes)
	}
	seen := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if err := ValidateID(n.ID); err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
		if j, dup := seen[n.ID]; dup {
			return fmt.Errorf("duplicate node ID %q at positions %d and %d", n.ID, j, i)
		}
		seen[n.ID] = i
		if err := ValidateWeight(n.Weight); err != nil {
			return fmt.Errorf("node %q: %w", n.ID, err)
		}
	}
	return ValidateShares(nodes)
}

// ValidateID checks one node ID by ValidateNodes' rule: non-empty, plain
// text (internal/text), no white space at either end. The error names
// the ID.
func ValidateID(id string) error {
	if id == "" {
		return errors.New("empty node ID")
	}
	if err := text.Check(id); err != nil {
		return fmt.Errorf("node ID %q: %w (an ID is written as text into every output)", id, err)
	}
	if strings.TrimSpace(id) != id {
		return fmt.Errorf("node ID %q begins or ends with white space", id)
	}
	return nil
}

// ValidateShares checks the part of ValidateNodes that depends on the
// whole membership's weights: that the total weight of nodes (each weight
// already finite and > 0) is finite and that every weight share is at
// least MinWeightShare. Callers that validate a membership incrementally
// (new nodes only) call it on the whole.
func ValidateShares(nodes []Node) error {
	w := TotalWeight(nodes)
	if math.IsInf(w, 0) {
		big := nodes[0]
		for _, n := range nodes {
			if n.Weight > big.Weight {
				big = n
			}
		}
		return fmt.Errorf("weights sum to %v (node %q has weight %v): the total weight must be a finite float64; scale the weights down", w, big.ID, big.Weight)
	}
	for _, n := range nodes {
		if n.Weight/w < MinWeightShare {
			return fmt.Errorf("node %q: weight %v is %.3g of the total weight %v, below the smallest share 2^-53 (%.3g) a float64 can resolve; raise it or scale the others down",
				n.ID, n.Weight, n.Weight/w, w, MinWeightShare)
		}
	}
	return nil
}

// ValidateWeight reports whether w is a usable node weight: > 0 and finite.
func ValidateWeight(w float64) error {
	if math.IsNaN(w) || math.IsInf(w, 0) || w <= 0 {
		return fmt.Errorf("weight %v must be a finite number > 0", w)
	}
	return nil
}

// Uniform reports whether every node has the same weight.
func Uniform(nodes []Node) bool {
	_, ok := unequal(nodes)
	return !ok
}

// unequal returns the first node whose weight differs from the first
// node's, and whether there is one.
func unequal(nodes []Node) (Node, bool) {
	for _, n := range nodes[1:] {
		if n.Weight != nodes[0].Weight {
			return n, true
		}
	}
	return Node{}, false
}

// CheckUniform returns nil when every node of nodes (at least one) has the
// same weight, else the error of algorithm algo, which takes equal
// weights only, naming the first node and the first node of another
// weight: "jump: weights are not supported (node "a" has weight 1, node
// "b" 2)".
func CheckUniform(algo string, nodes []Node) error {
	n, ok := unequal(nodes)
	if !ok {
		return nil
	}
	return fmt.Errorf("%s: weights are not supported (node %q has weight %v, node %q %v)",
		algo, nodes[0].ID, nodes[0].Weight, n.ID, n.Weight)
}

// TotalWeight returns the sum of the nodes' weights.
func TotalWeight(nodes []Node) float64 {
	var w float64
	for _, n := range nodes {
		w += n.Weight
	}
	return w
}

// NodeID returns the default ID of the node at 0-based index i: "node-i".
func NodeID(i int) string { return "node-" + strconv.Itoa(i) }

// DefaultNodes returns n nodes of weight 1 with the default IDs node-0 ...
// node-{n-1}. It returns an error naming n when n < 1 or n > MaxNodes,
// before allocating anything.
func DefaultNodes(n int) ([]Node, error) {
	if n < 1 {
		return nil, fmt.Errorf("nodes %d: need at least 1 node", n)
	}
	if n > MaxNodes {
		return nil, fmt.Errorf("nodes %d: at most %d nodes", n, MaxNodes)
	}
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = Node{ID: NodeID(i), Weight: 1}
	}
	return nodes, nil
}

// Join returns the placement after the given nodes join p's membership
// (appended after the current nodes, in the order given).
func Join(p Placer, joining ...Node) (Placer, error) {
	cur := p.Nodes()
	next := make([]Node, 0, len(cur)+len(joining))
	next = append(next, cur...)
	next = append(next, joining...)
	return p.Rebalance(next)
}

// Leave returns the placement after the nodes with the given IDs leave p's
// membership. The remaining nodes keep their order. It returns an error
// naming an ID that is not a member, or ErrNoNodes when no node would remain.
func Leave(p Placer, ids ...string) (Placer, error) {
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	cur := p.Nodes()
	next := make([]Node, 0, len(cur))
	for _, n := range cur {
		if gone[n.ID] {
			delete(gone, n.ID)
			continue
		}
		next = append(next, n)
	}
	for _, id := range ids {
		if gone[id] {
			return nil, fmt.Errorf("node %q is not a member", id)
		}
	}
	if len(next) == 0 {
		return nil, ErrNoNodes
	}
	return p.Rebalance(next)
}

// ParseWeights parses a comma-separated list of weights ("1,1,2,4"). Each
// must be a finite number > 0; the error names the bad entry.
func ParseWeights(s string) ([]float64, error) {
	parts := strings.Split(s, ",")
	ws := make([]float64, len(parts))
	for i, p := range parts {
		w, err := ParseDecimal(p)
		if err != nil {
			return nil, fmt.Errorf("weight %q (entry %d): not a number: %w", p, i, err)
		}
		if err := ValidateWeight(w); err != nil {
			return nil, fmt.Errorf("weight %q (entry %d): %w", p, i, err)
		}
		ws[i] = w
	}
	return ws, nil
}

// IndexOf returns the index in nodes of the node with the given ID, or -1.
func IndexOf(nodes []Node, id string) int {
	for i, n := range nodes {
		if n.ID == id {
			return i
		}
	}
	return -1
}

// ExactSharer is implemented by placers whose per-node share of the key
// hash space can be computed exactly instead of sampled: ring arcs, slot
// counts, partition counts. ExactShares returns one fraction (0..1) per node,
// indexed like Nodes(), summing to 1 up to rounding.
type ExactSharer interface {
	ExactShares() []float64
}
