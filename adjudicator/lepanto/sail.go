package lepanto

import (
	"fmt"

	"navarch/adjudicator"
)

// Sailing Mode (12, optional rule "sailing").

// upwind is the hexside the wind blows from: the opposite of the drift hexside (9.6).
func (g *Game) upwind() Dir {
	d, _ := g.tables.Get("wind-drift").Word(lower(g.Wind), "hexside")
	dir, _ := ParseDir(d)
	return dir.Opposite()
}

// intoWind reports whether a facing is into the wind: the hexside the wind comes from or
// either beside it. The other three facings are downwind (12.2: every facing is one or the
// other).
func (g *Game) intoWind(f Dir) bool {
	up := g.upwind()
	return f == up || f == up.Turn(1) || f == up.Turn(-1)
}

// nearestEnemy from hex h for u's side.
func (g *Game) enemyWithin(u *Unit, h Hex, n int) bool {
	for _, o := range g.Units {
		if o.InPlay() && o.Side != u.Side && o.Hex.Distance(h) <= n {
			return true
		}
	}
	return false
}

// modeChange applies a SAIL or ROW step at the start of a move: 1 MP, before any movement
// or facing change (12.4). Sails go up only with the sailing rule, more than 3 hexes from
// the nearest enemy, and not Mast Down or on fire (12, 12.3).
//
// A unit under sail within 3 hexes of the enemy "must lower the sails" (12.3): it does so at
// no cost, since only a voluntary change costs 1 MP (12.4 "It costs 1 MP to (voluntarily)
// lower or raise sails"); a ROW step there is taken as that, and may be left out.
func (b *board) modeChange(u *Unit, res *moveResult, steps []pathStep) ([]pathStep, error) {
	if res.end.sailing && b.g.enemyWithin(u, res.end.hex, 3) {
		res.end.sailing = false
		if len(steps) > 0 && steps[0].kind == stepRow {
			steps = steps[1:]
		}
	}
	if len(steps) == 0 || steps[0].kind != stepSail && steps[0].kind != stepRow {
		for _, s := range steps {
			if s.kind == stepSail || s.kind == stepRow {
				return steps, &moveError{msg: "SAIL and ROW come before any movement or facing change (12.4)"}
			}
		}
		return steps, nil
	}
	g := b.g
	raise := steps[0].kind == stepSail
	switch {
	case raise && !g.hasOption(OptionSailing):
		return steps, &moveError{msg: "Sailing Mode is an optional rule this game does not use (12)"}
	case raise == res.end.sailing:
		return steps, &moveError{msg: fmt.Sprintf("%s's sails are %s already", u.ID, map[bool]string{true: "up", false: "down"}[raise])}
	case raise && (u.MastDown || u.OnFire):
		return steps, &moveError{msg: "Mast Down and burning units cannot raise sails (12)"}
	case raise && u.Side != "ottoman" && g.m.Terrain(res.end.hex) == Shallow:
		return steps, &moveError{msg: "only Ottoman ships can sail in shallow waters (12.5)"}
	case raise && g.enemyWithin(u, res.end.hex, 3):
		return steps, &moveError{msg: "sails go up only more than 3 hexes from the nearest enemy (12, 12.3)"}
	}
	res.end.sailing, res.mp = raise, 1
	return steps[1:], nil
}

// sailOn checks a hex a sailing unit entered: it must lower its sails on arriving within 3
// hexes of an enemy, which ends its move there (12.3).
func (b *board) sailOn(u *Unit, res *moveResult, i int, final bool) error {
	if !b.g.enemyWithin(u, res.end.hex, 3) {
		return nil
	}
	if !final {
		return &moveError{msg: fmt.Sprintf("step %d: within 3 hexes of the enemy at %s the sails come down and the move ends (12.3)", i+1, res.end.hex)}
	}
	res.end.sailing = false
	return nil
}

// sailingTurnCheck says whether a sailing unit turning to f needs an HV check (12.2): in a
// group under LMA or LF, or turning against the wind "arising from a sudden change of Wind
// direction": only once the wind blows from elsewhere than at the start (the east, 11.1),
// unless the game chose the option into-wind-check (every turn into the wind).
func (g *Game) sailingTurnCheck(u *Unit, f Dir) bool {
	w := g.wing(u.Wing)
	changed := g.Wind != startWind || g.hasOption(OptionIntoWindCheck)
	return w.LMA || w.LF || changed && g.intoWind(f)
}

// startWind is where the wind blows from at the start of every scenario (11.1, 13.x.1).
const startWind = "E"

// sailMove carries out a legal sailing move step by step: each turn that needs an HV check
// rolls it, and a failure drifts the unit one hex downwind and ends the move (12.2).
func (rs *resolver) sailMove(u *Unit, steps []pathStep, end position) (bool, error) {
	g := rs.g
	if len(steps) > 0 && (steps[0].kind == stepSail || steps[0].kind == stepRow) {
		u.Sailing = steps[0].kind == stepSail
		steps = steps[1:]
	}
	for i, s := range steps {
		if !u.Sailing {
			break
		}
		next := u.Facing
		switch s.kind {
		case stepLeft, stepRight, stepFace:
			next = turnTo(u.Facing, s)
		case stepHex:
			if d, _ := u.Hex.DirTo(s.hex); d != u.Facing {
				next = d
			}
		}
		if next != u.Facing && g.sailingTurnCheck(u, next) {
			d6, roll, err := rs.roll(fmt.Sprintf("sail/%s/%d", u.ID, i), 6, "12.2")
			if err != nil {
				return false, err
			}
			roll.Note = fmt.Sprintf("%d against HV %d", d6, u.HV)
			if d6 > u.HV {
				rs.eventAs(adjudicator.KindHit, "12.2", "%s fails its HV check turning %s under sail (d6 %d): it drifts", u.ID, next, d6)
				rs.sailDrift(u)
				return true, nil
			}
		}
		u.Facing = next
		if s.kind == stepHex {
			u.Hex = s.hex
			rs.shallowSailing(u)
			if !u.InPlay() {
				return true, nil
			}
		}
	}
	u.Hex, u.Facing, u.Sailing = end.hex, end.facing, end.sailing
	return false, nil
}

// sailDrift: one hex downwind keeping the facing; into a friendly unit's hex it stays and
// rows; into an enemy's it rows and is grappled by it (12.2).
func (rs *resolver) sailDrift(u *Unit) {
	g := rs.g
	h := u.Hex.Neighbor(g.upwind().Opposite())
	b := &board{g: g}
	others := b.at(h, u)
	switch {
	case len(others) == 0 && b.canEnter(u, h) == nil:
		u.Hex = h
		rs.shallowSailing(u)
	case len(others) == 1 && others[0].Side != u.Side && !others[0].Galleass() && !u.Galleass():
		u.Sailing, u.Hex = false, h
		g.engage(others[0], u)
		rs.eventAs(adjudicator.KindHit, "12.2", "%s drifts onto %s, lowers sails and is grappled", u.ID, others[0].ID)
		return
	default:
		u.Sailing = false
	}
	rs.event("12.2", "%s is at %s, %s", u.ID, u.Hex, map[bool]string{true: "under sail", false: "rowing"}[u.Sailing])
}

// shallowSailing: only Ottoman ships sail in shallow water; a Christian ship under sail that
// enters it "for any reason" (a move, a drift, an evade or going adrift) is lost (12.5).
func (rs *resolver) shallowSailing(u *Unit) {
	if rs.aground(u) {
		rs.eventAs(adjudicator.KindLoss, "12.5", "%s runs aground in shallow water under sail and is lost", u.ID)
		rs.eliminate(u, "sunk", 1)
	}
}

// aground reports whether u is a Christian ship under sail in shallow water (12.5).
func (rs *resolver) aground(u *Unit) bool {
	return u.InPlay() && u.Sailing && u.Side != "ottoman" && rs.g.m.Terrain(u.Hex) == Shallow
}
