package render

import (
	"image/color"
	"math"

	"github.com/fogleman/gg"
)

// Path makes the closed polygon through pts the context's current path (a subpath of its
// own), for the caller to fill or stroke.
func Path(dc *gg.Context, pts ...gg.Point) {
	dc.NewSubPath()
	for i, q := range pts {
		if i == 0 {
			dc.MoveTo(q.X, q.Y)
		} else {
			dc.LineTo(q.X, q.Y)
		}
	}
	dc.ClosePath()
}

// ArrowStyle is how an arrow is drawn, in board pixels.
type ArrowStyle struct {
	Width float64   // the shaft's line width; 0 draws the head alone
	Dash  []float64 // the shaft's dash pattern, none for a solid shaft
	Head  float64   // the head's length along the arrow, from its tip to its base
	Half  float64   // half the width of the head's base
	Past  float64   // how far the tip lies beyond the end of the shaft
}

// Arrow draws an arrow in col from (x0, y0) to (x1, y1): the shaft to (x1, y1), and the head
// with its tip st.Past beyond, on top of the shaft.
func Arrow(dc *gg.Context, x0, y0, x1, y1 float64, col color.Color, st ArrowStyle) {
	dc.SetColor(col)
	if st.Width > 0 {
		dc.SetLineWidth(st.Width)
		dc.SetDash(st.Dash...)
		dc.DrawLine(x0, y0, x1, y1)
		dc.Stroke()
		dc.SetDash()
	}
	a := math.Atan2(y1-y0, x1-x0)
	ArrowHead(dc, x1+math.Cos(a)*st.Past, y1+math.Sin(a)*st.Past, a, st.Head, st.Half, col)
}

// ArrowHead fills in col the triangle with its tip at (x, y) pointing at screen angle a
// (radians, clockwise from east, as y grows down the picture), head pixels long and 2·half
// wide at its base.
func ArrowHead(dc *gg.Context, x, y, a, head, half float64, col color.Color) {
	cos, sin := math.Cos(a), math.Sin(a)
	bx, by := x-cos*head, y-sin*head
	dc.SetColor(col)
	Path(dc, gg.Point{X: x, Y: y}, gg.Point{X: bx + sin*half, Y: by - cos*half}, gg.Point{X: bx - sin*half, Y: by + cos*half})
	dc.Fill()
}

// HeadOf is the length and half-width of an arrowhead whose wings lie r pixels from its tip at
// angle spread off the shaft (radians): the shape gg-drawn heads are usually given in.
func HeadOf(r, spread float64) (head, half float64) {
	return r * math.Cos(spread), r * math.Sin(spread)
}
