// Package bounded places keys with consistent hashing with bounded loads
// (Mirrokni, Thorup, Zadimoghaddam, "Consistent Hashing with Bounded
// Loads", SODA 2018), in its partition form: keys map to P fixed
// partitions, and the partitions, not the keys, are the balls placed with
// bounded loads on a ring of virtual nodes.
//
// Each node i has capacity ceil(c * P * w_i / W) partitions, with load
// factor c = 1 + eps and W the total weight; the capacities sum to at least
// c*P > P, so every partition finds room. A partition goes to the first
// node clockwise from its ring position that has spare capacity.
//
// Why partitions: the paper's balls are the keys present at a time, and a
// key's owner depends on every key placed before it. A lookup would need
// that state (a table of keys, or the loads and an order), which a pure,
// stateless function of the key cannot have. With a fixed number of
// partitions the state is one table of P owners, built once per
// membership, and the lookup is a pure O(1) function of the key hash: the
// load a node carries is its partition count, bounded by its capacity, and
// each partition holds about 1/P of the keys.
//
//   - Lookup: O(1): partition = (h * P) >> bits, where bits is the hash's
//     width (32 or 64), computed exactly as the high word of the 128-bit
//     product (math/bits.Mul64, a 32-bit hash shifted to the top half
//     first); then one read of the partition table. The partitions split the
//     hash space into P ranges whose sizes differ by at most one hash value.
//   - Memory: 4 bytes per partition for the table and 8 for its ring
//     position (shared by successive placements), plus the ring of virtual
//     nodes (about 16 bytes per virtual node, see package ring).
//   - Removal: any node may leave. Its partitions, and only those (capacities
//     grow when a node leaves, so no survivor is over capacity), are
//     re-placed clockwise from their positions. A joining node takes the
//     partitions whose first virtual node clockwise is now one of its own
//     (up to its capacity); nodes left over their smaller capacity shed
//     their highest-numbered partitions, which are re-placed clockwise. No
//     partition is ever evicted to make room, so one join moves at most the
//     new node's capacity plus the survivors' excess, and a leave moves
//     exactly the leaving node's partitions; the paper's bound for the
//     keyed form is O(1/eps^2) expected moves per update.
//   - Weights: node i gets round(V * w_i) virtual nodes (as in package ring)
//     and capacity ceil(c * P * w_i / W).
//   - Labels: virtual node j of node ID is hashed as "ID#j" (package ring);
//     partition p is hashed as "partition:p" (p in decimal), which contains
//     no '#' and so can never equal a virtual-node label.
//   - Order: a fresh placement depends only on the member set (the ring is
//     order-free and partitions are placed in index order 0..P-1); after
//     rebalances, owners also depend on the history of memberships.
package bounded

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/ring"
)

// Name is the registry name of the algorithm.
const Name = "bounded"

// DefaultEps is the default eps of the load factor c = 1 + eps.
const DefaultEps = 0.25

// DefaultPartitions is the default number of partitions P.
const DefaultPartitions = 16384

// MaxPartitions bounds P (12 bytes per partition: 768 MiB at the bound).
const MaxPartitions = 1 << 26

// Bounded is an immutable placement of P partitions with bounded loads. It
// is safe for concurrent use.
type Bounded struct {
	nodes  []algorithms.Node
	vnodes int
	eps    float64
	hash   algorithms.Hash
	ring   *ring.Ring
	// keyShift moves a 32-bit hash to the top half of a uint64 (32), so
	// that the high word of its product with P is (h*P)>>32; 0 for 64-bit.
	keyShift uint
	parts    uint64   // P
	pos      []uint64 // pos[p] = hash of partition p's label; shared, never written after New
	assign   []int32  // assign[p] = index in nodes of partition p's owner
	loads    []int    // loads[i] = partitions owned by nodes[i]
	caps     []int    // caps[i] = capacity of nodes[i]
}

var _ algorithms.Placer = (*Bounded)(nil)
var _ algorithms.ExactSharer = (*Bounded)(nil)

// PartitionLabel returns the string hashed for partition p's ring position,
// "partition:p".
func PartitionLabel(p int) string { return "partition:" + strconv.Itoa(p) }

// Capacity returns the capacity of a node of weight w in a membership of
// total weight total: ceil((1+eps) * partitions * w / total) partitions,
// at most partitions (a node cannot hold more). The product is formed
// before the division, so that equal weights give exactly ceil(c*P/n) when
// c*P/n is an integer.
func Capacity(eps float64, partitions int, w, total float64) int {
	x := (1 + eps) * float64(partitions) * w / total
	if math.IsInf(x, 0) || math.IsNaN(x) { // the product overflowed
		x = (1 + eps) * float64(partitions) * (w / total)
	}
	if x >= float64(partitions) {
		return partitions
	}
	return int(math.Ceil(x))
}

// New places partitions partitions on nodes with vnodes virtual nodes per
// unit of weight, load factor c = 1 + eps and key hash h, placing the
// partitions in index order 0..P-1. It returns an error naming the bad
// value for an invalid membership (see [algorithms.ValidateNodes]), vnodes
// < 1, eps <= 0, NaN, Inf or so small that 1+eps == 1, partitions < 1 or > MaxPartitions, more nodes
// than partitions, or the ring errors of [ring.New].
func New(nodes []algorithms.Node, vnodes int, eps float64, partitions int, h algorithms.Hash) (*Bounded, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("bounded: %w", err)
	}
	if vnodes < 1 {
		return nil, fmt.Errorf("bounded: vnodes %d: need at least 1 virtual node per node", vnodes)
	}
	if math.IsNaN(eps) || math.IsInf(eps, 0) || eps <= 0 {
		return nil, fmt.Errorf("bounded: eps %v: the load factor c = 1 + eps needs a finite eps > 0", eps)
	}
	if 1+eps == 1 {
		return nil, fmt.Errorf("bounded: eps %v: too small, 1 + eps rounds to 1 in float64", eps)
	}
	if partitions < 1 || partitions > MaxPartitions {
		return nil, fmt.Errorf("bounded: partitions %d: need 1 to %d partitions", partitions, MaxPartitions)
	}
	pos := make([]uint64, partitions)
	for p := range pos {
		pos[p] = h.Sum(PartitionLabel(p))
	}
	b := &Bounded{vnodes: vnodes, eps: eps, hash: h, parts: uint64(partitions), pos: pos}
	if h.Bits() == 32 {
		b.keyShift = 32
	}
	next, err := b.rebalance(nodes, true)
	if err != nil {
		return nil, err
	}
	return next, nil
}

// rebalance builds the placement of nodes with b's configuration. With
// fresh set, b's assignment is ignored and every partition is placed in
// index order; otherwise it starts from b's assignment (see Rebalance).
func (b *Bounded) rebalance(nodes []algorithms.Node, fresh bool) (*Bounded, error) {
	next, err := b.successor(nodes)
	if err != nil {
		return nil, err
	}
	if fresh {
		for p := range next.assign {
			next.assign[p] = unplaced
		}
	} else {
		next.keep(b)
	}
	next.placeUnplaced()
	return next, nil
}

// unplaced marks a partition not yet assigned to a node.
const unplaced = -1

// successor returns the placement of nodes with b's settings and partition
// positions, its ring and capacities computed and no partition assigned
// yet. It returns an error for an invalid membership, more nodes than
// partitions, or capacities that cannot hold every partition.
func (b *Bounded) successor(nodes []algorithms.Node) (*Bounded, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("bounded: %w", err)
	}
	P := int(b.parts)
	if len(nodes) > P {
		return nil, fmt.Errorf("bounded: %d nodes exceed the %d partitions", len(nodes), P)
	}
	r, err := ring.New(nodes, b.vnodes, b.hash)
	if err != nil {
		return nil, fmt.Errorf("bounded: %w", err)
	}
	total := algorithms.TotalWeight(nodes)
	if math.IsInf(total, 0) {
		return nil, fmt.Errorf("bounded: total weight overflows (%v)", total)
	}
	next := &Bounded{
		nodes: slices.Clone(nodes), vnodes: b.vnodes, eps: b.eps, hash: b.hash, ring: r,
		keyShift: b.keyShift, parts: b.parts, pos: b.pos,
		assign: make([]int32, P), loads: make([]int, len(nodes)), caps: make([]int, len(nodes)),
	}
	sumCaps := 0
	for i, n := range nodes {
		next.caps[i] = Capacity(b.eps, P, n.Weight, total)
		sumCaps += next.caps[i]
	}
	if sumCaps < P {
		// Sum of ceil(c*P*w_i/W) >= c*P > P; this guards against rounding.
		return nil, fmt.Errorf("bounded: eps %v: capacities sum to %d, fewer than the %d partitions", b.eps, sumCaps, P)
	}
	return next, nil
}

// keep carries prev's assignment over to b, the next membership: each
// partition stays on its node if the node remains, one whose first
// virtual node clockwise now belongs to a joined node moves to it while
// the node has room, and nodes over their new capacity shed their
// highest-numbered partitions; the rest are left unplaced.
func (b *Bounded) keep(prev *Bounded) {
	newIndex := make(map[string]int32, len(b.nodes))
	for i, n := range b.nodes {
		newIndex[n.ID] = int32(i)
	}
	remap := make([]int32, len(prev.nodes)) // old index -> new index, or unplaced
	joined := make([]bool, len(b.nodes))
	for i := range joined {
		joined[i] = true
	}
	for i, n := range prev.nodes {
		j, ok := newIndex[n.ID]
		if !ok {
			j = unplaced
		} else {
			joined[j] = false
		}
		remap[i] = j
	}
	for p, o := range prev.assign {
		j := remap[o]
		b.assign[p] = j
		if j != unplaced {
			b.loads[j]++
		}
	}
	for p := range b.assign {
		first := int32(b.ring.At(b.ring.Search(b.pos[p])).Owner)
		if o := b.assign[p]; joined[first] && o != first && b.loads[first] < b.caps[first] {
			if o != unplaced {
				b.loads[o]--
			}
			b.assign[p] = first
			b.loads[first]++
		}
	}
	for p := len(b.assign) - 1; p >= 0; p-- {
		if o := b.assign[p]; o != unplaced && b.loads[o] > b.caps[o] {
			b.loads[o]--
			b.assign[p] = unplaced
		}
	}
}

// placeUnplaced places every unplaced partition, in index order, on the
// first node clockwise from its position with spare capacity. The
// capacities sum to at least the partitions, so the walk ends within one
// turn of the ring.
func (b *Bounded) placeUnplaced() {
	r := b.ring
	n := r.Len()
	for p := range b.assign {
		if b.assign[p] != unplaced {
			continue
		}
		i := r.Search(b.pos[p])
		for {
			o := r.At(i).Owner
			if b.loads[o] < b.caps[o] {
				b.assign[p] = int32(o)
				b.loads[o]++
				break
			}
			if i++; i == n {
				i = 0
			}
		}
	}
}

// Algorithm returns "bounded".
func (b *Bounded) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New or Rebalance.
func (b *Bounded) Nodes() []algorithms.Node { return b.nodes }

// Eps returns eps of the load factor c = 1 + eps.
func (b *Bounded) Eps() float64 { return b.eps }

// Partitions returns the number of partitions P.
func (b *Bounded) Partitions() int { return int(b.parts) }

// Ring returns the ring of virtual nodes the partitions are placed on. Its
// owner indexes are indexes into Nodes().
func (b *Bounded) Ring() *ring.Ring { return b.ring }

// Load returns the number of partitions owned by node i (an index into
// Nodes()).
func (b *Bounded) Load(i int) int { return b.loads[i] }

// Cap returns the capacity of node i: ceil((1+eps) * P * w_i / W)
// partitions. Load(i) <= Cap(i) always.
func (b *Bounded) Cap(i int) int { return b.caps[i] }

// PartitionPos returns the ring position of partition p (0 <= p < P): the
// configured hash of PartitionLabel(p), not yet top-aligned.
func (b *Bounded) PartitionPos(p int) uint64 { return b.pos[p] }

// Owner returns the index into Nodes() of the owner of partition p
// (0 <= p < P).
func (b *Bounded) Owner(p int) int { return int(b.assign[p]) }

// HashKey returns the configured hash of key.
func (b *Bounded) HashKey(key string) uint64 { return b.hash.Sum(key) }

// Partition returns the partition of key hash h, 0..P-1: (h * P) >> 64 for
// a 64-bit hash, (h * P) >> 32 for a 32-bit one (whose h < 2^32).
func (b *Bounded) Partition(h uint64) int {
	hi, _ := bits.Mul64(h<<b.keyShift, b.parts)
	return int(hi)
}

// LocateHash returns the index into Nodes() of the owner of key hash h: the
// owner of its partition.
func (b *Bounded) LocateHash(h uint64) int { return int(b.assign[b.Partition(h)]) }

// Locate returns the ID of the node that owns key.
func (b *Bounded) Locate(key string) string { return b.nodes[b.LocateHash(b.hash.Sum(key))].ID }

// Rebalance returns the placement for a new membership from the current
// assignment, with the same vnodes, eps, partitions and hash. Partitions
// keep their owner if it survives (matched by ID); a partition whose first
// virtual node clockwise on the new ring belongs to a newly joined node
// moves to it while that node has spare capacity (partitions in index
// order); nodes over their new capacity shed their highest-numbered
// partitions; then the partitions of departed nodes and the shed ones are
// placed, in index order, on the first node clockwise from their position
// with spare capacity. It is deterministic. It returns the same errors as
// New; the receiver is unchanged.
func (b *Bounded) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	next, err := b.rebalance(nodes, false)
	if err != nil {
		return nil, err // not a typed nil *Bounded inside the interface
	}
	return next, nil
}

// ExactShares returns each node's partition count divided by P, indexed
// like Nodes(). Partitions cover equal ranges of the hash space up to one
// hash value in 2^bits, so this is the node's share of it.
func (b *Bounded) ExactShares() []float64 {
	shares := make([]float64, len(b.loads))
	for i, l := range b.loads {
		shares[i] = float64(l) / float64(b.parts)
	}
	return shares
}
