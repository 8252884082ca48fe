package render

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/fogleman/gg"

	"navarch/adjudicator"

	"navarch/adjudicator/lepanto"
)

// Lepanto is a Lepanto 1571 map as one side sees it (DESIGN 6): the hex map with its codes,
// deep and shallow water and coast; each unit as a counter in its wing's colours with its
// values, facing and markers; the last step's moves, fire, rams and losses on top.
type Lepanto struct {
	View           lepanto.View
	Game           string // the game's label for the title strip
	Full           bool   // the whole map; otherwise a crop around the action
	size           float64
	c0, r0, c1, r1 int
}

// NewLepanto prepares the picture of a view.
func NewLepanto(v lepanto.View, game string, full bool) *Lepanto {
	p := &Lepanto{View: v, Game: game, Full: full, size: 28}
	if full {
		p.size = 15
	}
	p.c0, p.r0, p.c1, p.r1 = p.extent()
	return p
}

// Hex sizes in pixels: the centre-to-corner radius of a flat-topped hex.
const sqrt3 = 1.7320508075688772

// extent picks the columns and rows to draw: the scenario's map sections, or (a crop) the
// hexes of the last step's action, or of all units, with a margin.
func (p *Lepanto) extent() (c0, r0, c1, r1 int) {
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
	if len(hexes) == 0 {
		return
	}
	a0, b0, a1, b1 := v.Cols, v.Rows, 1, 1
	for _, h := range hexes {
		a0, b0, a1, b1 = min(a0, h.Col), min(b0, h.Row), max(a1, h.Col), max(b1, h.Row)
	}
	const m, minW, minH = 3, 14, 12
	a0, b0, a1, b1 = a0-m, b0-m, a1+m, b1+m
	for a1-a0+1 < minW {
		a0, a1 = a0-1, a1+1
	}
	for b1-b0+1 < minH {
		b0, b1 = b0-1, b1+1
	}
	return max(a0, c0), max(b0, r0), min(a1, c1), min(b1, r1)
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

func (p *Lepanto) actionHexes() []lepanto.Hex {
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

// center returns the pixel centre of hex h on the board.
func (p *Lepanto) center(h lepanto.Hex) (float64, float64) {
	s := p.size
	x := s + 1.5*s*float64(h.Col-p.c0)
	y := sqrt3*s*float64(h.Row-p.r0) + sqrt3/2*s
	if h.Col%2 == 0 {
		y += sqrt3 / 2 * s
	}
	return x, y
}

// Board implements Picture.
func (p *Lepanto) Board() Rect {
	s := p.size
	return Rect{W: 1.5*s*float64(p.c1-p.c0) + 2*s, H: sqrt3*s*float64(p.r1-p.r0+1) + sqrt3/2*s}
}

// Title implements Picture.
func (p *Lepanto) Title() string {
	return fmt.Sprintf("navarch %s · %s · turn %d, activation %d", p.Game, p.View.Scenario, p.View.Turn, p.View.Act)
}

// Status implements Picture.
func (p *Lepanto) Status() []string {
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
	colCode    = color.RGBA{44, 74, 112, 255}
	// Wing colours: the Christian wings' historical pennants (left yellow, centre blue, right
	// green, reserve white); the Ottoman wings in reds and purple, which no Christian wing uses.
	wingColors = map[string]color.RGBA{
		"christian-left": {242, 209, 75, 255}, "christian-center": {79, 127, 216, 255},
		"christian-right": {76, 175, 80, 255}, "christian-reserve": {245, 245, 245, 255},
		"ottoman-right": {192, 57, 43, 255}, "ottoman-center": {142, 30, 30, 255},
		"ottoman-left": {211, 84, 0, 255}, "ottoman-reserve": {125, 60, 152, 255},
	}
	colMove = color.RGBA{20, 30, 90, 255}
	colFire = color.RGBA{220, 20, 20, 255}
	colRam  = color.RGBA{0, 0, 0, 255}
)

// Draw implements Picture.
func (p *Lepanto) Draw(dc *gg.Context, r Rect, f *Fonts) {
	p.drawHexes(dc, f)
	p.drawUnits(dc, f)
	p.drawTrace(dc)
}

func (p *Lepanto) hexPath(dc *gg.Context, h lepanto.Hex, r float64) {
	x, y := p.center(h)
	for i := 0; i < 6; i++ {
		a := math.Pi / 3 * float64(i)
		px, py := x+r*math.Cos(a), y+r*math.Sin(a)
		if i == 0 {
			dc.MoveTo(px, py)
		} else {
			dc.LineTo(px, py)
		}
	}
	dc.ClosePath()
}

func (p *Lepanto) drawHexes(dc *gg.Context, f *Fonts) {
	dc.SetFontFace(f.Small)
	for c := p.c0; c <= p.c1; c++ {
		for r := p.r0; r <= p.r1; r++ {
			h := lepanto.Hex{Col: c, Row: r}
			p.hexPath(dc, h, p.size)
			dc.SetColor(map[lepanto.Terrain]color.Color{lepanto.Deep: colDeep, lepanto.Shallow: colShallow, lepanto.Coast: colCoast}[p.View.Terrain(h)])
			dc.FillPreserve()
			dc.SetColor(colGrid)
			dc.SetLineWidth(0.7)
			dc.Stroke()
			if p.size >= 20 {
				x, y := p.center(h)
				dc.SetColor(colCode)
				dc.DrawStringAnchored(h.String(), x, y-p.size*0.62, 0.5, 0.5)
			}
		}
	}
}

// drawUnits draws the counters; a stack's counters are offset so that each shows, and the
// top one carries the number of units in the hex.
func (p *Lepanto) drawUnits(dc *gg.Context, f *Fonts) {
	stacked := map[lepanto.Hex]int{}
	for _, u := range p.View.Units {
		if u.Status == "" {
			stacked[u.Hex]++
		}
	}
	drawn := map[lepanto.Hex]int{}
	for _, u := range p.View.Units {
		if u.Status != "" {
			continue
		}
		k := drawn[u.Hex]
		drawn[u.Hex]++
		x, y := p.center(u.Hex)
		off := float64(k-stacked[u.Hex]+1) * 6 // the last drawn (top) counter sits on the hex centre
		p.drawCounter(dc, f, u, x+off, y+off)
		if n := stacked[u.Hex]; k == n-1 && n > 1 && p.size >= 20 {
			p.stackLabel(dc, f, n, x, y)
		}
	}
}

func (p *Lepanto) stackLabel(dc *gg.Context, f *Fonts, n int, x, y float64) {
	s := p.counterSide() / 2
	label := fmt.Sprintf("×%d", n)
	dc.SetFontFace(f.Small)
	w, _ := dc.MeasureString(label)
	dc.SetRGB(1, 1, 1)
	dc.DrawRectangle(x+s-w-3, y+s+1, w+4, 13)
	dc.Fill()
	dc.SetRGB(0, 0, 0)
	dc.DrawStringAnchored(label, x+s-1, y+s+8, 1, 0.5)
}

// CounterBox returns the square a unit's counter occupies (for tests and the legend).
func (p *Lepanto) counterSide() float64 { return p.size * 1.25 }

func (p *Lepanto) drawCounter(dc *gg.Context, f *Fonts, u lepanto.ViewUnit, x, y float64) {
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
		dc.SetRGBA(1, 1, 1, 0.55)
		dc.DrawRectangle(x-side/2+1, y-side/6, side-2, side/3)
		dc.Fill()
	}
	if p.size >= 20 {
		p.counterText(dc, f, u, x, y, side, fill)
	}
	p.badges(dc, u, x, y, side)
}

func (p *Lepanto) counterText(dc *gg.Context, f *Fonts, u lepanto.ViewUnit, x, y, side float64, fill color.RGBA) {
	if lum(fill) > 140 {
		dc.SetRGB(0.05, 0.05, 0.05)
	} else {
		dc.SetRGB(1, 1, 1)
	}
	dc.SetFontFace(f.Small)
	name := u.ID
	if i := strings.Index(name, "-"); i >= 0 {
		name = name[i+1:]
	}
	dc.DrawStringAnchored(name, x, y-side/5, 0.5, 0.5)
	dc.DrawStringAnchored(fmt.Sprintf("%d·%d", u.HV, u.FV), x, y+side/4, 0.5, 0.5)
}

func lum(c color.RGBA) int { return (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000 }

// facingMark is a dark triangle outside the counter pointing at the bow hexside (3.1).
func (p *Lepanto) facingMark(dc *gg.Context, u lepanto.ViewUnit, x, y, side float64) {
	a := []float64{-90, -30, 30, 90, 150, 210}[u.Facing] * math.Pi / 180
	tip := side/2 + p.size*0.32
	bx, by := x+math.Cos(a)*side*0.45, y+math.Sin(a)*side*0.45
	px, py := -math.Sin(a)*side*0.28, math.Cos(a)*side*0.28
	dc.MoveTo(x+math.Cos(a)*tip, y+math.Sin(a)*tip)
	dc.LineTo(bx+px, by+py)
	dc.LineTo(bx-px, by-py)
	dc.ClosePath()
	dc.SetRGB(0.08, 0.08, 0.08)
	dc.Fill()
}

// badges are the markers at the counter's corners: leaders (a gold star; a hollow one for the
// side's own hidden leaders), fire, Mast Down, grappled, under sail.
func (p *Lepanto) badges(dc *gg.Context, u lepanto.ViewUnit, x, y, side float64) {
	r := max(side*0.17, 3)
	h := side / 2
	if len(u.Leaders) > 0 {
		star(dc, x-h, y-h, r*1.5, colStar)
	} else if len(u.HiddenLeaders) > 0 {
		star(dc, x-h, y-h, r*1.5, colHidden)
	}
	if u.OnFire {
		badge(dc, x+h, y-h, r, color.RGBA{255, 140, 0, 255})
	}
	if u.MastDown {
		badge(dc, x-h, y+h, r, color.RGBA{120, 72, 30, 255})
	}
	if u.Engaged {
		badge(dc, x+h, y+h, r, color.RGBA{0, 0, 0, 255})
	}
	if u.Sailing {
		dc.MoveTo(x+h*0.2, y-h*0.9)
		dc.LineTo(x+h*0.9, y-h*0.1)
		dc.LineTo(x+h*0.2, y-h*0.1)
		dc.ClosePath()
		dc.SetRGB(1, 1, 1)
		dc.FillPreserve()
		dc.SetRGB(0, 0, 0)
		dc.SetLineWidth(0.8)
		dc.Stroke()
	}
}

var (
	colStar   = color.RGBA{255, 200, 0, 255}
	colHidden = color.RGBA{255, 255, 255, 255} // the side's own hidden leaders (4.5)
)

func star(dc *gg.Context, x, y, r float64, fill color.Color) {
	for i := 0; i < 10; i++ {
		rr := r
		if i%2 == 1 {
			rr = r * 0.45
		}
		a := -math.Pi/2 + math.Pi/5*float64(i)
		if i == 0 {
			dc.MoveTo(x+rr*math.Cos(a), y+rr*math.Sin(a))
		} else {
			dc.LineTo(x+rr*math.Cos(a), y+rr*math.Sin(a))
		}
	}
	dc.ClosePath()
	dc.SetColor(fill)
	dc.FillPreserve()
	dc.SetRGB(0.2, 0.15, 0)
	dc.SetLineWidth(1)
	dc.Stroke()
}

func badge(dc *gg.Context, x, y, r float64, c color.Color) {
	dc.DrawCircle(x, y, r)
	dc.SetColor(c)
	dc.FillPreserve()
	dc.SetRGB(1, 1, 1)
	dc.SetLineWidth(1)
	dc.Stroke()
}

// drawTrace draws the last step on top: moves as paths, fire and rams as arrows, a cross
// where a unit was lost.
func (p *Lepanto) drawTrace(dc *gg.Context) {
	for _, t := range p.View.Trace {
		switch t.Kind {
		case "move":
			p.path(dc, t.Path)
		case "fire":
			p.arrow(dc, t.From, t.To, colFire, 2.5)
		case "ram":
			p.arrow(dc, t.From, t.To, colRam, 4)
		case "lost":
			x, y := p.center(t.To)
			r := p.size * 0.6
			dc.SetColor(colFire)
			dc.SetLineWidth(4)
			dc.DrawLine(x-r, y-r, x+r, y+r)
			dc.DrawLine(x-r, y+r, x+r, y-r)
			dc.Stroke()
		}
	}
}

func (p *Lepanto) path(dc *gg.Context, hs []lepanto.Hex) {
	if len(hs) < 2 {
		return
	}
	dc.SetColor(colMove)
	dc.SetLineWidth(2.5)
	dc.SetDash(6, 4)
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
	dc.DrawCircle(x, y, 3)
	dc.Fill()
}

func (p *Lepanto) arrow(dc *gg.Context, from, to lepanto.Hex, c color.Color, w float64) {
	x0, y0 := p.center(from)
	x1, y1 := p.center(to)
	a := math.Atan2(y1-y0, x1-x0)
	x1, y1 = x1-math.Cos(a)*p.size*0.35, y1-math.Sin(a)*p.size*0.35
	dc.SetColor(c)
	dc.SetLineWidth(w)
	dc.DrawLine(x0, y0, x1, y1)
	dc.Stroke()
	head := p.size * 0.35
	dc.MoveTo(x1+math.Cos(a)*head*0.6, y1+math.Sin(a)*head*0.6)
	dc.LineTo(x1+math.Cos(a+2.5)*head, y1+math.Sin(a+2.5)*head)
	dc.LineTo(x1+math.Cos(a-2.5)*head, y1+math.Sin(a-2.5)*head)
	dc.ClosePath()
	dc.Fill()
}

// WindFrom implements Compass (11.1).
func (p *Lepanto) WindFrom() (float64, string) {
	deg := map[string]float64{"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}[p.View.Wind]
	return deg, "wind " + p.View.Wind
}

// Legend implements Picture: the wings in play, then the marks.
func (p *Lepanto) Legend() []LegendItem {
	var out []LegendItem
	for _, w := range p.View.Wings {
		out = append(out, LegendItem{Color: wingColors[w.ID], Text: w.ID})
	}
	return append(out,
		LegendItem{Color: colStar, Mark: "*", Text: "leader aboard"},
		LegendItem{Color: colHidden, Mark: "*", Text: "your hidden leader"},
		LegendItem{Color: color.RGBA{255, 140, 0, 255}, Text: "fire aboard"},
		LegendItem{Color: color.RGBA{120, 72, 30, 255}, Text: "Mast Down"},
		LegendItem{Color: color.Black, Text: "grappled"},
		LegendItem{Color: colMove, Text: "moved (dashed path)"},
		LegendItem{Color: colFire, Text: "fired at / lost (X)"},
		LegendItem{Color: colRam, Text: "rammed"},
		LegendItem{Color: color.RGBA{230, 230, 230, 255}, Mark: "=", Text: "white band: has fired"},
	)
}

// Panels implements Picture: the LMA/LF tracks (9.7) and the counter key.
func (p *Lepanto) Panels() []string {
	out := []string{"counter: name, then HV·Fire Value; the triangle points to the bow"}
	for _, w := range p.View.Wings {
		state := ""
		if w.LMA {
			state += " LMA"
		}
		if w.LF {
			state += " LF"
		}
		out = append(out, fmt.Sprintf("%s: track %d%s", w.ID, w.Track, state))
	}
	return out
}

// Supports reports whether Game draws maps of g's ruleset.
func Supports(g adjudicator.Game) bool {
	_, ok := g.(*lepanto.Game)
	return ok
}

// Game draws a game of any ruleset that has a map, as side sees it ("" for the referee).
func Game(g adjudicator.Game, label, side string, full bool) ([]byte, error) {
	switch g := g.(type) {
	case *lepanto.Game:
		return PNG(NewLepanto(g.View(side), label, full))
	}
	return nil, fmt.Errorf("render: no map for this ruleset yet")
}
