package main

import (
	"fmt"
	"io"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/reference"
)

// runReference runs the reference table (package reference) and exits
// non-zero if any check fails.
func runReference(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reference", "[-full] [-format table|csv]", stderr)
	full := fs.Bool("full", false, "larger sizes where the published figure is a statistical law (more keys, sets, rings); about a minute")
	format := fs.String("format", "table", "output format: table or csv")
	seed := fs.Uint64("seed", 1, "seed of the key generators and scenario choices")
	workers := fs.Int("workers", 0, "goroutines (0 = one per core); results do not depend on it")
	if _, err := parse(fs, args); err != nil {
		return badUsage(err)
	}
	if fs.NArg() != 0 {
		return badUsage(fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if err := checkWorkers(*workers); err != nil {
		return badUsage(err)
	}
	if *format != "table" && *format != "csv" {
		return badUsage(fmt.Errorf("unknown format %q (known: table, csv)", *format))
	}
	sz := reference.Default
	if *full {
		sz = reference.Full
	}
	in := reference.DefaultInput()
	o := analysis.Options{Seed: *seed, Workers: *workers}
	bar := startProgress(stderr, &o, reference.Keys(sz, in))
	defer bar.stop()
	rows, err := reference.Run(o, sz, in)
	bar.stop()
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
