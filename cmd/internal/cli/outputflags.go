package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"
)

// Output is the flag group of a command that writes its rows in one of a
// few formats, to standard output or with -o PREFIX to files (the flags
// the Analysis group registers with registerOutput, for commands without
// the rest of that group).
type Output struct {
	Format  string   // -format as given
	Formats []string // parsed by Check
	Out     string   // -o prefix
}

// Register adds -format (default table) and -o to fs; formats lists the
// formats the command writes, for the help.
func (o *Output) Register(fs *flag.FlagSet, formats ...string) {
	fs.StringVar(&o.Format, "format", "table", "output format(s), comma-separated: "+strings.Join(formats, ", ")+"; several need -o")
	fs.StringVar(&o.Out, "o", "", "write each format to `PREFIX`.csv, .json or .table instead of to standard output, through temporary files renamed once all are written; PREFIX names a file in an existing directory")
}

// Check parses -format, refusing a format outside allowed, and checks
// before any work that the files of -o can be written (CheckPrefix).
func (o *Output) Check(allowed ...string) error {
	fs, err := parseFormats(o.Format, o.Out)
	if err != nil {
		return err
	}
	for _, f := range fs {
		if !slices.Contains(allowed, f) {
			return fmt.Errorf("format %s: this command writes %s", f, strings.Join(allowed, ", "))
		}
	}
	o.Formats = fs
	return checkOut(o.Out, fs)
}
