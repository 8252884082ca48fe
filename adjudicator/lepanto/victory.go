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

// victory counts the Christian player's victory points at the end of the game (10.1).
func (rs *resolver) victory() {
	g := rs.g
	vp := 0
	for _, gr := range g.Groups {
		w := g.wing(gr.Wing)
		switch {
		case gr.Side == "christian" && !w.LMA && !w.LF:
			vp += 10
		case gr.Side == "christian" && w.LF:
			vp -= 8
		case gr.Side == "ottoman" && w.LF:
			vp += 10
		case gr.Side == "ottoman" && w.LMA:
			vp += 5
		}
	}
	for _, u := range g.Units {
		lost := u.Status == "sunk" || u.Status == "surrendered"
		vp += sign(u.Side) * map[bool]int{true: 5, false: 0}[lost && u.Single()]
		vp += sign(u.Side) * map[bool]int{true: 2, false: 0}[!u.InPlay() && !(lost && u.Single())]
	}
	for _, l := range g.Leaders {
		if l.Status == "killed" || l.Status == "captured" {
			vp += sign(l.Side) * 5
		}
	}
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

// sign is +1 for an Ottoman loss (the Christian player gains) and -1 for a Christian one.
func sign(side string) int {
	if side == "ottoman" {
		return 1
	}
	return -1
}
