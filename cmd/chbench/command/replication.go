package command

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
)

// runReplication measures replica-set movement, replica load and distinct
// replica sets at replication factor R for each algorithm
// (analysis.SweepReplication).
func runReplication(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	var a cli.Analysis
	var c cli.Change
	var tp cli.Topology
	fs := cli.NewFlagSet("replication", "-algo A[,B...] -replicas R[,R...] -from N[,N...] [-to M | -op OP[,OP...] | fleet flags] [-racks K | -topology FILE] [flags]", stderr)
	a.Register(fs)
	tp.Register(fs)
	replicas := fs.String("replicas", "3", fmt.Sprintf("replication factor(s) R, 1..%d and at most the nodes before the change (a larger R is refused, not capped): distinct nodes per key; a comma-separated list sweeps", analysis.MaxReplicationFactor))
	c.Register(fs, "node count(s) before the change: N, a comma-separated list, or grid",
		"node count after the change (one -from only)",
		"scenario(s) instead of -to: "+strings.Join(schema.Ops(), ", ")+" (default add); multi-step scenarios compare the first and last placement")
	o, sw, rs, err := replicationSweep(&a, &c, fs, args, replicas, stderr)
	if err == nil { // with a topology, every algorithm's replicas are spread over its domains
		o.Domains, err = tp.Spec(sw)
	}
	if err != nil {
		return cli.Usage(err)
	}
	closeKeys, err := a.OpenKeys(&o, stderr) // a missing or empty key file, before any work: an error while running
	if err != nil {
		return err
	}
	defer closeKeys()
	progs, err := a.OpenPrograms(ctx, &o, &sw) // a program that fails to start: an error of the run
	if err != nil {
		return err
	}
	defer progs.CloseInto(&err)
	if err := sw.CheckReplication(o, rs); err != nil { // every configuration, change and R, before the first key
		return cli.Usage(err)
	}
	bar := cli.StartProgress(stderr, analysis.SweepKeys(o, sw)*int64(len(rs))) // stderr terminals only
	o.Progress = bar.Hook()
	defer bar.Stop()
	results, err := analysis.SweepReplication(o, sw, rs)
	if err != nil {
		return err
	}
	bar.Stop()
	return schema.Write(stdout, a.Format, results, analysis.WriteReplicationTable)
}

// replicationSweep parses replication's flags into the options, the sweep
// of changes and the replication factors; every error is a usage error.
func replicationSweep(a *cli.Analysis, c *cli.Change, fs *flag.FlagSet, args []string, replicas *string, stderr io.Writer) (analysis.Options, analysis.Sweep, []int, error) {
	var o analysis.Options
	var sw analysis.Sweep
	set, err := cli.Parse(fs, args)
	if err != nil {
		return o, sw, nil, err
	}
	if fs.NArg() != 0 {
		return o, sw, nil, cli.Args(fs, 0, "")
	}
	if err := a.RefuseUnused(set); err != nil {
		return o, sw, nil, err
	}
	if err := a.OneFormat("replication"); err != nil {
		return o, sw, nil, err
	}
	if set["step"] {
		return o, sw, nil, fmt.Errorf("-step: replication compares the placements before and after the whole change; chbench move -step reports each step")
	}
	if err := a.CheckTrace(set); err != nil {
		return o, sw, nil, err
	}
	rs, err := cli.Ints("replicas", *replicas, 1)
	if err != nil {
		return o, sw, nil, err
	}
	for _, r := range rs {
		if r > analysis.MaxReplicationFactor {
			return o, sw, nil, fmt.Errorf("replicas %d: the replication factor must be 1 to %d", r, analysis.MaxReplicationFactor)
		}
	}
	if o, sw, err = a.Options(); err != nil {
		return o, sw, nil, err
	}
	c.Fleet.Memory = o.Memory
	if err := c.Sweep(&sw, set, o.Seed, "-from is required (or -node-ids, -weights, -members)"); err != nil {
		return o, sw, nil, err
	}
	if err := cli.AddressSweep(&sw, !c.Fleet.Explicit(), stderr); err != nil {
		return o, sw, nil, err
	}
	// A key has at most one replica per node: R above the first
	// membership's nodes would be measured at fewer replicas than the
	// replicas column says.
	sizes := sw.Nodes
	for _, sc := range sw.Scenarios {
		sizes = append(sizes, len(sc.Initial))
	}
	for _, n := range sizes {
		for _, r := range rs {
			if r > n {
				return o, sw, nil, fmt.Errorf("replicas %d: the fleet before the change has only %d nodes%s, and a key has at most one replica per node; give -replicas %d or less, or more nodes", r, n, fromFlag(c.From, n), n)
			}
		}
	}
	cli.NamedPlacement(&o, set, c.Fleet.Named(), stderr)
	if c.Fleet.Used(set) {
		cli.KeepWeighted(a, &o, &sw, stderr)
	}
	return o, sw, rs, nil
}

// fromFlag returns " (-from N)" when the fleet of n nodes came from -from,
// else "" (it came from -node-ids, -weights or -members).
func fromFlag(from string, n int) string {
	if from == "" {
		return ""
	}
	return fmt.Sprintf(" (-from %d)", n)
}
