package command

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
)

// runSpread measures how evenly each algorithm spreads keys over nodes
// (analysis.SweepSpread).
func runSpread(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	var a cli.Analysis
	var tp cli.Topology
	fs := cli.NewFlagSet("spread", "-algo A[,B...] -nodes N[,N...] [flags]", stderr)
	a.Register(fs)
	tp.Register(fs)
	nodesL := fs.String("nodes", "", "node count(s): N, a comma-separated list, or grid (log grid 3..10,000); or give -node-ids")
	fs.StringVar(&a.Weights, "weights", "", "comma-separated node weights > 0, one per node (one -nodes value only)")
	fs.StringVar(&a.NodeIDs, "node-ids", "", "comma-separated unique node IDs (default node-0 ... node-{n-1})")
	cli.RegisterMembers(fs, &a.Members)
	draws := fs.Int("draws", 200, "algorithms with a random layout (ring, bounded, ...): summarise the exact peak-to-mean and cv over this many independent layouts (mean, 5th-95th percentile); 0 = off")
	shares := fs.Bool("shares", false, "with -format csv: one row per node (id, weight share, measured and exact share) instead of one per configuration")
	overhead := fs.Int64("overhead", 0, "with a -trace that has sizes: bytes every object costs beyond its key and value in the spread by bytes (a cache's item header; memcached 1.6 charges about 50-60), >= 0")
	set, o, sw, err := a.Parse(fs, args)
	switch {
	case err != nil:
	case simulate.CheckItemOverhead(*overhead) != nil || set["overhead"] && !a.Trace.Given():
		err = fmt.Errorf("overhead %d: give bytes 0 to %d, with -trace", *overhead, int64(simulate.MaxItemOverhead))
	case *draws < 0 || *draws > analysis.MaxDraws:
		err = fmt.Errorf("draws %d: give 0 to %d layouts", *draws, analysis.MaxDraws)
	case *shares && !slices.Contains(a.Formats, schema.FormatCSV):
		err = fmt.Errorf("-shares needs -format csv, got -format %s", a.Format)
	default:
		if err = refuseLayoutFlags(set, *draws, sw.Algos); err != nil {
			break
		}
		if err = spreadMembers(&a, set, *nodesL, &sw, stderr); err != nil {
			break
		}
		if a.Algo == "all" && sw.Members != nil { // a weighted membership: the algorithms that can place it
			sw.Algos = cli.SkipUnweighted(sw.Algos, sw.Members, stderr)
			o.Algo = sw.Algos[0]
		}
		o.Domains, err = tp.Spec(sw)
	}
	if err != nil {
		return cli.Usage(err)
	}
	o.Draws, o.ItemOverhead = *draws, *overhead
	cli.NamedPlacement(&o, set, a.Named(), stderr)
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
	if err := sw.CheckSpread(o); err != nil { // every configuration, before the first key
		return cli.Usage(err)
	}
	bar := cli.StartProgress(stderr, analysis.SweepKeys(o, sw)) // stderr terminals only
	o.Progress = bar.Hook()
	defer bar.Stop()
	rows, err := analysis.SweepSpread(o, sw)
	if err != nil {
		return err
	}
	bar.Stop()
	return cli.WriteEach(stdout, a.Out, a.Formats, func(format string, w io.Writer) error {
		if format == schema.FormatCSV && *shares {
			return schema.WriteCSV(w, schema.SharesOf(rows))
		}
		return schema.Write(w, format, rows, analysis.WriteSpreadTable)
	})
}

// refuseLayoutFlags returns the usage error for -draws (other than 0,
// which asks for nothing) when no algorithm of algos has a random layout
// (catalog Info.RandomLayout: layout draws change nothing for the
// others), naming the flag and the algorithms; the configuration flags
// every command shares (-vnodes, -placement, ...) are refused by
// cli.RefuseUnusedConfig, through Analysis.Parse. A program outside the
// catalog has no random layout.
func refuseLayoutFlags(set map[string]bool, draws int, algos []string) error {
	if draws == 0 {
		return nil
	}
	random := slices.ContainsFunc(algos, func(n string) bool { in, err := catalog.Describe(n); return err == nil && in.RandomLayout })
	var layouts []string
	for _, n := range catalog.Names() {
		if in, _ := catalog.Describe(n); in.RandomLayout {
			layouts = append(layouts, n)
		}
	}
	return cli.RefuseUnused(set, cli.Consumes{Flags: []string{"draws"}, On: random,
		Unless: "with -algo " + strings.Join(algos, ",") + ": none of them has a random layout (layout draws change only " + strings.Join(layouts, ", ") + ")"})
}

// spreadMembers sets sw's memberships: the explicit one of -node-ids and
// -weights (with at most one -nodes count), the -members file, or the
// -nodes counts; nodes generated from a count are server addresses when
// sw has a dialect (noted on stderr), the user's IDs stay as given.
func spreadMembers(a *cli.Analysis, set map[string]bool, nodes string, sw *analysis.Sweep, stderr io.Writer) error {
	if a.Weights == "" && a.NodeIDs == "" && a.Members == "" {
		if nodes == "" {
			return fmt.Errorf("-nodes is required (or -node-ids, -members)")
		}
		var err error
		if sw.Nodes, err = cli.NodeCounts("nodes", nodes); err != nil {
			return err
		}
		return cli.AddressSweep(sw, false, stderr)
	}
	if set["nodes"] {
		if a.Members != "" {
			return fmt.Errorf("-nodes %q and -members: give one membership", nodes)
		}
		var err error
		if a.Nodes, err = strconv.Atoi(nodes); err != nil {
			return fmt.Errorf("nodes %q: one node count with -weights or -node-ids", nodes)
		}
	}
	var err error
	if sw.Members, err = a.Membership(set); err != nil || a.NodeIDs != "" || a.Members != "" {
		return err
	}
	sw.Members, err = cli.AddressMembers(sw.Algos, sw.Members, stderr)
	return err
}
