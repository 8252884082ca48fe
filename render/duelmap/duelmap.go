// Package duelmap draws games of the test ruleset adjudicator/duel: the two ships side by
// side with their hull points, and the last turn's fire. Only tests import it.
package duelmap

import (
	"fmt"
	"image/color"

	"github.com/fogleman/gg"

	"navarch/adjudicator/duel"
	"navarch/render"
)

// Map is the duel's map, for a ruleset list.
var Map = render.MapOf("the duel", New)

// New prepares the picture of g as side sees it; the whole board is always shown (full is
// the same picture).
func New(g *duel.Game, label, side string, full bool) *Picture {
	return &Picture{Game: g, Label: label, Side: side}
}

// Picture is a duel as one side sees it (everything is public).
type Picture struct {
	Game        *duel.Game
	Label, Side string
}

// Colours of the sides' ships.
var (
	Red  = color.RGBA{200, 40, 40, 255}
	Blue = color.RGBA{40, 80, 200, 255}
	sea  = color.RGBA{150, 190, 230, 255}
)

// Ship returns the board point of a side's ship centre.
func Ship(side string) (x, y float64) {
	if side == "red" {
		return 80, 100
	}
	return 320, 100
}

// Board implements render.Picture.
func (p *Picture) Board() render.Rect { return render.Rect{W: 400, H: 200} }

// Draw implements render.Picture.
func (p *Picture) Draw(dc *gg.Context, r render.Rect, f *render.Fonts) {
	dc.SetColor(sea)
	dc.DrawRectangle(0, 0, r.W, r.H)
	dc.Fill()
	dc.SetFontFace(f.Normal)
	for _, side := range []string{"red", "blue"} {
		x, y := Ship(side)
		dc.SetColor(map[string]color.Color{"red": Red, "blue": Blue}[side])
		dc.DrawRectangle(x-40, y-15, 80, 30)
		dc.Fill()
		dc.SetRGB(0, 0, 0)
		dc.DrawStringAnchored(fmt.Sprintf("%s: hull %d", side, p.Game.Hull[side]), x, y+35, 0.5, 0.5)
	}
	for _, l := range p.Game.Last {
		var side, what string
		fmt.Sscan(l, &side, &what)
		if what != "hit" {
			continue
		}
		x0, y0 := Ship(side)
		x1, y1 := Ship(map[string]string{"red": "blue", "blue": "red"}[side])
		dc.SetRGB(1, 0.6, 0)
		dc.SetLineWidth(4)
		dc.DrawLine(x0, y0-25, x1, y1-25)
		dc.Stroke()
	}
}

// Title implements render.Picture.
func (p *Picture) Title() string {
	return fmt.Sprintf("navarch %s · duel %s · turn %d of %d", p.Label, p.Game.Scenario, min(p.Game.Turn, p.Game.MaxTurns), p.Game.MaxTurns)
}

// Status implements render.Picture.
func (p *Picture) Status() []string {
	if p.Side == "" {
		return []string{"referee's view"}
	}
	return []string{p.Side + "'s view"}
}

// Legend implements render.Picture.
func (p *Picture) Legend() []render.LegendItem {
	return []render.LegendItem{{Color: Red, Text: "red ship"}, {Color: Blue, Text: "blue ship"},
		{Color: color.RGBA{255, 153, 0, 255}, Text: "a hit last turn"}}
}

// Panels implements render.Picture.
func (p *Picture) Panels() []string { return nil }
