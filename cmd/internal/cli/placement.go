package cli

import (
	"flag"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/memory"
)

// Placement is the flag group shared by every command that builds
// placements: the algorithm, the catalog's configuration (vnodes, hash,
// eps, partitions, table size, probes, capacity), the memory budget and,
// with RegisterMembership, -nodes, -node-ids and -weights.
type Placement struct {
	Algo       string
	Nodes      int
	VNodes     int
	Hash       string
	Eps        float64
	Partitions int
	TableSize  int
	Probes     int
	Capacity   int
	Weights    string
	NodeIDs    string
	Mem        ByteSize
	budget     *memory.Budget // of Mem, made once by Budget
	// Exec holds the settings of the programs -algo names as exec:COMMAND
	// (-exec-timeout, -exec-batch); each Command comes from -algo.
	Exec external.Config
}

func (p *Placement) Register(fs *flag.FlagSet, algoHelp string) {
	def := catalog.DefaultConfig()
	fs.StringVar(&p.Algo, "algo", "", algoHelp+" ("+strings.Join(catalog.Names(), ", ")+")")
	fs.IntVar(&p.VNodes, "vnodes", def.VNodes, "virtual nodes per node of weight 1 (ring, bounded)")
	fs.StringVar(&p.Hash, "hash", def.Hash, "key hash: "+strings.Join(algorithms.HashNames(), ", ")+" (slots always use CRC-16)")
	fs.Float64Var(&p.Eps, "eps", def.Eps, "bounded: load factor c = 1 + eps, eps > 0")
	fs.IntVar(&p.Partitions, "partitions", def.Partitions, "bounded: number of fixed partitions")
	registerTable(fs, &p.TableSize, &p.Probes, &p.Capacity)
	registerMem(fs, &p.Mem)
}

// registerTable registers -table-size, -probes and -capacity with the
// catalog defaults.
func registerTable(fs *flag.FlagSet, tableSize, probes, capacity *int) {
	def := catalog.DefaultConfig()
	fs.IntVar(tableSize, "table-size", def.TableSize, "maglev: lookup table size M, a prime (grown to keep M >= 100 x nodes)")
	fs.IntVar(probes, "probes", def.Probes, "multiprobe: probes per key")
	fs.IntVar(capacity, "capacity", def.Capacity, "anchor, dx: fixed number of buckets, >= nodes (0 = twice the initial nodes, at least 16)")
}

func (p *Placement) RegisterMembership(fs *flag.FlagSet) {
	fs.IntVar(&p.Nodes, "nodes", 0, "number of nodes, named node-0 ... node-{n-1} (or the count of -node-ids)")
	fs.StringVar(&p.Weights, "weights", "", "comma-separated node weights > 0, one per node (default all 1)")
	fs.StringVar(&p.NodeIDs, "node-ids", "", "comma-separated unique node IDs (default node-0 ... node-{n-1})")
}

func (p *Placement) Config() catalog.Config {
	p.Budget()
	return catalog.Config{Hash: p.Hash, VNodes: p.VNodes, Eps: p.Eps, Partitions: p.Partitions,
		TableSize: p.TableSize, Probes: p.Probes, Capacity: p.Capacity, MemoryBudget: int64(p.Mem)}
}

// Membership builds the node list from -nodes, -node-ids and -weights.
func (p *Placement) Membership(set map[string]bool) ([]algorithms.Node, error) {
	var nodes []algorithms.Node
	if p.NodeIDs != "" {
		ids := strings.Split(p.NodeIDs, ",")
		if set["nodes"] && p.Nodes != len(ids) {
			return nil, fmt.Errorf("-nodes %d disagrees with the %d IDs of -node-ids", p.Nodes, len(ids))
		}
		for _, id := range ids {
			nodes = append(nodes, algorithms.Node{ID: strings.TrimSpace(id), Weight: 1})
		}
	} else {
		if !set["nodes"] {
			return nil, fmt.Errorf("-nodes is required (or -node-ids)")
		}
		var err error
		if nodes, err = algorithms.DefaultNodes(p.Nodes); err != nil {
			return nil, err
		}
	}
	if p.Weights != "" {
		ws, err := algorithms.ParseWeights(p.Weights)
		if err != nil {
			return nil, err
		}
		if len(ws) != len(nodes) {
			return nil, fmt.Errorf("-weights has %d entries for %d nodes", len(ws), len(nodes))
		}
		for i := range nodes {
			nodes[i].Weight = ws[i]
		}
	}
	return nodes, algorithms.ValidateNodes(nodes)
}

// Budget returns the run's memory budget of -mem (package memory),
// made on the first call and handed to the Go runtime (see NewBudget).
func (p *Placement) Budget() *memory.Budget {
	if p.budget == nil {
		p.budget = NewBudget(p.Mem)
	}
	return p.budget
}

// RegisterMem adds -mem, the memory budget, to fs, with the default
// memory.DefaultLimit; every command that allocates by its input has it.
func RegisterMem(fs *flag.FlagSet, b *ByteSize) {
	*b = ByteSize(memory.DefaultLimit)
	fs.Var(b, "mem", "memory budget: placements, counters, buffers, queues, tables and rows larger than this are refused before they are allocated (e.g. 8GiB)")
}

// registerMem is RegisterMem.
func registerMem(fs *flag.FlagSet, b *ByteSize) { RegisterMem(fs, b) }

// LimitHeap is set by main: only the chbench process, not a test running
// commands in-process, hands the budget to the Go runtime.
var LimitHeap bool

// NewBudget returns the run's memory budget of b (memory.DefaultLimit
// for 0, which a -mem never gives: ByteSize refuses less than 1 MiB),
// and, in the chbench process (LimitHeap), makes the Go runtime collect
// garbage harder as the heap nears it (debug.SetMemoryLimit, a soft
// limit, plus 64 MiB for the runtime itself), so that garbage not yet
// collected does not push the process past it.
func NewBudget(b ByteSize) *memory.Budget {
	m := memory.New(int64(b))
	if LimitHeap {
		debug.SetMemoryLimit(m.Limit() + 64<<20)
	}
	return m
}
