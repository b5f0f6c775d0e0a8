package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/chbench/chbench/analysis/schema"
	"github.com/chbench/chbench/report"
)

// runReport writes the design-review report of a results directory, or
// with -compare the differences of two runs' headline numbers.
func runReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", "[-dir results] [-profile FILE] [-o FILE|-] [-compare OLDDIR]", stderr)
	dir := fs.String("dir", "results", "results directory: reads lookup.txt, movement.csv, spread.csv, load.csv, storm.csv, replication.csv and links plots/*.png")
	profile := fs.String("profile", "", "profile file of the reviewer's case, \"key = value\" lines: name, nodes (N or LO..HI), replicas, zipf, keyfile (default: nodes 100..10000, replicas 3, zipf 0.99)")
	out := fs.String("o", "", "output file, written through a temporary file and a rename; - for stdout (default DIR/REPORT.md)")
	compare := fs.String("compare", "", "old results directory: print how DIR's headline numbers differ from it (Markdown, stdout) instead of writing the report")
	if _, err := parse(fs, args); err != nil {
		return badUsage(err)
	}
	if fs.NArg() != 0 {
		return badUsage(fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	target := *out
	if target == "" {
		target = filepath.Join(*dir, report.ReportFile)
	}
	if target != "-" && *compare == "" {
		// Before any work: -o /dev/null would replace the device (as root).
		if err := checkReplaceable(target); err != nil {
			return badUsage(fmt.Errorf("-o: %w", err))
		}
	}
	p := report.DefaultProfile()
	if *profile != "" {
		var err error
		if p, err = report.ReadProfile(*profile); err != nil {
			return badUsage(fmt.Errorf("-profile: %w", err)) // exit 1 for a file that cannot be read
		}
	}
	d, err := report.Load(*dir, p)
	if err != nil {
		return err
	}
	if *compare != "" {
		old, err := report.Load(*compare, p)
		if err != nil {
			return err
		}
		return report.Compare(stdout, old, d)
	}
	if target == "-" {
		return report.Write(stdout, d)
	}
	if err := schema.WriteFile(target, func(w io.Writer) error { return report.Write(w, d) }); err != nil {
		return err
	}
	fmt.Fprintln(stdout, target)
	return nil
}
