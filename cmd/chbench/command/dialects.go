package command

import (
	"io"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/cmd/internal/cli"
)

// dialectColumns are the columns of chbench dialects: the catalog's facts
// about each dialect (catalog.DialectFacts).
var dialectColumns = []string{"dialect", "system and setting", "version", "what it hashes", "source followed", "checked against"}

// dialectRow returns the cells of one dialect.
func dialectRow(in catalog.Info) []string {
	f := in.Dialect
	return []string{in.Name, f.System, f.Version, f.Hashed, f.Source, f.Checked}
}

// runDialects prints the catalog's facts about the dialects (every one,
// or with -common the common ones), one per line, as an aligned table or
// as the Markdown table of the README and docs/dialects.md.
func runDialects(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("dialects", "[-common] [-format table|markdown]", stderr)
	format := fs.String("format", "table", "output format: table or markdown (the README's and docs/dialects.md's dialect tables)")
	common := fs.Bool("common", false, "only the common dialects: each system's default setting and its consistent one (the README's table)")
	if _, err := cli.Parse(fs, args); err != nil {
		return cli.Usage(err)
	}
	if fs.NArg() != 0 {
		return cli.Usage(cli.Args(fs, 0, ""))
	}
	names := catalog.Dialects()
	if *common {
		names = catalog.CommonDialects()
	}
	return writeCatalogTable(stdout, *format, names, dialectColumns, dialectRow, 1)
}
