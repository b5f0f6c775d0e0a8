package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
)

// runDomains measures placements against failure domains: replicas
// sharing a rack or zone (default), load per replica rank (-ranks), and
// what a node, rack or zone loss or a domain added moves (-changes), for
// each algorithm with its own replicas and with one replica per domain
// (analysis.SweepDomainViolations, SweepDomainRanks, SweepDomainChanges).
//
// An exec:COMMAND entry of -algo is a program speaking the external
// protocol (cli.OpenPrograms): it runs with its own replicas, up to the
// replicas its handshake declares, and its one-replica-per-domain scheme
// is refused with a note on stderr (analysis.DomainAwareRefused).
func runDomains(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	var a cli.Analysis
	var tp cli.Topology
	fs := cli.NewFlagSet("domains", "-algo A[,B...] (-nodes N | -node-ids IDS | -weights W | -topology FILE) [-racks K] [-zones K] [-domain LEVEL] [-replicas R[,R...]] [-ranks | -changes [-events LIST]] [flags]", stderr)
	a.Register(fs)
	tp.Register(fs)
	nodes := fs.Int("nodes", 0, "number of nodes, named node-0 ... node-{n-1} (default: the -topology file's nodes)")
	fs.StringVar(&a.Weights, "weights", "", "comma-separated node weights > 0, one per node")
	fs.StringVar(&a.NodeIDs, "node-ids", "", "comma-separated unique node IDs (default node-0 ... node-{n-1})")
	replicas := fs.String("replicas", "3", fmt.Sprintf("replication factor(s) R, 1..%d and at most the nodes; a comma-separated list sweeps (one with -ranks or -changes)", algorithms.MaxReplicas))
	ranks := fs.Bool("ranks", false, "measure each node's load at each replica rank (primary, second, ...) instead of domain sharing; weights 3,3,3,1 show successive sampling's unevenness")
	changes := fs.Bool("changes", false, "measure what a node, a domain at each level failing and a domain added copy instead of domain sharing")
	events := fs.String("events", "", "with -changes: comma-separated changes: node or node:ID (a node fails), LEVEL or LEVEL:NAME (a whole domain fails), +LEVEL (a domain like the first is added); default node, each level, +the failure-domain level; unnamed ones are chosen by -seed")
	set, o, sw, err := a.Parse(fs, args)
	var nodeList []algorithms.Node
	var rs []int
	if err == nil {
		nodeList, rs, err = domainsInputs(&a, &tp, set, *nodes, *replicas, &o, *ranks, *changes)
	}
	var evs []analysis.DomainEvent
	if err == nil && *changes {
		evs, err = domainEvents(*events, &o)
	} else if err == nil && *events != "" {
		err = errors.New("-events needs -changes")
	}
	if err != nil {
		return cli.Usage(err)
	}
	keepWeighted(&a, &o, &sw, nodeList, stderr)
	closeKeys, err := a.OpenKeys(&o, stderr) // a missing or empty key file, before any work
	if err != nil {
		return err
	}
	defer closeKeys()
	progs, err := a.OpenPrograms(ctx, &o, &sw) // a program that fails to start: an error of the run
	if err != nil {
		return err
	}
	defer progs.CloseInto(&err)
	var check func() error
	runs := len(rs)
	switch {
	case *ranks:
		check = func() error { return sw.CheckDomainRanks(o, nodeList, rs[0]) }
	case *changes:
		check, runs = func() error { return sw.CheckDomainChanges(o, nodeList, rs[0], evs) }, len(evs)
	default:
		check = func() error { return sw.CheckDomainViolations(o, nodeList, rs) }
	}
	if err := check(); err != nil { // every configuration, before the first key
		return cli.Usage(err)
	}
	if !o.Domains.IsZero() {
		for _, name := range sw.Algos {
			if _, ok := o.Opened[name]; ok {
				fmt.Fprintf(stderr, "chbench: %v\n", analysis.DomainAwareRefused(name))
			}
		}
	}
	bar := cli.StartProgress(stderr, analysis.SweepKeys(o, sw)*int64(runs*len(schema.Schemes()))) // stderr terminals only
	o.Progress = bar.Hook()
	defer bar.Stop()
	switch {
	case *ranks:
		rows, err := analysis.SweepDomainRanks(o, sw, nodeList, rs[0])
		if err != nil {
			return err
		}
		bar.Stop()
		return schema.Write(stdout, a.Format, rows, analysis.WriteDomainRanksTable)
	case *changes:
		rows, err := analysis.SweepDomainChanges(o, sw, nodeList, rs[0], evs)
		if err != nil {
			return err
		}
		bar.Stop()
		return schema.Write(stdout, a.Format, rows, analysis.WriteDomainChangesTable)
	}
	rows, err := analysis.SweepDomainViolations(o, sw, nodeList, rs)
	if err != nil {
		return err
	}
	bar.Stop()
	return schema.Write(stdout, a.Format, rows, analysis.WriteDomainViolationsTable)
}

// domainsInputs returns the fleet and replication factors of domains'
// flags and sets o's topology; every error is a usage error.
func domainsInputs(a *cli.Analysis, tp *cli.Topology, set map[string]bool, nodes int, replicas string, o *analysis.Options, ranks, changes bool) ([]algorithms.Node, []int, error) {
	if err := a.OneFormat("domains"); err != nil {
		return nil, nil, err
	}
	if ranks && changes {
		return nil, nil, errors.New("-ranks and -changes: give one (or neither, for domain sharing)")
	}
	rs, err := cli.Ints("replicas", replicas, 1)
	if err != nil {
		return nil, nil, err
	}
	if (ranks || changes) && len(rs) > 1 {
		return nil, nil, fmt.Errorf("-replicas %s: -ranks and -changes take one replication factor", replicas)
	}
	var list []algorithms.Node
	if a.NodeIDs != "" || a.Weights != "" || set["nodes"] {
		if a.NodeIDs == "" && !set["nodes"] {
			a.Nodes, set = len(strings.Split(a.Weights, ",")), map[string]bool{"nodes": true}
		} else {
			a.Nodes = nodes
		}
		if list, err = a.Membership(set); err != nil {
			return nil, nil, err
		}
	}
	if o.Domains, err = tp.Spec(analysis.Sweep{Members: list}); err != nil {
		return nil, nil, err
	}
	switch {
	case list != nil:
	case o.Domains.File != nil:
		list = o.Domains.File.Nodes()
	default:
		err = errors.New("-nodes is required (or -node-ids, -weights, or the nodes of -topology)")
	}
	return list, rs, err
}

// domainEvents parses -events, or returns the default events of o's
// topology.
func domainEvents(s string, o *analysis.Options) ([]analysis.DomainEvent, error) {
	if o.Domains.IsZero() {
		return nil, errors.New("-changes needs failure domains: give -topology FILE, -racks or -zones")
	}
	if s == "" {
		return analysis.DefaultDomainEvents(o.Domains.Levels(), o.Domains.Level), nil
	}
	return analysis.ParseDomainEvents(s)
}

// keepWeighted narrows -algo all to the algorithms that take weights when
// the fleet has weights other than 1, naming the others on stderr; an
// algorithm named explicitly is kept (and its error reported).
func keepWeighted(a *cli.Analysis, o *analysis.Options, sw *analysis.Sweep, nodes []algorithms.Node, stderr io.Writer) {
	if a.Algo != "all" || algorithms.Uniform(nodes) && nodes[0].Weight == 1 {
		return
	}
	var keep, skip []string
	for _, name := range sw.Algos {
		if in, _ := catalog.Describe(name); in.Weighted {
			keep = append(keep, name)
		} else {
			skip = append(skip, name)
		}
	}
	if len(skip) > 0 {
		fmt.Fprintf(stderr, "chbench: skipping %s: no weights other than 1\n", strings.Join(skip, ", "))
	}
	sw.Algos, o.Algo = keep, keep[0]
}
