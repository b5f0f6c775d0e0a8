package plots

import (
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/chbench/chbench/algorithms/catalog"
)

// panelThreshold is the most algorithm lines one panel carries: a line
// plot with more is drawn as small multiples, one panel per catalog
// family (catalog.Info.Family), on shared axes.
const panelThreshold = 8

// Small multiples are drawn 1600 pixels wide, two panels a row, 1200
// pixels high for up to two rows and panelRowHeight more for each further
// row (so every panel has the same size whatever the number of rows).
// Every panel's legend strip is as wide as the widest legend of the
// figure needs, at most panelLegend, so the axes of all panels line up.
var (
	panelFigWidth  = vg.Length(1600) * vg.Inch / vgimg.DefaultDPI
	panelFigHeight = vg.Length(1200) * vg.Inch / vgimg.DefaultDPI
	panelRowHeight = vg.Length(540) * vg.Inch / vgimg.DefaultDPI
	panelLegend    = vg.Points(215)
	panelCols      = 2
)

// familyTitles names the panels; a family missing here is titled with its
// catalog name.
var familyTitles = map[string]string{
	"classic":  "classic: the original six, ketama and CRUSH",
	"range":    "range hashes of bucket numbers",
	"table":    "lookup tables",
	"stateful": "stateful, fixed capacity",
	"bounded":  "bounded loads: three forms and the unbounded ring",
	"dialect":  "dialects: real clients and proxies",
}

// familyOf returns the catalog family of algo, or "other" for a name the
// catalog does not know.
func familyOf(algo string) string {
	in, err := catalog.Describe(algo)
	if err != nil || in.Family == "" {
		return "other"
	}
	return in.Family
}

// familyPanels returns full unchanged when series has at most
// panelThreshold lines or only one family; otherwise a figure with full's
// name, title and caption whose panels are build(the series of one
// family), one per family in catalog order, each with full's axes (scale,
// ticks, range and labels) so that panels compare at a glance. build must
// draw a figure the way full was drawn, from a subset of its series.
func familyPanels(full *figure, series []curve, build func([]curve) (*figure, error)) (*figure, error) {
	return familyPanelsBy(full, series, familyOf, build)
}

// familyPanelsBy is familyPanels with the panel of a series chosen by
// family(series.Algo) instead of the catalog family; panels come in the
// order their first series appears in series.
func familyPanelsBy(full *figure, series []curve, family func(algo string) string, build func([]curve) (*figure, error)) (*figure, error) {
	if len(series) <= panelThreshold {
		return full, nil
	}
	var fams []string
	groups := map[string][]curve{}
	for _, s := range series {
		fam := family(s.Algo)
		if groups[fam] == nil {
			fams = append(fams, fam)
		}
		groups[fam] = append(groups[fam], s)
	}
	if len(fams) < 2 {
		return full, nil
	}
	out := &figure{name: full.name, title: full.title, caption: full.caption, p: full.p,
		width: panelFigWidth, height: panelFigHeight}
	if rows := (len(fams) + panelCols - 1) / panelCols; rows > 2 {
		out.height += vg.Length(rows-2) * panelRowHeight
	}
	legend := vg.Length(0)
	for _, fam := range fams {
		pf, err := build(groups[fam])
		if err != nil {
			return nil, err
		}
		pf.title, pf.caption = familyTitles[fam], nil
		if pf.title == "" {
			pf.title = fam
		}
		pf.p.Title.TextStyle.Font.Size = vg.Points(15)
		pf.p.X.Scale, pf.p.X.Tick.Marker, pf.p.X.Min, pf.p.X.Max = full.p.X.Scale, full.p.X.Tick.Marker, full.p.X.Min, full.p.X.Max
		pf.p.Y.Scale, pf.p.Y.Tick.Marker, pf.p.Y.Min, pf.p.Y.Max = full.p.Y.Scale, full.p.Y.Tick.Marker, full.p.Y.Min, full.p.Y.Max
		pf.p.X.Label.Text, pf.p.Y.Label.Text = full.p.X.Label.Text, full.p.Y.Label.Text
		pf.legend.TextStyle.Font.Size = vg.Points(11.5)
		pf.legend.ThumbnailWidth = vg.Points(30)
		legend = max(legend, pf.legendNeed())
		out.panels = append(out.panels, pf)
	}
	for _, pf := range out.panels {
		pf.legendW = min(legend, panelLegend)
	}
	return out, nil
}

// drawPanels draws f.panels on c in a grid of f.cols columns (panelCols
// if 0), row by row, each panel with its own title and legend.
func (f *figure) drawPanels(c draw.Canvas) {
	cols := f.cols
	if cols <= 0 {
		cols = panelCols
	}
	rows := (len(f.panels) + cols - 1) / cols
	w := (c.Max.X - c.Min.X) / vg.Length(cols)
	h := (c.Max.Y - c.Min.Y) / vg.Length(rows)
	gap := vg.Points(8)
	for i, pf := range f.panels {
		col, row := i%cols, i/cols
		tile := draw.Crop(c,
			vg.Length(col)*w, -vg.Length(cols-1-col)*w,
			vg.Length(rows-1-row)*h+gap, -vg.Length(row)*h)
		pf.draw(tile)
	}
}
