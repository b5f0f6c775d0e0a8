package plots

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// A negative time is not a measurement: reading it is an error, not a
// point drawn.
func TestReadBenchmarksNegativeTime(t *testing.T) {
	in := "BenchmarkLookup/algo=ring/nodes=100-2 100 5 ns/op\nBenchmarkLookup/algo=ring/nodes=10-2 100 -9.5 ns/op\n"
	_, err := parseBench(strings.NewReader(in), "bad.txt")
	if err == nil || !strings.Contains(err.Error(), "bad.txt:2: -9.5 ns/op") {
		t.Fatalf("error %v, want one naming bad.txt:2 and -9.5 ns/op", err)
	}
}

// Inputs that exist but hold no rows, or node counts below 1 or not whole,
// are errors naming the file (and line and value), not silently skipped or
// drawn; the other inputs still render.
func TestRenderAllRejectsNoRowsAndBadCounts(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"movement header only", schema.MovementFile.Name, "movement.csv: header but no rows"},
		{"spread header only", schema.SpreadFile.Name, "spread.csv: header but no rows"},
		{"vnodes header only", schema.VNodesFile.Name, "vnodes.csv: header but no rows"},
		{"spread nodes 0", schema.SpreadFile.Name, `"0" is not a whole number >= 1`},
		{"movement from 2.5", schema.MovementFile.Name, `"2.5" is not a whole number`},
		{"movement to -3", schema.MovementFile.Name, `"-3" is not a whole number >= 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			renderBroken(t, tc.file, tc.want, func(b []byte) []byte {
				lines := strings.SplitAfter(string(b), "\n")
				header := strings.Split(strings.TrimSpace(lines[0]), ",")
				row := strings.Split(strings.TrimSpace(lines[1]), ",")
				set := func(col, v string) {
					for i, h := range header {
						if h == col {
							row[i] = v
							return
						}
					}
					t.Fatalf("test setup: no column %s in %s", col, tc.file)
				}
				content := lines[0]
				switch tc.name {
				case "spread nodes 0":
					set("nodes", "0")
				case "movement from 2.5":
					set("from", "2.5")
				case "movement to -3":
					set("to", "-3")
				}
				if !strings.HasSuffix(tc.name, "header only") {
					content += strings.Join(row, ",") + "\n"
				}
				return []byte(content)
			})
		})
	}
}

// renderBroken copies the good test inputs file and one other (the smallest
// plot) into a temporary directory, rewrites file with corrupt, renders
// the directory and asserts that the error names the file's path and
// contains want, and that the other input still rendered.
func renderBroken(t *testing.T, file, want string, corrupt func([]byte) []byte) {
	t.Helper()
	other := schema.VNodesFile.Name
	if file == schema.VNodesFile.Name {
		other = schema.SpreadFile.Name
	}
	dir := copyDir(t, okDir, file, other)
	path := filepath.Join(dir, file)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, corrupt(b), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := RenderAll(dir)
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v\nwant one naming %s and containing %q", err, path, want)
	}
	if len(files) == 0 {
		t.Errorf("no plots written: the other input should still render")
	}
}
