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
	img    *image.RGBA
	r      *raster.Rasterizer // the whole image's, as gg's
	win    *raster.Rasterizer // a window's (windowed)
	p      *raster.RGBAPainter
	px     [4]uint8
	path   raster.Path
	stroke raster.Path
	rest   []raster.Span
}

// NewFiller returns a Filler for dc's image, which must be an *image.RGBA at (0, 0) (gg's
// contexts are).
func NewFiller(dc *gg.Context) *Filler {
	img := dc.Image().(*image.RGBA)
	return &Filler{img: img, r: raster.NewRasterizer(dc.Width(), dc.Height()), win: raster.NewRasterizer(winSide, winSide),
		p: raster.NewRGBAPainter(img)}
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
	r := f.rasterizer(f.path)
	r.UseNonZeroWinding = true // gg's default fill rule, FillRuleWinding
	r.AddPath(f.path)
	if ca == 0xffff {
		r.Rasterize(raster.PainterFunc(f.paint))
	} else {
		r.Rasterize(f.p)
	}
}

// Stroke strokes the closed polygon through pts with c at line width w, as render.Path(dc,
// pts...), dc.SetColor(c), dc.SetLineWidth(w), dc.Stroke() would, pixel for pixel, on a
// context with no current path, no dashes and no mask, and gg's default round caps and
// joins; it leaves dc so (colour and width set, no path).
func (f *Filler) Stroke(dc *gg.Context, pts []gg.Point, c color.Color, w float64) {
	dc.SetColor(c)
	dc.SetLineWidth(w)
	if len(pts) == 0 {
		return
	}
	f.strokePath(append(pts[:len(pts):len(pts)], pts[0]), c, w) // closed: the first point again
}

// Line strokes the line from a to b with c at line width w, as dc.DrawLine, dc.SetColor(c),
// dc.SetLineWidth(w), dc.Stroke() would, pixel for pixel, on a context as Stroke asks.
func (f *Filler) Line(dc *gg.Context, a, b gg.Point, c color.Color, w float64) {
	dc.SetColor(c)
	dc.SetLineWidth(w)
	f.strokePath([]gg.Point{a, b}, c, w)
}

// strokePath strokes the open path through pts as gg's stroke: the points as 26.6, each
// point less than 8/64 px (|dx|+|dy|) from the one before dropped (gg's rasterPath), round
// caps and joins, the width truncated to 26.6. The spans an opaque colour covers whole are
// copied, as Polygon's.
func (f *Filler) strokePath(pts []gg.Point, c color.Color, w float64) {
	f.path.Clear()
	prev := pts[0].Fixed()
	f.path.Start(prev)
	for _, q := range pts[1:] {
		p := q.Fixed()
		if abs26(p.X-prev.X)+abs26(p.Y-prev.Y) > 8 {
			f.path.Add1(p)
		}
		prev = p
	}
	f.stroke.Clear()
	raster.Stroke(&f.stroke, f.path, fixed.Int26_6(w*64), raster.RoundCapper, raster.RoundJoiner)
	f.p.SetColor(c)
	cr, cg, cb, ca := c.RGBA()
	f.px = [4]uint8{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), uint8(ca >> 8)}
	// On the image's rasterizer, not moved into a window: freetype splits a cubic (the
	// round caps) by a measure that changes when the curve is moved.
	f.r.UseNonZeroWinding = true
	f.r.Clear()
	f.r.AddPath(f.stroke)
	if ca == 0xffff {
		f.r.Rasterize(raster.PainterFunc(f.paint))
	} else {
		f.r.Rasterize(f.p)
	}
}

func abs26(x fixed.Int26_6) fixed.Int26_6 {
	if x < 0 {
		return -x
	}
	return x
}

// winSide is the side of the window rasterizer, in pixels: above 120, so that it splits
// curves as finely as freetype does for an image above 120 pixels.
const winSide = 128

// rasterizer is the rasterizer to fill path (lines only) with, cleared. A path wholly
// inside the image at non-negative coordinates that fits in a window of winSide pixels is
// moved by whole pixels into the window, and its spans moved back (Dx, Dy): freetype's cells
// and coverage of straight lines are the same under a move by whole pixels when every
// coordinate stays non-negative (its divisions truncate), and the window's rasterizer clears
// and scans winSide rows instead of the image's (twice a polygon, some 2,500 rows for the
// whole Lepanto map). path is moved in place. Any other path is drawn on the image's
// rasterizer as it stands.
func (f *Filler) rasterizer(path raster.Path) *raster.Rasterizer {
	b := f.img.Rect
	lo, hi, ok := pathBounds(path)
	if !ok || f.win == nil || b.Min != (image.Point{}) || (b.Dx() <= 120 && b.Dy() <= 120) ||
		lo.X < 0 || lo.Y < 0 || hi.X >= fixed.I(b.Max.X) || hi.Y >= fixed.I(b.Max.Y) {
		f.r.Clear()
		return f.r
	}
	ox, oy := lo.X.Floor(), lo.Y.Floor()
	if hi.X.Floor()-ox+2 > winSide || hi.Y.Floor()-oy+2 > winSide {
		f.r.Clear()
		return f.r
	}
	movePath(path, fixed.I(-ox), fixed.I(-oy))
	f.win.Clear()
	f.win.Dx, f.win.Dy = ox, oy
	return f.win
}

// pathBounds is the least and greatest coordinates of path's points (a curve lies within
// its control points); ok is false for an empty path.
func pathBounds(path raster.Path) (lo, hi fixed.Point26_6, ok bool) {
	for i := 0; i < len(path); {
		n := pathPoints(path[i])
		for j := range n {
			x, y := path[i+1+2*j], path[i+2+2*j]
			if !ok {
				lo, hi, ok = fixed.Point26_6{X: x, Y: y}, fixed.Point26_6{X: x, Y: y}, true
			}
			lo.X, lo.Y, hi.X, hi.Y = min(lo.X, x), min(lo.Y, y), max(hi.X, x), max(hi.Y, y)
		}
		i += 2 + 2*n
	}
	return lo, hi, ok
}

// movePath adds (dx, dy) to every point of path.
func movePath(path raster.Path, dx, dy fixed.Int26_6) {
	for i := 0; i < len(path); {
		n := pathPoints(path[i])
		for j := range n {
			path[i+1+2*j] += dx
			path[i+2+2*j] += dy
		}
		i += 2 + 2*n
	}
}

// pathPoints is the number of points of a raster.Path segment of kind k (0 a start, 1 a
// line, 2 a quadratic, 3 a cubic), stored between two copies of k.
func pathPoints(k fixed.Int26_6) int {
	if k == 0 {
		return 1
	}
	return int(k)
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
