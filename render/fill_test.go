package render_test

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fogleman/gg"

	"navarch/render"
)

// TestFillerFillsLikeGG: polygons filled by a Filler leave every byte of the image as gg's
// FillPreserve of the same path does, and outlines stroked by it as gg's Stroke: hexagons at
// fractional positions and sizes, triangles, a polygon reaching past the image's edges, in
// opaque and translucent colours, each over what the ones before left; and lines, as the
// rulers' and at any slope, as gg's DrawLine and Stroke.
func TestFillerFillsLikeGG(t *testing.T) {
	const w, h = 320, 240
	want, got := gg.NewContext(w, h), gg.NewContext(w, h)
	for _, dc := range []*gg.Context{want, got} {
		dc.SetRGB(1, 1, 1)
		dc.Clear()
	}
	fill := render.NewFiller(got)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		var pts []gg.Point
		x, y, r := rnd.Float64()*w, rnd.Float64()*h, 2+rnd.Float64()*40
		switch i % 3 {
		case 0: // a hexagon, as the maps draw them
			for k := range 6 {
				a := math.Pi / 3 * float64(k)
				pts = append(pts, gg.Point{X: x + r*math.Cos(a), Y: y + r*math.Sin(a)})
			}
		case 1:
			for range 3 {
				pts = append(pts, gg.Point{X: x + rnd.Float64()*r*2 - r, Y: y + rnd.Float64()*r*2 - r})
			}
		default: // past the edges
			pts = []gg.Point{{X: -10, Y: y}, {X: x, Y: -15}, {X: w + 20, Y: y + r}, {X: x, Y: h + 9}}
		}
		c := color.RGBA{uint8(rnd.IntN(256)), uint8(rnd.IntN(256)), uint8(rnd.IntN(256)), 255}
		if i%5 == 4 { // translucent: blended whole, by gg's own painter
			c = color.RGBA{c.R / 2, c.G / 2, c.B / 2, 128}
		}
		for j, p := range pts {
			if j == 0 {
				want.MoveTo(p.X, p.Y)
			} else {
				want.LineTo(p.X, p.Y)
			}
		}
		want.ClosePath()
		want.SetColor(c)
		want.FillPreserve()
		fill.Polygon(pts, c)
		if i%2 == 0 { // and its outline, as the hexes' grid
			lw, ink := 0.3+rnd.Float64()*2, color.RGBA{uint8(rnd.IntN(256)), 60, 90, 255}
			want.SetColor(ink)
			want.SetLineWidth(lw)
			want.Stroke()
			fill.Stroke(got, pts, ink, lw)
		}
		want.ClearPath()
		if i%4 == 1 { // a line, as the rulers' (on a pixel's middle) or anywhere
			a, b := gg.Point{X: math.Floor(x) + 0.5, Y: math.Floor(y) + 0.5}, gg.Point{X: math.Floor(x) + 0.5, Y: math.Floor(y+r) + 0.5}
			if i%8 == 5 {
				a, b = gg.Point{X: x, Y: y}, gg.Point{X: x + r, Y: y - r/3}
			}
			lw := []float64{1, 0.5 + rnd.Float64()*3}[i%8/5]
			want.SetColor(c)
			want.SetLineWidth(lw)
			want.DrawLine(a.X, a.Y, b.X, b.Y)
			want.Stroke()
			fill.Line(got, a, b, c, lw)
		}
	}
	if wp, gp := pix(want), pix(got); !bytes.Equal(wp, gp) {
		for i := range wp {
			if wp[i] != gp[i] {
				t.Fatalf("byte %d (pixel %d, %d) is %d, gg's %d", i, i/4%w, i/4/w, gp[i], wp[i])
			}
		}
	}
}

func pix(dc *gg.Context) []byte { return dc.Image().(*image.RGBA).Pix }
