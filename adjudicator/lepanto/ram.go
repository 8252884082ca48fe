package lepanto

import (
	"fmt"

	"navarch/adjudicator"
)

// ramTarget says why u, standing at p, cannot ram or grapple t now, or "" (6.1, 7, 5): the
// target is an enemy alone in the bow hex, not a galleass, and the unit has the MP to enter
// its hex plus one.
func (g *Game) ramTarget(u *Unit, t *Unit, p position, mpLeft int, grapple bool) string {
	b := &board{g: g}
	switch {
	case t == nil || !t.InPlay() || t.Side == u.Side:
		return "the target is not an enemy unit in play"
	case t.Galleass():
		return "galleasses cannot be rammed, grappled or boarded (5, 6)"
	case grapple && u.Galleass():
		return "galleasses cannot grapple (5)"
	case p.sailing:
		return "a unit under sail cannot ram or grapple (12.3)"
	case b.pos(t).hex != p.hex.Neighbor(p.facing):
		return fmt.Sprintf("%s is not in the bow hex %s", t.ID, p.hex.Neighbor(p.facing))
	case len(b.at(b.pos(t).hex, nil)) != 1:
		return "only a single ramming or grappling action can occur in a hex (3.2, 6.1)"
	case mpLeft < 2:
		return fmt.Sprintf("entering the target's hex needs its MP plus one: %d left (6.1, 7)", mpLeft)
	case grapple && u.GrappleTurn == g.Turn:
		return "a unit makes one grappling attempt per turn (7.1)"
	}
	return ""
}

// ram resolves a Ramming attack (6.2, 6.3): the ramming speed roll, the target's emergency
// maneuvers, the attacker's second roll or abort, and the Ramming Hit Table.
func (rs *resolver) ram(a, t *Unit, once bool, below int, grab bool) error {
	rs.reveal(a, "leads an attack")
	rs.traceShot("ram", a, t)
	from, label := a.Hex, fmt.Sprintf("ram/%s>%s", a.ID, t.ID)
	mod := a.HV - t.HV
	if a.Galleass() {
		mod -= 2
	}
	d1, r1, err := rs.roll(label+"/speed1", 6, "6.2")
	if err != nil {
		return err
	}
	first := min(max(d1+mod, 1), 6)
	r1.Note = fmt.Sprintf("speed %d%+d: box %d", d1, mod, first)
	rs.eventAs(adjudicator.KindAttack, "6.2", "%s rams %s: speed roll %d%+d reaches box %d%s", a.ID, t.ID, d1, mod, first, rs.substitute("emergency-maneuver", "ramming-hits"))
	if first >= 5 {
		return rs.ramHit(a, t, from, first, "broadside", grab, label)
	}
	side, drm, err := rs.emr(t, label+"/emr1")
	if err != nil || side == "evades" {
		rs.placeAfterRam(a, t.Hex, from)
		return err
	}
	if once || first+drm < below { // the attacker's choice after the first roll (6.2), given ahead
		rs.event("6.2", "%s aborts the ram%s", a.ID, map[bool]string{true: fmt.Sprintf(": speed %d%+d is below %d", first, drm, below), false: ""}[!once])
		rs.placeAfterRam(a, t.Hex, from)
		return nil
	}
	d2, r2, err := rs.roll(label+"/speed2", 6, "6.2")
	if err != nil {
		return err
	}
	speed := first + d2 + drm
	r2.Note = fmt.Sprintf("second roll %d%+d: speed %d", d2, drm, speed)
	if speed < 5 {
		rs.event("6.2", "%s is too slow (speed %d) to reach %s", a.ID, speed, t.ID)
		rs.placeAfterRam(a, t.Hex, from)
		return nil
	}
	side2, drm2, err := rs.emr(t, label+"/emr2")
	if err != nil || side2 == "evades" {
		rs.placeAfterRam(a, t.Hex, from)
		return err
	}
	if side2 != "failed" {
		side = side2
		if err := rs.ramReaction(t, a, side2); err != nil || !a.InPlay() {
			return err
		}
		if a.Hex != from { // the reaction fire made it evade or go adrift (9.6): no contact
			rs.event("6.2", "%s is driven off by the reaction fire before it strikes: the ram ends with %s at %s", a.ID, a.ID, a.Hex)
			return nil
		}
	}
	return rs.ramHit(a, t, from, speed+drm2, map[string]string{"failed": "broadside", "bow": "bow", "stern": "stern"}[side], grab, label)
}

// emr is the target's Emergency Maneuver Roll (6.2, 16.03): evades, failed, or bow/stern
// (the next ramming roll is one less).
func (rs *resolver) emr(t *Unit, label string) (string, int, error) {
	d6, roll, err := rs.roll(label, 6, "6.2")
	if err != nil {
		return "", 0, err
	}
	res, _ := rs.g.tables.Get("emergency-maneuver").Int(d6, t.HV)
	roll.Note = res
	if res == "evades" {
		rs.traceAt("evade", t, t.Hex)
	}
	rs.event("6.2", "%s's emergency maneuver: d6 %d against HV %d: %s", t.ID, d6, t.HV, res)
	if res == "bow" || res == "stern" {
		return res, -1, nil
	}
	return res, 0, nil
}

// ramReaction: a target that turned its bow (or, a single ship, its stern) to the rammer at
// the last moment may fire at it first (5.3, 6.2: "any reaction fire desired"): it does
// unless its player's standing HOLD FIRE ... RAM says not.
func (rs *resolver) ramReaction(t, a *Unit, side string) error {
	if side == "stern" && !t.Single() || t.HoldRam || rs.g.canFire(t, true) != "" {
		return nil
	}
	return rs.artilleryFire(t, a, true)
}

// ramHit applies the Ramming Hit Table and places the units (6.3). The places are those of
// the moment of impact: a target the hit makes evade or go adrift (9.6) has moved away, and
// the attacker "remains in the target's hex" it struck, with nothing there to grapple (with
// GRAPPLE), or is placed beyond that hex (without).
func (rs *resolver) ramHit(a, t *Unit, from Hex, speed int, side string, grab bool, label string) error {
	g := rs.g
	at := t.Hex
	res, _ := g.tables.Get("ramming-hits").IntCol(speed, side)
	rs.event("6.3", "%s strikes %s's %s at speed %d: %s", a.ID, t.ID, side, speed, res)
	if err := rs.applyFireResult(t, res, label, false); err != nil {
		return err
	}
	switch {
	case !t.InPlay():
		a.Hex = at
	case res == "NE" || !grab:
		rs.placeAfterRam(a, at, from)
	case t.Hex != at:
		rs.event("6.3", "%s has been driven from %s: %s cannot grapple it", t.ID, at, a.ID)
		rs.place(a, []Hex{at, beyond(from, at), from}, "6.3")
	default:
		a.Hex = t.Hex
		g.engage(a, t)
		rs.event("6.3", "%s grapples %s: both are engaged", a.ID, t.ID)
	}
	return nil
}

// placeAfterRam puts an attacker whose ram was aborted or did no damage beyond the target,
// in the direction it came from, or back in the hex it rammed from if that hex is not free
// (6.3).
func (rs *resolver) placeAfterRam(a *Unit, target, from Hex) {
	rs.place(a, []Hex{beyond(from, target), from}, "6.3")
}

// beyond is the hex past target seen from the adjacent hex from.
func beyond(from, target Hex) Hex {
	d, _ := from.DirTo(target)
	return target.Neighbor(d)
}

// place moves a unit to the first of hexes it may stand in.
func (rs *resolver) place(a *Unit, hexes []Hex, rule string) {
	b := &board{g: rs.g}
	for _, h := range hexes {
		if h == a.Hex {
			break
		}
		if b.canEnter(a, h) == nil && b.checkStack(a, h) == nil {
			a.Hex = h
			break
		}
	}
	rs.event(rule, "%s ends at %s", a.ID, a.Hex)
}

func (g *Game) engage(a, t *Unit) {
	a.Engaged = sortedAdd(a.Engaged, t.ID)
	t.Engaged = sortedAdd(t.Engaged, a.ID)
}

func sortedAdd(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	out := append(append([]string(nil), s...), v)
	for i := len(out) - 1; i > 0 && out[i] < out[i-1]; i-- {
		out[i], out[i-1] = out[i-1], out[i]
	}
	return out
}

// grapple resolves a grappling attempt (7.1): d6 plus the attacker's HV less the target's,
// +1 against a target Mast Down or on fire; 4 or more grapples. A failed attacker goes back
// to the hex it came from.
func (rs *resolver) grapple(a, t *Unit) error {
	g := rs.g
	a.GrappleTurn = g.Turn
	mod := a.HV - t.HV
	if t.MastDown || t.OnFire {
		mod++
	}
	d6, roll, err := rs.roll(fmt.Sprintf("grapple/%s>%s", a.ID, t.ID), 6, "7.1")
	if err != nil {
		return err
	}
	ok := d6+mod >= 4
	roll.Note = fmt.Sprintf("%d%+d: %s", d6, mod, map[bool]string{true: "grappled", false: "failed"}[ok])
	rs.eventAs(adjudicator.KindAttack, "7.1", "%s tries to grapple %s: d6 %d%+d, %s", a.ID, t.ID, d6, mod, roll.Note[len(fmt.Sprintf("%d%+d: ", d6, mod)):])
	if ok {
		a.Hex = t.Hex
		g.engage(a, t)
	}
	return nil
}
