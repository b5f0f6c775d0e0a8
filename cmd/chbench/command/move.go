package command

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
)

// runMove measures the moved fraction of each algorithm on a resize, a
// grid of scenarios or a fleet's planned change (analysis.SweepMove).
func runMove(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	var a cli.Analysis
	var c cli.Change
	var tp cli.Topology
	fs := cli.NewFlagSet("move", "-algo A[,B...] -from N[,N...] [-to M | -op OP[,OP...]] [flags]", stderr)
	a.Register(fs)
	tp.Register(fs)
	c.Register(fs, "node count(s) before the change: N, a comma-separated list, or grid (log grid 3..10,000)",
		"node count after the change (one -from only); nodes node-N... join, or the last nodes leave",
		"scenario(s) instead of -to, comma-separated: "+strings.Join(schema.Ops(), ", ")+" (default add)")
	minMoves := fs.Int("min-moves", 1000, "generated keys: raise the keys per set to ceil(min-moves / ideal fraction) so every key set expects at least this many moved keys; 0 = exactly -keys")
	maxKeys := fs.Int("max-keys", 2_000_000, "with -min-moves: at most this many keys per set; scenarios that would need more are left out (listed on stderr)")
	fs.String("replicas", "", "replication factor(s) R: measure replica sets instead (same as chbench replication)")
	set, o, sw, err := a.Parse(fs, args)
	if err != nil {
		return cli.Usage(err)
	}
	if set["replicas"] {
		return runReplication(ctx, args, stdout, stderr)
	}
	fleet := c.Fleet.Used(set)
	c.Fleet.Memory = o.Memory
	if err := c.Sweep(&sw, set, o.Seed, "-from is required"); err != nil {
		return cli.Usage(err)
	}
	if err := cli.AddressSweep(&sw, !c.Fleet.Explicit(), stderr); err != nil {
		return cli.Usage(err)
	}
	if o.Domains, err = tp.Spec(sw); err != nil {
		return cli.Usage(err)
	}
	cli.NamedPlacement(&o, set, c.Fleet.Named(), stderr)
	if fleet {
		cli.KeepWeighted(&a, &o, &sw, stderr)
	} else { // a fleet's change runs at its keys: its ideal fraction is the user's
		if *minMoves < 0 {
			return cli.Usage(fmt.Errorf("min-moves %d: give 0 (off) or more", *minMoves))
		}
		if *maxKeys < 1 {
			return cli.Usage(fmt.Errorf("max-keys %d: need at least 1 key per set", *maxKeys))
		}
		o.MinMoves, o.MaxKeys = *minMoves, *maxKeys
	}
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
	// Every configuration and change before the first key is streamed (a
	// bad one would otherwise fail after the others had run): a usage
	// error, as in storm, replication and propagate, a fleet's change
	// too (a -members file that cannot be read has failed above, exit 1).
	if err := sw.CheckMove(o); err != nil {
		return cli.Usage(err)
	}
	bar := cli.StartProgress(stderr, analysis.SweepKeys(o, sw)) // stderr terminals only
	o.Progress = bar.Hook()
	defer bar.Stop()
	results, skipped, err := analysis.SweepMove(o, sw)
	if err != nil {
		return err
	}
	bar.Stop()
	for _, s := range skipped {
		fmt.Fprintln(stderr, "move: left out:", s)
	}
	if len(results) == 0 {
		return fmt.Errorf("no scenario could reach -min-moves %d within -max-keys %d", *minMoves, *maxKeys)
	}
	return cli.WriteRows(stdout, a.Out, a.Formats, results, analysis.WriteMoveTable)
}
