package medieval

import (
	"fmt"
	"strings"

	"navarch/adjudicator/table"

	"navarch/adjudicator"
)

// band returns the number of gunnery dice at range d and the band's name (rule "Gunnery":
// Close 0-4", Long 4"-10", Extreme 10"-20"). A range on a band's boundary is in the nearer
// band; beyond 20" there is no fire.
func band(d table.Len) (int, string) {
	switch {
	case d <= 4*table.Inch:
		return 3, "close"
	case d <= 10*table.Inch:
		return 2, "long"
	case d <= 20*table.Inch:
		return 1, "extreme"
	}
	return 0, "out of range"
}

// Gunnery reach: the extreme band's end.
const gunReach = 20 * table.Inch

// boarders returns the active enemies in contact with s (scenario order): "when two or more
// opposing bases come into contact a boarding action will ensue" (rule "Boarding"), grappled
// or not. Grappled ships stay in contact, for they cannot move.
func (g *Game) boarders(s *Ship) []*Ship {
	if !s.Active() {
		return nil
	}
	var out []*Ship
	pg := s.Corners()
	for _, e := range g.Ships {
		if e.Side != s.Side && e.Active() && table.Contact(pg, e.Corners()) {
			out = append(out, e)
		}
	}
	return out
}

// inBoarding reports whether s is in a boarding action.
func (g *Game) inBoarding(s *Ship) bool { return len(g.boarders(s)) > 0 }

// fireLine returns why a line from s's broadside side to t is not open, or "": t must lie in
// the broadside's arc (rule "Gunnery": the flank, between the base's front and rear lines
// extended), and the line from the middle of the broadside to t's centre must cross no
// other base (no firing over a base; lashed friends' bases included, rule "Lashing").
func (g *Game) fireLine(s *Ship, side table.Arc, t *Ship) string {
	if !s.Base.InArc(s.Pose, side, t.Corners(), gunReach) {
		return fmt.Sprintf("%s is not in %s's %s arc", t.ID, s.ID, side)
	}
	edge := s.Base.Edge(s.Pose, side)
	mid := table.Point{X: (edge[0].X + edge[1].X) / 2, Y: (edge[0].Y + edge[1].Y) / 2}
	if b := g.blocker(mid, t.Pose.At, s, t); b != nil {
		return fmt.Sprintf("the line to %s passes over %s's base", t.ID, b.ID)
	}
	return ""
}

// blocker returns the first base on the table (other than a and b) whose interior the line
// from p to q crosses.
func (g *Game) blocker(p, q table.Point, a, b *Ship) *Ship {
	for _, o := range g.Ships {
		if o != a && o != b && g.onTable(o) && !table.Clear(p, q, []table.Polygon{o.Corners()}) {
			return o
		}
	}
	return nil
}

// lashedSide reports whether the broadside side of s touches a ship lashed to it: the
// touching beams cannot fire (rule "Lashing").
func (g *Game) lashedSide(s *Ship, side table.Arc) *Ship {
	edge := s.Base.Edge(s.Pose, side)
	for _, id := range s.Lashed {
		if o := g.ship(id); o != nil && table.Distance(edge, o.Corners()) <= table.Touch {
			return o
		}
	}
	return nil
}

// fire resolves a broadside (rule "Gunnery"): the dice of the range band against the score
// the loaded level needs, a fire roll for every 0, an effect roll for every hit; the track
// goes back to NNE.
func (p *phase) fire(s *Ship, f FireOrder) error {
	t := p.g.ship(f.Target)
	i := sideIndex(f.Side)
	switch {
	case !s.Active() || t == nil || !t.Active():
		p.event("Gunnery.1", "%s does not fire: %s", s.ID, unable(s, t))
		return nil
	case p.g.inBoarding(s):
		p.event("Boarding.7", "%s is in a boarding action and may not fire her broadsides", s.ID)
		return nil
	case s.Loaded[i] == NNE:
		p.event("Gunnery.2", "%s's %s broadside is not loaded (track NNE)", s.ID, f.Side)
		return nil
	}
	if l := p.g.lashedSide(s, f.Side); l != nil {
		p.event("Lashing.1", "%s's %s beam touches %s, lashed to her: it cannot fire", s.ID, f.Side, l.ID)
		return nil
	}
	if why := p.g.fireLine(s, f.Side, t); why != "" {
		rule := "Gunnery.4"
		if strings.Contains(why, "passes over") {
			rule = "Gunnery.5"
		}
		p.event(rule, "%s does not fire: %s", s.ID, why)
		return nil
	}
	d := table.Distance(s.Corners(), t.Corners())
	n, name := band(d)
	if n == 0 {
		p.event("Gunnery.8", "%s does not fire: %s is %s\" away, beyond 20\"", s.ID, t.ID, table.FormatInches(d))
		return nil
	}
	level := s.Loaded[i]
	need := gunneryNeed[level]
	label := fmt.Sprintf("gunnery/%s/%s", s.ID, strings.ToLower(broadsideWord(f.Side)))
	vs, err := p.d10(label, "Gunnery.6", n)
	if err != nil {
		return err
	}
	s.Loaded[i] = NNE
	hits := 0
	for _, v := range vs {
		if v >= need {
			hits++
		}
	}
	p.traceShot(TraceFire, s, t, hits)
	p.eventAs(adjudicator.KindAction, "Gunnery.8", "%s fires her %s broadside (%v) at %s, %s\" (%s range, %s): %v needing %d+: %s; the track goes back to NNE",
		s.ID, f.Side, level, t.ID, table.FormatInches(d), name, count(n, "die", "dice"), shownAll(vs), need, count(hits, "hit", "hits"))
	for k, v := range vs {
		if v == 10 {
			if err := p.fireRoll(s, t, fmt.Sprintf("%s/fire/%d", label, k+1)); err != nil {
				return err
			}
		}
	}
	for k := 1; k <= hits && t.Active(); k++ {
		ev, err := p.d10(fmt.Sprintf("%s/effect/%d", label, k), "Gunnery.11", 1)
		if err != nil {
			return err
		}
		f := gunneryEffect(ev[0])
		p.event("Gunnery.11", "hit %d on %s: effect roll %d, %v", k, t.ID, shown(ev[0]), f)
		if err := p.hit(t, f, gunneryUp, s, fmt.Sprintf("%s/effect/%d", label, k), "Gunnery.10"); err != nil {
			return err
		}
	}
	return nil
}

// fireRoll is the roll for a 0 (rule "Gunnery": 1 fire on the firing ship; 8,9,0 fire on
// the target).
func (p *phase) fireRoll(s, t *Ship, label string) error {
	v, err := p.d10(label, "Gunnery.7", 1)
	if err != nil {
		return err
	}
	switch {
	case v[0] == 1:
		p.setFire(s, "Gunnery.7", fmt.Sprintf("a 0 and a fire roll of 1: fire on the firing ship %s", s.ID))
	case v[0] >= 8:
		p.setFire(t, "Gunnery.7", fmt.Sprintf("a 0 and a fire roll of %d: fire on the target %s", shown(v[0]), t.ID))
	default:
		p.event("Gunnery.7", "a 0 and a fire roll of %d: no fire", v[0])
	}
	return nil
}

func (p *phase) setFire(s *Ship, rule, why string) {
	if s.Burning || s.Status == Burnt {
		p.event(rule, "%s; she is already on fire", why)
		return
	}
	s.Burning, s.FireTries, s.FireTurns = true, 0, 0
	p.event(rule, "%s", why)
}

func unable(s, t *Ship) string {
	switch {
	case !s.Active():
		return s.ID + " is " + s.Status
	case t == nil:
		return "no such ship"
	}
	return t.ID + " is " + t.Status
}

// shoot resolves missile shooting (rule "Missile shooting"): one d10 a phase against the
// score the Missile factor needs, within the missile range of data/rules.txt, over no
// base, neither from nor at a ship in a boarding action; a hit rolls on the missile table.
func (p *phase) shoot(s *Ship, target string) error {
	t := p.g.ship(target)
	switch {
	case !s.Active() || t == nil || !t.Active():
		p.event("Missile.1", "%s does not shoot: %s", s.ID, unable(s, t))
		return nil
	case p.g.inBoarding(s) || p.g.inBoarding(t):
		p.event("Boarding.7", "%s does not shoot: no missile shooting from or at a ship in a boarding action", s.ID)
		return nil
	case s.F.Missile == NNE:
		p.event("Missile.2", "%s has Missile NNE and cannot shoot", s.ID)
		return nil
	}
	d := table.Distance(s.Corners(), t.Corners())
	if d > p.g.data.Rules.MissileRange {
		p.event("Missile.1", "%s does not shoot: %s is %s\" away, beyond the missile range of %s\"", s.ID, t.ID, table.FormatInches(d), table.FormatInches(p.g.data.Rules.MissileRange))
		return nil
	}
	if b := p.g.blocker(s.Pose.At, t.Pose.At, s, t); b != nil {
		rule := "Gunnery.5"
		if b.Side == s.Side {
			rule = "Lashing.1"
		}
		p.event(rule, "%s does not shoot: the line to %s passes over %s's base", s.ID, t.ID, b.ID)
		return nil
	}
	need := missileNeed[s.F.Missile]
	label := "missile/" + s.ID
	v, err := p.d10(label, "Missile.1", 1)
	if err != nil {
		return err
	}
	if v[0] < need {
		p.traceShot(TraceShoot, s, t, 0)
		p.eventAs(adjudicator.KindChange, "Missile.2", "%s shoots at %s (Missile %v, needs %d+): %d, no hit", s.ID, t.ID, s.F.Missile, need, shown(v[0]))
		return nil
	}
	p.traceShot(TraceShoot, s, t, 1)
	p.eventAs(adjudicator.KindAttack, "Missile.2", "%s shoots at %s (Missile %v, needs %d+): %d, a hit", s.ID, t.ID, s.F.Missile, need, shown(v[0]))
	ev, err := p.d10(label+"/effect", "Missile.3", 1)
	if err != nil {
		return err
	}
	f := missileEffect(ev[0])
	p.event("Missile.3", "effect roll %d: %v", shown(ev[0]), f)
	return p.hit(t, f, missileUp, s, label+"/effect", "Missile.3")
}
