package plots

import (
	"hash/fnv"
	"image/color"
	"slices"

	"github.com/chbench/chbench/algorithms/catalog"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Style is how one algorithm is drawn in every plot: a colour, a point
// marker and a line dash pattern.
type Style struct {
	Color  color.RGBA
	Glyph  draw.GlyphDrawer
	Dashes []vg.Length // nil = solid line
}

// palette is the Okabe–Ito colour-blind-safe palette without its yellow
// (unreadable on white) and black (reserved for ideal and noise-floor
// lines), in catalog order: modulo, ring, rendezvous, jump, slots,
// bounded. Its two blues and its orange and vermillion are the closest
// pairs, so they go to algorithms whose curves lie apart; ring and
// bounded, which often overlap, get blue and vermillion.
var palette = []color.RGBA{
	{R: 86, G: 180, B: 233, A: 255},  // sky blue: modulo
	{R: 0, G: 114, B: 178, A: 255},   // blue: ring
	{R: 0, G: 158, B: 115, A: 255},   // bluish green: rendezvous
	{R: 230, G: 159, B: 0, A: 255},   // orange: jump
	{R: 204, G: 121, B: 167, A: 255}, // reddish purple: slots
	{R: 213, G: 94, B: 0, A: 255},    // vermillion: bounded
	{R: 136, G: 34, B: 85, A: 255},   // wine (Paul Tol's muted scheme): ketama
}

// unknownColor is used for algorithm names the catalog does not list.
var unknownColor = color.RGBA{R: 110, G: 110, B: 110, A: 255}

// glyphs are the markers in catalog order (filled and hollow shapes
// alternate so coinciding markers stay visible), then spares.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.CrossGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{},
	draw.PlusGlyph{}, draw.BoxGlyph{},
}

var dashes = [][]vg.Length{
	nil,
	{vg.Points(8), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
	{vg.Points(12), vg.Points(4)},
	{vg.Points(4), vg.Points(4), vg.Points(1), vg.Points(4)},
}

// AlgoStyle returns the fixed style of the algorithm called name. The i-th
// name of [catalog.Names] gets the i-th colour, marker and dash, so an
// algorithm looks the same in every plot whatever else is plotted beside it.
// A name the catalog does not list is drawn grey with a marker and dash
// chosen by an FNV-1a hash of the name (so still fixed per name).
func AlgoStyle(name string) Style {
	i := slices.Index(catalog.Names(), name)
	if i >= 0 {
		return Style{Color: palette[i%len(palette)], Glyph: glyphs[i%len(glyphs)], Dashes: dashes[i%len(dashes)]}
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	k := int(h.Sum32() % uint32(len(glyphs)*len(dashes)))
	return Style{Color: unknownColor, Glyph: glyphs[k%len(glyphs)], Dashes: dashes[k/len(glyphs)]}
}

// algoOrder sorts algorithm names in catalog order, unknown names last in
// alphabetical order.
func algoOrder(a, b string) int {
	names := catalog.Names()
	ia, ib := slices.Index(names, a), slices.Index(names, b)
	if ia < 0 {
		ia = len(names)
	}
	if ib < 0 {
		ib = len(names)
	}
	if ia != ib {
		return ia - ib
	}
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}
