package command

import (
	"io"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/cmd/internal/cli"
)

// runSwitch measures what switching a fleet from one placement (the
// dialect of a real client or proxy, or an algorithm) to another costs
// its cache: the keys routed differently, the from -> to matrix, the
// first such keys and the miss storm (analysis.Switching).
func runSwitch(args []string, stdout, stderr io.Writer) error {
	var s cli.Switch
	fs := cli.NewFlagSet("switch", "-from A[,A...] -to B[,B...] [-nodes N | -node-ids IDS | -members FILE] [-weights W] [-reads Q] [-hit H] [flags]", stderr)
	s.Register(fs)
	set, err := cli.Parse(fs, args)
	if err != nil {
		return cli.Usage(err)
	}
	if fs.NArg() != 0 {
		return cli.Usage(cli.Args(fs, 0, ""))
	}
	o, nodes, pairs, err := s.Parse(set, stderr)
	if err != nil {
		return cli.Usage(err)
	}
	closeKeys, err := s.OpenKeys(&o, stderr)
	if err != nil {
		return err
	}
	defer closeKeys()
	bar := cli.StartProgress(stderr, o.RunKeys()) // stderr terminals only
	o.Progress = bar.Hook()
	defer bar.Stop()
	rows, err := analysis.Switching(o, nodes, pairs, s.Model, s.First)
	if err != nil {
		return err
	}
	bar.Stop()
	return cli.WriteRows(stdout, s.Out, s.Formats, rows, analysis.WriteSwitchTable)
}
