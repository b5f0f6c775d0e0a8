package main

import (
	"fmt"
	"io"

	"github.com/chbench/chbench/analysis"
	"github.com/chbench/chbench/analysis/reference"
)

// runReference reproduces the values of REFERENCES.md that chbench can
// measure and exits non-zero if any check fails.
func runReference(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reference", "[-full] [-format table|csv]", stderr)
	full := fs.Bool("full", false, "larger sizes where the published figure is a statistical law (more keys, sets, rings); about a minute")
	format := fs.String("format", "table", "output format: table or csv")
	seed := fs.Uint64("seed", 1, "seed of the key generators and scenario choices")
	workers := fs.Int("workers", 0, "goroutines (0 = one per core); results do not depend on it")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := checkWorkers(*workers); err != nil {
		return err
	}
	if *format != "table" && *format != "csv" {
		return fmt.Errorf("unknown format %q (known: table, csv)", *format)
	}
	sz := reference.Default
	if *full {
		sz = reference.Full
	}
	pub := reference.PublishedValues()
	o := analysis.Options{Seed: *seed, Workers: *workers}
	bar := startProgress(stderr, &o, reference.Keys(sz, pub))
	defer bar.stop()
	rows, err := reference.Run(o, sz, pub)
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
