package lepanto

import (
	"fmt"
	"strings"
)

// returnFled brings back units whose two turns away are over (9.6): "adjacent to, or stacked
// with, a single-ship unit of its Group (if none is available, place it - in this order -
// with any other single-ship or squadron of its Fleet)". The owner's standing RETURN UNIT AT
// HEX [FACING DIR] places it where he chose if that hex is one of those; otherwise it takes
// the first free hex around the first ship it may rejoin, else stacks with it, facing as it
// does.
func (rs *resolver) returnFled() {
	g := rs.g
	b := &board{g: g}
	for _, u := range g.Units {
		if u.Status != "fled" || u.Return > g.Turn {
			continue
		}
		if h, f, ok := rs.reentry(b, u); ok {
			u.Status, u.Hex, u.Facing = "", h, f
			rs.event("9.6", "%s returns at %s facing %s", u.ID, h, f)
		} else {
			rs.event("9.6", "%s cannot return: no ship of its fleet has room beside it", u.ID)
		}
	}
}

// reentry finds the hex a fled unit returns to and its facing.
func (rs *resolver) reentry(b *board, u *Unit) (Hex, Dir, bool) {
	places := rs.g.reentryPlaces(b, u)
	if len(places) == 0 {
		return Hex{}, 0, false
	}
	if hex, face, ok := strings.Cut(u.ReturnAt+" ", " "); u.ReturnAt != "" && ok {
		h, _ := ParseHex(hex)
		for _, p := range places {
			if p.hex == h {
				if d, err := ParseDir(strings.TrimSpace(face)); err == nil {
					p.facing = d
				}
				return p.hex, p.facing, true
			}
		}
	}
	return places[0].hex, places[0].facing, true
}

// reentryPlaces lists where a fled unit may come back (9.6), in the engine's order of
// preference: around (then with) the single ships of its group, else of its fleet, else its
// fleet's squadrons; each place faces as the ship it rejoins.
func (g *Game) reentryPlaces(b *board, u *Unit) []position {
	tiers := []func(s *Unit) bool{
		func(s *Unit) bool { return s.Single() && s.Group == u.Group },
		func(s *Unit) bool { return s.Single() },
		func(s *Unit) bool { return !s.Single() },
	}
	for _, tier := range tiers {
		var out []position
		for _, s := range g.Units {
			if s == u || !s.InPlay() || s.Side != u.Side || !tier(s) {
				continue
			}
			for d := N; d <= NW; d++ {
				if h := s.Hex.Neighbor(d); g.canReturnTo(b, u, h, false) {
					out = append(out, position{hex: h, facing: s.Facing})
				}
			}
			if g.canReturnTo(b, u, s.Hex, true) {
				out = append(out, position{hex: s.Hex, facing: s.Facing})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// canReturnTo: the hex may be entered and is free (or, stacked, the stacking limits allow
// it, 3.2); a Christian ship under sail is not placed in shallow water to be lost (12.5).
func (g *Game) canReturnTo(b *board, u *Unit, h Hex, stacked bool) bool {
	if !g.m.Enterable(h) || !g.onMap(h) || u.Galleass() && g.m.Terrain(h) == Shallow {
		return false
	}
	if u.Sailing && u.Side != "ottoman" && g.m.Terrain(h) == Shallow {
		return false
	}
	if !stacked {
		return len(b.at(h, u)) == 0
	}
	return b.checkStack(u, h) == nil
}

// victory ends the game with the Christian player's victory points (10.1).
func (rs *resolver) victory() {
	g := rs.g
	vp, _ := g.VictoryPoints()
	g.Over = true
	switch {
	case vp < 0:
		g.Result = fmt.Sprintf("Ottoman victory (%d VP)", vp)
	case vp <= 20:
		g.Result = fmt.Sprintf("Draw (%d VP)", vp)
	default:
		g.Result = fmt.Sprintf("Christian victory (%d VP)", vp)
	}
	rs.event("10.1", "The game ends: %s", g.Result)
}

// VPLine is one line of 10.1's count: Count items at Each victory points.
type VPLine struct {
	What  string
	Count int
	Each  int
}

// VictoryPoints counts the Christian player's victory points as 10.1 would if the game ended
// now, and the lines of that count in the rule's order (lines that count nothing left out).
// Everything it reads is public: the wings' tracks, the units out of play and the leaders
// lost are in both sides' views.
func (g *Game) VictoryPoints() (int, []VPLine) {
	lines := []VPLine{
		{"Christian groups with no damage", 0, 10},
		{"Ottoman groups at LMA", 0, 5},
		{"Ottoman groups at LF", 0, 10},
		{"Ottoman leaders and single ships lost", 0, 5},
		{"Ottoman counters out of play", 0, 2},
		{"Christian groups at LF", 0, -8},
		{"Christian leaders and single ships lost", 0, -5},
		{"Christian counters out of play", 0, -2},
	}
	for _, gr := range g.Groups {
		w := g.wing(gr.Wing)
		switch {
		case gr.Side == "christian" && !w.LMA && !w.LF:
			lines[0].Count++
		case gr.Side == "christian" && w.LF:
			lines[5].Count++
		case gr.Side == "ottoman" && w.LF:
			lines[2].Count++
		case gr.Side == "ottoman" && w.LMA:
			lines[1].Count++
		}
	}
	// o is the offset of the Ottoman lines (3, 4) from the Christian ones (6, 7).
	o := func(side string) int {
		if side == "ottoman" {
			return 0
		}
		return 3
	}
	for _, u := range g.Units {
		lost := u.Status == "sunk" || u.Status == "surrendered"
		switch {
		case lost && u.Single():
			lines[3+o(u.Side)].Count++
		case !u.InPlay():
			lines[4+o(u.Side)].Count++
		}
	}
	for _, l := range g.Leaders {
		if l.Status == "killed" || l.Status == "captured" {
			lines[3+o(l.Side)].Count++
		}
	}
	vp := 0
	var out []VPLine
	for _, l := range lines {
		if l.Count > 0 {
			vp += l.Count * l.Each
			out = append(out, l)
		}
	}
	return vp, out
}
