package render

import (
	"image"
	"image/color"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/raster"
	"golang.org/x/image/math/fixed"
)

// Filler fills polygons with opaque colours on a context's image as gg's FillPreserve does,
// pixel for pixel, but paints the spans the polygon covers whole by copying the colour's
// bytes instead of blending each pixel (the hexes of a map are most of its pixels,
// and blending them was most of the drawing of a board's hexes). The edges, partly covered,
// are blended by freetype's own painter, as gg does.
//
// gg blends a span of full coverage (alpha 0xffff) of an opaque colour with factor 0 for the
// pixel underneath, which leaves exactly the colour's bytes; TestFillerFillsLikeGG checks it.
// The context must have no transform, as every context in this package has none.
type Filler struct {
	img  *image.RGBA
	r    *raster.Rasterizer
	p    *raster.RGBAPainter
	px   [4]uint8
	path raster.Path
	rest []raster.Span
}

// NewFiller returns a Filler for dc's image, which must be an *image.RGBA at (0, 0) (gg's
// contexts are).
func NewFiller(dc *gg.Context) *Filler {
	img := dc.Image().(*image.RGBA)
	return &Filler{img: img, r: raster.NewRasterizer(dc.Width(), dc.Height()), p: raster.NewRGBAPainter(img)}
}

// Polygon fills the closed polygon through pts with c, as dc.MoveTo(pts[0]),
// dc.LineTo(pts[1])…, dc.ClosePath(), dc.SetColor(c), dc.FillPreserve() would on a context
// with no current path. It leaves dc's path alone: the caller builds that for a stroke.
func (f *Filler) Polygon(pts []gg.Point, c color.Color) {
	if len(pts) == 0 {
		return
	}
	fix := func(p gg.Point) fixed.Point26_6 { return p.Fixed() }
	f.path.Clear()
	f.path.Start(fix(pts[0]))
	for _, p := range pts[1:] {
		f.path.Add1(fix(p))
	}
	f.path.Add1(fix(pts[0])) // ClosePath
	f.path.Add1(fix(pts[0])) // gg's fill closes the open subpath once more
	f.p.SetColor(c)
	cr, cg, cb, ca := c.RGBA()
	f.px = [4]uint8{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), uint8(ca >> 8)}
	f.r.UseNonZeroWinding = true // gg's default fill rule, FillRuleWinding
	f.r.Clear()
	f.r.AddPath(f.path)
	if ca == 0xffff {
		f.r.Rasterize(raster.PainterFunc(f.paint))
	} else {
		f.r.Rasterize(f.p)
	}
}

// paint copies the colour into the spans of full coverage and hands the others to
// freetype's RGBA painter, which gg uses.
func (f *Filler) paint(ss []raster.Span, done bool) {
	f.rest = f.rest[:0]
	b := f.img.Rect
	for _, s := range ss {
		if s.Alpha != 0xffff {
			f.rest = append(f.rest, s)
			continue
		}
		if s.Y < b.Min.Y || s.Y >= b.Max.Y {
			continue
		}
		x0, x1 := max(s.X0, b.Min.X), min(s.X1, b.Max.X)
		if x0 >= x1 {
			continue
		}
		i0 := (s.Y-b.Min.Y)*f.img.Stride + (x0-b.Min.X)*4
		row := f.img.Pix[i0 : i0+(x1-x0)*4]
		copy(row, f.px[:])
		for n := 4; n < len(row); n *= 2 {
			copy(row[n:], row[:n])
		}
	}
	if len(f.rest) > 0 {
		f.p.Paint(f.rest, done)
	}
}
