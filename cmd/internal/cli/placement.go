package cli

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/algorithms/external"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/fleet"
	"github.com/chbench/chbench/memory"
	"github.com/chbench/chbench/schema"
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
	Members    string // -members: a membership file (fleet.ReadMembership)
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
	RegisterMembers(fs, &p.Members)
}

// RegisterMembers adds -members FILE, the membership file every command
// that takes a membership reads the same way.
func RegisterMembers(fs *flag.FlagSet, path *string) {
	fs.StringVar(path, "members", "", "membership from a file: one node a line, id or id,weight (# comments), instead of -nodes, -node-ids and -weights")
}

// Named reports whether the node IDs came from the user (-members or
// -node-ids) rather than being generated (node-0 ...).
func (p *Placement) Named() bool { return p.Members != "" || p.NodeIDs != "" }

func (p *Placement) Config() catalog.Config {
	p.Budget()
	return catalog.Config{Hash: p.Hash, VNodes: p.VNodes, Eps: p.Eps, Partitions: p.Partitions,
		TableSize: p.TableSize, Probes: p.Probes, Capacity: p.Capacity, MemoryBudget: int64(p.Mem)}
}

// Membership builds the node list from -members, or from -nodes,
// -node-ids and -weights.
func (p *Placement) Membership(set map[string]bool) ([]algorithms.Node, error) {
	if p.Members != "" {
		for _, f := range []string{"nodes", "node-ids", "weights"} {
			if set[f] {
				return nil, fmt.Errorf("-members %q and -%s: give the membership in the file or with the flags, not both", p.Members, f)
			}
		}
		nodes, err := fleet.ReadMembership(p.Members, p.Budget()) // its nodes reserved from -mem
		if err != nil {
			return nil, fmt.Errorf("-members: %w", err)
		}
		return nodes, nil
	}
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

// NamedPlacement sets the placement mode of o for a membership whose node
// IDs the user gave (named): fixed, the layout of exactly those IDs, which
// is what the user's own client builds, unless -placement was given. Asked
// for per-set on such a membership, it says on stderr what per-set means
// there: key sets 2..S are placed on salted IDs ("r<s>/ID"), so their
// numbers describe random layouts like the user's, not the user's.
func NamedPlacement(o *analysis.Options, set map[string]bool, named bool, stderr io.Writer) {
	if !named {
		return
	}
	if !set["placement"] {
		o.Placement = schema.PlacementFixed
		return
	}
	if o.Placement == schema.PlacementPerSet {
		fmt.Fprintln(stderr, "chbench: -placement per-set on named nodes: key sets 2 and later place ring, bounded, ketama, maglev and multiprobe on salted IDs (r<s>/ID), so their numbers describe random layouts like yours, not yours; -placement fixed (the default for named nodes) measures your layout")
	}
}

// configFlags are the catalog configuration flags and -placement, each
// with the catalog fact saying which algorithms read it and what the
// error says they do: a flag is read by an algorithm whose Info has the
// fact.
var configFlags = []struct {
	flag, does string
	reads      func(catalog.Info) bool
}{
	{"vnodes", "places virtual nodes", func(in catalog.Info) bool { return in.UsesVNodes }},
	{"hash", "hashes keys with -hash", func(in catalog.Info) bool { return in.UsesHash }},
	{"eps", "bounds loads (c = 1 + eps)", func(in catalog.Info) bool { return in.UsesEps }},
	{"partitions", "places fixed partitions", func(in catalog.Info) bool { return in.UsesPartitions }},
	{"table-size", "builds a lookup table", func(in catalog.Info) bool { return in.UsesTableSize }},
	{"probes", "probes", func(in catalog.Info) bool { return in.UsesProbes }},
	{"capacity", "has a fixed number of buckets", func(in catalog.Info) bool { return in.UsesCapacity }},
	{"placement", "has a random layout (per-set layouts change only", func(in catalog.Info) bool { return in.RandomLayout }},
}

// RefuseUnusedConfig returns the usage error for a configuration flag
// given explicitly (set) that no placement of algos (the list of -algo,
// or of the flags named by list, such as "-from/-to") reads, naming the
// flag, the list and the catalog algorithms that do read it: -vnodes,
// -hash, -eps, -partitions, -table-size, -probes and -capacity (catalog
// Info.UsesVNodes ... UsesCapacity) and -placement (Info.RandomLayout).
// Every command that takes an algorithm list calls it once the list is
// parsed, so that a flag none of the chosen placements reads is refused
// alike everywhere, never silently ignored. The bounded-loads forms of
// load (bounded-key, bounded-request) read what bounded reads; a program
// (exec:) reads none of these flags.
func RefuseUnusedConfig(set map[string]bool, list string, algos []string) error {
	if list == "" {
		list = "-algo"
	}
	list += " " + strings.Join(algos, ",")
	for _, f := range configFlags {
		if !set[f.flag] || readsConfig(f.reads, algos) {
			continue
		}
		var readers []string
		for _, n := range catalog.Names() {
			if in, _ := catalog.Describe(n); f.reads(in) {
				readers = append(readers, n)
			}
		}
		if f.flag == "placement" {
			return fmt.Errorf("-placement is not used with %s: none of them %s %s): leave it out", list, f.does, strings.Join(readers, ", "))
		}
		return fmt.Errorf("-%s is not used with %s: none of them %s (those that do: %s): leave it out", f.flag, list, f.does, strings.Join(readers, ", "))
	}
	return nil
}

// ReadsConfig reports whether a placement of algos reads configuration
// flag name (one [RefuseUnusedConfig] checks: "vnodes", ...,
// "placement"); false for any other name.
func ReadsConfig(name string, algos []string) bool {
	for _, f := range configFlags {
		if f.flag == name {
			return readsConfig(f.reads, algos)
		}
	}
	return false
}

// readsConfig reports whether a placement of algos has the catalog fact
// reads (see describeForm).
func readsConfig(reads func(catalog.Info) bool, algos []string) bool {
	return slices.ContainsFunc(algos, func(n string) bool { in, ok := describeForm(n); return ok && reads(in) })
}

// describeForm returns the catalog facts of placement name: an
// algorithm or dialect, or a bounded-loads form of load (the facts of
// bounded); false for a program or an unknown name.
func describeForm(name string) (catalog.Info, bool) {
	if name == schema.VariantKey || name == schema.VariantRequest || name == schema.VariantPartition {
		name = "bounded"
	}
	in, err := catalog.Describe(name)
	return in, err == nil
}
