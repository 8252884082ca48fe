package lepantomap

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"

	"navarch/adjudicator"
	"navarch/render"

	"navarch/adjudicator/lepanto"
)

// Picture is a Lepanto 1571 map as one side sees it (docs/DESIGN.md 6): the hex map with its codes,
// deep and shallow water and coast; each unit as a counter in its wing's colours with its
// values, facing, markers and full id, its hex number readable above it; what happened since
// the players last gave orders (moves, evasions, fire, rams, hits, flights, sinkings,
// surrenders and captures) on top; the stacks listed under the map.
type Picture struct {
	View lepanto.View
	Game string // the game's label for the title strip
	Full bool   // the whole map; otherwise a crop around the action
	// Turn and Act number the step the game waits for, as the mails do ("T1 A3 orders
	// due"); New takes them from the game's next step.
	Turn, Act int
	What      string // the step waited for ("" when not known)

	size           float64
	c0, r0, c1, r1 int
}

// Scale: the centre-to-corner radius of a flat-topped hex in pixels, for a crop and for the
// whole map, and the number of columns every crop shows, so that a side's maps keep one width
// across a game.
const (
	cropSize = 28
	fullSize = 22
	cropCols = 24
	// cropRows bounds the rows of a crop that shows both what happened and the units due;
	// cropMargin is the rows a crop adds above and below what it shows.
	cropRows   = 24
	cropMargin = 3
)

// New prepares the picture of g as side sees it, numbered by the step the game waits for.
func New(g *lepanto.Game, label, side string, full bool) *Picture {
	p := fromView(g.View(side), label, full)
	st := g.Next()
	p.Turn, p.Act, p.What = int(st.Turn), int(st.Act), st.What
	if st.Kind == adjudicator.Over {
		p.What = "game over"
	}
	return p
}

// fromView prepares the picture of a view, numbered by the view's turn and activation.
func fromView(v lepanto.View, game string, full bool) *Picture {
	p := &Picture{View: v, Game: game, Full: full, size: cropSize, Turn: v.Turn, Act: v.Act + 1}
	if full {
		p.size = fullSize
	}
	p.c0, p.r0, p.c1, p.r1 = p.extent()
	return p
}

const sqrt3 = 1.7320508075688772

// extent picks the columns and rows to draw: the scenario's map sections, or (a crop) a
// window of cropCols columns around what happened since the players last gave orders (or, if
// nothing did, the units in play) and the units the step due asks orders for, with a margin;
// where both do not fit one crop (cropCols by cropRows), around the units due alone.
func (p *Picture) extent() (c0, r0, c1, r1 int) {
	v := p.View
	r0, r1 = v.Rows, 1
	for _, s := range v.Sections {
		lo, hi := sectionRows(s)
		r0, r1 = min(r0, lo), max(r1, hi)
	}
	c0, c1 = 1, v.Cols
	if p.Full {
		return
	}
	hexes := p.actionHexes()
	if due := p.dueHexes(); len(due) > 0 {
		hexes = append(hexes, due...)
		if !fits(hexes) { // far apart: the units to be ordered come first
			hexes = due
		}
	}
	if len(hexes) == 0 {
		return
	}
	a0, b0, a1, b1 := v.Cols, v.Rows, 1, 1
	sum := 0
	for _, h := range hexes {
		a0, b0, a1, b1 = min(a0, h.Col), min(b0, h.Row), max(a1, h.Col), max(b1, h.Row)
		sum += h.Col
	}
	const m, minH = cropMargin, 10
	b0, b1 = b0-m, b1+m
	for b1-b0+1 < minH {
		b0, b1 = b0-1, b1+1
	}
	r0, r1 = max(b0, r0), min(b1, r1)
	if c1-c0+1 <= cropCols {
		return
	}
	mid := (a0 + a1) / 2
	if a1-a0+1 > cropCols-2 { // wider than a window: centre on where most happened
		mid = (sum + len(hexes)/2) / len(hexes)
	}
	c0 = min(max(mid-cropCols/2, 1), v.Cols-cropCols+1)
	return c0, r0, c0 + cropCols - 1, r1
}

func sectionRows(s string) (int, int) {
	switch s {
	case "north":
		return 1, 20
	case "center":
		return 21, 40
	}
	return 41, 60
}

func (p *Picture) actionHexes() []lepanto.Hex {
	var hs []lepanto.Hex
	for _, t := range p.View.Trace {
		hs = append(hs, t.Path...)
		hs = append(hs, t.From, t.To)
	}
	hs = slices.DeleteFunc(hs, func(h lepanto.Hex) bool { return h == lepanto.Hex{} })
	if len(hs) > 0 {
		return hs
	}
	for _, u := range p.View.Units {
		if u.Status == "" {
			hs = append(hs, u.Hex)
		}
	}
	return hs
}

// dueHexes are the hexes of the units the step due asks orders for (View.Due), so that a
// request's map shows the units its orders are for.
func (p *Picture) dueHexes() []lepanto.Hex {
	var hs []lepanto.Hex
	for _, u := range p.View.Units {
		if u.Status == "" && slices.Contains(p.View.Due, u.ID) {
			hs = append(hs, u.Hex)
		}
	}
	return hs
}

// fits says whether hexes fit one crop: cropCols columns, and cropRows rows with the margin.
func fits(hexes []lepanto.Hex) bool {
	c0, r0, c1, r1 := hexes[0].Col, hexes[0].Row, hexes[0].Col, hexes[0].Row
	for _, h := range hexes {
		c0, r0, c1, r1 = min(c0, h.Col), min(r0, h.Row), max(c1, h.Col), max(r1, h.Row)
	}
	return c1-c0+1 <= cropCols-2 && r1-r0+1+2*cropMargin <= cropRows
}

// center returns the pixel centre of hex h on the board.
func (p *Picture) center(h lepanto.Hex) (float64, float64) {
	s := p.size
	x := s + 1.5*s*float64(h.Col-p.c0)
	y := sqrt3*s*float64(h.Row-p.r0) + sqrt3/2*s
	if h.Col%2 == 0 {
		y += sqrt3 / 2 * s
	}
	return x, y
}

// Board implements render.Picture.
func (p *Picture) Board() render.Rect {
	s := p.size
	return render.Rect{W: math.Ceil(1.5*s*float64(p.c1-p.c0) + 2*s), H: math.Ceil(sqrt3*s*float64(p.r1-p.r0+1) + sqrt3/2*s)}
}

// Title implements Picture: numbered as the mails number the step the game waits for.
func (p *Picture) Title() string {
	when := fmt.Sprintf("T%d A%d", p.Turn, p.Act)
	switch {
	case p.What == "game over":
		when = fmt.Sprintf("T%d game over", p.Turn)
	case strings.HasPrefix(p.What, "set-up"):
		when = fmt.Sprintf("T%d set-up", p.Turn)
	case p.Act == 0:
		when = fmt.Sprintf("T%d start", p.Turn)
	}
	return fmt.Sprintf("navarch %s · %s · %s", p.Game, p.View.Scenario, when)
}

// Status implements render.Picture.
func (p *Picture) Status() []string {
	view := "referee's view"
	if p.View.Side != "" {
		view = p.View.Side + "'s view"
	}
	area := fmt.Sprintf("hexes %02d%02d-%02d%02d", p.c0, p.r0, p.c1, p.r1)
	if p.Full {
		area = "whole map"
	}
	return []string{view, "wind from " + p.View.Wind, area}
}

var (
	colDeep    = color.RGBA{127, 167, 209, 255}
	colShallow = color.RGBA{190, 220, 240, 255}
	colCoast   = color.RGBA{216, 201, 163, 255}
	colGrid    = color.RGBA{96, 136, 180, 255}
	colCode    = color.RGBA{20, 40, 70, 255}
	// Wing colours: the Christian wings' historical pennants (left yellow, centre blue, right
	// green, reserve white); the Ottoman wings in reds and purple, which no Christian wing and
	// no marker uses.
	wingColors = map[string]color.RGBA{
		"christian-left": {242, 209, 75, 255}, "christian-center": {79, 127, 216, 255},
		"christian-right": {76, 175, 80, 255}, "christian-reserve": {245, 245, 245, 255},
		"ottoman-right": {192, 57, 43, 255}, "ottoman-center": {142, 30, 30, 255},
		"ottoman-left": {211, 84, 0, 255}, "ottoman-reserve": {125, 60, 152, 255},
	}
	// Each side's id labels: dark blue for the Christians, dark red for the Ottomans.
	sideLabel = map[string]color.RGBA{"christian": {24, 44, 110, 255}, "ottoman": {110, 20, 20, 255}}
	// What happened: colours no wing uses.
	colMove  = color.RGBA{15, 15, 15, 255}    // moves: a black dashed path
	colEvade = color.RGBA{0, 150, 136, 255}   // evasions: a teal path
	colFire  = color.RGBA{230, 0, 230, 255}   // fire: a magenta arrow
	colRam   = color.RGBA{0, 200, 255, 255}   // rams: a cyan arrow edged in black
	colHit   = color.RGBA{230, 0, 230, 255}   // hit tags share the fire's magenta
	colLoss  = color.RGBA{255, 255, 140, 255} // fled, sunk, surrendered, captured: pale yellow tags
	// Counter markers: a letter in a circle.
	colStack  = color.RGBA{40, 40, 40, 255} // the number of units in a stack
	colStar   = color.RGBA{255, 200, 0, 255}
	colHidden = color.RGBA{255, 255, 255, 255} // the side's own hidden leaders (4.5)
)

// badgeKinds are the counter markers, each a letter in a circle of its own colour.
var badgeKinds = []struct {
	letter, text string
	fill         color.RGBA
	on           func(lepanto.ViewUnit) bool
}{
	{"F", "fire aboard", color.RGBA{255, 128, 171, 255}, func(u lepanto.ViewUnit) bool { return u.OnFire }},
	{"M", "Mast Down", color.RGBA{121, 85, 72, 255}, func(u lepanto.ViewUnit) bool { return u.MastDown }},
	{"G", "grappled", color.RGBA{96, 125, 139, 255}, func(u lepanto.ViewUnit) bool { return u.Engaged }},
	{"S", "under sail", color.RGBA{190, 190, 190, 255}, func(u lepanto.ViewUnit) bool { return u.Sailing }},
}

// Draw implements Picture: the hexes, the paths under the counters, the counters, then the
// arrows and the tags of what happened on top.
func (p *Picture) Draw(dc *gg.Context, r render.Rect, f *render.Fonts) {
	p.drawHexes(dc, f)
	p.drawPaths(dc)
	p.drawUnits(dc, f)
	p.drawArrows(dc)
	p.drawTags(dc, f, r)
}

// label is the face of hex numbers, values and ids.
func (p *Picture) label(f *render.Fonts, bold bool) font.Face {
	if p.Full {
		return f.Face(bold, 8)
	}
	return f.Face(bold, 9.5)
}

// hexCorners are the corners of hex h at radius r, from the east corner clockwise (screen y
// down).
func (p *Picture) hexCorners(h lepanto.Hex, r float64, pts *[6]gg.Point) {
	x, y := p.center(h)
	for i := range pts {
		a := math.Pi / 3 * float64(i)
		pts[i] = gg.Point{X: x + r*math.Cos(a), Y: y + r*math.Sin(a)}
	}
}

var terrainColor = map[lepanto.Terrain]color.Color{lepanto.Deep: colDeep, lepanto.Shallow: colShallow, lepanto.Coast: colCoast}

func (p *Picture) drawHexes(dc *gg.Context, f *render.Fonts) {
	face := p.label(f, false)
	img, _ := dc.Image().(*image.RGBA)
	key, reuse := p.layerKey(img)
	kept := layers
	if p.Full {
		kept = wholeLayers
	}
	if reuse {
		if kept.get(key, img.Pix) {
			dc.SetColor(colGrid) // the context as the last hex leaves it
			dc.SetLineWidth(0.7)
			return
		}
	}
	defer func() {
		if reuse {
			kept.put(key, img.Pix)
		}
	}()
	fill := render.NewFiller(dc) // as dc.FillPreserve, pixel for pixel, faster
	var pts [6]gg.Point
	for c := p.c0; c <= p.c1; c++ {
		for r := p.r0; r <= p.r1; r++ {
			h := lepanto.Hex{Col: c, Row: r}
			p.hexCorners(h, p.size, &pts)
			fill.Polygon(pts[:], terrainColor[p.View.Terrain(h)])
			fill.Stroke(dc, pts[:], colGrid, 0.7) // as render.Path, dc.Stroke
			x, y := p.center(h)
			render.Text(dc, face, colCode, h.String(), x, p.numberY(y), 0.5, 0.35)
		}
	}
}

// The hexes of a crop, drawn, are kept for the next maps: every map of a step
// (each side's and the referee's) has the same crop, and the hexes are a fifth of a report
// map's drawing. A board of hexes is used again only on a blank board (white, as render.Image
// gives it) of the same size, for the same crop and scale and the same terrain colours, so its
// pixels are those drawn afresh.
var layers = &hexLayers{max: maxHexLayers}

// wholeLayers keeps the hexes of the whole map (STATUS FULL), the same for every game of a
// scenario and two thirds of that map's drawing, apart from the crops: one board of some
// 11 MB for the full battle, which a crop never evicts.
var wholeLayers = &hexLayers{max: 1}

// maxHexLayers bounds the crops kept: about 3.3 MB each for a crop of the full battle.
const maxHexLayers = 4

type hexLayers struct {
	max     int // boards kept at most
	mu      sync.Mutex
	keys    [][sha256.Size]byte
	pix     [][]uint8
	hits    int // boards used again (for tests)
	evicted int // boards let go for others (for tests)
}

// get copies the board kept under key into dst, if there is one. The copy is made under the
// lock, so that a board evicted meanwhile (its buffer reused by put) is never read.
func (l *hexLayers) get(key [sha256.Size]byte, dst []uint8) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := slices.Index(l.keys, key); i >= 0 && len(l.pix[i]) == len(dst) {
		l.hits++
		copy(dst, l.pix[i])
		return true
	}
	return false
}

// put keeps a copy of pix under key, in the buffer of the board it evicts when it can (a
// board is some 3 MB: no fresh memory for each one kept).
func (l *hexLayers) put(key [sha256.Size]byte, pix []uint8) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if slices.Contains(l.keys, key) {
		return
	}
	var buf []uint8
	if len(l.keys) >= l.max {
		buf = l.pix[0]
		l.evicted++
		l.keys, l.pix = slices.Delete(l.keys, 0, 1), slices.Delete(l.pix, 0, 1)
	}
	if cap(buf) < len(pix) {
		buf = make([]uint8, len(pix))
	}
	buf = buf[:len(pix)]
	copy(buf, pix)
	l.keys, l.pix = append(l.keys, key), append(l.pix, buf)
}

// layerKey is what the hexes drawn on img depend on, and whether a kept board may stand for
// them: hexes to draw, on a blank board.
func (p *Picture) layerKey(img *image.RGBA) ([sha256.Size]byte, bool) {
	if img == nil || p.c0 > p.c1 || p.r0 > p.r1 || !blank(img.Pix) {
		return [sha256.Size]byte{}, false
	}
	k := fmt.Appendf(nil, "%t %d %d %d %d %g %d %d %d;", p.Full, p.c0, p.r0, p.c1, p.r1, p.size, img.Rect.Dx(), img.Rect.Dy(), img.Stride)
	for c := p.c0; c <= p.c1; c++ {
		for r := p.r0; r <= p.r1; r++ {
			cr, cg, cb, ca := terrainColor[p.View.Terrain(lepanto.Hex{Col: c, Row: r})].RGBA()
			k = fmt.Appendf(k, "%x,%x,%x,%x;", cr, cg, cb, ca)
		}
	}
	return sha256.Sum256(k), true
}

var white = bytes.Repeat([]byte{0xff}, 4096)

// blank reports whether every byte of pix is 0xff: white, opaque.
func blank(pix []uint8) bool {
	for len(pix) > 0 {
		n := min(len(pix), len(white))
		if !bytes.Equal(pix[:n], white[:n]) {
			return false
		}
		pix = pix[n:]
	}
	return true
}

// Within a hex of centre y: the hex number at the top, the counter under it, the id label at
// the bottom, so that none covers another.
func (p *Picture) numberY(y float64) float64  { return y - 0.66*p.size }
func (p *Picture) counterY(y float64) float64 { return y - 0.06*p.size }
func (p *Picture) idY(y float64) float64      { return y + 0.52*p.size }
func (p *Picture) counterSide() float64       { return 0.72 * p.size }

// stacks are the units in play in each hex, bottom first, in the view's order.
func (p *Picture) stacks() (map[lepanto.Hex][]lepanto.ViewUnit, []lepanto.Hex) {
	m := map[lepanto.Hex][]lepanto.ViewUnit{}
	var order []lepanto.Hex
	for _, u := range p.View.Units {
		if u.Status != "" {
			continue
		}
		if len(m[u.Hex]) == 0 {
			order = append(order, u.Hex)
		}
		m[u.Hex] = append(m[u.Hex], u)
	}
	return m, order
}

// drawUnits draws the counters; the lower counters of a stack peek out to the left of the top
// one, and a box at their left says how many units the hex holds (the stack list under the
// map names them).
func (p *Picture) drawUnits(dc *gg.Context, f *render.Fonts) {
	m, order := p.stacks()
	for _, h := range order {
		st := m[h]
		x, y := p.center(h)
		for k, u := range st {
			off := float64(len(st)-1-k) * 4
			p.drawCounter(dc, f, u, x-off, p.counterY(y))
		}
		top := st[len(st)-1]
		p.idLabel(dc, f, top.ID, sideLabel[top.Side], x, p.idY(y))
		if len(st) > 1 {
			p.stackCount(dc, f, len(st), x-p.counterSide()/2-float64(len(st)-1)*4, p.counterY(y))
		}
	}
	for _, u := range p.View.Units { // the units lost since the last orders, as ghosts
		if u.Status != "" && p.traced(u.ID, u.Status) {
			x, y := p.center(u.Hex)
			side := p.counterSide()
			dc.SetDash(3, 2)
			dc.DrawRectangle(x-side/2, p.counterY(y)-side/2, side, side)
			dc.SetColor(colMove)
			dc.SetLineWidth(1.5)
			dc.Stroke()
			dc.SetDash()
			p.idLabel(dc, f, u.ID, sideLabel[u.Side], x, p.idY(y))
		}
	}
}

// traced reports whether the trace holds kind for unit (fled, sunk, surrendered, captured).
func (p *Picture) traced(unit, status string) bool {
	for _, t := range p.View.Trace {
		if t.Unit == unit && (t.Kind == status || t.Kind == "captured" && status == "surrendered") {
			return true
		}
	}
	return false
}

func (p *Picture) stackCount(dc *gg.Context, f *render.Fonts, n int, x, y float64) {
	face := p.label(f, true)
	s := fmt.Sprintf("%d", n)
	w := render.TextWidth(face, s) + 4
	h := float64(face.Metrics().Height)/64 + 1
	dc.DrawRectangle(x-w, y-h/2, w, h)
	dc.SetColor(colStack)
	dc.Fill()
	render.Text(dc, face, color.White, s, x-w/2, y, 0.5, 0.35)
}

func (p *Picture) idLabel(dc *gg.Context, f *render.Fonts, id string, bg color.Color, x, y float64) {
	face := p.label(f, true)
	w := render.TextWidth(face, id) + 4
	h := float64(face.Metrics().Height)/64 + 1
	dc.DrawRoundedRectangle(x-w/2, y-h/2, w, h, 2)
	dc.SetColor(bg)
	dc.Fill()
	render.Text(dc, face, color.White, id, x, y, 0.5, 0.35)
}

func (p *Picture) drawCounter(dc *gg.Context, f *render.Fonts, u lepanto.ViewUnit, x, y float64) {
	side := p.counterSide()
	fill := wingColors[u.Wing]
	p.facingMark(dc, u, x, y, side)
	dc.DrawRectangle(x-side/2, y-side/2, side, side)
	dc.SetColor(fill)
	dc.FillPreserve()
	dc.SetRGB(0.1, 0.1, 0.1)
	dc.SetLineWidth(1.2)
	dc.Stroke()
	if u.Fired { // inverted counter (5.6): a white band across
		dc.SetRGBA(1, 1, 1, 0.6)
		dc.DrawRectangle(x-side/2+1, y-side/6, side-2, side/3)
		dc.Fill()
	}
	var ink color.Color = color.White
	if lum(fill) > 140 || u.Fired {
		ink = color.RGBA{13, 13, 13, 255}
	}
	render.Text(dc, p.label(f, true), ink, fmt.Sprintf("%d·%d", u.HV, u.FV), x, y, 0.5, 0.35)
	p.badges(dc, f, u, x, y, side)
}

func lum(c color.RGBA) int { return (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000 }

// facingMark is a dark triangle outside the counter pointing at the bow hexside (3.1).
func (p *Picture) facingMark(dc *gg.Context, u lepanto.ViewUnit, x, y, side float64) {
	a := []float64{-90, -30, 30, 90, 150, 210}[u.Facing] * math.Pi / 180
	tip := side/2 + p.size*0.2
	bx, by := x+math.Cos(a)*side*0.4, y+math.Sin(a)*side*0.4
	px, py := -math.Sin(a)*side*0.3, math.Cos(a)*side*0.3
	render.Path(dc, gg.Point{X: x + math.Cos(a)*tip, Y: y + math.Sin(a)*tip}, gg.Point{X: bx + px, Y: by + py}, gg.Point{X: bx - px, Y: by - py})
	dc.SetRGB(0.08, 0.08, 0.08)
	dc.FillPreserve()
	dc.SetRGB(1, 1, 1) // a white edge shows the mark on the sea and on dark counters alike
	dc.SetLineWidth(0.8)
	dc.Stroke()
}

// badges are the markers at the counter's corners: a leader (a gold star; a white one for
// the side's own hidden leaders, never on the referee's map) at the top left, then the
// lettered markers clockwise from the top right.
func (p *Picture) badges(dc *gg.Context, f *render.Fonts, u lepanto.ViewUnit, x, y, side float64) {
	r := max(side*0.26, 4)
	h := side / 2
	if len(u.Leaders) > 0 {
		star(dc, x-h, y-h, r*1.5, colStar)
	} else if len(u.HiddenLeaders) > 0 && p.View.Side != "" {
		star(dc, x-h, y-h, r*1.5, colHidden)
	}
	corners := [][2]float64{{x + h, y - h}, {x + h, y + h}, {x - h, y + h}}
	i := 0
	for _, b := range badgeKinds {
		if !b.on(u) || i == len(corners) {
			continue
		}
		c := corners[i]
		i++
		badge(dc, f, c[0], c[1], r, b.fill, b.letter)
	}
}

func star(dc *gg.Context, x, y, r float64, fill color.Color) {
	var pts [10]gg.Point
	for i := range pts {
		rr := r
		if i%2 == 1 {
			rr = r * 0.45
		}
		a := -math.Pi/2 + math.Pi/5*float64(i)
		pts[i] = gg.Point{X: x + rr*math.Cos(a), Y: y + rr*math.Sin(a)}
	}
	render.Path(dc, pts[:]...)
	dc.SetColor(fill)
	dc.FillPreserve()
	dc.SetRGB(0.2, 0.15, 0)
	dc.SetLineWidth(1)
	dc.Stroke()
}

func badge(dc *gg.Context, f *render.Fonts, x, y, r float64, c color.RGBA, letter string) {
	dc.DrawCircle(x, y, r)
	dc.SetColor(c)
	dc.FillPreserve()
	dc.SetRGB(0.1, 0.1, 0.1)
	dc.SetLineWidth(1)
	dc.Stroke()
	var ink color.Color = color.White
	if lum(c) > 140 {
		ink = color.Black
	}
	render.Text(dc, f.Face(true, math.Round(r*1.6)), ink, letter, x, y, 0.5, 0.35)
}

// drawPaths draws the moves and evasions since the players last gave orders, under the
// counters: a dashed line from a dot where the unit started.
func (p *Picture) drawPaths(dc *gg.Context) {
	for _, t := range p.View.Trace {
		switch t.Kind {
		case "move":
			p.path(dc, t.Path, colMove)
		case "evade":
			if t.From != t.To {
				p.path(dc, []lepanto.Hex{t.From, t.To}, colEvade)
			}
		}
	}
}

// drawArrows draws fire and rams, from the attacker to its target.
func (p *Picture) drawArrows(dc *gg.Context) {
	for _, t := range p.View.Trace {
		switch t.Kind {
		case "fire":
			p.arrow(dc, t.From, t.To, colFire, 3)
		case "ram":
			p.arrow(dc, t.From, t.To, colMove, 6)
			p.arrow(dc, t.From, t.To, colRam, 3)
		}
	}
}

// Tag words for what happened to a unit.
var tagWords = map[string]string{"hit": "hit", "evade": "evaded", "fled": "fled", "sunk": "sunk",
	"surrendered": "surrendered", "captured": "captured"}

// drawTags writes what happened to each unit where it is now, beside its counter: "2 hits",
// "evaded", "fled", "sunk", "surrendered", "captured", one tag a line in its colour.
func (p *Picture) drawTags(dc *gg.Context, f *render.Fonts, r render.Rect) {
	ls, at := p.placeTags(f, r)
	render.DrawLabels(dc, ls, at)
}

// placeTags makes each tagged unit's tags a label and places it (render.PlaceLabels): to the
// right of its counter where that is free, else at the first free place around it, further
// out with a leader line where the near ones are taken, so that no tag covers another
// counter, its id or another unit's tags.
func (p *Picture) placeTags(f *render.Fonts, r render.Rect) ([]render.Label, []render.Placed) {
	type key struct {
		h    lepanto.Hex
		unit string
	}
	var order []key
	words := map[key][]string{}
	hits := map[key]int{}
	for _, t := range p.View.Trace {
		w, ok := tagWords[t.Kind]
		if !ok {
			continue
		}
		k := key{p.unitHex(t.Unit, t.To), t.Unit}
		if _, seen := words[k]; !seen && hits[k] == 0 {
			order = append(order, k)
		}
		if t.Kind == "hit" {
			hits[k]++
			continue
		}
		if !slices.Contains(words[k], w) {
			words[k] = append(words[k], w)
		}
	}
	face := p.label(f, true)
	var ls []render.Label
	for _, k := range order {
		ws := words[k]
		if n := hits[k]; n > 0 {
			ws = append([]string{map[bool]string{true: "hit", false: fmt.Sprintf("%d hits", n)}[n == 1]}, ws...)
		}
		l := render.Label{Of: p.counterBox(k.h), Leader: colMove, Gap: 3,
			Places: []render.Place{render.Right, render.BelowRight, render.AboveRight, render.Left, render.BelowLeft, render.AboveLeft, render.Below, render.Above}}
		for _, w := range ws {
			bg := colLoss
			if strings.Contains(w, "hit") {
				bg = colHit
			} else if w == "evaded" {
				bg = colEvade
			}
			var ink color.Color = color.White
			if lum(bg) > 140 {
				ink = colMove
			}
			l.Lines = append(l.Lines, render.Line{Face: face, Color: ink, Text: w, Ground: bg, Edge: colMove})
		}
		ls = append(ls, l)
	}
	all := slices.Clone(ls)
	for _, b := range p.pieces(f) {
		all = append(all, render.Label{Of: b}) // things for the tags to keep clear of
	}
	return ls, render.PlaceLabels(all, nil, r)[:len(ls)]
}

// counterBox is the box of the counter in hex h, its facing mark around it.
func (p *Picture) counterBox(h lepanto.Hex) render.Box {
	x, y := p.center(h)
	y = p.counterY(y)
	d := p.counterSide()/2 + p.size*0.2
	return render.Box{X0: x - d, Y0: y - d, X1: x + d, Y1: y + d}
}

// pieces are the boxes of what a tag must not cover: every counter in the picture (lost
// ones' ghosts too) with its id label. Hex numbers are not among them: with every hex's number
// to keep clear, most tags would stand off on a leader line; a tag beside its counter may
// cover a neighbour's number, which the hex grid still gives.
func (p *Picture) pieces(f *render.Fonts) []render.Box {
	face := p.label(f, true)
	h := float64(face.Metrics().Height)/64 + 1
	var out []render.Box
	seen := map[lepanto.Hex]bool{}
	for _, u := range p.View.Units {
		if seen[u.Hex] || u.Status != "" && !p.traced(u.ID, u.Status) {
			continue
		}
		seen[u.Hex] = true
		x, y := p.center(u.Hex)
		w := render.TextWidth(face, u.ID) + 4
		out = append(out, p.counterBox(u.Hex), render.Box{X0: x - w/2, Y0: p.idY(y) - h/2, X1: x + w/2, Y1: p.idY(y) + h/2})
	}
	return out
}

// unitHex is where the unit is now (a unit hit and then evading is tagged where it went), or
// at if the view does not hold it.
func (p *Picture) unitHex(id string, at lepanto.Hex) lepanto.Hex {
	for _, u := range p.View.Units {
		if u.ID == id {
			return u.Hex
		}
	}
	return at
}

func (p *Picture) path(dc *gg.Context, hs []lepanto.Hex, c color.Color) {
	if len(hs) < 2 {
		return
	}
	dc.SetColor(c)
	dc.SetLineWidth(3)
	dc.SetDash(7, 4)
	for i, h := range hs {
		x, y := p.center(h)
		if i == 0 {
			dc.MoveTo(x, y)
		} else {
			dc.LineTo(x, y)
		}
	}
	dc.Stroke()
	dc.SetDash()
	x, y := p.center(hs[0])
	dc.DrawCircle(x, y, 4)
	dc.Fill()
}

func (p *Picture) arrow(dc *gg.Context, from, to lepanto.Hex, c color.Color, w float64) {
	x0, y0 := p.center(from)
	x1, y1 := p.center(to)
	a := math.Atan2(y1-y0, x1-x0)
	x1, y1 = x1-math.Cos(a)*p.size*0.35, y1-math.Sin(a)*p.size*0.35
	// the head's tip 0.6 of its size past the shaft's end, its wings its size from that end,
	// 2.5 radians off the shaft's direction
	head := p.size*0.3 + w
	render.Arrow(dc, x0, y0, x1, y1, c, render.ArrowStyle{Width: w, Head: head * (0.6 - math.Cos(2.5)), Half: head * math.Sin(2.5), Past: 0.6 * head})
}

// WindFrom implements render.Compass (11.1).
func (p *Picture) WindFrom() (float64, string) {
	deg := map[string]float64{"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}[p.View.Wind]
	return deg, "wind " + p.View.Wind
}

// Legend implements Picture: the wings in play, the terrain, the counter markers, then what
// happened since the last orders.
func (p *Picture) Legend() []render.LegendItem {
	var out []render.LegendItem
	for _, w := range p.View.Wings {
		out = append(out, render.LegendItem{Color: wingColors[w.ID], Text: w.ID})
	}
	out = append(out,
		render.LegendItem{Color: colDeep, Text: "deep water"},
		render.LegendItem{Color: colShallow, Text: "shallow water"},
		render.LegendItem{Color: colCoast, Text: "coast (land)"},
		render.LegendItem{Color: colStar, Mark: "*", Text: "leader aboard"})
	if p.View.Side != "" {
		out = append(out, render.LegendItem{Color: colHidden, Mark: "*", Text: "your hidden leader"})
	}
	for _, b := range badgeKinds {
		out = append(out, render.LegendItem{Color: b.fill, Mark: b.letter, Text: b.text})
	}
	return append(out,
		render.LegendItem{Color: color.RGBA{230, 230, 230, 255}, Mark: "=", Text: "white band: has fired"},
		render.LegendItem{Color: colMove, Text: "moved (dashed path)"},
		render.LegendItem{Color: colEvade, Text: "evaded (teal path)"},
		render.LegendItem{Color: colFire, Text: "fired at (arrow), hit"},
		render.LegendItem{Color: colRam, Text: "rammed (cyan arrow)"},
		render.LegendItem{Color: colLoss, Text: "fled, sunk, captured (tag)"},
	)
}

// Panels implements Picture: the counter key, the LMA/LF tracks (9.7) and the stacks.
func (p *Picture) Panels() []string {
	out := []string{"counter: HV·Fire Value in the wing's colour, the triangle points to the bow; the hex number above it, the unit's id below; a number at its left: the units in the hex"}
	var tracks []string
	for _, w := range p.View.Wings {
		s := fmt.Sprintf("%s %d", w.ID, w.Track)
		if w.LMA {
			s += " LMA"
		}
		if w.LF {
			s += " LF"
		}
		tracks = append(tracks, s)
	}
	out = append(out, "LMA/LF track (9.7), boxes left: "+strings.Join(tracks, ", ")+
		" (LMA: Limited Maneuver Ability; LF: Loss of Firepower)")
	if st := p.stackList(); len(st) > 0 {
		out = append(out, "stacks, top first: "+strings.Join(st, "; "))
	}
	return out
}

// stackList names, for every hex in the picture with more than one unit, its units top
// first, with the leaders aboard each that the side may see.
func (p *Picture) stackList() []string {
	m, order := p.stacks()
	var out []string
	for _, h := range order {
		st := m[h]
		if len(st) < 2 || h.Col < p.c0 || h.Col > p.c1 || h.Row < p.r0 || h.Row > p.r1 {
			continue
		}
		var names []string
		for i := len(st) - 1; i >= 0; i-- {
			n := st[i].ID
			ls := slices.Clone(st[i].Leaders)
			if p.View.Side != "" {
				ls = append(ls, st[i].HiddenLeaders...)
			}
			if len(ls) > 0 {
				n += " (" + strings.Join(ls, ", ") + ")"
			}
			names = append(names, n)
		}
		out = append(out, h.String()+": "+strings.Join(names, ", "))
	}
	return out
}
