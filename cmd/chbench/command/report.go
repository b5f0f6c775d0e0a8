package command

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/report"
	"github.com/chbench/chbench/schema"
)

// runReport writes the design-review report of a results directory, or
// with -compare the differences of two runs' headline numbers.
func runReport(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("report", "[-dir results] [-profile FILE] [-o FILE|-] [-compare OLDDIR]", stderr)
	dir := fs.String("dir", "results", "results directory: reads lookup.txt, movement.csv, spread.csv, load.csv, storm.csv, replication.csv and links plots/*.png")
	profile := fs.String("profile", "", "profile file of the reviewer's case, \"key = value\" lines: name, nodes (N or LO..HI), replicas, zipf, keyfile (default: nodes 100..10000, replicas 3, zipf 0.99)")
	out := fs.String("o", "", "output `FILE` in an existing directory (not a directory, device or symbolic link), written through a temporary file and a rename; - for stdout (default DIR/REPORT.md; with -compare, stdout)")
	compare := fs.String("compare", "", "old results directory: write how DIR's headline numbers differ from it (Markdown) instead of the report, to stdout or -o FILE")
	if _, err := cli.Parse(fs, args); err != nil {
		return cli.Usage(err)
	}
	if fs.NArg() != 0 {
		return cli.Usage(cli.Args(fs, 0, ""))
	}
	// Every file the report will read is an input, before any -o check:
	// no output may replace one.
	for _, d := range []string{*dir, *compare} {
		if d != "" {
			for _, p := range report.Inputs(d) {
				inputs.Add(p)
			}
		}
	}
	target := *out
	switch {
	case target == "" && *compare != "":
		target = "-"
	case target == "":
		// A missing -dir is a missing input (exit 1), not a bad -o.
		if _, err := os.Stat(*dir); err != nil {
			return err
		}
		// Before any work: a DIR/REPORT.md that is a directory, a device
		// or a symbolic link must not be replaced by the rename.
		target = filepath.Join(*dir, report.ReportFile)
		if err := cli.CheckFile(target); err != nil {
			return cli.Usage(err)
		}
	case target != "-":
		// Before any work, as for -o PREFIX: -o /dev/null would replace
		// the device (as root), and a missing directory or too long a
		// name would fail only once the report was built.
		if err := cli.CheckFile(target); err != nil {
			return cli.Usage(err)
		}
	}
	p := report.DefaultProfile()
	if *profile != "" {
		var err error
		if p, err = report.ReadProfile(*profile); err != nil {
			return cli.Usage(fmt.Errorf("-profile: %w", err)) // exit 1 for a file that cannot be read
		}
	}
	d, err := report.Load(*dir, p)
	if err != nil {
		return err
	}
	if target != "-" { // plot links relative to where the report is written
		d.LinkTo(filepath.Dir(target))
	}
	write := func(w io.Writer) error { return report.Write(w, d) }
	if *compare != "" {
		old, err := report.Load(*compare, p)
		if err != nil {
			return err
		}
		write = func(w io.Writer) error { return report.Compare(w, old, d) }
	}
	if target == "-" {
		return write(stdout)
	}
	if err := schema.WriteFile(target, write); err != nil {
		return err
	}
	fmt.Fprintln(stdout, target)
	return nil
}
