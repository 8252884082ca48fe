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

// Map is the map of medieval d10 games, for the ruleset list (package rulesets). The rules hide
// nothing (the open table, the deck shuffled in the open log), so every side's picture shows
// the whole game; only the title says whose view it is.
var Map = render.MapOf("the medieval d10 game", New)

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

	proj render.Table // the window of the table drawn, and its scale
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
	t := g.Table()
	p := &Picture{Game: g, Label: label, Side: side, Full: full, proj: render.Table{X1: t.Width, Y1: t.Height, Scale: fullScale}}
	if !full {
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
	p.proj.Scale = min(float64(cropW)/float64(w), float64(cropH)/float64(h)) * cropScale
	p.proj.X0, p.proj.X1 = window((lo.X+hi.X)/2, w, t.Width)
	p.proj.Y0, p.proj.Y1 = window((lo.Y+hi.Y)/2, h, t.Height)
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
func (p *Picture) At(q table.Point) (float64, float64) { return p.proj.At(q) }

// Board implements render.Picture: a report's crop is always cropW by cropH inches at
// cropScale in pixels, whatever the window's scale (sea fills what the table does not).
func (p *Picture) Board() render.Rect {
	if !p.Full {
		return render.Rect{W: float64(cropW / table.Inch * cropScale), H: float64(cropH / table.Inch * cropScale)}
	}
	w := p.proj.Window()
	return render.Rect{W: math.Ceil(w.W), H: math.Ceil(w.H)}
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
		out = append(out, fmt.Sprintf("x %s-%s\" y %s-%s\"", table.FormatInches(p.proj.X0), table.FormatInches(p.proj.X1), table.FormatInches(p.proj.Y0), table.FormatInches(p.proj.Y1)))
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
	// as dc.DrawRectangle, dc.Fill on the blank board, pixel for pixel, the sea copied
	// rather than blended
	render.NewFiller(dc).Polygon([]gg.Point{{X: 0, Y: 0}, {X: r.W, Y: 0}, {X: r.W, Y: r.H}, {X: 0, Y: r.H}}, colSea)
	dc.SetColor(colSea)
	p.drawRuler(dc, f)
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
func (p *Picture) drawRuler(dc *gg.Context, f *render.Fonts) {
	p.proj.Ruler(dc, f.Small, render.Ruler{Every: table.Inch, Major: 6 * table.Inch, Line: colGrid, Strong: colGrid6, Figures: colGrid6})
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
	gp := make([]gg.Point, len(pts))
	for i, q := range pts {
		gp[i] = gg.Point{X: q[0], Y: q[1]}
	}
	render.Path(dc, gp...)
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
			d := p.proj.Px(medieval.Bands[k].To)
			dc.SetColor(bandColors[k])
			if s.Loaded[0] > medieval.NNE { // port: the edge stern port - bow port
				p.band(dc, c[3], c[0], c[2], d)
			}
			if s.Loaded[1] > medieval.NNE { // starboard: bow starboard - stern starboard
				p.band(dc, c[1], c[2], c[0], d)
			}
		}
		if s.F.Missile > medieval.NNE {
			p.reach(dc, c, p.proj.Px(p.Game.MissileRange()))
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
	for _, sh := range p.shots() {
		render.Arrow(dc, sh.ax, sh.ay, sh.bx, sh.by, sh.col, sh.style)
		p.tag(dc, f, sh.tag, sh.tx, sh.ty, sh.col)
	}
}

// shot is a broadside, missiles or a boarding attack of the last card as drawn: an arrow
// from the attacker's centre to the edge of the target's base, and its hits on a tag.
type shot struct {
	ax, ay, bx, by float64
	col            color.Color
	style          render.ArrowStyle
	tag            string
	tx, ty         float64 // the tag's centre
}

// shots are the last card's attacks, in the trace's order.
func (p *Picture) shots() []shot {
	var out []shot
	for _, t := range p.Game.Last {
		s, o := p.ship(t.Ship), p.ship(t.Target)
		if t.Kind == medieval.TraceMove || s == nil || o == nil {
			continue
		}
		sh := shot{col: colBoard, style: arrow(2)}
		sh.ax, sh.ay = p.At(s.Pose.At)
		sh.bx, sh.by = p.At(o.Pose.At)
		ax, ay, bx, by := sh.ax, sh.ay, sh.bx, sh.by
		if k := enter(p.corners(o), ax, ay, bx, by); k > 0 { // end at her edge, the head in view
			sh.bx, sh.by = ax+(bx-ax)*k, ay+(by-ay)*k
			bx, by = sh.bx, sh.by
		}
		switch t.Kind {
		case medieval.TraceFire:
			sh.col, sh.style = colShot, arrow(3)
		case medieval.TraceShoot:
			sh.col, sh.style = colMissile, arrow(2)
			sh.style.Dash = []float64{6, 3}
		}
		sh.tag = fmt.Sprintf("%d hit", t.Hits)
		if t.Hits != 1 {
			sh.tag += "s"
		}
		// the tag sits 40% of the way and to the shot's left, so the two attacks of one
		// boarding action do not cover each other's
		l := math.Max(math.Hypot(bx-ax, by-ay), 1)
		sh.tx, sh.ty = ax+(bx-ax)*0.4+(by-ay)/l*9, ay+(by-ay)*0.4-(bx-ax)/l*9
		out = append(out, sh)
	}
	return out
}

// tagBox is the box of a shot's tag (tag).
func tagBox(f *render.Fonts, sh shot) render.Box {
	w := render.TextWidth(f.Small, sh.tag) + 6
	return render.Box{X0: sh.tx - w/2, Y0: sh.ty - 7, X1: sh.tx + w/2, Y1: sh.ty + 7}
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
		st := arrow(0)
		render.ArrowHead(dc, bx, by, math.Atan2(by-ay, bx-ax), st.Head, st.Half, colMove)
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

// arrow is the style of the traces' arrows: a shaft w wide, a head with its tip where the
// shaft ends and its wings 9 pixels back, 0.4 radians off the shaft.
func arrow(w float64) render.ArrowStyle {
	head, half := render.HeadOf(9, 0.4)
	return render.ArrowStyle{Width: w, Head: head, Half: half}
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

// shape is a ship's base in board pixels.
func (p *Picture) shape(s *medieval.Ship) []gg.Point {
	c := p.corners(s)
	return []gg.Point{{X: c[0][0], Y: c[0][1]}, {X: c[1][0], Y: c[1][1]}, {X: c[2][0], Y: c[2][1]}, {X: c[3][0], Y: c[3][1]}}
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

// placed is a ship's label where placeLabels puts it.
type placed struct {
	ship  *medieval.Ship
	label render.Label
	at    render.Placed
}

// placeLabels puts each ship's label beside her (render.PlaceLabels): at the first place
// around her base that covers no other base (the bases themselves, at their angles), no hit
// tag of the last card's shots and no label placed before, further out with a
// leader line to her centre where the near places are taken, so that in a cluster no label
// sits on another ship. The labels stand off her base by render's gap, clear of her
// broadside pips.
func (p *Picture) placeLabels(f *render.Fonts, r render.Rect) []placed {
	bold := f.Face(true, 11)
	var ships []*medieval.Ship
	var ls []render.Label
	for _, s := range p.Game.Ships {
		if !s.OnTable() {
			continue
		}
		l1, l2 := label(s)
		ink := sideInk[p.sideIndex(s.Side)]
		ships = append(ships, s)
		ls = append(ls, render.Label{Of: render.BoxOf(p.shape(s)...), Shape: p.shape(s), Ground: color.NRGBA{255, 255, 255, 150}, Leader: ink,
			Lines: []render.Line{{Face: bold, Color: ink, Text: l1}, {Face: f.Small, Color: colInk, Text: l2}}})
	}
	var tags []render.Box
	for _, sh := range p.shots() {
		tags = append(tags, tagBox(f, sh))
	}
	at := render.PlaceLabels(ls, tags, r)
	out := make([]placed, len(ls))
	for i := range ls {
		out[i] = placed{ships[i], ls[i], at[i]}
	}
	return out
}

// drawLabels draws the labels placeLabels put, each over a pale ground, with its leader
// line where it stands off.
func (p *Picture) drawLabels(dc *gg.Context, f *render.Fonts, r render.Rect) {
	pls := p.placeLabels(f, r)
	ls, at := make([]render.Label, len(pls)), make([]render.Placed, len(pls))
	for i, pl := range pls {
		ls[i], at[i] = pl.label, pl.at
	}
	render.DrawLabels(dc, ls, at)
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
