package medievalmap

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/fogleman/gg"

	"navarch/adjudicator"
	"navarch/adjudicator/medieval"
	"navarch/adjudicator/table"
	"navarch/render"
)

// Map is the map of medieval d10 games, for the ruleset list (package rulesets).
var Map render.Map = medievalMap{}

type medievalMap struct{}

// Picture implements render.Map. The rules hide nothing (the open table, the deck shuffled in
// the open log), so every side's picture shows the whole game; only the title says whose view
// it is.
func (medievalMap) Picture(g adjudicator.Game, label, side string, full bool) (render.Picture, error) {
	mg, ok := g.(*medieval.Game)
	if !ok {
		return nil, fmt.Errorf("medievalmap: %T is not a medieval game", g)
	}
	return New(mg, label, side, full), nil
}

// Picture is a medieval game drawn from above: the table at scale with a ruler
// grid in inches; each ship as her base in her side's colour, the bow pointed, her id above
// and her factors below, her broadside tracks as pips along the beams, fire, grapple and
// lashing markers; the active Division's ships outlined, with the range bands of their loaded
// broadsides and their missile reach; the last card's moves, broadsides, missiles and
// boarding attacks drawn on top.
type Picture struct {
	Game        *medieval.Game
	Label, Side string
	Full        bool // the whole table; otherwise a window around the action

	scale          float64   // pixels per inch
	x0, y0, x1, y1 table.Len // the window, in table units (y1 is the top edge)
}

// Scale and window: the whole table at fullScale; a report's crop at cropScale over a window
// of cropW by cropH inches (the whole table if it is smaller), so a side's maps keep one size
// across a game.
const (
	fullScale = 12
	cropScale = 20
	cropW     = 40 * table.Inch
	cropH     = 28 * table.Inch
)

// New prepares the picture of g as side sees it.
func New(g *medieval.Game, label, side string, full bool) *Picture {
	p := &Picture{Game: g, Label: label, Side: side, Full: full, scale: fullScale}
	t := g.Table()
	p.x0, p.y0, p.x1, p.y1 = 0, 0, t.Width, t.Height
	if !full {
		p.scale = cropScale
		p.crop()
	}
	return p
}

// crop frames the whole battle: every ship on the table (each side's, the prizes and the
// burning hulks, not only the active Division's) and the last card's traces, with a margin,
// in a window of cropW by cropH inches or more of the same shape, clamped to the table. A
// window wider than cropW is drawn at a smaller scale, so that every report's map of a game
// keeps one size (Board); the active Division is outlined on it (drawShip).
func (p *Picture) crop() {
	t := p.Game.Table()
	var pts []table.Point
	for _, tr := range p.Game.Last {
		for _, ps := range tr.Poses {
			pts = append(pts, ps.At)
		}
	}
	for _, s := range p.Game.Ships {
		if s.OnTable() && !t.Off(s.Corners()) {
			pts = append(pts, s.Corners()...)
		}
	}
	if len(pts) == 0 { // nothing left on the table: all of it
		pts = []table.Point{{}, {X: t.Width, Y: t.Height}}
	}
	lo, hi := pts[0], pts[0]
	for _, q := range pts {
		lo.X, lo.Y, hi.X, hi.Y = min(lo.X, q.X), min(lo.Y, q.Y), max(hi.X, q.X), max(hi.Y, q.Y)
	}
	const margin = 2 * table.Inch
	w, h := max(cropW, hi.X-lo.X+2*margin), max(cropH, hi.Y-lo.Y+2*margin)
	if w*cropH > h*cropW { // the crop's shape, 40 by 28
		h = w * cropH / cropW
	} else {
		w = h * cropW / cropH
	}
	w, h = min(w, t.Width), min(h, t.Height)
	p.scale = min(float64(cropW)/float64(w), float64(cropH)/float64(h)) * cropScale
	p.x0, p.x1 = window((lo.X+hi.X)/2, w, t.Width)
	p.y0, p.y1 = window((lo.Y+hi.Y)/2, h, t.Height)
}

// window is a span of length w centred on mid, inside 0..size (all of it if w > size),
// starting on a whole inch.
func window(mid, w, size table.Len) (table.Len, table.Len) {
	if w >= size {
		return 0, size
	}
	a := (mid - w/2) / table.Inch * table.Inch
	a = min(max(a, 0), size-w)
	return a, a + w
}

func (p *Picture) ship(id string) *medieval.Ship {
	for _, s := range p.Game.Ships {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// At returns the board pixel of table point q: x east, y down the picture (north up).
func (p *Picture) At(q table.Point) (float64, float64) {
	return float64(q.X-p.x0) / float64(table.Inch) * p.scale, float64(p.y1-q.Y) / float64(table.Inch) * p.scale
}

// Board implements render.Picture: a report's crop is always cropW by cropH inches at
// cropScale in pixels, whatever the window's scale (sea fills what the table does not).
func (p *Picture) Board() render.Rect {
	if !p.Full {
		return render.Rect{W: float64(cropW / table.Inch * cropScale), H: float64(cropH / table.Inch * cropScale)}
	}
	return render.Rect{W: math.Ceil(float64(p.x1-p.x0) / float64(table.Inch) * p.scale), H: math.Ceil(float64(p.y1-p.y0) / float64(table.Inch) * p.scale)}
}

// Title implements render.Picture: numbered as the mails number the step the game waits for.
func (p *Picture) Title() string {
	st := p.Game.Next()
	when := fmt.Sprintf("T%d of %d, A%d", st.Turn, p.Game.MaxTurns(), st.Act)
	switch {
	case st.Kind == adjudicator.Over:
		when = fmt.Sprintf("T%d, game over", st.Turn)
	case st.Kind == adjudicator.Auto:
		when = fmt.Sprintf("T%d of %d, start", st.Turn, p.Game.MaxTurns())
	}
	return fmt.Sprintf("navarch %s · %s · %s", p.Label, p.Game.ScenarioTitle(), when)
}

// Status implements render.Picture.
func (p *Picture) Status() []string {
	view := "referee's view"
	if p.Side != "" {
		view = p.Side + "'s view"
	}
	out := []string{view, fmt.Sprintf("wind from %03d", p.Game.Wind)}
	if div, cc := p.Game.ActiveDivision(); div != "" {
		kind := "Sail/Fight"
		if cc {
			kind = "Command and Control"
		}
		out = append(out, fmt.Sprintf("card: %s %s, %d to come", div, kind, len(p.Game.Deck)))
	}
	if !p.Full {
		out = append(out, fmt.Sprintf("x %s-%s\" y %s-%s\"", table.FormatInches(p.x0), table.FormatInches(p.x1), table.FormatInches(p.y0), table.FormatInches(p.y1)))
	} else {
		out = append(out, "whole table")
	}
	return out
}

// WindFrom implements render.Compass.
func (p *Picture) WindFrom() (float64, string) {
	return float64(p.Game.Wind), fmt.Sprintf("wind %03d", p.Game.Wind)
}

// Colours. The sides are red and blue; the range bands greens of rising strength, which no
// side and no marker uses.
var (
	colSea      = color.RGBA{176, 206, 232, 255}
	colGrid     = color.RGBA{150, 182, 212, 255}
	colGrid6    = color.RGBA{92, 126, 164, 255}
	colInk      = color.RGBA{25, 30, 40, 255}
	sideColors  = []color.RGBA{{200, 48, 40, 255}, {40, 78, 190, 255}}
	sideInk     = []color.RGBA{{120, 20, 15, 255}, {15, 35, 110, 255}}
	colStruck   = color.RGBA{170, 170, 170, 255}
	colBurnt    = color.RGBA{70, 55, 45, 255}
	colActive   = color.RGBA{255, 214, 0, 255}
	colFlagship = color.RGBA{255, 190, 0, 255}
	colFire     = color.RGBA{255, 110, 0, 255}
	colFireCore = color.RGBA{255, 235, 80, 255}
	colGrapple  = color.RGBA{120, 40, 150, 255}
	colLash     = color.RGBA{140, 90, 40, 255}
	colMove     = color.RGBA{20, 20, 20, 255}
	colShot     = color.RGBA{230, 0, 170, 255} // broadsides: magenta
	colMissile  = color.RGBA{0, 130, 90, 255}  // missiles: dark green
	colBoard    = color.RGBA{120, 0, 0, 255}
	colMissR    = color.RGBA{0, 110, 60, 255}
	// bandColors are the range bands, nearest first, as drawn (translucent over the sea)
	// and as the legend shows them over the sea.
	bandColors = []color.NRGBA{{40, 160, 60, 90}, {90, 190, 90, 60}, {150, 220, 140, 45}}
)

// sideIndex is the side's place in the scenario (its colour).
func (p *Picture) sideIndex(side string) int {
	for i, s := range p.Game.Sides() {
		if s == side {
			return i % len(sideColors)
		}
	}
	return 0
}

// Draw implements render.Picture: the sea and ruler, the range bands, the ghosts of where
// ships started, the bases and their markers, then the last card's moves and shots on top.
func (p *Picture) Draw(dc *gg.Context, r render.Rect, f *render.Fonts) {
	dc.SetColor(colSea)
	dc.DrawRectangle(0, 0, r.W, r.H)
	dc.Fill()
	p.drawRuler(dc, f, r)
	p.drawBands(dc)
	for _, s := range p.Game.Ships {
		if s.OnTable() {
			p.drawShip(dc, s)
		}
	}
	p.drawLinks(dc)
	p.drawLabels(dc, f, r)
	p.drawTraces(dc, f)
}

// drawRuler draws a line every inch and a stronger one every six, numbered along the top and
// left edges.
func (p *Picture) drawRuler(dc *gg.Context, f *render.Fonts, r render.Rect) {
	for x := p.x0; x <= p.x1; x += table.Inch {
		px, _ := p.At(table.Point{X: x, Y: p.y1})
		p.gridLine(dc, x, px, 0, px, r.H)
		if x%(6*table.Inch) == 0 && x > p.x0 {
			render.Text(dc, f.Small, colGrid6, table.FormatInches(x), px+2, 2, 0, 0.8)
		}
	}
	for y := p.y0; y <= p.y1; y += table.Inch {
		_, py := p.At(table.Point{X: p.x0, Y: y})
		p.gridLine(dc, y, 0, py, r.W, py)
		if y%(6*table.Inch) == 0 && y < p.y1 {
			render.Text(dc, f.Small, colGrid6, table.FormatInches(y), 2, py-2, 0, 0)
		}
	}
}

// gridLine draws a ruler line on the middle of a pixel row or column, so it is one pixel
// wide and sharp.
func (p *Picture) gridLine(dc *gg.Context, at table.Len, ax, ay, bx, by float64) {
	ax, ay, bx, by = math.Floor(ax)+0.5, math.Floor(ay)+0.5, math.Floor(bx)+0.5, math.Floor(by)+0.5
	dc.SetColor(colGrid)
	dc.SetLineWidth(1)
	if at%(6*table.Inch) == 0 {
		dc.SetColor(colGrid6)
	}
	dc.DrawLine(ax, ay, bx, by)
	dc.Stroke()
}

// corners are a ship's base corners in board pixels (bow port, bow starboard, stern
// starboard, stern port).
func (p *Picture) corners(s *medieval.Ship) [4][2]float64 {
	var out [4][2]float64
	for i, c := range s.Corners() {
		out[i][0], out[i][1] = p.At(c)
	}
	return out
}

func (p *Picture) poly(dc *gg.Context, pts ...[2]float64) {
	dc.NewSubPath()
	for i, q := range pts {
		if i == 0 {
			dc.MoveTo(q[0], q[1])
		} else {
			dc.LineTo(q[0], q[1])
		}
	}
	dc.ClosePath()
}

// drawBands draws, for each ship of the Division whose Sail/Fight card is turned, the range
// bands off each loaded broadside (rule "Gunnery": the flank between the bow and stern lines
// extended, Close 4", Long 10", Extreme 20") and the outline of her missile reach.
func (p *Picture) drawBands(dc *gg.Context) {
	div, cc := p.Game.ActiveDivision()
	if div == "" || cc {
		return
	}
	for _, s := range p.Game.Ships {
		if s.Division != div || !s.Active() {
			continue
		}
		c := p.corners(s)
		for k := len(medieval.Bands) - 1; k >= 0; k-- {
			d := float64(medieval.Bands[k].To) / float64(table.Inch) * p.scale
			dc.SetColor(bandColors[k])
			if s.Loaded[0] > medieval.NNE { // port: the edge stern port - bow port
				p.band(dc, c[3], c[0], c[2], d)
			}
			if s.Loaded[1] > medieval.NNE { // starboard: bow starboard - stern starboard
				p.band(dc, c[1], c[2], c[0], d)
			}
		}
		if s.F.Missile > medieval.NNE {
			p.reach(dc, c, float64(p.Game.MissileRange())/float64(table.Inch)*p.scale)
		}
	}
}

// band fills the rectangle d pixels deep off the beam a-b, away from the point across the
// base from a.
func (p *Picture) band(dc *gg.Context, a, b, across [2]float64, d float64) {
	ux, uy := a[0]-across[0], a[1]-across[1]
	n := math.Hypot(ux, uy)
	if n == 0 {
		return
	}
	ux, uy = ux/n*d, uy/n*d
	p.poly(dc, a, b, [2]float64{b[0] + ux, b[1] + uy}, [2]float64{a[0] + ux, a[1] + uy})
	dc.Fill()
}

// reach strokes the line d pixels from the base all round: the base's edges pushed out, joined
// by arcs about its corners.
func (p *Picture) reach(dc *gg.Context, c [4][2]float64, d float64) {
	cx, cy := (c[0][0]+c[2][0])/2, (c[0][1]+c[2][1])/2
	normal := func(i int) float64 { // outward normal angle of edge i → i+1
		a, b := c[i], c[(i+1)%4]
		mx, my := (a[0]+b[0])/2-cx, (a[1]+b[1])/2-cy
		return math.Atan2(my, mx)
	}
	dc.NewSubPath()
	for i := range 4 {
		a1, a2 := normal((i+3)%4), normal(i)
		for a2 < a1 {
			a2 += 2 * math.Pi
		}
		if a2-a1 > math.Pi {
			a1, a2 = a2, a1+2*math.Pi
		}
		for k := 0; k <= 6; k++ {
			a := a1 + (a2-a1)*float64(k)/6
			dc.LineTo(c[i][0]+d*math.Cos(a), c[i][1]+d*math.Sin(a))
		}
	}
	dc.ClosePath()
	dc.SetColor(colMissR)
	dc.SetLineWidth(1.2)
	dc.SetDash(5, 4)
	dc.Stroke()
	dc.SetDash()
}

// drawLinks draws the lashings (brown, dashed) and grapples (purple) from centre to centre,
// over the bases, which touch.
func (p *Picture) drawLinks(dc *gg.Context) {
	for i, s := range p.Game.Ships {
		for _, o := range p.Game.Ships[i+1:] {
			if !s.OnTable() || !o.OnTable() {
				continue
			}
			ax, ay := p.At(s.Pose.At)
			bx, by := p.At(o.Pose.At)
			switch {
			case slices.Contains(s.Grappled, o.ID):
				dc.SetColor(colGrapple)
				dc.SetLineWidth(4)
				dc.DrawLine(ax, ay, bx, by)
				dc.Stroke()
			case slices.Contains(s.Lashed, o.ID):
				dc.SetColor(colLash)
				dc.SetLineWidth(3)
				dc.SetDash(4, 3)
				dc.DrawLine(ax, ay, bx, by)
				dc.Stroke()
				dc.SetDash()
			}
		}
	}
}

// fill is the colour of a ship's base: her side's, grey once she has struck, dark once burnt.
func (p *Picture) fill(s *medieval.Ship) color.Color {
	switch s.Status {
	case medieval.Surrendered:
		return colStruck
	case medieval.Burnt:
		return colBurnt
	}
	return sideColors[p.sideIndex(s.Side)]
}

// drawShip draws the base, the bow, the active or flagship outline, the broadside pips and
// the fire marker.
func (p *Picture) drawShip(dc *gg.Context, s *medieval.Ship) {
	c := p.corners(s)
	p.poly(dc, c[0], c[1], c[2], c[3])
	dc.SetColor(p.fill(s))
	dc.FillPreserve()
	div, _ := p.Game.ActiveDivision()
	switch {
	case s.Division == div && s.Active():
		dc.SetColor(colActive)
		dc.SetLineWidth(3)
	case s.Flagship:
		dc.SetColor(colFlagship)
		dc.SetLineWidth(2)
	default:
		dc.SetColor(colInk)
		dc.SetLineWidth(1)
	}
	dc.Stroke()
	bx, by := (c[0][0]+c[1][0])/2, (c[0][1]+c[1][1])/2
	sx, sy := (c[2][0]+c[3][0])/2, (c[2][1]+c[3][1])/2
	l := math.Hypot(bx-sx, by-sy)
	ux, uy := (bx-sx)/l, (by-sy)/l
	beam := math.Hypot(c[1][0]-c[0][0], c[1][1]-c[0][1])
	// the bow: a white point from a little inside the bow corners to their middle
	in := func(a, b [2]float64) [2]float64 {
		return [2]float64{a[0] + (b[0]-a[0])*0.2 - ux*beam*0.9, a[1] + (b[1]-a[1])*0.2 - uy*beam*0.9}
	}
	p.poly(dc, [2]float64{bx - ux, by - uy}, in(c[1], c[0]), in(c[0], c[1]))
	dc.SetRGB(1, 1, 1)
	dc.Fill()
	if s.Active() {
		p.pips(dc, c[3], c[0], c[2], s.F.GunPort, s.Loaded[0])
		p.pips(dc, c[2], c[1], c[3], s.F.GunStarboard, s.Loaded[1])
	}
	if s.Burning || s.Status == medieval.Burnt { // towards the stern, clear of lines to her centre
		x, y := p.At(s.Pose.At)
		x, y = x-ux*l*0.3, y-uy*l*0.3
		dc.SetColor(colFire)
		dc.DrawCircle(x, y, 6)
		dc.Fill()
		dc.SetColor(colFireCore)
		dc.DrawCircle(x, y, 2.5)
		dc.Fill()
	}
}

// pips draws a broadside track along the beam a-b, just outside it (away from across): one
// pip per level up to the broadside's Gunnery, filled up to the level loaded.
func (p *Picture) pips(dc *gg.Context, a, b, across [2]float64, gun, loaded medieval.Level) {
	n := int(gun)
	if n == 0 {
		return
	}
	ox, oy := a[0]-across[0], a[1]-across[1]
	o := math.Hypot(ox, oy)
	ox, oy = ox/o*4, oy/o*4
	for k := 1; k <= n; k++ {
		t := float64(k) / float64(n+1)
		x, y := a[0]+(b[0]-a[0])*t+ox, a[1]+(b[1]-a[1])*t+oy
		dc.DrawCircle(x, y, 2.6)
		if k <= int(loaded) {
			dc.SetColor(colInk)
			dc.Fill()
		} else {
			dc.SetRGB(1, 1, 1)
			dc.FillPreserve()
			dc.SetColor(colInk)
			dc.SetLineWidth(1)
			dc.Stroke()
		}
	}
}

// drawTraces draws the last card's moves (a black path from a dashed ghost of where the ship
// started, an arrowhead where she stopped), broadsides (magenta), missiles (green, dashed)
// and boarding attacks (dark red), each shot with its hits.
func (p *Picture) drawTraces(dc *gg.Context, f *render.Fonts) {
	for _, t := range p.Game.Last {
		if t.Kind == medieval.TraceMove {
			p.drawMove(dc, t)
		}
	}
	for _, t := range p.Game.Last {
		s, o := p.ship(t.Ship), p.ship(t.Target)
		if t.Kind == medieval.TraceMove || s == nil || o == nil {
			continue
		}
		ax, ay := p.At(s.Pose.At)
		bx, by := p.At(o.Pose.At)
		if k := enter(p.corners(o), ax, ay, bx, by); k > 0 { // end at her edge, the head in view
			bx, by = ax+(bx-ax)*k, ay+(by-ay)*k
		}
		var col color.Color
		switch t.Kind {
		case medieval.TraceFire:
			col = colShot
			dc.SetLineWidth(3)
		case medieval.TraceShoot:
			col = colMissile
			dc.SetLineWidth(2)
			dc.SetDash(6, 3)
		default:
			col = colBoard
			dc.SetLineWidth(2)
		}
		dc.SetColor(col)
		dc.DrawLine(ax, ay, bx, by)
		dc.Stroke()
		dc.SetDash()
		arrowHead(dc, ax, ay, bx, by, col)
		tag := fmt.Sprintf("%d hit", t.Hits)
		if t.Hits != 1 {
			tag += "s"
		}
		// the tag sits 40% of the way and to the shot's left, so the two attacks of one
		// boarding action do not cover each other's
		l := math.Max(math.Hypot(bx-ax, by-ay), 1)
		p.tag(dc, f, tag, ax+(bx-ax)*0.4+(by-ay)/l*9, ay+(by-ay)*0.4-(bx-ax)/l*9, col)
	}
}

func (p *Picture) drawMove(dc *gg.Context, t medieval.Trace) {
	s := p.ship(t.Ship)
	if s == nil || len(t.Poses) < 2 {
		return
	}
	ghost := *s
	ghost.Pose = t.Poses[0]
	c := p.corners(&ghost)
	p.poly(dc, c[0], c[1], c[2], c[3])
	dc.SetColor(colMove)
	dc.SetLineWidth(1)
	dc.SetDash(3, 3)
	dc.Stroke()
	dc.SetDash()
	dc.NewSubPath()
	for _, ps := range t.Poses {
		x, y := p.At(ps.At)
		dc.LineTo(x, y)
	}
	dc.SetLineWidth(2)
	dc.Stroke()
	n := len(t.Poses)
	ax, ay := p.At(t.Poses[n-2].At)
	bx, by := p.At(t.Poses[n-1].At)
	if ax != bx || ay != by {
		arrowHead(dc, ax, ay, bx, by, colMove)
	}
}

// enter is where the segment from (ax, ay) to (bx, by) enters the convex base c, as a fraction
// of the segment (Cyrus-Beck); 0 if it starts inside or never enters.
func enter(c [4][2]float64, ax, ay, bx, by float64) float64 {
	cx, cy := (c[0][0]+c[2][0])/2, (c[0][1]+c[2][1])/2
	dx, dy := bx-ax, by-ay
	t := 0.0
	for i := range 4 {
		e0, e1 := c[i], c[(i+1)%4]
		nx, ny := e1[1]-e0[1], e0[0]-e1[0] // a normal of the edge
		if nx*(cx-e0[0])+ny*(cy-e0[1]) > 0 {
			nx, ny = -nx, -ny // outward
		}
		den := nx*dx + ny*dy
		num := nx*(ax-e0[0]) + ny*(ay-e0[1])
		if den < 0 { // entering across this edge
			t = max(t, -num/den)
		}
	}
	return t
}

// arrowHead draws a filled arrowhead at (bx, by) pointing away from (ax, ay).
func arrowHead(dc *gg.Context, ax, ay, bx, by float64, col color.Color) {
	a := math.Atan2(by-ay, bx-ax)
	dc.SetColor(col)
	dc.MoveTo(bx, by)
	dc.LineTo(bx-9*math.Cos(a-0.4), by-9*math.Sin(a-0.4))
	dc.LineTo(bx-9*math.Cos(a+0.4), by-9*math.Sin(a+0.4))
	dc.ClosePath()
	dc.Fill()
}

// tag draws a short label on a white box edged in col.
func (p *Picture) tag(dc *gg.Context, f *render.Fonts, s string, x, y float64, col color.Color) {
	w := render.TextWidth(f.Small, s) + 6
	dc.SetRGB(1, 1, 1)
	dc.DrawRectangle(x-w/2, y-7, w, 14)
	dc.FillPreserve()
	dc.SetColor(col)
	dc.SetLineWidth(1)
	dc.Stroke()
	render.Text(dc, f.Small, colInk, s, x, y, 0.5, 0.35)
}

// box is an axis-aligned rectangle of board pixels.
type box struct{ x0, y0, x1, y1 float64 }

// overlap is the area a and b share.
func (a box) overlap(b box) float64 {
	w, h := min(a.x1, b.x1)-max(a.x0, b.x0), min(a.y1, b.y1)-max(a.y0, b.y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

func (p *Picture) bounds(s *medieval.Ship) box {
	c := p.corners(s)
	b := box{c[0][0], c[0][1], c[0][0], c[0][1]}
	for _, q := range c {
		b = box{min(b.x0, q[0]), min(b.y0, q[1]), max(b.x1, q[0]), max(b.y1, q[1])}
	}
	return b
}

// label is a ship's two lines: her id (with (F) for a flagship) and her factors (S
// Seaworthiness, D Defence, C Combat, M Missile, as 0 NNE … 6 IMM), or why she is out.
func label(s *medieval.Ship) (string, string) {
	name := s.ID
	if s.Flagship {
		name += " (F)"
	}
	if !s.Active() {
		return name, s.Status
	}
	return name, fmt.Sprintf("S%d D%d C%d M%d", s.F.Sea, s.F.Defence, s.F.Combat, s.F.Missile)
}

// placed is a ship's label where drawLabels puts it: its box, and whether it stands off
// the ship with a leader line to her.
type placed struct {
	ship   *medieval.Ship
	box    box
	leader bool
}

// labelGap keeps a label clear of the broadside pips; labelStep is how much further out a
// label is tried when the near places are taken.
const (
	labelGap  = 8
	labelStep = 28
)

// placeLabels puts each ship's label beside her, at the first of eight places around her
// base (above, below, right, left, the corners) that covers no other base and no label
// placed before, trying places further out where the near ones are taken; a label moved
// out gets a leader line to her centre, so that in a cluster no label sits on another
// ship. Where nothing is free, the place covering least wins.
func (p *Picture) placeLabels(f *render.Fonts, r render.Rect) []placed {
	var ships []*medieval.Ship
	var bases []box
	for _, s := range p.Game.Ships {
		if s.OnTable() {
			ships = append(ships, s)
			bases = append(bases, p.bounds(s))
		}
	}
	bold := f.Face(true, 11)
	var out []placed
	for i, s := range ships {
		l1, l2 := label(s)
		w, h := max(render.TextWidth(bold, l1), render.TextWidth(f.Small, l2))+4, 26.0
		b := bases[i]
		cx, cy := (b.x0+b.x1)/2, (b.y0+b.y1)/2
		best, bestScore, bestK := box{}, math.Inf(1), 0
		for k := 0; k < 6; k++ {
			g := float64(labelGap + k*labelStep)
			for _, c := range [][2]float64{
				{cx - w/2, b.y0 - g - h}, {cx - w/2, b.y1 + g}, {b.x1 + g, cy - h/2}, {b.x0 - g - w, cy - h/2},
				{b.x1 + g - labelGap, b.y0 - g + labelGap - h}, {b.x1 + g - labelGap, b.y1 + g - labelGap}, {b.x0 - g + labelGap - w, b.y0 - g + labelGap - h}, {b.x0 - g + labelGap - w, b.y1 + g - labelGap},
			} {
				cand := box{c[0], c[1], c[0] + w, c[1] + h}
				score := 0.0
				for j, o := range bases {
					if j != i {
						score += 3 * cand.overlap(o)
					}
				}
				for _, o := range out {
					score += 2 * cand.overlap(o.box)
				}
				score += w*h - cand.overlap(box{0, 0, r.W, r.H})
				score += float64(k) * 200 // further out only to get clear
				if score < bestScore {
					best, bestScore, bestK = cand, score, k
				}
			}
		}
		out = append(out, placed{ship: s, box: best, leader: bestK > 0})
	}
	return out
}

// drawLabels draws the labels placeLabels put, each over a pale ground, with its leader
// line where it stands off.
func (p *Picture) drawLabels(dc *gg.Context, f *render.Fonts, r render.Rect) {
	bold := f.Face(true, 11)
	for _, pl := range p.placeLabels(f, r) {
		s, best := pl.ship, pl.box
		if pl.leader {
			b := p.bounds(s)
			cx, cy := (b.x0+b.x1)/2, (b.y0+b.y1)/2
			dc.SetColor(sideInk[p.sideIndex(s.Side)])
			dc.SetLineWidth(1)
			dc.DrawLine(cx, cy, min(max(cx, best.x0), best.x1), min(max(cy, best.y0), best.y1))
			dc.Stroke()
		}
		l1, l2 := label(s)
		dc.SetColor(color.NRGBA{255, 255, 255, 150})
		dc.DrawRectangle(best.x0, best.y0, best.x1-best.x0, best.y1-best.y0)
		dc.Fill()
		mid := (best.x0 + best.x1) / 2
		render.Text(dc, bold, sideInk[p.sideIndex(s.Side)], l1, mid, best.y0+11, 0.5, 0)
		render.Text(dc, f.Small, colInk, l2, mid, best.y0+23, 0.5, 0)
	}
}

// Legend implements render.Picture.
func (p *Picture) Legend() []render.LegendItem {
	var out []render.LegendItem
	for _, side := range p.Game.Sides() {
		out = append(out, render.LegendItem{Color: sideColors[p.sideIndex(side)], Text: side})
	}
	out = append(out,
		render.LegendItem{Color: colActive, Text: "the card's Division"},
		render.LegendItem{Color: colFlagship, Text: "flagship (F)"})
	for k, b := range medieval.Bands {
		out = append(out, render.LegendItem{Color: over(bandColors[k]), Text: fmt.Sprintf("%s to %s\": %d d10", b.Name, table.FormatInches(b.To), b.Dice)})
	}
	return append(out,
		render.LegendItem{Color: colMissR, Text: fmt.Sprintf("missile reach %s\" (dashed)", table.FormatInches(p.Game.MissileRange()))},
		render.LegendItem{Color: colFire, Text: "on fire"},
		render.LegendItem{Color: colGrapple, Text: "grappled"},
		render.LegendItem{Color: colLash, Text: "lashed"},
		render.LegendItem{Color: colMove, Text: "moved (from the dashed base)"},
		render.LegendItem{Color: colShot, Text: "broadside fired"},
		render.LegendItem{Color: colMissile, Text: "missiles shot"},
		render.LegendItem{Color: colBoard, Text: "boarding attack"},
		render.LegendItem{Color: colStruck, Text: "surrendered"},
		render.LegendItem{Color: colBurnt, Text: "burnt hulk (drifts)"})
}

// over is c as it looks over the sea.
func over(c color.NRGBA) color.RGBA {
	a := float64(c.A) / 255
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*a + float64(y)*(1-a))) }
	return color.RGBA{mix(c.R, colSea.R), mix(c.G, colSea.G), mix(c.B, colSea.B), 255}
}

// Panels implements render.Picture: how to read a ship, and the ships out of the battle.
func (p *Picture) Panels() []string {
	out := []string{
		"Ship: her base to scale, the white point is the bow; id above, below S Seaworthiness D Defence C Combat M Missile (0 NNE 1 PNY 2 FRL 3 WKN 4 STR 5 MTY 6 IMM).",
		"Dots beside each beam: its broadside track, one per level of Gunnery, black when loaded. Grid: 1\", numbered every 6\". Nothing is hidden: both sides see this map.",
	}
	var gone []string
	for _, s := range p.Game.Ships {
		if !s.Active() {
			gone = append(gone, s.ID+" "+s.Status)
		}
	}
	if len(gone) > 0 {
		out = append(out, "Out of the battle: "+strings.Join(gone, ", "))
	}
	return out
}
