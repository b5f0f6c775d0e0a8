package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
)

// placementFlags is the flag vocabulary shared by every command that builds
// placements.
type placementFlags struct {
	algo       string
	nodes      int
	vnodes     int
	hash       string
	eps        float64
	partitions int
	tableSize  int
	probes     int
	capacity   int
	weights    string
	nodeIDs    string
}

func (p *placementFlags) register(fs *flag.FlagSet, algoHelp string) {
	def := catalog.DefaultConfig()
	fs.StringVar(&p.algo, "algo", "", algoHelp+" ("+strings.Join(catalog.Names(), ", ")+")")
	fs.IntVar(&p.vnodes, "vnodes", def.VNodes, "virtual nodes per node of weight 1 (ring, bounded)")
	fs.StringVar(&p.hash, "hash", def.Hash, "key hash: "+strings.Join(algorithms.HashNames(), ", ")+" (slots always use CRC-16)")
	fs.Float64Var(&p.eps, "eps", def.Eps, "bounded: load factor c = 1 + eps, eps > 0")
	fs.IntVar(&p.partitions, "partitions", def.Partitions, "bounded: number of fixed partitions")
	registerTableFlags(fs, &p.tableSize, &p.probes, &p.capacity)
}

// registerTableFlags registers -table-size, -probes and -capacity with the
// catalog defaults.
func registerTableFlags(fs *flag.FlagSet, tableSize, probes, capacity *int) {
	def := catalog.DefaultConfig()
	fs.IntVar(tableSize, "table-size", def.TableSize, "maglev: lookup table size M, a prime (grown to keep M >= 100 x nodes)")
	fs.IntVar(probes, "probes", def.Probes, "multiprobe: probes per key")
	fs.IntVar(capacity, "capacity", def.Capacity, "anchor, dx: fixed number of buckets, >= nodes (0 = twice the initial nodes, at least 16)")
}

func (p *placementFlags) registerMembership(fs *flag.FlagSet) {
	fs.IntVar(&p.nodes, "nodes", 0, "number of nodes, named node-0 ... node-{n-1} (or the count of -node-ids)")
	fs.StringVar(&p.weights, "weights", "", "comma-separated node weights > 0, one per node (default all 1)")
	fs.StringVar(&p.nodeIDs, "node-ids", "", "comma-separated unique node IDs (default node-0 ... node-{n-1})")
}

func (p *placementFlags) config() catalog.Config {
	return catalog.Config{Hash: p.hash, VNodes: p.vnodes, Eps: p.eps, Partitions: p.partitions,
		TableSize: p.tableSize, Probes: p.probes, Capacity: p.capacity}
}

// membership builds the node list from -nodes, -node-ids and -weights.
func (p *placementFlags) membership(set map[string]bool) ([]algorithms.Node, error) {
	var nodes []algorithms.Node
	if p.nodeIDs != "" {
		ids := strings.Split(p.nodeIDs, ",")
		if set["nodes"] && p.nodes != len(ids) {
			return nil, fmt.Errorf("-nodes %d disagrees with the %d IDs of -node-ids", p.nodes, len(ids))
		}
		for _, id := range ids {
			nodes = append(nodes, algorithms.Node{ID: strings.TrimSpace(id), Weight: 1})
		}
	} else {
		if !set["nodes"] {
			return nil, fmt.Errorf("-nodes is required (or -node-ids)")
		}
		var err error
		if nodes, err = algorithms.DefaultNodes(p.nodes); err != nil {
			return nil, err
		}
	}
	if p.weights != "" {
		ws, err := algorithms.ParseWeights(p.weights)
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

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints usage (with units and defaults) to stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: chbench %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args and returns the set of flags given explicitly.
func parse(fs *flag.FlagSet, args []string) (map[string]bool, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set, nil
}
