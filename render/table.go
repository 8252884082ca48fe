package render

import (
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"

	"navarch/adjudicator/table"
)

// Table projects a window of an open table (adjudicator/table: x east, y north, in table
// units) onto a board, north up: the window's north-west corner lies Pad pixels in from the
// board's top-left corner, and an inch is Scale pixels. Both open-table maps draw through it.
type Table struct {
	X0, Y0, X1, Y1 table.Len // the window: x from X0 to X1, y from Y0 to Y1 (Y1 the top edge)
	Scale          float64   // pixels an inch
	Pad            float64   // board pixels around the window (room for the ruler's figures)
}

// At is the board pixel of table point q.
func (t Table) At(q table.Point) (x, y float64) {
	return t.Pad + float64(q.X-t.X0)/float64(table.Inch)*t.Scale, t.Pad + float64(t.Y1-q.Y)/float64(table.Inch)*t.Scale
}

// Point is At as a gg.Point.
func (t Table) Point(q table.Point) gg.Point {
	x, y := t.At(q)
	return gg.Point{X: x, Y: y}
}

// Points projects a polygon of the table.
func (t Table) Points(pg []table.Point) []gg.Point {
	out := make([]gg.Point, len(pg))
	for i, q := range pg {
		out[i] = t.Point(q)
	}
	return out
}

// Px is a length on the table in board pixels.
func (t Table) Px(d table.Len) float64 { return float64(d) / float64(table.Inch) * t.Scale }

// Window is the window's rectangle in board pixels.
func (t Table) Window() Rect {
	return Rect{X: t.Pad, Y: t.Pad, W: t.Px(t.X1 - t.X0), H: t.Px(t.Y1 - t.Y0)}
}

// Ruler is how a Table's ruler grid is drawn.
type Ruler struct {
	Every, Major table.Len   // a line every Every; a stronger one, numbered, every Major
	Line, Strong color.Color // the lines' colours
	Figures      color.Color // the numbers' colour
}

// Ruler draws the ruler grid over the window: one-pixel lines on whole pixels (sharp at any
// scale), every Major one stronger and numbered with its distance in inches from the table's
// south-west corner. With a Pad of a figure's height or more the numbers stand in it, under
// the south edge and left of the west edge; otherwise inside the window, along its north and
// west edges beside their lines (the window's own edges unnumbered). The context's path is
// cleared first.
func (t Table) Ruler(dc *gg.Context, face font.Face, r Ruler) {
	dc.ClearPath()
	fill := NewFiller(dc) // as dc.DrawLine, dc.Stroke, pixel for pixel
	w := t.Window()
	out := t.Pad >= 12
	first := func(a table.Len) table.Len { return (a + r.Every - 1) / r.Every * r.Every }
	for x := first(t.X0); x <= t.X1; x += r.Every {
		px, _ := t.At(table.Point{X: x, Y: t.Y1})
		major := x%r.Major == 0
		t.line(dc, fill, r, major, px, w.Y, px, w.Y+w.H)
		switch {
		case !major:
		case out:
			Text(dc, face, r.Figures, table.FormatInches(x), px, w.Y+w.H+t.Pad/2, 0.5, 0.5)
		case x > t.X0:
			Text(dc, face, r.Figures, table.FormatInches(x), px+2, w.Y+2, 0, 0.8)
		}
	}
	for y := first(t.Y0); y <= t.Y1; y += r.Every {
		_, py := t.At(table.Point{X: t.X0, Y: y})
		major := y%r.Major == 0
		t.line(dc, fill, r, major, w.X, py, w.X+w.W, py)
		switch {
		case !major:
		case out:
			Text(dc, face, r.Figures, table.FormatInches(y), t.Pad/2, py, 0.5, 0.5)
		case y < t.Y1:
			Text(dc, face, r.Figures, table.FormatInches(y), w.X+2, py-2, 0, 0)
		}
	}
}

// line draws a ruler line on the middle of a pixel row or column, so it is one pixel wide and
// sharp.
func (t Table) line(dc *gg.Context, fill *Filler, r Ruler, major bool, ax, ay, bx, by float64) {
	ax, ay, bx, by = math.Floor(ax)+0.5, math.Floor(ay)+0.5, math.Floor(bx)+0.5, math.Floor(by)+0.5
	c := r.Line
	if major {
		c = r.Strong
	}
	fill.Line(dc, gg.Point{X: ax, Y: ay}, gg.Point{X: bx, Y: by}, c, 1)
}
