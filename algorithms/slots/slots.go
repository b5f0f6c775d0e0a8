// Package slots places keys the way Redis Cluster does (Redis Cluster
// specification, "Key distribution model" and "Hash tags"): every key maps to
// one of 16,384 hash slots, slot = CRC-16/XMODEM(key) mod 16384, and a table
// assigns each hash slot to a node explicitly.
//
//   - Lookup: O(1): one CRC-16 over the key (or its hash tag) and one read
//     of the slot table.
//   - Memory: 2 bytes per hash slot (a 32 KiB table) plus O(n).
//   - Removal: any node may leave; its slots, and only its slots, migrate.
//     [Slots.Rebalance] moves the minimum number of slots the new target
//     counts allow: slots of departed nodes and the excess of nodes above
//     their new target. A node joining n equal nodes takes about 16384/(n+1)
//     slots, all from the others' excess.
//   - Weights: node i's target is the floor or the ceiling of its weighted
//     share 16384*w_i/W (largest-remainder rounding), so counts sum to
//     16,384. A node whose share rounds to 0 slots is an error, as is a
//     membership of more than 16,384 nodes. With n equal nodes the
//     peak-to-mean ratio is exactly ceil(16384/n)/(16384/n).
//   - Order: owners depend on the order nodes are listed in (a new cluster
//     hands out contiguous slot ranges in membership order) and on the
//     history of rebalances, as in a real cluster.
//   - Hash: slots always use CRC-16 (poly 0x1021, init 0, no reflection, no
//     final xor), as Redis does; the configured key hash is ignored.
package slots

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "slots"

// NumSlots is the number of hash slots of a Redis Cluster.
const NumSlots = 16384

// slotMask keeps the low 14 bits of a CRC-16: crc mod 16384.
const slotMask = NumSlots - 1

// crcTable[b] is the CRC-16/XMODEM of the single byte b: the polynomial
// division of b<<8 by x^16 + x^12 + x^5 + 1 (0x1021), MSB first.
var crcTable = func() (t [256]uint16) {
	for b := range t {
		crc := uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
		t[b] = crc
	}
	return t
}()

// CRC16 returns the CRC-16/XMODEM of the bytes of b (polynomial 0x1021,
// initial value 0, input and output not reflected, no final xor), the
// checksum Redis Cluster uses for key slots. CRC16("123456789") = 0x31C3.
// It does not allocate.
func CRC16(b string) uint16 {
	var crc uint16
	for i := 0; i < len(b); i++ {
		crc = crc<<8 ^ crcTable[byte(crc>>8)^b[i]]
	}
	return crc
}

// KeySlot returns the Redis Cluster hash slot of key, 0..16383:
// CRC16(k) & 0x3FFF, where k is the key's hash tag if it has one, else the
// whole key. The hash tag is the text between the first '{' and the first
// '}' after it, used only when it is non-empty: "foo{bar}zap" hashes "bar",
// "foo{}{bar}" hashes the whole key, "foo{{bar}}zap" hashes "{bar". It does
// not allocate.
func KeySlot(key string) int {
	if open := strings.IndexByte(key, '{'); open >= 0 {
		if n := strings.IndexByte(key[open+1:], '}'); n > 0 {
			key = key[open+1 : open+1+n]
		}
	}
	return int(CRC16(key) & slotMask)
}

// Slots is an immutable assignment of the 16,384 hash slots to nodes. It is
// safe for concurrent use.
type Slots struct {
	nodes  []algorithms.Node
	counts []int            // counts[i] = hash slots owned by nodes[i]
	table  [NumSlots]uint16 // table[slot] = index of the owner in nodes
}

var _ algorithms.Placer = (*Slots)(nil)
var _ algorithms.ExactSharer = (*Slots)(nil)

// New returns the slot assignment of a new cluster of nodes: node 0 gets
// the first Targets(nodes, nil)[0] slots, node 1 the next contiguous range, and
// so on. It returns an error for an invalid membership (see
// [algorithms.ValidateNodes]), more than 16,384 nodes, or a node whose
// weighted share rounds to 0 slots.
func New(nodes []algorithms.Node) (*Slots, error) {
	// A new cluster is a rebalance from an empty one: every slot is free and
	// nodes take the lowest free slots in membership order.
	return assign(nodes, nil)
}

// Targets returns the slot count each node is given, indexed like nodes:
// the floor or the ceiling of its weighted share 16384*w_i/W, with the
// ceilings going to the largest fractional parts so the counts sum to
// 16,384. Ties between equal fractional parts go to the node that holds more
// slots in current (indexed like nodes; nil means none hold any), which
// saves moves, then to the earlier node. It returns an error for an invalid
// membership, more than 16,384 nodes, or a node whose target is 0.
func Targets(nodes []algorithms.Node, current []int) ([]int, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("slots: %w", err)
	}
	if len(nodes) > NumSlots {
		return nil, fmt.Errorf("slots: %d nodes exceed the %d hash slots", len(nodes), NumSlots)
	}
	if current != nil && len(current) != len(nodes) {
		return nil, fmt.Errorf("slots: %d current counts for %d nodes", len(current), len(nodes))
	}
	w := algorithms.TotalWeight(nodes)
	if math.IsInf(w, 0) {
		return nil, fmt.Errorf("slots: total weight overflows (%v)", w)
	}
	targets := make([]int, len(nodes))
	rems := make([]float64, len(nodes))
	sum := 0
	for i, n := range nodes {
		share := NumSlots * (n.Weight / w)
		f := math.Floor(share)
		targets[i], rems[i] = int(f), share-f
		sum += int(f)
	}
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	cur := func(i int) int {
		if current == nil {
			return 0
		}
		return current[i]
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(rems[b], rems[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(cur(b), cur(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	// The fractional parts sum to NumSlots-sum, which is < len(nodes); with
	// rounding error it can only be off by the clamp below.
	for k := 0; k < NumSlots-sum && k < len(order); k++ {
		targets[order[k]]++
	}
	total := 0
	for i, t := range targets {
		total += t
		if t < 1 {
			return nil, fmt.Errorf("slots: node %q (weight %v of total %v) rounds to %d of %d hash slots; every node needs at least 1",
				nodes[i].ID, nodes[i].Weight, w, t, NumSlots)
		}
	}
	if total != NumSlots { // unreachable unless rounding broke the shares
		return nil, fmt.Errorf("slots: weights %v round to %d slots in total, not %d", weightsOf(nodes), total, NumSlots)
	}
	return targets, nil
}

func weightsOf(nodes []algorithms.Node) []float64 {
	ws := make([]float64, len(nodes))
	for i, n := range nodes {
		ws[i] = n.Weight
	}
	return ws
}

// assign builds the placement of nodes from prev (nil for a new cluster),
// moving the minimum number of slots: departed nodes' slots and the
// highest-numbered slots of nodes above target are freed, then each node
// below target, in membership order, takes the lowest free slots.
func assign(nodes []algorithms.Node, prev *Slots) (*Slots, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("slots: %w", err)
	}
	if len(nodes) > NumSlots {
		return nil, fmt.Errorf("slots: %d nodes exceed the %d hash slots", len(nodes), NumSlots)
	}
	const free = -1
	owner := make([]int, NumSlots) // slot -> new node index, or free
	current := make([]int, len(nodes))
	if prev == nil {
		for s := range owner {
			owner[s] = free
		}
	} else {
		newIndex := make(map[string]int, len(nodes))
		for i, n := range nodes {
			newIndex[n.ID] = i
		}
		remap := make([]int, len(prev.nodes)) // old index -> new index, or free
		for i, n := range prev.nodes {
			j, ok := newIndex[n.ID]
			if !ok {
				j = free
			} else {
				current[j] = prev.counts[i]
			}
			remap[i] = j
		}
		for s, o := range prev.table {
			owner[s] = remap[o]
		}
	}
	targets, err := Targets(nodes, current)
	if err != nil {
		return nil, err
	}
	excess := make([]int, len(nodes))
	for i := range nodes {
		excess[i] = max(0, current[i]-targets[i])
	}
	for s := NumSlots - 1; s >= 0; s-- {
		if o := owner[s]; o != free && excess[o] > 0 {
			excess[o]--
			owner[s] = free
		}
	}
	next := 0 // lowest slot that may be free
	for i := range nodes {
		for need := targets[i] - current[i]; need > 0; need-- {
			for owner[next] != free {
				next++
			}
			owner[next] = i
		}
	}
	p := &Slots{nodes: slices.Clone(nodes), counts: targets}
	for s, o := range owner {
		p.table[s] = uint16(o)
	}
	return p, nil
}

// Algorithm returns "slots".
func (p *Slots) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New or Rebalance.
func (p *Slots) Nodes() []algorithms.Node { return p.nodes }

// HashKey returns the hash slot of key, 0..16383 (see [KeySlot]).
func (p *Slots) HashKey(key string) uint64 { return uint64(KeySlot(key)) }

// LocateHash returns the index into Nodes() of the owner of hash slot h.
// Only the low 14 bits of h are used (h mod 16384), so any uint64, such as
// a uniformly random one, picks a valid slot.
func (p *Slots) LocateHash(h uint64) int { return int(p.table[h&slotMask]) }

// Locate returns the ID of the node that owns key's hash slot.
func (p *Slots) Locate(key string) string { return p.nodes[p.table[KeySlot(key)]].ID }

// SlotCount returns the number of hash slots owned by node i (an index into
// Nodes()).
func (p *Slots) SlotCount(i int) int { return p.counts[i] }

// Rebalance returns the slot assignment for a new membership, migrating as
// few slots as the new targets (see [Targets]) allow: slots of departed
// nodes and the highest-numbered slots of nodes above their new target are
// freed, and nodes below target take the lowest free slots, in membership
// order. Surviving nodes are matched by ID and keep every slot they are not
// asked to give up. Nodes() of the result is in the order of nodes. It
// returns the same errors as New; the receiver is unchanged.
func (p *Slots) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	next, err := assign(nodes, p)
	if err != nil {
		return nil, err // not a typed nil *Slots inside the interface
	}
	return next, nil
}

// ExactShares returns each node's slot count divided by 16,384, indexed
// like Nodes().
func (p *Slots) ExactShares() []float64 {
	shares := make([]float64, len(p.counts))
	for i, c := range p.counts {
		shares[i] = float64(c) / NumSlots
	}
	return shares
}
