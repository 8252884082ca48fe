package lepanto

import "fmt"

// returnFled brings back units whose two turns away are over (9.6): next to a single ship
// of their group, or else of their fleet, in the first free hex around it, facing as it does.
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
		}
	}
}

// reentry finds the hex a fled unit returns to, and the facing of the ship it rejoins.
func (rs *resolver) reentry(b *board, u *Unit) (Hex, Dir, bool) {
	g := rs.g
	for _, sameGroup := range []bool{true, false} {
		for _, s := range g.Units {
			if !s.InPlay() || !s.Single() || s.Side != u.Side || (s.Group == u.Group) != sameGroup {
				continue
			}
			for d := N; d <= NW; d++ {
				h := s.Hex.Neighbor(d)
				aground := u.Sailing && u.Side != "ottoman" && g.m.Terrain(h) == Shallow // the owner would not place it to be lost (12.5)
				if b.canEnter(u, h) == nil && len(b.at(h, u)) == 0 && !aground {
					return h, s.Facing, true
				}
			}
		}
	}
	return Hex{}, 0, false
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
