package plots

import (
	"hash/fnv"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chbench/chbench/algorithms/catalog"
)

// style is how one algorithm is drawn in every plot: a colour, a point
// marker and a line dash pattern.
type style struct {
	Color  color.RGBA
	Glyph  draw.GlyphDrawer
	Dashes []vg.Length // nil = solid line
}

// palette holds the algorithm colours in catalog order. The first six
// are the Okabe–Ito colour-blind-safe palette without its yellow
// (unreadable on white) and black (reserved for ideal and noise-floor
// lines): modulo, ring, rendezvous, jump, slots, bounded. Its two blues and
// its orange and vermillion are the closest pairs, so they go to
// algorithms whose curves lie apart; ring and bounded, which often
// overlap, get blue and vermillion.
//
// The next eleven were picked greedily, each as far as possible (CIELAB
// distance) from the colours before it and from the grey of unknown
// names, among dark and mid tones (relative luminance <= 0.45, readable on
// white); no two of the seventeen are closer than the Okabe–Ito sky blue
// and blue (a test checks). The seventeenth, crush's pure blue, is 53
// CIELAB units from the nearest of the others. Anchor, memento and dx, whose movement curves all
// lie on the ideal line, get the three most distant of them: violet, lime
// and magenta.
var palette = []color.RGBA{
	{R: 86, G: 180, B: 233, A: 255},  // sky blue: modulo
	{R: 0, G: 114, B: 178, A: 255},   // blue: ring
	{R: 0, G: 158, B: 115, A: 255},   // bluish green: rendezvous
	{R: 230, G: 159, B: 0, A: 255},   // orange: jump
	{R: 204, G: 121, B: 167, A: 255}, // reddish purple: slots
	{R: 213, G: 94, B: 0, A: 255},    // vermillion: bounded
	{R: 90, G: 20, B: 20, A: 255},    // maroon
	{R: 170, G: 120, B: 70, A: 255},  // tan
	{R: 120, G: 80, B: 220, A: 255},  // violet
	{R: 110, G: 170, B: 40, A: 255},  // lime
	{R: 220, G: 0, B: 140, A: 255},   // magenta
	{R: 100, G: 40, B: 120, A: 255},  // plum
	{R: 165, G: 0, B: 38, A: 255},    // dark red
	{R: 0, G: 40, B: 90, A: 255},     // navy
	{R: 0, G: 80, B: 40, A: 255},     // dark green
	{R: 190, G: 130, B: 230, A: 255}, // orchid
	{R: 0, G: 0, B: 255, A: 255},     // pure blue: crush
}

// unknownColor is used for algorithm names the catalog does not list.
var unknownColor = color.RGBA{R: 110, G: 110, B: 110, A: 255}

// glyphs are the markers in catalog order (filled and hollow shapes
// alternate so coinciding markers stay visible): gonum's eight, then
// diamonds, downward triangles, pentagons and hexagons, filled and hollow,
// and a filled triangle pointing right, for seventeen distinct markers.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.CrossGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{},
	draw.PlusGlyph{}, draw.BoxGlyph{},
	polygonGlyph{sides: 4, turn: 0, filled: true}, polygonGlyph{sides: 3, turn: 0.5, filled: false},
	polygonGlyph{sides: 5, turn: 0, filled: true}, polygonGlyph{sides: 4, turn: 0, filled: false},
	polygonGlyph{sides: 3, turn: 0.5, filled: true}, polygonGlyph{sides: 6, turn: 0, filled: false},
	polygonGlyph{sides: 6, turn: 0, filled: true}, polygonGlyph{sides: 5, turn: 0, filled: false},
	polygonGlyph{sides: 3, turn: 2.25, filled: true},
}

// polygonGlyph draws a regular polygon with one vertex straight up, turned
// by turn/sides of a full circle (turn 0.5 on a triangle points it down; a
// square with turn 0 is a diamond), filled or as an outline.
type polygonGlyph struct {
	sides  int
	turn   float64
	filled bool
}

// DrawGlyph implements draw.GlyphDrawer.
func (g polygonGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := float64(sty.Radius) * 1.15 // polygons look smaller than circles of the same radius
	p := make(vg.Path, 0, g.sides+2)
	for i := range g.sides {
		a := math.Pi/2 + 2*math.Pi*(float64(i)+g.turn)/float64(g.sides)
		q := vg.Point{X: pt.X + vg.Length(r*math.Cos(a)), Y: pt.Y + vg.Length(r*math.Sin(a))}
		if i == 0 {
			p.Move(q)
		} else {
			p.Line(q)
		}
	}
	p.Close()
	if g.filled {
		c.Fill(p)
		return
	}
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.5)})
	c.Stroke(p)
}

// dashes are the line dash patterns in catalog order (nil = solid),
// seventeen distinct patterns of dashes and dots.
var dashes = [][]vg.Length{
	nil,
	{vg.Points(8), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
	{vg.Points(12), vg.Points(4)},
	{vg.Points(4), vg.Points(4), vg.Points(1), vg.Points(4)},
	{vg.Points(6), vg.Points(2)},
	{vg.Points(1), vg.Points(3)},
	{vg.Points(12), vg.Points(3), vg.Points(3), vg.Points(3)},
	{vg.Points(4), vg.Points(2), vg.Points(4), vg.Points(6)},
	{vg.Points(8), vg.Points(2), vg.Points(1), vg.Points(2), vg.Points(1), vg.Points(2)},
	{vg.Points(16), vg.Points(4), vg.Points(2), vg.Points(4)},
	{vg.Points(3), vg.Points(6)},
	{vg.Points(10), vg.Points(2), vg.Points(2), vg.Points(2), vg.Points(2), vg.Points(2)},
	{vg.Points(20), vg.Points(5)},
	{vg.Points(5), vg.Points(2), vg.Points(1), vg.Points(2)},
	{vg.Points(2), vg.Points(2), vg.Points(2), vg.Points(6)},
}

// algoStyle returns the fixed style of the algorithm called name. The i-th
// name of [catalog.Names] gets the i-th colour, marker and dash, so an
// algorithm looks the same in every plot whatever else is plotted beside it.
// Dialects, drawn in panels of their own, count from the start of the
// palette again in [dialectOrder], so the common ones (at most 16) never
// share a colour. A name the catalog does not list is drawn grey with a
// marker and dash chosen by an FNV-1a hash of the name (so still fixed per
// name).
func algoStyle(name string) style {
	i := slices.Index(catalog.Names(), name)
	if i < 0 {
		i = slices.Index(dialectOrder(), name)
	}
	if i >= 0 {
		return style{Color: palette[i%len(palette)], Glyph: glyphs[i%len(glyphs)], Dashes: dashes[i%len(dashes)]}
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	k := int(h.Sum32() % uint32(len(glyphs)*len(dashes)))
	return style{Color: unknownColor, Glyph: glyphs[k%len(glyphs)], Dashes: dashes[k/len(glyphs)]}
}

// dialectOrder returns the dialects in the order their styles are
// assigned: catalog.CommonDialects, then the others in catalog order.
func dialectOrder() []string {
	order := catalog.CommonDialects()
	for _, d := range catalog.Dialects() {
		if !slices.Contains(order, d) {
			order = append(order, d)
		}
	}
	return order
}
