package command

import (
	"fmt"
	"io"

	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/plots"
)

// runPlot draws every plot its inputs allow from a results directory.
func runPlot(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("plot", "[-dir results]", stderr)
	dir := fs.String("dir", "results", "results directory: reads lookup.txt, movement.csv, spread.csv, vnodes.csv; writes plots/*.png and *.svg")
	if _, err := cli.Parse(fs, args); err != nil {
		return cli.Usage(err)
	}
	if fs.NArg() != 0 {
		return cli.Usage(cli.Args(fs, 0, ""))
	}
	files, err := plots.RenderAll(*dir)
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	for _, l := range plots.LeftOut(*dir) {
		fmt.Fprintln(stderr, "plot: left out:", l)
	}
	return err
}
