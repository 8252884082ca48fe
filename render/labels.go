package render

import (
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
)

// Box is an axis-aligned rectangle of board pixels.
type Box struct{ X0, Y0, X1, Y1 float64 }

// BoxOf is the smallest box holding pts.
func BoxOf(pts ...gg.Point) Box {
	if len(pts) == 0 {
		return Box{}
	}
	b := Box{pts[0].X, pts[0].Y, pts[0].X, pts[0].Y}
	for _, q := range pts[1:] {
		b = Box{min(b.X0, q.X), min(b.Y0, q.Y), max(b.X1, q.X), max(b.Y1, q.Y)}
	}
	return b
}

// Overlap is the area a and b share.
func (a Box) Overlap(b Box) float64 {
	w, h := min(a.X1, b.X1)-max(a.X0, b.X0), min(a.Y1, b.Y1)-max(a.Y0, b.Y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// Covers is the area of the convex polygon pg (in order, either way round) inside a: pg
// clipped to a's edges (Sutherland-Hodgman), by the shoelace formula.
func (a Box) Covers(pg []gg.Point) float64 {
	in := pg
	for edge := range 4 {
		inside := func(q gg.Point) bool {
			return [4]bool{q.X >= a.X0, q.X <= a.X1, q.Y >= a.Y0, q.Y <= a.Y1}[edge]
		}
		cut := func(p, q gg.Point) gg.Point {
			var t float64
			switch edge {
			case 0:
				t = (a.X0 - p.X) / (q.X - p.X)
			case 1:
				t = (a.X1 - p.X) / (q.X - p.X)
			case 2:
				t = (a.Y0 - p.Y) / (q.Y - p.Y)
			default:
				t = (a.Y1 - p.Y) / (q.Y - p.Y)
			}
			return gg.Point{X: p.X + (q.X-p.X)*t, Y: p.Y + (q.Y-p.Y)*t}
		}
		var out []gg.Point
		for i, q := range in {
			p := in[(i+len(in)-1)%len(in)]
			switch {
			case inside(q) && !inside(p):
				out = append(out, cut(p, q), q)
			case inside(q):
				out = append(out, q)
			case inside(p):
				out = append(out, cut(p, q))
			}
		}
		if in = out; len(in) == 0 {
			return 0
		}
	}
	area := 0.0
	for i, q := range in {
		p := in[(i+len(in)-1)%len(in)]
		area += p.X*q.Y - q.X*p.Y
	}
	return math.Abs(area) / 2
}

// Centre is the box's middle.
func (a Box) Centre() (x, y float64) { return (a.X0 + a.X1) / 2, (a.Y0 + a.Y1) / 2 }

// Label names a thing on the board: lines of text, top first, in faces of 11 pixels or less
// (labels are small print), over a ground.
type Label struct {
	Of     Box         // the thing it names
	Shape  []gg.Point  // the thing's outline, convex, if it is not its box (a base at an angle)
	Lines  []Line      // its text
	Ground color.Color // the box behind the text; nil for none
	Leader color.Color // the leader line's colour when the label stands off
	// Inside lets the label sit on the thing it names, centred, where it fits there without
	// covering another (a squadron's name on its stands); otherwise it goes beside it.
	Inside bool
	// Gap is how far beside the thing the label's nearest places stand (0: 8 pixels, clear of
	// a ship's broadside pips).
	Gap float64
	// Places are the places around the thing tried, best first (none: Above, Below, Right,
	// Left, then the corners).
	Places []Place
}

// Place is where a label stands beside the thing it names.
type Place int

// The places beside a thing: centred on its sides, or off its corners.
const (
	Above Place = iota
	Below
	Right
	Left
	AboveRight
	BelowRight
	AboveLeft
	BelowLeft
)

var allPlaces = []Place{Above, Below, Right, Left, AboveRight, BelowRight, AboveLeft, BelowLeft}

// Line is one line of a Label, optionally on a box of its own (a tag: Ground edged in Edge,
// as wide as its text).
type Line struct {
	Face         font.Face
	Color        color.Color
	Text         string
	Ground, Edge color.Color
}

// Placed is where PlaceLabels put a label: its box, and whether it stands off from the thing
// it names, joined to it by a leader line.
type Placed struct {
	Box    Box
	Leader bool
}

// Label geometry, in pixels: a line of text; the gap that keeps a label clear of what is drawn
// just outside the thing it names (a ship's broadside pips); how much further out a label is
// tried when the near places are taken, and how many times.
const (
	labelPitch = 12
	labelGap   = 8
	labelStep  = 28
	labelRings = 6
)

// What a place costs PlaceLabels: each square pixel of another thing it covers, of a label
// placed before or a mark to avoid (labelCost, 2) or off the board (1), and each ring further
// out. A ring
// costs as much as 5 square pixels of a thing covered: a label stands off rather than cover
// a corner of a counter, but not to clear a neighbouring label's edge.
const (
	thingCost = 40
	labelCost = 2
	ringCost  = 200
)

// size is a label's box: as wide as its widest line with 2 pixels a side, labelPitch a line
// and 2 over.
func (l Label) size() (w, h float64) {
	for _, ln := range l.Lines {
		w = max(w, TextWidth(ln.Face, ln.Text))
	}
	return w + 4, float64(labelPitch*len(l.Lines) + 2)
}

// covered is how much of the thing l names box b covers.
func (l Label) covered(b Box) float64 {
	if len(l.Shape) >= 3 {
		if b.Overlap(l.Of) == 0 {
			return 0
		}
		return b.Covers(l.Shape)
	}
	return b.Overlap(l.Of)
}

// PlaceLabels places each label, in order, clear of the things the others name, of the labels
// placed before it, of the marks to avoid (a shot's tag) and of the board's edges r, where it
// can: on the thing itself (Inside) if it covers nothing there, else at the first of its
// places around it (Places) that is free, trying rings further out where the near places are
// taken. A label placed beyond the first ring stands off (Placed.Leader). Where no near place
// is free the cheapest wins (thingCost, labelCost, ringCost): in effect the nearest that
// covers no other thing; a mark to avoid weighs as a label. A label without lines is a thing
// alone, for the others to keep clear of (a counter no tag names), and is not placed.
func PlaceLabels(ls []Label, avoid []Box, r Rect) []Placed {
	out := make([]Placed, 0, len(ls))
	board := Box{r.X, r.Y, r.X + r.W, r.Y + r.H}
	for i, l := range ls {
		if len(l.Lines) == 0 {
			out = append(out, Placed{})
			continue
		}
		w, h := l.size()
		b := l.Of
		cx, cy := b.Centre()
		covers := func(cand Box) float64 {
			s := 0.0
			for j, o := range ls {
				if j != i {
					s += thingCost * o.covered(cand)
				}
			}
			for _, o := range avoid {
				s += labelCost * cand.Overlap(o)
			}
			for _, o := range out {
				s += labelCost * cand.Overlap(o.Box)
			}
			return s + w*h - cand.Overlap(board)
		}
		if on := (Box{cx - w/2, cy - h/2, cx + w/2, cy + h/2}); l.Inside && covers(on) == 0 {
			out = append(out, Placed{Box: on})
			continue
		}
		best, bestScore, bestRing := Box{}, math.Inf(1), 0
		gap, places := l.Gap, l.Places
		if gap == 0 {
			gap = labelGap
		}
		if len(places) == 0 {
			places = allPlaces
		}
	rings:
		for k := range labelRings {
			g := gap + float64(k*labelStep)
			for _, pl := range places {
				var c [2]float64
				switch pl {
				case Above:
					c = [2]float64{cx - w/2, b.Y0 - g - h}
				case Below:
					c = [2]float64{cx - w/2, b.Y1 + g}
				case Right:
					c = [2]float64{b.X1 + g, cy - h/2}
				case Left:
					c = [2]float64{b.X0 - g - w, cy - h/2}
				case AboveRight:
					c = [2]float64{b.X1 + g - gap, b.Y0 - g + gap - h}
				case BelowRight:
					c = [2]float64{b.X1 + g - gap, b.Y1 + g - gap}
				case AboveLeft:
					c = [2]float64{b.X0 - g + gap - w, b.Y0 - g + gap - h}
				case BelowLeft:
					c = [2]float64{b.X0 - g + gap - w, b.Y1 + g - gap}
				}
				cand := Box{c[0], c[1], c[0] + w, c[1] + h}
				n := covers(cand)
				if n == 0 && k == 0 {
					best, bestRing = cand, k
					break rings
				}
				if s := n + float64(k)*ringCost; s < bestScore {
					best, bestScore, bestRing = cand, s, k
				}
			}
		}
		out = append(out, Placed{Box: best, Leader: bestRing > 0})
	}
	return out
}

// DrawLabels draws each label where PlaceLabels put it: the leader line first (from the
// middle of the thing named to the nearest point of the label's box), then the ground, then
// the lines, centred, each on its own box where it has one.
func DrawLabels(dc *gg.Context, ls []Label, at []Placed) {
	for i, l := range ls {
		b := at[i].Box
		if at[i].Leader && l.Leader != nil {
			cx, cy := l.Of.Centre()
			dc.SetColor(l.Leader)
			dc.SetLineWidth(1)
			dc.DrawLine(cx, cy, min(max(cx, b.X0), b.X1), min(max(cy, b.Y0), b.Y1))
			dc.Stroke()
		}
		if l.Ground != nil {
			dc.SetColor(l.Ground)
			dc.DrawRectangle(b.X0, b.Y0, b.X1-b.X0, b.Y1-b.Y0)
			dc.Fill()
		}
		mid := (b.X0 + b.X1) / 2
		for k, ln := range l.Lines {
			y := b.Y0 + float64(labelPitch*k)
			if ln.Ground != nil {
				tw := TextWidth(ln.Face, ln.Text) + 4
				dc.DrawRoundedRectangle(mid-tw/2, y+1, tw, labelPitch, 2)
				dc.SetColor(ln.Ground)
				if ln.Edge != nil {
					dc.FillPreserve()
					dc.SetColor(ln.Edge)
					dc.SetLineWidth(1)
					dc.Stroke()
				} else {
					dc.Fill()
				}
			}
			Text(dc, ln.Face, ln.Color, ln.Text, mid, y+11, 0.5, 0)
		}
	}
}
