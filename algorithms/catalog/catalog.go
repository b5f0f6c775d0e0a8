// Package catalog is the registry of placement algorithms by name, with the
// configuration they share. The CLI, benchmarks, analyses and plots iterate
// [Names] and build placers with [New], so adding an algorithm is one
// package plus one entry here.
package catalog

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/anchor"
	"github.com/chbench/chbench/algorithms/binomial"
	"github.com/chbench/chbench/algorithms/bounded"
	"github.com/chbench/chbench/algorithms/crush"
	"github.com/chbench/chbench/algorithms/dx"
	"github.com/chbench/chbench/algorithms/fliphash"
	"github.com/chbench/chbench/algorithms/jump"
	"github.com/chbench/chbench/algorithms/jumpback"
	"github.com/chbench/chbench/algorithms/ketama"
	"github.com/chbench/chbench/algorithms/maglev"
	"github.com/chbench/chbench/algorithms/memento"
	"github.com/chbench/chbench/algorithms/modulo"
	"github.com/chbench/chbench/algorithms/multiprobe"
	"github.com/chbench/chbench/algorithms/powerch"
	"github.com/chbench/chbench/algorithms/rendezvous"
	"github.com/chbench/chbench/algorithms/ring"
	"github.com/chbench/chbench/algorithms/slots"
	"github.com/chbench/chbench/topology"
)

// Config holds the parameters of every algorithm; each uses the fields it
// needs and ignores the rest.
type Config struct {
	Hash   string  // key hash name (algorithms.HashNames); "" = xxhash. Slots always use CRC-16 (Redis Cluster), ketama MD5.
	VNodes int     // ring and bounded: virtual nodes per unit of weight (>= 1)
	Eps    float64 // bounded: load factor c = 1 + Eps (> 0)
	// Partitions is bounded's number of fixed partitions placed with
	// bounded loads (>= 1), or 0 for automatic: [Config.PartitionsFor].
	Partitions int
	TableSize  int // maglev: lookup table size M, a prime (grown when M < 100 n; see maglev.EffectiveTableSize)
	Probes     int // multiprobe: probes per key k (1..multiprobe.MaxProbes)
	// Capacity is the fixed number of buckets a of anchor and dx, at least
	// the initial number of nodes; 0 means twice the initial number of
	// nodes, at least MinAutoCapacity. A later membership larger than the
	// capacity is an error.
	Capacity int
	// MemoryBudget is the most a placement build (and an analysis run) may
	// allocate, in bytes; 0 means DefaultMemoryBudget (2 GiB). New refuses
	// a placement whose Estimate exceeds it, before allocating.
	MemoryBudget int64
}

// MinAutoCapacity is the least capacity chosen when Config.Capacity is 0.
const MinAutoCapacity = 16

// CapacityFor returns the anchor/dx capacity for an initial membership of n
// nodes: c.Capacity if set, else max(2n, MinAutoCapacity).
func (c Config) CapacityFor(n int) int {
	if c.Capacity != 0 {
		return c.Capacity
	}
	return max(2*n, MinAutoCapacity)
}

// PartitionsPerNode is the number of bounded partitions per node that
// automatic partitioning (Config.Partitions = 0) aims at. With ~16
// partitions a node (16,384 partitions on 1,000 nodes) a node's load is a
// count of few large balls and balances worse than the plain ring under
// it; with ~1,000 the partition granularity adds about 3% to the cv.
const PartitionsPerNode = 1024

// DefaultConfig returns the defaults: xxhash, 160 virtual nodes, eps 0.25,
// automatic bounded partitions (see [Config.PartitionsFor]), Maglev table
// size 65,537, 21 probes, and capacity 0 (twice the initial membership).
func DefaultConfig() Config {
	return Config{Hash: algorithms.DefaultHash, VNodes: ring.DefaultVNodes, Eps: bounded.DefaultEps,
		TableSize: maglev.DefaultTableSize, Probes: multiprobe.DefaultProbes}
}

// PartitionsFor returns the number of bounded partitions used for
// memberships of up to n nodes: c.Partitions when it is set (> 0), else
// PartitionsPerNode * n, at least bounded.DefaultPartitions (16,384) and at
// most bounded.MaxPartitions.
func (c Config) PartitionsFor(n int) int {
	if c.Partitions > 0 {
		return c.Partitions
	}
	return min(bounded.MaxPartitions, max(bounded.DefaultPartitions, PartitionsPerNode*max(n, 1)))
}

// Validate checks every field, whichever algorithm will use it, and names
// the first bad value.
func (c Config) Validate() error {
	if _, err := algorithms.LookupHash(c.Hash); err != nil {
		return err
	}
	if c.VNodes < 1 {
		return fmt.Errorf("vnodes %d: need at least 1 virtual node per node", c.VNodes)
	}
	if math.IsNaN(c.Eps) || math.IsInf(c.Eps, 0) || c.Eps <= 0 {
		return fmt.Errorf("eps %v: the load factor c = 1 + eps needs a finite eps > 0", c.Eps)
	}
	if 1+c.Eps == 1 {
		return fmt.Errorf("eps %v: too small, 1 + eps rounds to 1 in float64", c.Eps)
	}
	if c.Partitions < 0 {
		return fmt.Errorf("partitions %d: need at least 1 partition, or 0 for automatic (%d per node)", c.Partitions, PartitionsPerNode)
	}
	if err := maglev.ValidateTableSize(c.TableSize); err != nil {
		return err
	}
	if err := multiprobe.ValidateProbes(c.Probes); err != nil {
		return err
	}
	if c.Capacity < 0 || c.Capacity > min(anchor.MaxCapacity, dx.MaxCapacity) {
		return fmt.Errorf("capacity %d: need 0 (twice the initial nodes) or 1 to %d buckets", c.Capacity, min(anchor.MaxCapacity, dx.MaxCapacity))
	}
	if c.MemoryBudget < 0 {
		return fmt.Errorf("memory budget %d bytes: must be > 0 (0 means the default %s)", c.MemoryBudget, HumanBytes(DefaultMemoryBudget))
	}
	return nil
}

// Info is everything chbench knows about one algorithm: how to build it,
// which settings of [Config] it reads, and the facts reports and plots
// print. It is the single source of these facts: nothing outside this
// package switches on algorithm names.
type Info struct {
	Name string
	// Family groups algorithms in plots and reports: "classic" (the
	// original six, and ketama, a ring layout), "range" (constant-time range hashes of bucket
	// numbers), "table" (lookup tables), "stateful" (fixed capacity with
	// removal state).
	Family  string
	Lookup  string // lookup cost, e.g. "O(1)", "O(ln n)"
	Memory  string // memory per placement, in words a reader can size
	Removal string // which nodes may leave, and what it costs
	Weights string // weight support, "no" when weights other than 1 are refused
	Source  string // paper or spec

	UsesVNodes     bool // reads Config.VNodes
	UsesHash       bool // reads Config.Hash (false: slots always hash with CRC-16)
	UsesEps        bool // reads Config.Eps
	UsesPartitions bool // reads Config.Partitions
	UsesTableSize  bool // reads Config.TableSize
	UsesProbes     bool // reads Config.Probes
	UsesCapacity   bool // reads Config.Capacity
	Weighted       bool // accepts weights other than 1
	Ordered        bool // owners depend on the order nodes are listed in
	Stateful       bool // owners depend on the history of Rebalance calls, not only the membership
	// JoinMinimal: a node appended to the membership takes keys only for
	// itself; no key moves between nodes present before and after.
	JoinMinimal bool
	// LeaveMinimal: when ANY node leaves, only that node's keys move.
	LeaveMinimal bool
	// RandomLayout: the placement of a membership is one random draw
	// (points hashed from node IDs): another set of node IDs is another,
	// independent layout with its own uneven shares. Analyses then vary
	// the layout with the keys (see schema.PlacementPerSet).
	RandomLayout bool
	// VNodeArcs: with equal weights a node's share is the total length of
	// the ring arcs ending at its V virtual nodes, so its normalised load
	// n*share follows Beta(V, (n-1)V)*n, about Gamma(V, V): the theory
	// curve of peak-to-mean and cv against V (analysis.RingTheory).
	VNodeArcs bool
	// Variant names the form of the algorithm chbench implements when the
	// bare name would mislead, e.g. "partitions" for bounded loads placed
	// on partitions rather than on keys; "" otherwise. See [Info.Label].
	Variant string
	// Domains says how the algorithm keeps replicas in distinct failure
	// domains (racks, zones) when given a topology: its
	// algorithms.DomainReplicator scheme, crush's rule, or the salted
	// probes of algorithms.SaltedDomainReplicas (set in domains.go).
	Domains string
	// LeavePolicy names how a node other than the last leaves when the
	// algorithm has no native removal ("swap-last" for jump); "" when any
	// node can leave. See [Info.Label].
	LeavePolicy string

	// Dialect holds the facts of a dialect (a placement that reproduces
	// one real client or proxy bit for bit); nil for the algorithms.
	// Dialects are listed by [Dialects], not by [Names].
	Dialect *DialectFacts

	// Build constructs a placement added by [Register] from a membership
	// that algorithms.ValidateNodes accepted and a validated cfg; nil for
	// the built-in algorithms.
	Build func(nodes []algorithms.Node, cfg Config) (algorithms.Placer, error)

	// build constructs the placement; cfg is validated and h is cfg.Hash.
	build func(nodes []algorithms.Node, cfg Config, h algorithms.Hash) (algorithms.Placer, error)
	// cost is what build (or a Rebalance to nodes) allocates, from the
	// membership alone (see memory.go).
	cost func(nodes []algorithms.Node, cfg Config) (Cost, error)
	// check returns the error build would return, without building; nil
	// when building is cheap (O(n), no virtual nodes), so Check builds.
	check func(nodes []algorithms.Node, cfg Config) error
	// inTopology builds the placement of a topology's nodes from its
	// hierarchy, with replicas in distinct domains at level (crush's
	// buckets and rule); nil for the algorithms whose owners do not depend
	// on domains (see [NewInTopology] and [Info.TopologyMap]).
	inTopology func(t *topology.Topology, level string, h algorithms.Hash) (algorithms.Placer, algorithms.Locator, error)
	// own is the algorithm's own Locator of a placement it built, when
	// that models more than algorithms.AsLocator (crush: failures marked
	// out as Ceph does, topology changes); nil otherwise. See
	// [NewFailureLocator].
	own func(p algorithms.Placer, bits int) algorithms.Locator
}

// infos is the registry, in the fixed order every table and plot uses.
// Adding an algorithm is one package plus one entry here.
var infos = []Info{
	{Name: modulo.Name, Family: "classic", Lookup: "O(1)", Memory: "O(n)", Removal: "any; moves 1 - min/lcm of all keys (80% for 4 -> 5)", Weights: "no",
		Source: "hash mod n", UsesHash: true, Ordered: true,
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(modulo.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), nodeBytes, "the node list and its validation"), nil
		}},
	{Name: ring.Name, Family: "classic", Lookup: "O(1) expected (top-bits index)", Memory: "28-44 B per virtual node", Removal: "any; only its keys move (1/n)",
		Weights: "vnode count = round(V*w)", Source: "Karger et al. 1997", UsesVNodes: true, UsesHash: true, Weighted: true,
		JoinMinimal: true, LeaveMinimal: true, RandomLayout: true, VNodeArcs: true,
		build: func(n []algorithms.Node, c Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(ring.New(n, c.VNodes, h))
		},
		cost: func(n []algorithms.Node, c Config) (Cost, error) { return ringCost(n, c.VNodes) },
		check: func(n []algorithms.Node, c Config) error {
			_, err := ringCost(n, c.VNodes)
			return err
		}},
	{Name: rendezvous.Name, Family: "classic", Lookup: "O(n)", Memory: "8 B per node + IDs", Removal: "any; only its keys move (1/n)",
		Weights: "logarithmic method -w/ln(u)", Source: "Thaler & Ravishankar 1998", UsesHash: true, Weighted: true,
		JoinMinimal: true, LeaveMinimal: true,
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(rendezvous.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), rendezvousNodeBytes, "node hashes, order, weights and validation"), nil
		}},
	{Name: jump.Name, Family: "classic", Lookup: "O(ln n)", Memory: "O(n)", Removal: "last only (1/n); others by swap-last: ~2/n, half collateral",
		Weights: "no", Source: "Lamping & Veach 2014", UsesHash: true, Ordered: true,
		JoinMinimal: true, LeavePolicy: "swap-last",
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(jump.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), jumpNodeBytes, "the bucket order, its rebalance and validation"), nil
		}},
	{Name: slots.Name, Family: "classic", Lookup: "O(1)", Memory: "16,384-entry slot table", Removal: "any; its slots migrate (1/n); with unequal weights others re-round",
		Weights: "floor/ceil of weighted share", Source: "Redis Cluster spec", Weighted: true, Ordered: true, Stateful: true,
		// Not JoinMinimal or LeaveMinimal: with unequal weights the
		// largest-remainder targets are recomputed on every change, so a
		// survivor's rounding can flip between floor and ceiling and a slot
		// moves between two nodes present before and after (53 nodes
		// weighted 0.5,4,0.5,... joined by one of weight 0.5; node-0
		// leaving 63 such nodes). With equal weights both hold (slots
		// package tests).
		build: func(n []algorithms.Node, _ Config, _ algorithms.Hash) (algorithms.Placer, error) {
			return placer(slots.New(n))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			c := perNode(len(n), slotsNodeBytes, "targets, counts and validation")
			c.Bytes += slotsFixedBytes
			c.How += fmt.Sprintf(" + %d B for the %d-slot table", slotsFixedBytes, slots.NumSlots)
			return c, nil
		}},
	{Name: bounded.Name, Family: "classic", Lookup: "O(1) (partition table)", Memory: "partition table + ring", Removal: "any; its partitions re-placed within capacity",
		Weights: "capacity ceil(c*m*w/W)", Source: "Mirrokni, Thorup, Zadimoghaddam 2018",
		UsesVNodes: true, UsesHash: true, UsesEps: true, UsesPartitions: true, Weighted: true, Stateful: true,
		LeaveMinimal: true, RandomLayout: true, Variant: "partitions",
		build: func(n []algorithms.Node, c Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(bounded.New(n, c.VNodes, c.Eps, c.PartitionsFor(len(n)), h))
		},
		cost: func(n []algorithms.Node, c Config) (Cost, error) {
			r, err := ringCost(n, c.VNodes)
			if err != nil {
				return Cost{}, fmt.Errorf("bounded: %w", err)
			}
			parts := c.PartitionsFor(len(n))
			p := int64(parts) * boundedPartitionBytes
			return Cost{Bytes: r.Bytes + p + int64(len(n))*boundedNodeBytes,
				How: fmt.Sprintf("%s + %d partitions x %d B + %d nodes x %d B for loads and capacities",
					r.How, parts, boundedPartitionBytes, len(n), boundedNodeBytes)}, nil
		},
		check: func(n []algorithms.Node, c Config) error {
			if 1+c.Eps == 1 {
				return fmt.Errorf("bounded: eps %v: too small, 1 + eps rounds to 1 in float64", c.Eps)
			}
			parts := c.PartitionsFor(len(n))
			if parts > bounded.MaxPartitions {
				return fmt.Errorf("bounded: partitions %d: need 1 to %d partitions", parts, bounded.MaxPartitions)
			}
			if len(n) > parts {
				return fmt.Errorf("bounded: %d nodes exceed the %d partitions", len(n), parts)
			}
			if _, err := ringCost(n, c.VNodes); err != nil {
				return fmt.Errorf("bounded: %w", err)
			}
			return nil
		}},
	// ketama: libketama's continuum as twemproxy builds it; always MD5 for
	// labels and keys, 160 points per server at equal weights. Joins and
	// leaves are minimal only at equal weights (point counts are shares of
	// the total weight), so the two promises are not made.
	{Name: ketama.Name, Family: "classic", Lookup: "O(1) expected (top-bits index)", Memory: "16-24 B per point, 160 points per server",
		Removal: "any; its keys (1/n) at equal weights, more where point counts re-round", Weights: "4*floor(40*n*w/W) points", Source: "libketama 2007; twemproxy nc_ketama.c",
		Weighted: true, RandomLayout: true,
		build: func(n []algorithms.Node, _ Config, _ algorithms.Hash) (algorithms.Placer, error) {
			return placer(ketama.New(n))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) { return ketamaCost(n), nil }},
	{Name: jumpback.Name, Family: "range", Lookup: "O(1) expected", Memory: "O(n) (bucket order)",
		Removal: "last only (1/n); others by swap-last: ~2/n, half collateral", Weights: "no", Source: "Ertl 2024 (arXiv 2403.18682)",
		UsesHash: true, Ordered: true, JoinMinimal: true, LeavePolicy: "swap-last",
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(jumpback.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), jumpNodeBytes, "the bucket order, its rebalance and validation"), nil
		}},
	{Name: fliphash.Name, Family: "range", Lookup: "O(1) expected", Memory: "O(n) (bucket order)",
		Removal: "last only (1/n); others by swap-last: ~2/n, half collateral", Weights: "no", Source: "Masson & Lee 2024 (arXiv 2402.17549)",
		UsesHash: true, Ordered: true, JoinMinimal: true, LeavePolicy: "swap-last",
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(fliphash.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), jumpNodeBytes, "the bucket order, its rebalance and validation"), nil
		}},
	{Name: powerch.Name, Family: "range", Lookup: "O(1) expected", Memory: "O(n) (bucket order)",
		Removal: "last only (1/n); others by swap-last: ~2/n, half collateral", Weights: "no", Source: "Leu 2023 (arXiv 2307.12448)",
		UsesHash: true, Ordered: true, JoinMinimal: true, LeavePolicy: "swap-last",
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(powerch.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), jumpNodeBytes, "the bucket order, its rebalance and validation"), nil
		}},
	{Name: binomial.Name, Family: "range", Lookup: "O(1)", Memory: "O(n) (bucket order)",
		Removal: "last only (1/n); others by swap-last: ~2/n, half collateral", Weights: "no", Source: "Coluzzi et al. 2024 (arXiv 2406.19836)",
		UsesHash: true, Ordered: true, JoinMinimal: true, LeavePolicy: "swap-last",
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(binomial.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), jumpNodeBytes, "the bucket order, its rebalance and validation"), nil
		}},
	{Name: maglev.Name, Family: "table", Lookup: "O(1) (one table read)", Memory: "2 B per table entry (M >= 100 n)",
		Removal: "any; table rebuilt: its entries plus collateral that grows with n at a fixed table size M", Weights: "fill turns proportional to w",
		Source: "Eisenbud et al. NSDI 2016", UsesHash: true, UsesTableSize: true, Weighted: true, RandomLayout: true,
		build: func(n []algorithms.Node, c Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(maglev.New(n, c.TableSize, h))
		},
		cost: maglevCost},
	{Name: multiprobe.Name, Family: "table", Lookup: "O(k) (k probes, O(1) each)", Memory: "20-28 B per node",
		Removal: "any; only its keys move (1/n)", Weights: "no", Source: "Appleton & O'Reilly 2015",
		UsesHash: true, UsesProbes: true, JoinMinimal: true, LeaveMinimal: true, RandomLayout: true,
		build: func(n []algorithms.Node, c Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(multiprobe.New(n, c.Probes, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), multiprobeNodeBytes, "points, owners, the lookup table and validation"), nil
		}},
	{Name: anchor.Name, Family: "stateful", Lookup: "O(1 + ln(a/n)) expected", Memory: "~24 B per bucket of capacity a",
		Removal: "any; only its keys move (1/n); joins up to capacity a", Weights: "no", Source: "Mendelson et al. ToN 2021",
		UsesHash: true, UsesCapacity: true, Ordered: true, Stateful: true, JoinMinimal: true, LeaveMinimal: true,
		build: func(n []algorithms.Node, c Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(anchor.New(n, c.CapacityFor(len(n)), h))
		},
		cost: func(n []algorithms.Node, c Config) (Cost, error) {
			return bucketArrayCost(n, c, anchorBucketBytes), nil
		}},
	{Name: memento.Name, Family: "stateful", Lookup: "O(ln n) + O(1 + ln(b/n)) expected", Memory: "12 B per bucket of the b-array",
		Removal: "any; only its keys move (1/n)", Weights: "no", Source: "Coluzzi et al. 2023",
		UsesHash: true, Ordered: true, Stateful: true, JoinMinimal: true, LeaveMinimal: true,
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(memento.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), mementoNodeBytes, "the replacement arrays, owners and validation"), nil
		}},
	{Name: dx.Name, Family: "stateful", Lookup: "O(a/n) expected", Memory: "4 B per bucket of capacity a",
		Removal: "any; only its keys move (1/n); joins up to capacity a", Weights: "no", Source: "Dong & Wang 2021",
		UsesHash: true, UsesCapacity: true, Ordered: true, Stateful: true, JoinMinimal: true, LeaveMinimal: true,
		build: func(n []algorithms.Node, c Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(dx.New(n, c.CapacityFor(len(n)), h))
		},
		cost: func(n []algorithms.Node, c Config) (Cost, error) { return bucketArrayCost(n, c, dxBucketBytes), nil }},
	// crush: Ceph's CRUSH with straw2 buckets, without a topology one host
	// per node under one root (crushtool --build ... host straw2 1 root
	// straw2 0). straw2 changes only the draws of the item whose weight
	// changed, so in this flat map a join takes keys only for the new
	// host and a leave moves only the leaver's keys, at any weights.
	// Device and bucket ids follow the node order and are kept by
	// Rebalance (as Ceph keeps OSD ids): Ordered and Stateful. Listed last
	// so that the algorithms before it keep their plot styles.
	{Name: crush.Name, Family: "classic", Lookup: "O(n) flat (one straw2 draw per item on the path)", Memory: "~240 B per node (flat map, ids, domains)",
		Removal: "any; only its keys move (1/n); in a hierarchy its bucket's share leaves it", Weights: "16.16 fixed point, straw2 ln(u)/w",
		Source: "Weil et al. SC 2006; Ceph src/crush/mapper.c v16.2", UsesHash: true, Weighted: true, Ordered: true, Stateful: true,
		JoinMinimal: true, LeaveMinimal: true,
		build: func(n []algorithms.Node, _ Config, h algorithms.Hash) (algorithms.Placer, error) {
			return placer(crush.New(n, h))
		},
		cost: func(n []algorithms.Node, _ Config) (Cost, error) {
			return perNode(len(n), crushNodeBytes, "the topology, map, bucket and device ids, and validation"), nil
		},
		inTopology: func(t *topology.Topology, level string, h algorithms.Hash) (algorithms.Placer, algorithms.Locator, error) {
			p, err := crush.FromTopology(t, level, h)
			if err != nil {
				return nil, nil, err
			}
			return p, p.Locator(h.Bits()), nil
		},
		own: func(p algorithms.Placer, bits int) algorithms.Locator { return p.(*crush.Placer).Locator(bits) }},
}

// Facts returns the promises the algorithm makes, in the form the
// conformance suite checks: weighted, ordered, stateful as recorded here,
// only the last node leaving cleanly for the algorithms with a LeavePolicy
// (swap-last), and replicas up to algorithms.MaxReplicas (every placer
// serves them, by its own scheme or algorithms.SaltedReplicas).
func (in Info) Facts() algorithms.Facts {
	return algorithms.Facts{Weighted: in.Weighted, Ordered: in.Ordered, OnlyLastLeaves: in.LeavePolicy != "",
		Replicas: algorithms.MaxReplicas, Stateful: in.Stateful}
}

// Label returns the name a table or plot shows for the algorithm: its
// Name, followed in parentheses by its Variant and, when arbitrary nodes
// leave (arbitraryLeave: a random node leaves, as in remove-random,
// restore, shrink-random or churn), its LeavePolicy, e.g. "bounded
// (partitions)", "jump (swap-last)"; the bare name when neither applies.
func (in Info) Label(arbitraryLeave bool) string {
	var parts []string
	if in.Variant != "" {
		parts = append(parts, in.Variant)
	}
	if arbitraryLeave && in.LeavePolicy != "" {
		parts = append(parts, in.LeavePolicy)
	}
	if len(parts) == 0 {
		return in.Name
	}
	return in.Name + " (" + strings.Join(parts, ", ") + ")"
}

// Names returns the algorithm names in a fixed order: the built-in ones,
// then those added by [Register] in the order they were added.
func Names() []string {
	registered.RLock()
	defer registered.RUnlock()
	names := make([]string, 0, len(infos)+len(registered.infos))
	for _, in := range infos {
		names = append(names, in.Name)
	}
	for _, in := range registered.infos {
		names = append(names, in.Name)
	}
	return names
}

// Compare orders algorithm names as the catalog lists them, names the
// catalog does not know after them in alphabetical order: the order of
// every table and plot (a comparison function for slices.SortFunc).
func Compare(a, b string) int {
	ia, ib := slices.Index(Names(), a), slices.Index(Names(), b)
	if ia < 0 {
		ia = len(infos)
	}
	if ib < 0 {
		ib = len(infos)
	}
	if ia != ib {
		return cmp.Compare(ia, ib)
	}
	return strings.Compare(a, b)
}

// UsesVNodes reports whether the named algorithm reads Config.VNodes
// (false for unknown names).
func UsesVNodes(name string) bool { in, _ := Describe(name); return in.UsesVNodes }

// UsesHash reports whether the named algorithm reads Config.Hash (false
// for unknown names, and for slots, which always hash with CRC-16).
func UsesHash(name string) bool { in, _ := Describe(name); return in.UsesHash }

// Describe returns the Info of the named algorithm or dialect, or an
// error naming an unknown one.
func Describe(name string) (Info, error) {
	registered.RLock()
	in, ok := describe(name)
	registered.RUnlock()
	if !ok {
		return Info{}, unknown(name)
	}
	return in, nil
}

func unknown(name string) error {
	return fmt.Errorf("unknown algorithm %q (known: %s; dialects: %s; groups: all, %s, %s)",
		name, strings.Join(append(Names(), Staged()...), ", "), strings.Join(Dialects(), ", "), DialectGroup, CommonDialectGroup)
}

// ParseNames splits a comma-separated list of algorithm and dialect names,
// checking each; "all" selects every algorithm (not the dialects), "all"
// followed by entries "-NAME" every algorithm but those ([AllExcept]),
// the entry "dialects" every dialect and "common-dialects"
// [CommonDialects], in place.
func ParseNames(s string) ([]string, error) {
	if s == "all" {
		return Names(), nil
	}
	if rest, ok := strings.CutPrefix(s, "all,"); ok {
		return AllExcept(rest)
	}
	var out []string
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == DialectGroup {
			out = append(out, Dialects()...)
			continue
		}
		if n == CommonDialectGroup {
			out = append(out, CommonDialects()...)
			continue
		}
		if _, err := Describe(n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// New builds the named algorithm's placement of nodes with cfg. It returns
// an error for an unknown name, an invalid cfg or membership, a placement
// whose [Estimate] exceeds cfg.Budget() (checked before anything is
// allocated), or one the algorithm cannot place (weights where unsupported,
// more nodes than slots or partitions).
func New(name string, nodes []algorithms.Node, cfg Config) (algorithms.Placer, error) {
	in, err := Describe(name)
	if err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := budgetFirst(name, nodes, cfg); err != nil {
		return nil, err
	}
	return in.build(nodes, cfg, algorithms.MustHash(cfg.Hash))
}

// NewLocator builds the named algorithm's placement of nodes with cfg, as
// [New] does (with its errors), and returns it as the
// [algorithms.Locator] every measure takes: [algorithms.AsLocator] with the
// width of cfg's key hash, for the generic replica scheme.
func NewLocator(name string, nodes []algorithms.Node, cfg Config) (algorithms.Locator, error) {
	p, err := New(name, nodes, cfg)
	if err != nil {
		return nil, err
	}
	return algorithms.AsLocator(p, algorithms.MustHash(cfg.Hash).Bits()), nil
}

// Check returns the error New would return for the named algorithm, nodes
// and cfg (unknown name, invalid cfg or membership, over the memory budget,
// or a membership the algorithm cannot place), without building the
// placement when that is expensive (ring, bounded: the virtual nodes are
// counted, not hashed). Callers check every configuration of a run with it
// before streaming the first key. A membership that only loses nodes
// relative to one that passed also passes, for every algorithm here.
func Check(name string, nodes []algorithms.Node, cfg Config) error {
	in, err := Describe(name)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := budgetFirst(name, nodes, cfg); err != nil {
		return err
	}
	if in.check != nil {
		return in.check(nodes, cfg)
	}
	_, err = in.build(nodes, cfg, algorithms.MustHash(cfg.Hash))
	return err
}

// budgetFirst checks the memory budget, then the membership: the budget
// check is a cheap pass over the weights, the membership check builds a
// map of every ID, so a fleet far over the budget is refused without it.
func budgetFirst(name string, nodes []algorithms.Node, cfg Config) error {
	if len(nodes) >= 1 && len(nodes) <= algorithms.MaxNodes && validWeights(nodes) {
		if err := CheckBudget(name, nodes, cfg); err != nil {
			return err
		}
	}
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return CheckBudget(name, nodes, cfg)
}

// validWeights reports whether every weight is usable and their total
// finite, so that the estimates can be computed before ValidateNodes.
func validWeights(nodes []algorithms.Node) bool {
	for _, n := range nodes {
		if algorithms.ValidateWeight(n.Weight) != nil {
			return false
		}
	}
	return algorithms.ValidateShares(nodes) == nil
}

// placer converts a constructor's concrete result to the interface, keeping
// a failed construction a true nil rather than an interface holding a nil
// pointer.
func placer[T algorithms.Placer](p T, err error) (algorithms.Placer, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}
