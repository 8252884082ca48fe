package render_test

import (
	"image"
	"image/color"
	"testing"

	"github.com/fogleman/gg"

	"navarch/adjudicator/table"
	"navarch/render"
)

// TestTableProjection: a window of the table maps north up, Pad in from the corner, Scale
// pixels an inch, and its ruler draws sharp one-pixel lines on the inches it names, the
// stronger ones every Major.
func TestTableProjection(t *testing.T) {
	pr := render.Table{X0: 10 * table.Inch, Y0: 0, X1: 30 * table.Inch, Y1: 12 * table.Inch, Scale: 10, Pad: 20}
	for _, c := range []struct {
		q    table.Point
		x, y float64
	}{
		{table.Point{X: 10 * table.Inch, Y: 12 * table.Inch}, 20, 20}, // the window's north-west corner
		{table.Point{X: 30 * table.Inch, Y: 0}, 220, 140},             // its south-east corner
		{table.Point{X: 15*table.Inch + 50, Y: 6 * table.Inch}, 75, 80},
	} {
		if x, y := pr.At(c.q); x != c.x || y != c.y {
			t.Errorf("At(%v) = %v,%v, want %v,%v", c.q, x, y, c.x, c.y)
		}
	}
	if w := pr.Window(); w != (render.Rect{X: 20, Y: 20, W: 200, H: 120}) {
		t.Errorf("Window %v", w)
	}
	if d := pr.Px(4 * table.Inch); d != 40 {
		t.Errorf("4 inches are %v pixels, want 40", d)
	}
	img := image.NewRGBA(image.Rect(0, 0, 240, 160))
	dc := gg.NewContextForRGBA(img)
	dc.SetRGB(1, 1, 1)
	dc.Clear()
	line, strong := color.RGBA{200, 0, 0, 255}, color.RGBA{0, 0, 200, 255}
	pr.Ruler(dc, render.NewFonts().Small, render.Ruler{Every: 2 * table.Inch, Major: 6 * table.Inch, Line: line, Strong: strong, Figures: color.Black})
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{
		{60, 65, line},    // x = 14": a line
		{100, 65, strong}, // x = 18": a stronger one
		{30, 65, white},   // between
		{105, 80, strong}, // y = 6"
		{105, 100, line},  // y = 4"
		{105, 90, white},  // between
	} {
		if got := img.RGBAAt(c.x, c.y); got != c.want {
			t.Errorf("pixel %d,%d is %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

var white = color.RGBA{255, 255, 255, 255}
