package oinavarcoimap

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/fogleman/gg"

	"navarch/adjudicator/oinavarcoi"
	"navarch/adjudicator/table"
	"navarch/render"
)

// Picture is an Oi Navarcoi! map as one side sees it: the scaled sea with a ruler grid in
// inches (for DEPLOY positions), the table edges marked friendly, neutral or enemy for the
// viewer, the cape and the beaches, flotsam, each squadron as its stands in formation with its
// bow marked and its state (Disordered, Unformed, routing, pursuing), freighters, the
// phalanxes on land, and the wind.
type Picture struct {
	View oinavarcoi.View
	Game string
	proj render.Table // the whole table, at 12 pixels an inch
}

// New prepares the picture of g as side sees it. The whole table is always shown (full is the
// same picture).
func New(g *oinavarcoi.Game, label, side string, full bool) *Picture {
	return fromView(g.View(side), label)
}

func fromView(v oinavarcoi.View, label string) *Picture {
	return &Picture{View: v, Game: label, proj: render.Table{X1: v.Width, Y1: v.Height, Scale: 12, Pad: oiPad}}
}

const oiPad = 26.0 // room for the ruler's figures

// pt returns the board pixel of a table point (the table's origin is its south-west corner).
func (p *Picture) pt(q table.Point) (float64, float64) { return p.proj.At(q) }

// Board implements render.Picture.
func (p *Picture) Board() render.Rect {
	w := p.proj.Window()
	return render.Rect{W: w.W + 2*oiPad, H: w.H + 2*oiPad}
}

// Title implements render.Picture: numbered as the mails number the step the game waits for
// (turn and activation), so that a map and the mail it comes with agree.
func (p *Picture) Title() string {
	v := p.View
	when := fmt.Sprintf("T%d A%d", v.Turn, v.Act)
	switch {
	case v.What == "game over":
		when = fmt.Sprintf("T%d game over", v.Turn)
	case !v.Deployed:
		when = fmt.Sprintf("T%d deployment", v.Turn)
	case v.Act == 0:
		when = fmt.Sprintf("T%d start", v.Turn)
	}
	return fmt.Sprintf("navarch %s · %s · %s", p.Game, v.Title, when)
}

// Status implements render.Picture.
func (p *Picture) Status() []string {
	view := "referee's view"
	if p.View.Side != "" {
		view = p.View.Side + "'s view"
	}
	return []string{view, fmt.Sprintf("wind from %d°", p.View.Wind), "grid every 6\""}
}

// WindFrom implements render.Compass.
func (p *Picture) WindFrom() (float64, string) { return float64(p.View.Wind), "wind" }

var (
	oiSea      = color.RGBA{127, 167, 209, 255}
	oiGrid     = color.RGBA{104, 146, 192, 255}
	oiRuler    = color.RGBA{44, 74, 112, 255}
	oiLand     = color.RGBA{216, 201, 163, 255}
	oiFlotsam  = color.RGBA{120, 86, 50, 150}
	oiSides    = [2]color.RGBA{{52, 101, 200, 255}, {196, 48, 40, 255}}
	oiRouting  = [2]color.RGBA{{160, 180, 225, 255}, {230, 165, 160, 255}}
	oiFreight  = color.RGBA{176, 132, 60, 255}
	oiMove     = color.RGBA{20, 30, 90, 255}
	oiInk      = color.RGBA{13, 13, 13, 255}
	oiEdgeCols = map[string]color.RGBA{"friendly": {46, 160, 67, 255}, "neutral": {150, 150, 150, 255}, "enemy": {200, 30, 30, 255}}
)

// Legend implements render.Picture.
func (p *Picture) Legend() []render.LegendItem {
	v := p.View
	return []render.LegendItem{
		{Color: oiSides[0], Text: v.Sides[0]}, {Color: oiSides[1], Text: v.Sides[1]},
		{Color: color.White, Mark: "D", Text: "Disordered"}, {Color: color.White, Mark: "U", Text: "Unformed"},
		{Color: oiRouting[0], Mark: "R", Text: "routing"}, {Color: color.White, Mark: "P", Text: "pursuing"},
		{Color: color.White, Mark: "*", Text: "strategos"}, {Color: color.White, Mark: "M", Text: "in melee"},
		{Color: oiFlotsam, Text: "flotsam"}, {Color: oiMove, Mark: "o", Text: "last moves (from the ring)"}, {Color: oiLand, Text: "land, beach, cape"}, {Color: oiFreight, Text: "freighter"},
		{Color: oiEdgeCols["friendly"], Text: "edge friendly to you"}, {Color: oiEdgeCols["neutral"], Text: "edge neutral"},
		{Color: oiEdgeCols["enemy"], Text: "edge enemy to you"},
	}
}

// Panels implements render.Picture.
func (p *Picture) Panels() []string {
	out := []string{"Positions are X,Y in inches from the south-west corner; the thick side of a squadron is its bow."}
	switch v := p.View; {
	case v.Side == "":
	case !v.Deployed && v.SignalAllowance == 0:
		out = append(out, "Your signals: none in this scenario")
	case !v.Deployed:
		out = append(out, fmt.Sprintf("Your signals: up to %d, written with your deployment (SIGNAL lines)", v.SignalAllowance))
	case len(v.Signals) == 0:
		out = append(out, "Your signals left: none")
	default:
		out = append(out, "Your signals left: "+strings.Join(v.Signals, "; "))
	}
	return out
}

// Draw implements render.Picture.
func (p *Picture) Draw(dc *gg.Context, r render.Rect, f *render.Fonts) {
	p.drawSea(dc, f)
	p.drawLand(dc, f)
	p.drawEdges(dc)
	for _, fl := range p.View.Flotsam {
		p.poly(dc, fl)
		dc.SetColor(oiFlotsam)
		dc.Fill()
	}
	for _, ph := range p.View.Phalanxes {
		p.drawPhalanx(dc, ph)
	}
	p.drawMoves(dc)
	for _, s := range p.View.Squadrons {
		p.drawSquadron(dc, s)
	}
	p.drawLabels(dc, f, r)
}

// drawMoves draws what the last step moved: a dashed line from each squadron's old centre,
// marked with a ring, to its new one.
func (p *Picture) drawMoves(dc *gg.Context) {
	dc.SetColor(oiMove)
	dc.SetLineWidth(2)
	for _, m := range p.View.Moves {
		x0, y0 := p.pt(m.From)
		x1, y1 := p.pt(m.To)
		dc.SetDash(6, 4)
		dc.DrawLine(x0, y0, x1, y1)
		dc.Stroke()
		dc.SetDash()
		dc.DrawCircle(x0, y0, 4)
		dc.Stroke()
	}
}

func (p *Picture) poly(dc *gg.Context, pg table.Polygon) { render.Path(dc, p.proj.Points(pg)...) }

// drawSea draws the table's sea and the ruler: a line every 6", numbered in the margin.
func (p *Picture) drawSea(dc *gg.Context, f *render.Fonts) {
	w := p.proj.Window()
	// as dc.DrawRectangle, dc.Fill on the blank board, pixel for pixel, the sea's inside
	// copied rather than blended
	render.NewFiller(dc).Polygon([]gg.Point{{X: w.X, Y: w.Y}, {X: w.X + w.W, Y: w.Y}, {X: w.X + w.W, Y: w.Y + w.H}, {X: w.X, Y: w.Y + w.H}}, oiSea)
	dc.SetColor(oiSea)
	p.proj.Ruler(dc, f.Small, render.Ruler{Every: 6 * table.Inch, Major: 6 * table.Inch, Line: oiGrid, Strong: oiGrid, Figures: oiRuler})
}

// drawEdges marks the table edges friendly, neutral or enemy for the viewer.
func (p *Picture) drawEdges(dc *gg.Context) {
	v := p.View
	x0, y0 := p.pt(table.Point{})
	x1, y1 := p.pt(table.Point{X: v.Width, Y: v.Height})
	lines := [4][4]float64{{x0, y1, x1, y1}, {x1, y1, x1, y0}, {x0, y0, x1, y0}, {x0, y1, x0, y0}}
	for i, st := range v.Edges {
		c, ok := oiEdgeCols[st]
		if !ok {
			continue
		}
		dc.SetColor(c)
		dc.SetLineWidth(5)
		l := lines[i]
		dc.DrawLine(l[0], l[1], l[2], l[3])
		dc.Stroke()
	}
}

func (p *Picture) drawLand(dc *gg.Context, f *render.Fonts) {
	dc.SetFontFace(f.Small)
	lands := append([]oinavarcoi.ViewLand{}, p.View.Beaches...)
	if len(p.View.Cape) > 0 {
		lands = append(lands, oinavarcoi.ViewLand{Area: p.View.Cape})
	}
	for _, l := range lands {
		p.poly(dc, l.Area)
		dc.SetColor(oiLand)
		dc.FillPreserve()
		dc.SetRGB255(150, 130, 90)
		dc.SetLineWidth(1)
		dc.Stroke()
		cx, cy := p.centre(l.Area)
		label := "cape"
		if l.Side != "" {
			label = l.Side + " beach"
		}
		dc.SetRGB255(90, 70, 40)
		dc.DrawStringAnchored(label, cx, cy, 0.5, 0.5)
	}
}

func (p *Picture) centre(pg table.Polygon) (float64, float64) {
	var sx, sy float64
	for _, q := range pg {
		x, y := p.pt(q)
		sx, sy = sx+x, sy+y
	}
	return sx / float64(len(pg)), sy / float64(len(pg))
}

func (p *Picture) sideIndex(side string) int {
	if side == p.View.Sides[1] {
		return 1
	}
	return 0
}

// drawSquadron draws the footprint, the stands inside it and the bow (its label comes with
// the others, drawLabels).
func (p *Picture) drawSquadron(dc *gg.Context, s oinavarcoi.ViewSquadron) {
	i := p.sideIndex(s.Side)
	fill := oiSides[i]
	switch {
	case s.Freighter:
		fill = oiFreight
	case s.Status == oinavarcoi.Routing:
		fill = oiRouting[i]
	}
	p.poly(dc, s.Corners)
	dc.SetColor(fill)
	dc.FillPreserve()
	dc.SetRGB(0.1, 0.1, 0.1)
	dc.SetLineWidth(1)
	dc.Stroke()
	c := s.Corners // bow-port, bow-starboard, stern-starboard, stern-port
	if len(c) == 4 && s.Formation != oinavarcoi.Unformed {
		dc.SetRGB(1, 1, 1)
		dc.SetLineWidth(0.8)
		for k := 1; k < s.Across; k++ { // lines between stands side by side
			a := lerp(c[0], c[1], k, s.Across)
			b := lerp(c[3], c[2], k, s.Across)
			p.line(dc, a, b)
		}
		for k := 1; k < s.Deep; k++ { // lines between ranks
			a := lerp(c[0], c[3], k, s.Deep)
			b := lerp(c[1], c[2], k, s.Deep)
			p.line(dc, a, b)
		}
	}
	if len(c) == 4 { // the bow
		dc.SetRGB(1, 1, 1)
		dc.SetLineWidth(3)
		p.line(dc, c[0], c[1])
	}
}

// squadronLabel is a squadron's ID and its markers.
func (p *Picture) squadronLabel(f *render.Fonts, s oinavarcoi.ViewSquadron) render.Label {
	var marks []string
	for _, m := range []struct {
		on   bool
		mark string
	}{{s.Strategos, "*"}, {s.Disordered && s.Formation != oinavarcoi.Unformed, "D"}, {s.Formation == oinavarcoi.Unformed && !s.Freighter, "U"},
		{s.Status == oinavarcoi.Routing, "R"}, {s.Pursuing != "", "P"}, {s.InMelee, "M"}} {
		if m.on {
			marks = append(marks, m.mark)
		}
	}
	label := s.ID
	if len(marks) > 0 {
		label += " " + strings.Join(marks, "")
	}
	return p.label(f, s.Corners, label)
}

// label is the label of a piece whose footprint is pg: on it where it fits clear of the
// others, else beside it with a leader line.
func (p *Picture) label(f *render.Fonts, pg table.Polygon, text string) render.Label {
	shape := p.proj.Points(pg)
	return render.Label{Of: render.BoxOf(shape...), Shape: shape, Inside: true,
		Lines:  []render.Line{{Face: f.Small, Color: oiInk, Text: text}},
		Ground: color.NRGBA{255, 255, 255, 217}, Leader: oiInk}
}

// drawLabels draws the squadrons' and the phalanxes' labels where render.PlaceLabels puts
// them, so that none covers another piece or label.
func (p *Picture) drawLabels(dc *gg.Context, f *render.Fonts, r render.Rect) {
	var ls []render.Label
	for _, ph := range p.View.Phalanxes {
		text := ph.ID
		if ph.Pushes > 0 {
			text += fmt.Sprintf(" pushed %d", ph.Pushes)
		}
		if ph.Routed {
			text += " R"
		}
		ls = append(ls, p.label(f, ph.Corners, text))
	}
	for _, s := range p.View.Squadrons {
		ls = append(ls, p.squadronLabel(f, s))
	}
	render.DrawLabels(dc, ls, render.PlaceLabels(ls, nil, render.Rect{W: r.W, H: r.H}))
}

func (p *Picture) drawPhalanx(dc *gg.Context, ph oinavarcoi.ViewPhalanx) {
	i := p.sideIndex(ph.Side)
	p.poly(dc, ph.Corners)
	if ph.Routed {
		dc.SetColor(oiRouting[i])
	} else {
		dc.SetColor(oiSides[i])
	}
	dc.FillPreserve()
	dc.SetRGB(0.1, 0.1, 0.1)
	dc.SetLineWidth(1)
	dc.Stroke()
}

func (p *Picture) line(dc *gg.Context, a, b table.Point) {
	x0, y0 := p.pt(a)
	x1, y1 := p.pt(b)
	dc.DrawLine(x0, y0, x1, y1)
	dc.Stroke()
}

// lerp returns the point k/n of the way from a to b.
func lerp(a, b table.Point, k, n int) table.Point {
	return table.Point{X: a.X + (b.X-a.X)*int64(k)/int64(n), Y: a.Y + (b.Y-a.Y)*int64(k)/int64(n)}
}
