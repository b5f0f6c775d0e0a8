package plots

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chbench/chbench/schema"
)

// switchRows returns the rows of every ordered pair of names on one fleet
// (weights w), the fraction routed differently of pair (i, j) being
// frac(i, j).
func switchRows(names []string, w string, frac func(i, j int) float64) []schema.Switch {
	var rows []schema.Switch
	for i, a := range names {
		for j, b := range names {
			if i == j {
				continue
			}
			f := frac(i, j)
			rows = append(rows, schema.Switch{Config: schema.Config{Algo: a, Keys: 1000, Sets: 2, Seed: 1, Commit: "c"}, ToAlgo: b,
				Nodes: 3, Weights: w, FirstNode: "127.0.0.1:11211", LastNode: "127.0.0.1:11213",
				DifferFrac: f, DifferFracLo: new(f), DifferFracHi: new(f), Reads: 50000, HitRatio: 0.95, DBMultiple: 1 + 19*f})
		}
	}
	return rows
}

// One matrix per fleet, named for it; every measured cell is coloured by
// its value and carries it (percent) and the database multiple, the
// diagonal is not measured; axis names are the placements in order, each
// on its row and column; the figure renders to PNG and SVG.
func TestSwitchingFigures(t *testing.T) {
	names := []string{"libmemcached-ketama-weighted", "twemproxy-ketama-md5", "python-memcached"}
	frac := func(i, j int) float64 {
		if i+j == 1 {
			return 0
		}
		return 0.9
	}
	rows := append(switchRows(names, "1", frac), switchRows(names[1:], "1,2,4", frac)...)
	figs, err := switchingFigures(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 2 || figs[0].name != "switching" || figs[1].name != "switching-weighted" {
		t.Fatalf("figures %v, want switching and switching-weighted", figs)
	}
	if !strings.Contains(figs[1].caption[0], "weights 1,2,4") || !strings.Contains(figs[0].caption[0], "weight 1;") {
		t.Errorf("captions %q, %q: want each fleet's weights", figs[0].caption, figs[1].caption)
	}
	fl := switchFleets(rows)[0]
	if !slices.Equal(fl.names, names) {
		t.Errorf("axes %v, want %v", fl.names, names)
	}
	g, mult, err := switchMatrix(fl)
	if err != nil {
		t.Fatal(err)
	}
	// Row r of the grid counts from the bottom: the first placement is the
	// top row, as the y axis names it.
	for i := range names {
		for j := range names {
			z := g.Z(j, len(names)-1-i)
			if i == j {
				if !math.IsNaN(z) || !math.IsNaN(mult[i][j]) {
					t.Errorf("diagonal %s: %v, %v; want not measured", names[i], z, mult[i][j])
				}
				continue
			}
			if z != frac(i, j) || mult[i][j] != 1+19*frac(i, j) {
				t.Errorf("cell %s -> %s: %v (%vx), want %v", names[i], names[j], z, mult[i][j], frac(i, j))
			}
		}
	}
	dir := t.TempDir()
	for _, f := range figs {
		paths, err := f.save(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if fi, err := os.Stat(p); err != nil || fi.Size() < 1000 {
				t.Errorf("%s: %v, %v", p, fi, err)
			}
		}
	}
	svg, err := os.ReadFile(filepath.Join(dir, "switching.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"0%", "90.0%", "18.1x", "1.0x", "libmemcached-ketama-weighted", "python-memcached"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("switching.svg lacks %q", want)
		}
	}
	if math.Abs(lightness(switchColors[len(switchColors)-1])-1) > 1e-9 || lightness(switchColors[0]) > 0.1 {
		t.Errorf("colour map from %v to %v: want dark red to white", switchColors[0], switchColors[len(switchColors)-1])
	}
	if _, err := switchingFigures(append(rows, rows[0])); err == nil || !strings.Contains(err.Error(), "two rows") {
		t.Errorf("a pair given twice: error %v", err)
	}
}
