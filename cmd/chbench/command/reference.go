package command

import (
	"fmt"
	"io"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/reference"
	"github.com/chbench/chbench/cmd/internal/cli"
)

// runReference runs the reference table (package reference) and exits
// non-zero if any check fails.
func runReference(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("reference", "[-full] [-format table|csv]", stderr)
	full := fs.Bool("full", false, "larger sizes where the published figure is a statistical law (more keys, sets, rings); about a minute")
	format := fs.String("format", "table", "output format: table or csv")
	seed := fs.Uint64("seed", 1, "seed of the key generators and scenario choices")
	workers := fs.Int("workers", 0, "goroutines (0 = one per core); results do not depend on it")
	if _, err := cli.Parse(fs, args); err != nil {
		return cli.Usage(err)
	}
	if fs.NArg() != 0 {
		return cli.Usage(cli.Args(fs, 0, ""))
	}
	if err := cli.CheckWorkers(*workers); err != nil {
		return cli.Usage(err)
	}
	if *format != "table" && *format != "csv" {
		return cli.Usage(fmt.Errorf("unknown format %q (known: table, csv)", *format))
	}
	sz := reference.Default
	if *full {
		sz = reference.Full
	}
	in := reference.DefaultInput()
	o := analysis.Options{Seed: *seed, Workers: *workers}
	bar := cli.StartProgress(stderr, reference.Keys(sz, in))
	o.Progress = bar.Hook()
	defer bar.Stop()
	rows, err := reference.Run(o, sz, in)
	bar.Stop()
	if err != nil {
		return err
	}
	if *format == "csv" {
		err = reference.WriteCSV(stdout, rows)
	} else {
		if err = reference.WriteTable(stdout, rows); err == nil {
			_, err = fmt.Fprint(stdout, "\n"+reference.Notes)
		}
	}
	if err != nil {
		return err
	}
	return reference.Verdict(rows)
}
