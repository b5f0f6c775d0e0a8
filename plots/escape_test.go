package plots

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// A result file whose op or Zipf exponent holds a path ("x/../../../y")
// would name a plot outside DIR/plots: it is an error naming the file,
// the line and the value, and nothing is written outside DIR/plots.
func TestRenderAllWritesOnlyIntoPlots(t *testing.T) {
	for _, tc := range []struct {
		name, file, src, from, to, want string
	}{
		{"replication op", schema.ReplicationFile.Name, complete[schema.Replication](t, replicationCSV), ",add,", ",x/../../../ESCAPED,",
			`replication.csv:6: column op (5): "x/../../../ESCAPED" is neither a scenario op`},
		{"movement op", schema.MovementFile.Name, readText(t, filepath.Join(okDir, schema.MovementFile.Name)), ",add,", ",x/../../../ESC2,",
			`movement.csv:2: column op (4): "x/../../../ESC2" is neither a scenario op`},
		{"scenarios op", schema.ScenariosFile.Name, readText(t, filepath.Join(okDir, schema.ScenariosFile.Name)), ",shrink-random,", ",../../../ESC3,",
			`scenarios.csv:2: column op (4): "../../../ESC3" is neither a scenario op`},
		{"movement op dot-dot", schema.MovementFile.Name, readText(t, filepath.Join(okDir, schema.MovementFile.Name)), ",add,", ",..,",
			`movement.csv:2: column op (4): ".." is neither a scenario op`},
		{"bounded zipf", schema.BoundedFile.Name, readText(t, filepath.Join("testdata", "traffic", schema.BoundedFile.Name)), ",0.99,", ",0.99/../../../../ESC5,",
			`boundedloads.csv:2: column zipf (6): "0.99/../../../../ESC5" is not a finite number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "a", "b", "c", "d", "results")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			bad := strings.Replace(tc.src, tc.from, tc.to, 1)
			if bad == tc.src {
				t.Fatalf("test setup: %q not in %s", tc.from, tc.file)
			}
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := RenderAll(dir)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant one naming %s and containing %q", err, path, tc.want)
			}
			// Every file under root is the input or in DIR/plots.
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || p == path || filepath.Dir(p) == filepath.Join(dir, schema.PlotsDir) {
					return err
				}
				t.Errorf("written outside %s: %s", filepath.Join(dir, schema.PlotsDir), p)
				return nil
			})
		})
	}
}

// save itself refuses a figure name that is not a plain file name, so no
// reader can forget the check.
func TestSaveRefusesPathNames(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "results", schema.PlotsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../x", "a/b", "..", ".hidden", "-flag", "", "x..y", `a\b`, "a b", "x\ny"} {
		f := newFigure(name, "t", "x", "y")
		paths, err := f.save(dir)
		if err == nil || len(paths) != 0 || !strings.Contains(err.Error(), "not a plain file name") {
			t.Errorf("save(%q) = %v, %v; want an error and no file", name, paths, err)
		}
	}
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
	// The names chbench's own results give are plain.
	for _, name := range []string{"movement-add", "replication-leave-10%-n100", "movement-join+leave", "bounded-away-s0.99",
		"movement-reweight-5%-1-to-127", "build-retained-bytes-per-node", "load-peak-to-mean-n1000"} {
		if !schema.IsLabel(name) {
			t.Errorf("schema.IsLabel(%q) = false, want true", name)
		}
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
