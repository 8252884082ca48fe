package render_test

import (
	"image/color"
	"math"
	"testing"

	"github.com/fogleman/gg"

	"navarch/render"
)

// TestLabelsPlacedWithoutOverlap: in a tight cluster of things, every label is placed clear of
// every other thing and every other label, those that cannot sit beside their thing standing
// further out with a leader line, and a label marked Inside sits on its thing where it fits.
func TestLabelsPlacedWithoutOverlap(t *testing.T) {
	f := render.NewFonts()
	var ls []render.Label
	for i := range 5 { // a row of 30-pixel squares 4 pixels apart, and one below
		for j := range 2 {
			x, y := 100+float64(i)*34, 100+float64(j)*34
			ls = append(ls, render.Label{Of: render.Box{X0: x, Y0: y, X1: x + 30, Y1: y + 30},
				Lines: []render.Line{{Face: f.Small, Color: color.Black, Text: "GALLEY"}, {Face: f.Small, Color: color.Black, Text: "S3 D4"}}})
		}
	}
	big := render.Box{X0: 400, Y0: 100, X1: 500, Y1: 140}
	ls = append(ls, render.Label{Of: big, Inside: true, Lines: []render.Line{{Face: f.Small, Color: color.Black, Text: "A1"}}})
	avoid := []render.Box{{X0: 100, Y0: 180, X1: 270, Y1: 200}}
	at := render.PlaceLabels(ls, avoid, render.Rect{W: 600, H: 400})
	leaders := 0
	for i, a := range at {
		if a.Leader {
			leaders++
		}
		for j, l := range ls {
			if j != i && a.Box.Overlap(l.Of) > 0 {
				t.Errorf("label %d at %v covers thing %d at %v", i, a.Box, j, l.Of)
			}
			if j < i && a.Box.Overlap(at[j].Box) > 0 {
				t.Errorf("label %d at %v covers label %d at %v", i, a.Box, j, at[j].Box)
			}
		}
		if a.Box.Overlap(avoid[0]) > 0 {
			t.Errorf("label %d at %v covers the box to avoid", i, a.Box)
		}
		if a.Box.X0 < 0 || a.Box.Y0 < 0 || a.Box.X1 > 600 || a.Box.Y1 > 400 {
			t.Errorf("label %d at %v leaves the board", i, a.Box)
		}
	}
	if leaders == 0 {
		t.Error("ten labels round a tight cluster, none stood off with a leader line")
	}
	if a := at[len(at)-1]; a.Leader || a.Box.Overlap(big) != (a.Box.X1-a.Box.X0)*(a.Box.Y1-a.Box.Y0) {
		t.Errorf("the Inside label is at %v, not on its thing %v", a.Box, big)
	}
}

// TestLabelPlacesInOrder: a label goes to the first of its places that is free.
func TestLabelPlacesInOrder(t *testing.T) {
	f := render.NewFonts()
	thing := render.Box{X0: 100, Y0: 100, X1: 120, Y1: 120}
	l := render.Label{Of: thing, Gap: 3, Places: []render.Place{render.Right, render.Left},
		Lines: []render.Line{{Face: f.Small, Color: color.Black, Text: "hit"}}}
	if at := render.PlaceLabels([]render.Label{l}, nil, render.Rect{W: 300, H: 300}); at[0].Box.X0 != 123 || at[0].Leader {
		t.Errorf("free on the right: placed at %v", at[0].Box)
	}
	at := render.PlaceLabels([]render.Label{l}, []render.Box{{X0: 121, Y0: 90, X1: 200, Y1: 130}}, render.Rect{W: 300, H: 300})
	if at[0].Box.X1 != 97 || at[0].Leader {
		t.Errorf("right taken: placed at %v, want at the left, 3 pixels off", at[0].Box)
	}
}

// TestBoxCovers: the area of a convex polygon inside a box, the polygon at an angle.
func TestBoxCovers(t *testing.T) {
	diamond := []gg.Point{{X: 10, Y: 0}, {X: 20, Y: 10}, {X: 10, Y: 20}, {X: 0, Y: 10}} // area 200
	for _, c := range []struct {
		b    render.Box
		want float64
	}{
		{render.Box{X0: 0, Y0: 0, X1: 20, Y1: 20}, 200},  // all of it
		{render.Box{X0: 10, Y0: 0, X1: 20, Y1: 20}, 100}, // its right half
		{render.Box{X0: 0, Y0: 0, X1: 5, Y1: 5}, 0},      // a corner of its bounds it leaves empty
		{render.Box{X0: 15, Y0: 5, X1: 25, Y1: 15}, 25},  // over its east tip: a triangle 5 by 10
		{render.Box{X0: 15, Y0: 8, X1: 25, Y1: 12}, 16},  // a band across the tip: 4 by 5 less two corners of 2
		{render.Box{X0: 30, Y0: 30, X1: 40, Y1: 40}, 0},
	} {
		if got := c.b.Covers(diamond); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%v covers %v of the diamond, want %v", c.b, got, c.want)
		}
	}
}
