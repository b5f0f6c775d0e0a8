// Package maglev places keys with Maglev hashing (Eisenbud et al., "Maglev:
// A Fast and Reliable Software Network Load Balancer", NSDI 2016, section
// 3.4): every node walks its own permutation of the M entries of a lookup
// table, and the nodes take turns claiming the next entry of their
// permutation that is still free until the table is full. A key belongs to
// the node in entry h mod M of the table.
//
//   - Lookup: O(1): one multiply and one table read.
//   - Memory: 2 bytes per table entry below 65,535 nodes, else 4 (M
//     entries; 128 KiB at the default M = 65,537) plus O(n). Building costs
//     about M ln M permutation steps, most of them random reads of the
//     table (a fraction of a second at 10,000 nodes and M = 1.05 M).
//   - Table size: M must be prime (so every skip walks the whole table). The
//     paper keeps M > 100 n so that each node's share is within about 1% of
//     the mean. When the configured M is smaller than 100 n, the table grows
//     instead of failing: the size used is the smallest prime >= M * 2^j for
//     the smallest j >= 0 with M * 2^j >= 100 n ([EffectiveTableSize]; at
//     the default, 65,537 up to 655 nodes, then about 131 K, 262 K, 524 K,
//     1.05 M entries at 10,000 nodes). The size depends only on n, so the
//     placement stays a function of the membership, but a join or leave that
//     crosses a doubling point rebuilds the table at the new size and moves
//     almost every key. More than [MaxTableSize] entries is an error naming
//     M and n.
//   - Removal: any node may leave; the table is rebuilt. All of the leaving
//     node's entries move, and because the fill order changes, some entries
//     also move between nodes that stay (the paper's Figure 12 measures this
//     extra disruption; the package tests measure ours).
//   - Weights: by fill turns (the paper's "skewed" tables): in each round a
//     node of weight w gains w/w_max turns and claims one entry per whole
//     turn, so with equal weights every node claims one entry per round and
//     the entry counts differ by at most one. A node whose weight is too
//     small to win a single entry is an error.
//   - Order: nodes take their turns in order of node ID, so the table
//     depends only on the member set, not on the order nodes are listed in.
//   - Hash: the node permutation (offset, skip) comes from two splitmix64
//     mixes of the configured hash of the node ID, where the paper uses two
//     independent hash functions; keys use the configured hash.
//   - Replicas: the paper defines none; [Maglev.Replicas] takes the owners
//     of the key's entry and the following entries in table order, skipping
//     nodes already chosen (deployments probe adjacent entries when the
//     key's backend is down, e.g. praxis-proxy's Maglev strategy). A
//     rebuild also reassigns entries between staying nodes, so a join or
//     leave changes some sets between staying nodes too, while the moved
//     fraction of key-replica pairs stays near the single-owner moved
//     fraction.
//   - Reference outputs: the paper publishes no table or key vectors, and
//     the implementations it has inspired (the SUPSI Java suite among them)
//     hash with their own functions; the tests check the paper's filling
//     rule on a worked example and its balance promise exactly.
package maglev

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
)

// Name is the registry name of the algorithm.
const Name = "maglev"

// DefaultTableSize is the paper's default lookup table size, the prime
// 65,537.
const DefaultTableSize = 65537

// MaxTableSize bounds the lookup table (2^25 entries, 128 MiB). It allows
// about 335,000 nodes at 100 entries per node.
const MaxTableSize = 1 << 25

// EntriesPerNode is the least number of table entries per node the paper
// recommends (M > 100 n keeps each share within about 1% of the mean).
const EntriesPerNode = 100

// Maglev is an immutable Maglev lookup table. It is safe for concurrent use.
type Maglev struct {
	nodes []algorithms.Node
	hash  algorithms.Hash
	m     uint64 // table size used, prime
	// The table maps entry e to the index in nodes of its owner: table16
	// for fewer than 2^16-1 nodes (half the memory, so the default table of
	// 65,537 entries takes 128 KiB and stays in L2 cache), else table32.
	table16  []uint16
	table32  []uint32
	counts   []int // counts[i] = entries owned by nodes[i]
	tableM   int   // configured table size
	keyShift uint  // 32 for 32-bit hashes, so that fastrange sees 64 bits
}

var _ algorithms.Placer = (*Maglev)(nil)
var _ algorithms.ExactSharer = (*Maglev)(nil)

// IsPrime reports whether m is prime (trial division; m up to MaxTableSize
// takes microseconds).
func IsPrime(m int) bool {
	if m < 2 {
		return false
	}
	for d := 2; d*d <= m; d++ {
		if m%d == 0 {
			return false
		}
	}
	return true
}

// ValidateTableSize checks a configured table size: a prime between 2 and
// MaxTableSize. The error names m.
func ValidateTableSize(m int) error {
	if m < 2 || m > MaxTableSize {
		return fmt.Errorf("table size %d: need a prime between 2 and %d", m, MaxTableSize)
	}
	if !IsPrime(m) {
		return fmt.Errorf("table size %d is not prime (Maglev's permutations need a prime table size; 65537 is the default)", m)
	}
	return nil
}

// EffectiveTableSize returns the table size Maglev uses for n nodes with
// configured (prime) size m: m itself when m >= 100 n, otherwise the
// smallest prime >= m * 2^j for the smallest j with m * 2^j >= 100 n. It
// returns an error naming m and n when m is not a valid table size or the
// size needed exceeds MaxTableSize.
func EffectiveTableSize(m, n int) (int, error) {
	if err := ValidateTableSize(m); err != nil {
		return 0, err
	}
	if n < 1 {
		return 0, fmt.Errorf("nodes %d: need at least 1 node", n)
	}
	if m >= EntriesPerNode*n {
		return m, nil
	}
	if EntriesPerNode*n > MaxTableSize/2 {
		return 0, fmt.Errorf("table size %d for %d nodes: M >= 100 n needs more than %d entries", m, n, MaxTableSize/2)
	}
	size := m
	for size < EntriesPerNode*n {
		size *= 2
	}
	for !IsPrime(size) {
		size++
	}
	if size > MaxTableSize {
		return 0, fmt.Errorf("table size %d for %d nodes: the grown table of %d entries exceeds %d", m, n, size, MaxTableSize)
	}
	return size, nil
}

// New builds the Maglev table for nodes with configured table size m (a
// prime; grown when m < 100 n, see [EffectiveTableSize]) under hash h. It
// returns an error for an invalid membership (see
// [algorithms.ValidateNodes]), an invalid m, a table that would exceed
// MaxTableSize, or a node whose weight wins no entry.
func New(nodes []algorithms.Node, m int, h algorithms.Hash) (*Maglev, error) {
	if err := algorithms.ValidateNodes(nodes); err != nil {
		return nil, fmt.Errorf("maglev: %w", err)
	}
	size, err := EffectiveTableSize(m, len(nodes))
	if err != nil {
		return nil, fmt.Errorf("maglev: %w", err)
	}
	return build(nodes, size, m, h)
}

// build fills a table of exactly size entries (prime) for valid nodes; m is
// the configured size Rebalance keeps.
func build(nodes []algorithms.Node, size, m int, h algorithms.Hash) (*Maglev, error) {
	g := &Maglev{nodes: slices.Clone(nodes), hash: h, m: uint64(size), tableM: m}
	if h.Bits() == 32 {
		g.keyShift = 32
	}
	if err := g.fill(); err != nil {
		return nil, err
	}
	return g, nil
}

// Permutation returns the offset and skip of the permutation of the table
// entries that a node with the given ID hash walks in a table of size m:
// entry j of the permutation is (offset + j*skip) mod m, with offset in
// [0, m) and skip in [1, m). For a prime m it visits every entry once.
func Permutation(idHash uint64, m int) (offset, skip uint64) {
	x := algorithms.Mix64(idHash)
	y := algorithms.Mix64(x ^ 0x9E3779B97F4A7C15)
	return x % uint64(m), y%uint64(m-1) + 1
}

// fill builds the table from the nodes' permutations, turns in node ID
// order.
func (g *Maglev) fill() error {
	n := len(g.nodes)
	order := make([]int, n) // turn order: by node ID
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(g.nodes[a].ID, g.nodes[b].ID) })
	offset := make([]uint64, n)
	skip := make([]uint64, n)
	wmax := 0.0
	for i, nd := range g.nodes {
		offset[i], skip[i] = Permutation(g.hash.Sum(nd.ID), int(g.m))
		wmax = math.Max(wmax, nd.Weight)
	}
	rate := make([]float64, n)
	for i, nd := range g.nodes {
		rate[i] = nd.Weight / wmax
	}
	var counts []int
	if n < math.MaxUint16 {
		g.table16, counts = populate[uint16](g.m, offset, skip, rate, order)
	} else {
		g.table32, counts = populate[uint32](g.m, offset, skip, rate, order)
	}
	for i, c := range counts {
		if c == 0 {
			return fmt.Errorf("maglev: node %q (weight %v, largest weight %v) wins no entry of the %d-entry table",
				g.nodes[i].ID, g.nodes[i].Weight, wmax, g.m)
		}
	}
	g.counts = counts
	return nil
}

// populate is the paper's population loop (Eisenbud et al., Pseudocode 1)
// with weighted turns: nodes take turns in the given order; in each round
// node i gains rate[i] turns (0 < rate <= 1, at least one node at 1) and, per
// whole turn, claims the next entry of its permutation (offset[i] +
// j*skip[i]) mod m that is still free. It returns the table (entry -> node
// index) and each node's entry count. The node count must be below the
// largest T, which marks free entries.
func populate[T uint16 | uint32](m uint64, offset, skip []uint64, rate []float64, order []int) ([]T, []int) {
	n := len(offset)
	next := slices.Clone(offset) // current permutation position of each node
	turn := make([]float64, n)
	free := ^T(0)
	table := make([]T, m)
	for e := range table {
		table[e] = free
	}
	counts := make([]int, n)
	filled := uint64(0)
	for filled < m {
		for _, i := range order {
			turn[i] += rate[i]
			for turn[i] >= 1 && filled < m {
				turn[i]--
				c := next[i]
				for table[c] != free {
					if c += skip[i]; c >= m {
						c -= m
					}
				}
				table[c] = T(i)
				counts[i]++
				filled++
				if c += skip[i]; c >= m {
					c -= m
				}
				next[i] = c
			}
			if filled == m {
				break
			}
		}
	}
	return table, counts
}

// Algorithm returns "maglev".
func (g *Maglev) Algorithm() string { return Name }

// Nodes returns the membership in the order given to New.
func (g *Maglev) Nodes() []algorithms.Node { return g.nodes }

// TableSize returns the number of lookup table entries in use (prime, >= the
// configured size).
func (g *Maglev) TableSize() int { return int(g.m) }

// EntryCount returns how many table entries node i (an index into Nodes())
// owns.
func (g *Maglev) EntryCount(i int) int { return g.counts[i] }

// Entry returns the index into Nodes() of the owner of table entry e, 0 <= e
// < TableSize().
func (g *Maglev) Entry(e int) int {
	if g.table16 != nil {
		return int(g.table16[e])
	}
	return int(g.table32[e])
}

// HashKey returns the configured hash of key.
func (g *Maglev) HashKey(key string) uint64 { return g.hash.Sum(key) }

// LocateHash returns the index into Nodes() of the owner of table entry
// floor(h' * M / 2^64), where h' is h (h<<32 for 32-bit hashes): the
// multiply-shift range reduction (Lemire 2019) in place of the paper's
// h mod M, which gives each entry the same share of hash values up to one
// part in 2^64/M.
func (g *Maglev) LocateHash(h uint64) int {
	e, _ := bits.Mul64(h<<g.keyShift, g.m)
	if g.table16 != nil {
		return int(g.table16[e])
	}
	return int(g.table32[e])
}

// Locate returns the ID of the node that owns key.
func (g *Maglev) Locate(key string) string { return g.nodes[g.LocateHash(g.hash.Sum(key))].ID }

// Rebalance rebuilds the table for nodes with the same configured table size
// and hash. The table depends only on the member set (and, across a doubling
// point, on n through [EffectiveTableSize]); there is no state to keep.
func (g *Maglev) Rebalance(nodes []algorithms.Node) (algorithms.Placer, error) {
	next, err := New(nodes, g.tableM, g.hash)
	if err != nil {
		return nil, err
	}
	return next, nil
}

// ExactShares returns each node's entry count divided by the table size,
// indexed like Nodes(): the exact share of the key hash space.
func (g *Maglev) ExactShares() []float64 {
	shares := make([]float64, len(g.counts))
	for i, c := range g.counts {
		shares[i] = float64(c) / float64(g.m)
	}
	return shares
}
