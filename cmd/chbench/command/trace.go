package command

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/chbench/chbench/analysis/simulate"
	"github.com/chbench/chbench/cmd/internal/cli"
	"github.com/chbench/chbench/schema"
)

// runTrace reads a trace and writes what it holds: the reader's summary,
// its warnings and the format's source (table), or one row of
// schema.TraceStats (csv, json).
func runTrace(args []string, stdout, stderr io.Writer) error {
	var tr cli.Trace
	fs := cli.NewFlagSet("trace", "-trace FILE [-trace-format NAME] [-format table|csv|json]", stderr)
	tr.Register(fs, "")
	format := fs.String("format", "table", "output format: table, csv or json")
	set, err := cli.Parse(fs, args)
	switch {
	case err != nil:
	case fs.NArg() != 0:
		err = cli.Args(fs, 0, "")
	case !tr.Given():
		err = fmt.Errorf("-trace FILE is required")
	case *format != schema.FormatTable && *format != schema.FormatCSV && *format != schema.FormatJSON:
		err = fmt.Errorf("format %q: want table, csv or json", *format)
	default:
		err = tr.Check(set)
	}
	if err != nil {
		return cli.Usage(err)
	}
	in, err := tr.Input(stderr, false)
	if err != nil {
		return err
	}
	defer in.Close()
	bar := in.Progress()
	f, err := in.Open(bar.Hook())
	if err != nil {
		bar.Stop()
		return err
	}
	defer f.Close()
	for f.Scan() {
	}
	bar.Stop()
	// A trace without a readable request is an error, after the table
	// has shown what was read and its first unreadable records.
	var unreadable *cli.UnreadableTraceError
	if err := f.Err(); err != nil && !errors.As(err, &unreadable) {
		return err
	}
	if *format != schema.FormatTable {
		if unreadable != nil {
			return unreadable // no row: an unreadable trace has no statistics
		}
		row := simulate.StatsRow(f.Stats(), schema.Config{KeyFile: tr.Path, GoVersion: runtime.Version(), Commit: cli.Revision()})
		return schema.Write(stdout, *format, []schema.TraceStats{row}, nil)
	}
	fm := f.Format()
	fmt.Fprintf(stdout, "%s\nformat %s: %s\nlayout from %s\n", f.Stats(), fm.Name, fm.Doc, fm.Source)
	for _, w := range f.Stats().Warnings() {
		fmt.Fprintf(stdout, "warning: %s\n", w)
	}
	for _, e := range f.Bad() {
		fmt.Fprintf(stdout, "unreadable: %s\n", e.Error())
	}
	if unreadable != nil {
		return unreadable
	}
	return nil
}
