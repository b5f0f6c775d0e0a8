package plots

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/internal/inputs"
	"github.com/chbench/chbench/schema"
)

// A plot run draws the figures of the inputs present, lists exactly those
// in plots/index.txt, and removes the figure files of an earlier run
// whose input is gone, so neither the report nor a reader of plots/ sees
// an old image as current: with load.csv and boundedloads.csv, then with
// boundedloads.csv removed, no bounded-* file stays and the index lists
// only load figures.
func TestRenderAllRemovesStaleFigures(t *testing.T) {
	inputs.Reset() // other tests' inputs, whose inodes a new file may reuse, are not this run's
	dir := t.TempDir()
	for _, f := range []string{schema.LoadFile.Name, schema.BoundedFile.Name} {
		b, err := os.ReadFile(filepath.Join(trafficDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first, err := RenderAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	bounded := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, schema.PlotsDir, "bounded-*"))
		return m
	}
	if len(bounded()) == 0 {
		t.Fatalf("no bounded-* figure among %v", first)
	}
	if err := os.Remove(filepath.Join(dir, schema.BoundedFile.Name)); err != nil {
		t.Fatal(err)
	}
	second, err := RenderAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	if left := bounded(); len(left) != 0 {
		t.Errorf("figures of the removed boundedloads.csv stay: %v", left)
	}
	index, err := schema.ReadPlotIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range second {
		if n, ok := strings.CutSuffix(filepath.Base(p), ".png"); ok {
			want = append(want, n)
		}
	}
	got := slices.Sorted(maps.Keys(index))
	if slices.Sort(want); !slices.Equal(got, want) || len(got) == 0 {
		t.Errorf("index %v, want the figures drawn %v", got, want)
	}
}
