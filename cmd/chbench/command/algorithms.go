package command

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/cmd/internal/cli"
)

// algorithmColumns are the columns of chbench algorithms: the catalog's
// facts about each algorithm.
var algorithmColumns = []string{"algorithm", "package", "lookup", "memory", "which node may leave", "weights", "source"}

// algorithmRow returns the cells of one algorithm, from catalog.Info. Each
// algorithm lives in the package algorithms/<name>.
func algorithmRow(in catalog.Info) []string {
	return []string{in.Name, "algorithms/" + in.Name, in.Lookup, in.Memory, in.Removal, in.Weights, in.Source}
}

// runAlgorithms prints the catalog's facts, one algorithm per line, as an
// aligned table or as the Markdown table of the README.
func runAlgorithms(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("algorithms", "[-format table|markdown]", stderr)
	format := fs.String("format", "table", "output format: table or markdown (the README's algorithm table)")
	if _, err := cli.Parse(fs, args); err != nil {
		return cli.Usage(err)
	}
	if fs.NArg() != 0 {
		return cli.Usage(cli.Args(fs, 0, ""))
	}
	return writeCatalogTable(stdout, *format, catalog.Names(), algorithmColumns, algorithmRow, 2)
}

// writeCatalogTable writes the catalog's facts about names, one row each
// (row of its catalog.Info) under columns, as an aligned table (format
// "table") or as a Markdown table whose first code columns are code
// spans (format "markdown"). An unknown format is a usage error naming
// it; a name the catalog does not describe is its error.
func writeCatalogTable(w io.Writer, format string, names, columns []string, row func(catalog.Info) []string, code int) error {
	var rows [][]string
	for _, name := range names {
		in, err := catalog.Describe(name)
		if err != nil {
			return err
		}
		rows = append(rows, row(in))
	}
	switch format {
	case "markdown":
		return writeMarkdown(w, columns, rows, code)
	case "table":
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, r := range append([][]string{columns}, rows...) {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		return tw.Flush()
	}
	return cli.Usage(fmt.Errorf("unknown format %q (known: table, markdown)", format))
}

// writeMarkdown writes a Markdown table; the first code columns (the
// name, and the package of an algorithm) are code spans, and "|" in a
// cell is escaped.
func writeMarkdown(w io.Writer, header []string, rows [][]string, code int) error {
	line := func(cells []string) string { return "| " + strings.Join(cells, " | ") + " |\n" }
	var b strings.Builder
	b.WriteString(line(header))
	b.WriteString(strings.Repeat("|---", len(header)) + "|\n")
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			c = strings.ReplaceAll(c, "|", `\|`)
			if i < code {
				c = "`" + c + "`"
			}
			cells[i] = c
		}
		b.WriteString(line(cells))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
