package lepanto

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
)

// inArc reports whether a unit standing at p can fire into hex h (5.2.1): the bow hex for
// squadrons, bow and stern for single galleys, all six hexes for galleasses.
func inArc(u *Unit, p position, h Hex) bool {
	d, ok := p.hex.DirTo(h)
	switch {
	case !ok:
		return false
	case u.Galleass():
		return true
	case u.Single():
		return d == p.facing || d == p.facing.Opposite()
	}
	return d == p.facing
}

// canFire says why a unit cannot make an Artillery Fire attack now, or "" (5.2, 9.2, 9.9).
// A reaction fire is a defence: a wing at LF may still return it, at half its rating.
func (g *Game) canFire(u *Unit, reaction bool) string {
	switch {
	case !u.InPlay():
		return "is not in play"
	case u.Fired:
		return "has fired and not reloaded (5.6)"
	case len(u.Engaged) > 0:
		return "is engaged (7.2)"
	case u.OnFire:
		return "has fire aboard (9.2)"
	case !reaction && g.wing(u.Wing).LF:
		return "belongs to a wing at LF, which cannot start Artillery Fire (9.9)"
	}
	return ""
}

// aspect is the side of the target the attacker fires at: the hex it fires from as seen from
// the target's facing.
func aspect(target position, from Hex) string {
	d, _ := target.hex.DirTo(from)
	switch d {
	case target.facing:
		return "target-bow"
	case target.facing.Opposite():
		return "target-stern"
	}
	return "target-broadside"
}

// fireValue is 5.4: the attacker's Fire Value (doubled for a galleass firing from its
// broadside, 5.2.1; halved for a wing at LF, 9.9) less the target's Handling Value, plus the
// modifiers of 16.10. It returns the value and the modifiers applied, for the log.
func (g *Game) fireValue(a, t *Unit, ap, tp position, reaction bool) (int, []string) {
	fv := a.FV
	notes := []string{fmt.Sprintf("FV %d", fv)}
	if a.Galleass() {
		if d, _ := ap.hex.DirTo(tp.hex); d != ap.facing && d != ap.facing.Opposite() {
			fv *= 2
			notes = append(notes, "galleass broadside ×2")
		}
	}
	if g.wing(a.Wing).LF {
		fv /= 2
		notes = append(notes, "LF ½")
	}
	v := fv - t.HV
	notes = append(notes, fmt.Sprintf("- HV %d", t.HV))
	mod := func(name string, times int) {
		if m := g.value("fire-modifiers", name, "value") * times; m != 0 {
			v += m
			notes = append(notes, fmt.Sprintf("%+d %s", m, name))
		}
	}
	mod(aspect(tp, ap.hex), 1)
	if t.MastDown {
		mod("target-mast-down", 1)
	}
	if t.OnFire {
		mod("target-on-fire", 1)
	}
	if t.Galleass() {
		mod("target-galleass", 1)
	}
	if r := g.bestLeader(a); r > 0 {
		mod("firer-leader-rating", r)
	}
	if reaction {
		mod("reaction-fire", 1)
	}
	return v, notes
}

// bestLeader is the highest rating among the leaders aboard u.
func (g *Game) bestLeader(u *Unit) int {
	best := 0
	for _, l := range g.leadersAboard(u) {
		best = max(best, l.Rating)
	}
	return best
}

// artilleryFire resolves one Artillery Fire attack (5.5): the d6 on the Artillery Fire
// Table, then its results (5.5.1), then the leaders' casualty checks (4.3). The firer is
// inverted (5.6).
func (rs *resolver) artilleryFire(a, t *Unit, reaction bool) error {
	g := rs.g
	rs.reveal(a, "leads an attack")
	b := &board{g: g}
	v, notes := g.fireValue(a, t, b.pos(a), b.pos(t), reaction)
	label := fmt.Sprintf("fire/%s>%s", a.ID, t.ID)
	if reaction {
		label = fmt.Sprintf("reaction/%s>%s", a.ID, t.ID)
	}
	d6, roll, err := rs.roll(label, 6, "5.5")
	if err != nil {
		return err
	}
	res, _ := g.tables.Get("artillery-fire").Int(d6, v)
	roll.Note = fmt.Sprintf("fire value %d (%s): %s", v, strings.Join(notes, ", "), res)
	a.Fired = true
	rs.traceShot("fire", a, t)
	kind := map[bool]string{true: "Reaction fire", false: "Artillery fire"}[reaction]
	rs.event(map[bool]string{true: "5.3", false: "5.5"}[reaction], "%s: %s at %s, fire value %d, d6 %d: %s (%s)%s",
		kind, a.ID, t.ID, v, d6, res, strings.Join(notes, ", "), rs.substitute("artillery-fire", "fire-modifiers"))
	return rs.applyFireResult(t, res, label, true)
}

// substitute notes in a report line that a table used is a substitute (docs/DESIGN.md 2).
func (rs *resolver) substitute(tables ...string) string {
	for _, t := range tables {
		if rs.g.tables.Get(t).Substitute {
			return " [substitute table]"
		}
	}
	return ""
}

// applyFireResult applies an Artillery Fire or Ramming result such as "1MF" (5.5.1): M and F
// place their markers, or become a hit on a unit that has that marker already; each hit goes
// through the HV check and the damage tables (9.4-9.6), stopping once the unit is gone.
// After Artillery Fire the leaders aboard check for casualties (4.3).
func (rs *resolver) applyFireResult(t *Unit, res, label string, leaders bool) error {
	if res == "NE" {
		return nil
	}
	hits := 0
	wasMast, wasFire := t.MastDown, t.OnFire
	for _, c := range res {
		switch c {
		case '1', '2':
			hits += int(c - '0')
		case 'M':
			if wasMast {
				hits++
			} else {
				t.MastDown = true
				rs.event("9.1", "%s is Mast Down", t.ID)
				if t.Sailing {
					t.Sailing = false
					rs.event("12.3", "%s lowers its sails", t.ID)
				}
			}
		case 'F':
			if wasFire {
				hits++
			} else {
				t.OnFire = true
				rs.event("9.2", "%s has fire aboard", t.ID)
			}
		}
	}
	for k := 1; k <= hits && t.InPlay(); k++ {
		if err := rs.hit(t, fmt.Sprintf("%s/hit%d", label, k), wasMast, wasFire); err != nil {
			return err
		}
	}
	if !leaders {
		if !t.InPlay() {
			rs.displaceLeaders(t)
		}
		return nil
	}
	return rs.leaderCasualties(t, "artillery", label)
}

// leaderCasualties rolls for each leader aboard a unit that took a result (4.3).
func (rs *resolver) leaderCasualties(t *Unit, column, label string) error {
	g := rs.g
	for _, l := range slices.Clone(g.Leaders) {
		if l.Status != "" || l.Unit != t.ID {
			continue
		}
		rs.reveal(t, "casualty check")
		d6, roll, err := rs.roll(fmt.Sprintf("%s/leader/%s", label, l.ID), 6, "4.3")
		if err != nil {
			return err
		}
		res, _ := g.tables.Get("leader-casualty").IntCol(d6, column)
		roll.Note = res
		if res == "killed" {
			l.Status = "killed"
			rs.eventAs(adjudicator.KindLoss, "4.3", "%s (%s) is killed aboard %s", l.Name, l.ID, t.ID)
			rs.replaceLeader(l, t)
		}
	}
	if !t.InPlay() {
		rs.displaceLeaders(t)
	}
	return nil
}

// displaceLeaders moves the surviving leaders of a unit that is gone to an adjacent unit of
// their group, or loses them at sea (4.3). A unit that flees is not gone for good: it is
// "out of the game for 2 turns" and comes back (9.6), and its leaders with it (4.3 moves
// leaders off a captured unit only).
func (rs *resolver) displaceLeaders(t *Unit) {
	g := rs.g
	if t.Status == "fled" {
		for _, l := range g.leadersAboard(t) {
			if !l.Hidden {
				rs.event("4.3", "%s (%s) flees aboard %s and comes back with it", l.Name, l.ID, t.ID)
			}
		}
		return
	}
	for _, l := range g.Leaders {
		if l.Status != "" || l.Unit != t.ID {
			continue
		}
		var to *Unit
		for _, u := range g.Units {
			if u.InPlay() && u.Group == l.Group && u.Hex.Distance(t.Hex) <= 1 && (to == nil || u.Single() && !to.Single()) {
				to = u
			}
		}
		if to == nil {
			l.Status = "lost"
			rs.eventAs(adjudicator.KindLoss, "4.3", "%s (%s) is lost at sea", l.Name, l.ID)
			rs.replaceLeader(l, t)
			continue
		}
		l.Unit = to.ID
		if l.Hidden {
			rs.private(l.Side, "4.3", "%s (%s) escapes to %s, still hidden", l.Name, l.ID, to.ID)
			continue
		}
		rs.event("4.3", "%s (%s) escapes to %s", l.Name, l.ID, to.ID)
	}
}
