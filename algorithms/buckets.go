package algorithms

import "fmt"

// Buckets is the membership of a range hash: an algorithm that maps a key
// hash to a bucket number 0..n-1 (jump, JumpBackHash, FlipHash, PowerCH,
// BinomialHash). Node i owns bucket i. Growing from n to n+1 buckets moves
// keys only to bucket n; only the last bucket can leave without disturbing
// the others, and [SwapLast] is chbench's policy for any other node.
//
// A placer embeds Buckets for [Placer.Nodes] and [Placer.HashKey] and adds
// its own LocateHash, Locate, Algorithm and Rebalance. Buckets is immutable.
type Buckets struct {
	nodes []Node
	hash  Hash
}

// NewBuckets returns the buckets of nodes (bucket i = nodes[i], copied)
// hashed with h. algo prefixes error messages. It returns an error for an
// invalid membership (see [ValidateNodes]), unequal weights (range hashes
// have none), or more than maxBuckets nodes.
func NewBuckets(algo string, nodes []Node, h Hash, maxBuckets int) (Buckets, error) {
	if err := ValidateNodes(nodes); err != nil {
		return Buckets{}, fmt.Errorf("%s: %w", algo, err)
	}
	return bucketsOf(algo, nodes, h, maxBuckets)
}

// Swapped returns the buckets of membership next derived from b in the
// order of [SwapLast], with NewBuckets' errors: the range hashes'
// Rebalance. next is validated once, before the swap.
func (b Buckets) Swapped(algo string, next []Node, maxBuckets int) (Buckets, error) {
	if err := ValidateNodes(next); err != nil {
		return Buckets{}, fmt.Errorf("%s: %w", algo, err)
	}
	return bucketsOf(algo, SwapLast(b.nodes, next), b.hash, maxBuckets)
}

// bucketsOf is NewBuckets for a validated membership.
func bucketsOf(algo string, nodes []Node, h Hash, maxBuckets int) (Buckets, error) {
	if err := CheckUniform(algo, nodes); err != nil {
		return Buckets{}, err
	}
	if len(nodes) > maxBuckets {
		return Buckets{}, fmt.Errorf("%s: %d nodes exceed the %d buckets it supports", algo, len(nodes), maxBuckets)
	}
	return Buckets{nodes: append([]Node(nil), nodes...), hash: h}, nil
}

// Nodes returns the membership in bucket order.
func (b Buckets) Nodes() []Node { return b.nodes }

// HashKey returns the configured hash of key, the 64-bit key the range hash
// takes.
func (b Buckets) HashKey(key string) uint64 { return b.hash.Sum(key) }

// Hash returns the configured key hash.
func (b Buckets) Hash() Hash { return b.hash }

// ID returns the ID of the node in bucket i (0 <= i < len(Nodes())).
func (b Buckets) ID(i int) string { return b.nodes[i].ID }

// SwapLast returns the bucket order for membership next, derived from the
// bucket order cur (nodes matched by ID) with the swap-last policy: surviving
// nodes keep their buckets; each vacated bucket below the new count, lowest
// first, is filled by the node in the highest surviving bucket; joining
// nodes are appended in the order next lists them. Survivors take their
// Node values (weights) from next.
//
// When one node leaves a range hash this way, its keys move to the former
// last node and the former last bucket's keys spread over the rest: about
// 2/n of the keys move instead of the ideal 1/n. Removing the last node
// costs only the ideal 1/n.
func SwapLast(cur, next []Node) []Node {
	want := make(map[string]Node, len(next))
	for _, n := range next {
		want[n.ID] = n
	}
	// Survivors in bucket order, with vacated buckets as holes.
	buckets := make([]Node, 0, len(next))
	var holes []int
	for _, n := range cur {
		if m, ok := want[n.ID]; ok {
			buckets = append(buckets, m)
			delete(want, n.ID)
		} else {
			holes = append(holes, len(buckets))
			buckets = append(buckets, Node{})
		}
	}
	trim := func() {
		for len(buckets) > 0 && buckets[len(buckets)-1].ID == "" {
			buckets = buckets[:len(buckets)-1]
		}
	}
	// Fill each hole, lowest first, with the node in the last bucket, then
	// drop trailing holes.
	for _, h := range holes {
		trim()
		if h >= len(buckets) {
			break
		}
		buckets[h] = buckets[len(buckets)-1]
		buckets = buckets[:len(buckets)-1]
	}
	trim()
	for _, n := range next {
		if _, joining := want[n.ID]; joining {
			buckets = append(buckets, n)
		}
	}
	return buckets
}
