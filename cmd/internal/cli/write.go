package cli

import (
	"fmt"
	"io"

	"github.com/chbench/chbench/schema"
)

// WriteRows writes rows in each of formats (schema.Write, table for the
// table format) to stdout, or with an -o prefix to its files.
func WriteRows[R schema.Row](stdout io.Writer, prefix string, formats []string, rows []R, table func(io.Writer, []R) error) error {
	return WriteEach(stdout, prefix, formats, func(format string, w io.Writer) error { return schema.Write(w, format, rows, table) })
}

// WriteEach writes one result in each of formats with write, to stdout or
// through schema.WriteOutputs to the files of an -o prefix (replaced only
// once all are written), then lists the paths written.
func WriteEach(stdout io.Writer, prefix string, formats []string, write func(format string, w io.Writer) error) error {
	paths, err := schema.WriteOutputs(stdout, prefix, formats, write)
	if err != nil && prefix != "" {
		return fmt.Errorf("-o %s: %w", prefix, err)
	}
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	return err
}
