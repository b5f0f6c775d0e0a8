package schema

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// The output formats of a measure's rows: an aligned table for terminals
// (written by the measure's own table writer), CSV, JSON, or the Go
// benchmark format that benchstat reads (rows with bench metrics only,
// [HasBench]).
const (
	FormatTable = "table"
	FormatCSV   = "csv"
	FormatJSON  = "json"
	FormatBench = "bench"
)

// formatExt is the file name extension of each format written to a file.
var formatExt = map[string]string{FormatTable: ".table", FormatCSV: ".csv", FormatJSON: ".json", FormatBench: ".txt"}

// Ext returns the file name extension of format (".csv" for csv, ".txt"
// for bench), "" for an unknown one.
func Ext(format string) string { return formatExt[format] }

// ParseFormats parses a comma-separated list of distinct formats
// (surrounding spaces trimmed); the error names an unknown or repeated
// one.
func ParseFormats(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if _, ok := formatExt[f]; !ok {
			return nil, fmt.Errorf("unknown format %q (known: table, csv, json, bench)", f)
		}
		out = append(out, f)
	}
	for i, f := range out {
		if slices.Contains(out[:i], f) {
			return nil, fmt.Errorf("format %q: listed twice (each configuration would run and be written twice)", f)
		}
	}
	return out, nil
}

// Write writes rows to w in format: [WriteCSV], [WriteJSON], [WriteBench],
// or table for FormatTable. It is the one place a format is chosen.
func Write[R Row](w io.Writer, format string, rows []R, table func(io.Writer, []R) error) error {
	switch format {
	case FormatCSV:
		return WriteCSV(w, rows)
	case FormatJSON:
		return WriteJSON(w, rows)
	case FormatBench:
		return WriteBench(w, rows)
	case FormatTable:
		return table(w, rows)
	}
	return fmt.Errorf("unknown format %q (known: table, csv, json, bench)", format)
}

// WriteOutputs writes one result in each of formats with write: to w when
// prefix is empty (one format), else to prefix plus the format's [Ext]
// through [WriteFiles] (every file is replaced only once all are written,
// so a failed run leaves an earlier run's files whole). It returns the
// paths written.
func WriteOutputs(w io.Writer, prefix string, formats []string, write func(format string, w io.Writer) error) ([]string, error) {
	if prefix == "" {
		return nil, write(formats[0], w)
	}
	paths := make([]string, len(formats))
	for i, f := range formats {
		paths[i] = prefix + Ext(f)
	}
	return paths, WriteFiles(paths, func(i int, w io.Writer) error { return write(formats[i], w) })
}
