package catalog

import (
	"fmt"
	"math/bits"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/ketama"
	"github.com/chbench/chbench/algorithms/maglev"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/algorithms/slots"
	"github.com/chbench/chbench/memory"
)

// DefaultMemoryBudget is the memory a placement build, and an analysis run,
// may allocate unless Config.MemoryBudget says otherwise: 2 GiB.
const DefaultMemoryBudget int64 = memory.DefaultLimit

// Bytes per unit that the algorithm packages allocate when they build a
// placement, garbage included (measured by TestCostBoundsAllocation with
// runtime.MemStats.TotalAlloc; every figure is an upper bound):
const (
	// nodeBytes: the placement's copy of the membership (24 B per
	// algorithms.Node) and two runs of ValidateNodes' map of IDs (about
	// 40-56 B per entry each: catalog.New's and the constructor's).
	nodeBytes = 144
	// fixedBytes: what every build allocates whatever its size (map
	// headers, small slices, the returned struct).
	fixedBytes = 16 << 10
	// jumpNodeBytes: jump's Rebalance also keeps a map of the wanted IDs and
	// the bucket list before New copies them.
	jumpNodeBytes = 320
	// rendezvousNodeBytes: the node copy and validation, the node hashes
	// twice (8 B each), the ID order (4 B), the weights (8 B) and the map
	// that detects colliding node hashes.
	rendezvousNodeBytes = 224
	// slotsNodeBytes, slotsFixedBytes: per-node targets, counts and
	// remainders, and per hash slot the 2-byte table plus the 8-byte owner
	// list of a rebalance.
	slotsNodeBytes  = 256
	slotsFixedBytes = 10*slots.NumSlots + 64<<10
	// ringPointBytes: per virtual node the 16-byte build record and the
	// 8-byte position and 4-byte owner kept; the lookup table adds 4 B per
	// entry, the power of two >= 4 per point (see ringCost).
	ringPointBytes = 16 + 8 + 4
	ringLUTBytes   = 4
	// ringNodeBytes: the ring's membership copy and validation, plus the
	// per-node virtual node counts.
	ringNodeBytes = 256
	// boundedPartitionBytes: per partition its 8-byte ring position, the
	// label string hashed for it ("partition:" and up to 7 digits: 24 B
	// from partition 1,000,000 on, 16 B below; and 8 B for its number,
	// which the race detector's build also allocates), and the 4-byte
	// owner table twice during a rebalance (old and new);
	// boundedNodeBytes: loads, capacities and the index maps of a
	// rebalance, beyond the ring's per-node bytes.
	boundedPartitionBytes = 8 + 32 + 4 + 4 + 8
	boundedNodeBytes      = 512
)

// Cost is what building a placement allocates: Bytes in total, garbage
// included, and How, the breakdown a limit message quotes.
type Cost struct {
	Bytes int64
	How   string
}

// Budget returns the memory budget c sets: c.MemoryBudget, or
// DefaultMemoryBudget when it is 0.
func (c Config) Budget() int64 {
	if c.MemoryBudget == 0 {
		return DefaultMemoryBudget
	}
	return c.MemoryBudget
}

// Estimate returns the Cost of building the named algorithm's placement of
// nodes with cfg, computed from the membership without allocating it. It
// returns the error the constructor would give for a ring whose virtual
// nodes exceed ring.MaxPoints or a weight that gives none. A placement
// added by [Register] is not estimated: its Cost is 0 bytes.
func Estimate(name string, nodes []algorithms.Node, cfg Config) (Cost, error) {
	in, err := Describe(name)
	if err != nil {
		return Cost{}, err
	}
	if in.cost == nil {
		return Cost{How: "not estimated (a registered placement)"}, nil
	}
	return in.cost(nodes, cfg)
}

// CheckBudget returns an error naming the algorithm, the node count, the
// estimated bytes and how they arise, and the budget, when building the
// placement of nodes with cfg would allocate more than cfg.Budget().
func CheckBudget(name string, nodes []algorithms.Node, cfg Config) error {
	c, err := Estimate(name, nodes, cfg)
	if err != nil {
		return err
	}
	if b := cfg.Budget(); c.Bytes > b {
		nodesWord := "nodes"
		if len(nodes) == 1 {
			nodesWord = "node"
		}
		return fmt.Errorf("%s on %d %s needs about %s to build (%s), over the memory budget of %s: use fewer nodes%s, or raise the budget (-mem)",
			name, len(nodes), nodesWord, HumanBytes(c.Bytes), c.How, HumanBytes(b), fewer(name))
	}
	return nil
}

func fewer(name string) string {
	in, _ := Describe(name)
	switch {
	case in.UsesVNodes && in.UsesPartitions:
		return ", virtual nodes or partitions"
	case in.UsesVNodes:
		return " or virtual nodes"
	}
	return ""
}

// HumanBytes formats a byte count with a binary unit: "512 B", "1.5 KiB",
// "2 GiB", at most three significant digits (memory.Human).
func HumanBytes(b int64) string { return memory.Human(b) }

func perNode(n int, per int64, what string) Cost {
	return Cost{Bytes: int64(n)*per + fixedBytes, How: fmt.Sprintf("%d nodes x %d B for %s", n, per, what)}
}

// ringCost is the cost of ring.New: its points, its lookup table of 2^b >=
// 4*points 4-byte entries, and the membership.
func ringCost(nodes []algorithms.Node, vnodes int) (Cost, error) {
	var points int64
	for _, n := range nodes {
		k, err := ring.VNodeCount(vnodes, n.Weight)
		if err != nil {
			return Cost{}, fmt.Errorf("ring: node %q: %w", n.ID, err)
		}
		points += int64(k)
		if points > ring.MaxPoints {
			return Cost{}, fmt.Errorf("ring: %d nodes x %d virtual nodes exceed %d points", len(nodes), vnodes, ring.MaxPoints)
		}
	}
	lut := int64(1) << bits.Len64(uint64(4*points-1))
	n := int64(len(nodes))
	return Cost{
		Bytes: points*ringPointBytes + lut*ringLUTBytes + n*ringNodeBytes + fixedBytes,
		How: fmt.Sprintf("%d virtual nodes x %d B + a %d-entry lookup table x %d B + %d nodes x %d B",
			points, ringPointBytes, lut, ringLUTBytes, n, ringNodeBytes),
	}, nil
}

// Bytes of the algorithms added after the original six (measured like the
// others; see TestCostBoundsAllocation).
const (
	// ketamaPointBytes: per continuum point the 8-byte build record, the
	// 4-byte position and 4-byte owner kept, its share of the MD5 label
	// hashed per 4 points, and up to 2 lookup-table entries of 4 B.
	ketamaPointBytes = 8 + 4 + 4 + 8 + 8
	// maglevEntryBytes: per table entry the entry itself (2 or 4 B) and
	// the free marker pass; maglevNodeBytes: per node its permutation
	// (offset, skip, next), rate, turn, count and order, and validation.
	maglevEntryBytes = 4
	maglevNodeBytes  = nodeBytes + 8*7
	// multiprobeNodeBytes: per node its point (twice during the build), its
	// owner and order, 2-4 lookup-table entries of 4 B, and validation.
	multiprobeNodeBytes = nodeBytes + 8 + 8 + 4 + 4 + 16 + 32
	// anchorBucketBytes, dxBucketBytes: per bucket of capacity a, anchor's
	// four 4-byte arrays and owner (copied on a rebalance), dx's owner.
	anchorBucketBytes = 2 * (4*4 + 4)
	dxBucketBytes     = 2 * 4
	// mementoNodeBytes: per node (bucket of the b-array) the replacement
	// and previous arrays, owner and bucket, the maps of a rebalance, and
	// validation.
	mementoNodeBytes = nodeBytes + 4*4 + 128
)

// ketamaCost is the cost of ketama.New: 4 points per digest, the digests
// of each node from its weight share.
func ketamaCost(nodes []algorithms.Node) Cost {
	total := algorithms.TotalWeight(nodes)
	var points int64
	for _, n := range nodes {
		points += int64(ketama.PointsPerDigest * ketama.Digests(n.Weight, total, len(nodes)))
	}
	n := int64(len(nodes))
	return Cost{Bytes: points*ketamaPointBytes + n*nodeBytes + fixedBytes,
		How: fmt.Sprintf("%d points x %d B + %d nodes x %d B", points, ketamaPointBytes, n, nodeBytes)}
}

// maglevCost is the cost of maglev.New: the table of the effective size
// and the per-node permutation state.
func maglevCost(nodes []algorithms.Node, c Config) (Cost, error) {
	m, err := maglev.EffectiveTableSize(c.TableSize, len(nodes))
	if err != nil {
		return Cost{}, fmt.Errorf("maglev: %w", err)
	}
	n := int64(len(nodes))
	return Cost{Bytes: int64(m)*maglevEntryBytes + n*maglevNodeBytes + fixedBytes,
		How: fmt.Sprintf("a %d-entry table x %d B + %d nodes x %d B", m, maglevEntryBytes, n, maglevNodeBytes)}, nil
}

// bucketArrayCost is the cost of anchor and dx: per bucket of the capacity
// a (fixed by the initial membership) and per node.
func bucketArrayCost(nodes []algorithms.Node, c Config, perBucket int64) Cost {
	a, n := int64(c.CapacityFor(len(nodes))), int64(len(nodes))
	return Cost{Bytes: a*perBucket + n*mementoNodeBytes + fixedBytes,
		How: fmt.Sprintf("capacity %d buckets x %d B + %d nodes x %d B", a, perBucket, n, mementoNodeBytes)}
}
