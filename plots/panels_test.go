package plots

import (
	"bytes"
	"image/png"
	"slices"
	"testing"

	"github.com/chbench/chbench/algorithms/catalog"
	"github.com/chbench/chbench/schema"
)

// everyAlgorithm returns a lookup benchSet with one series per catalog algorithm,
// algorithm i at 10*(i+1) ns on 10 and 100 nodes.
func everyAlgorithm() benchSet {
	s := benchSet{BenchSet: schema.BenchSet{Name: "Lookup", Variant: "from=key", Unit: "ns/op", Caption: "test"}}
	for i, name := range catalog.Names() {
		y := 10 * float64(i+1)
		s.Series = append(s.Series, curve{Algo: name, Label: name,
			Points: []xy{{X: 10, Y: y, Lo: y, Hi: y}, {X: 100, Y: 2 * y, Lo: 2 * y, Hi: 2 * y}}})
	}
	return s
}

// Over panelThreshold algorithms a line plot becomes one panel per
// catalog family, in catalog order, each holding exactly that family's
// algorithms, all on the axes of the whole set; the image is 1600 x 1200.
func TestFamilyPanels(t *testing.T) {
	s := everyAlgorithm()
	f, err := benchFigure(s)
	if err != nil {
		t.Fatal(err)
	}
	var fams []string
	want := map[string][]string{}
	for _, name := range catalog.Names() {
		fam := familyOf(name)
		if !slices.Contains(fams, fam) {
			fams = append(fams, fam)
		}
		want[fam] = append(want[fam], name)
	}
	if len(f.panels) != len(fams) || len(fams) < 2 {
		t.Fatalf("%d panels, want one per family %v", len(f.panels), fams)
	}
	whole, err := benchPanel(s)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range f.panels {
		if p.title != familyTitles[fams[i]] {
			t.Errorf("panel %d titled %q, want %q", i, p.title, familyTitles[fams[i]])
		}
		if len(p.drawn) != len(want[fams[i]]) {
			t.Errorf("panel %s: %d lines, want %d (%v)", fams[i], len(p.drawn), len(want[fams[i]]), want[fams[i]])
		}
		if p.p.Y.Min != whole.p.Y.Min || p.p.Y.Max != whole.p.Y.Max || p.p.X.Min != whole.p.X.Min || p.p.X.Max != whole.p.X.Max {
			t.Errorf("panel %s: axes %v..%v x %v..%v, want the whole set's %v..%v x %v..%v", fams[i],
				p.p.X.Min, p.p.X.Max, p.p.Y.Min, p.p.Y.Max, whole.p.X.Min, whole.p.X.Max, whole.p.Y.Min, whole.p.Y.Max)
		}
	}
	var b bytes.Buffer
	if err := f.writeTo(&b, "png"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 1600 || r.Dy() != 1200 {
		t.Errorf("image %dx%d, want 1600x1200", r.Dx(), r.Dy())
	}

	// At panelThreshold algorithms, one panel as before.
	s.Series = s.Series[:panelThreshold]
	if f, err := benchFigure(s); err != nil || len(f.panels) != 0 || len(f.drawn) != panelThreshold {
		t.Errorf("%d algorithms: %d panels, %d lines, err %v; want one panel with all", panelThreshold, len(f.panels), len(f.drawn), err)
	}
}
