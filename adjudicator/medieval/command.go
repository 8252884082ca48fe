package medieval

import (
	"fmt"

	"navarch/adjudicator/table"

	"navarch/adjudicator"
)

// reload advances one broadside track of s one step, up to its Gunnery (rule "Gunnery").
func (p *phase) reload(s *Ship, side table.Arc) {
	i := sideIndex(side)
	if s.Loaded[i] >= *s.F.Gun(side) {
		p.event("Gunnery.3", "%s's %s broadside is already at its Gunnery %v", s.ID, side, *s.F.Gun(side))
		return
	}
	s.Loaded[i]++
	p.eventAs(adjudicator.KindRoutine, "Gunnery.3", "%s reloads her %s broadside: track %v of %v", s.ID, side, s.Loaded[i], *s.F.Gun(side))
}

// defaultReload is the no-orders choice: the broadside furthest below its Gunnery, port on
// a tie; none if both are full.
func defaultReload(s *Ship) (table.Arc, bool) {
	gp, gs := s.F.GunPort-s.Loaded[portSide], s.F.GunStarboard-s.Loaded[starboardSide]
	switch {
	case gp == 0 && gs == 0:
		return 0, false
	case gp >= gs:
		return table.Port, true
	}
	return table.Starboard, true
}

// level returns a pointer to the crew component named by word (COMBAT or MISSILE).
func component(f *Factors, word string) *Level {
	if word == "COMBAT" {
		return &f.Combat
	}
	return &f.Missile
}

// pass passes one level of a crew component from s to t (rule "Passing Crew Components"):
// t lashed to s (free) or grappled with s, that is in contact with it (a roll of 7+),
// never above t's starting level. The text limits only the receiver, so s may pass her last
// level; Combat so reduced to NNE takes her out of the battle (rule "Damage": "if Combat is
// reduced to NNE the ship will surrender ...").
func (p *phase) pass(s *Ship, po PassOrder, k int) error {
	t := p.g.ship(po.To)
	from, to, start := component(&s.F, po.Factor), component(&t.F, po.Factor), component(&t.Start, po.Factor)
	lashed := contains(s.Lashed, t.ID)
	switch {
	case !t.Active() || !s.Active():
		p.event("Passing.1", "%s cannot pass to %s: %s", s.ID, t.ID, unable(s, t))
		return nil
	case !lashed && !table.Contact(s.Corners(), t.Corners()):
		p.event("Passing.1", "%s is neither lashed nor grappled to %s: no passing", s.ID, t.ID)
		return nil
	case *to >= *start:
		p.event("Passing.2", "%s's %s is at its starting %v: nothing may be passed to her", t.ID, po.Factor, *start)
		return nil
	case *from == NNE:
		p.event("Passing.1", "%s has no %s to pass (NNE)", s.ID, po.Factor)
		return nil
	}
	if !lashed {
		v, err := p.d10(fmt.Sprintf("pass/%s/%d", s.ID, k), "Passing.3", 1)
		if err != nil {
			return err
		}
		if v[0] < 7 {
			p.event("Passing.3", "%s and %s are grappled: the transfer needs 7+, rolled %d: it fails", s.ID, t.ID, shown(v[0]))
			return nil
		}
		p.event("Passing.3", "%s and %s are grappled: the transfer needs 7+, rolled %d", s.ID, t.ID, shown(v[0]))
	}
	*from--
	*to++
	p.event("Passing.1", "%s passes a level of %s to %s: %v and %v", s.ID, po.Factor, t.ID, *from, *to)
	if po.Factor == "COMBAT" && *from == NNE {
		p.afterDamage(s)
	}
	return nil
}

// douse fights a fire (rule "Fires"): the first attempt puts it out on 7,8,9,0, the second
// on 8,9,0, the third 9,0, the fourth 0; after a fourth failure the fire is out of control
// and the ship is lost.
func (p *phase) douse(s *Ship) error {
	if !s.Burning || s.Status == Burnt {
		p.event("Fires.2", "%s has no fire to fight", s.ID)
		return nil
	}
	s.FireTries++
	need := 6 + s.FireTries
	v, err := p.d10(fmt.Sprintf("douse/%s", s.ID), "Fires.3", 1)
	if err != nil {
		return err
	}
	if v[0] >= need {
		s.Burning, s.FireTries, s.FireTurns = false, 0, 0
		p.event("Fires.3", "%s fights her fire (attempt %d, needs %d+): %d, the fire is out", s.ID, need-6, need, shown(v[0]))
		return nil
	}
	p.event("Fires.3", "%s fights her fire (attempt %d, needs %d+): %d, it still burns", s.ID, need-6, need, shown(v[0]))
	if s.FireTries >= 4 {
		return p.outOfControl(s)
	}
	return nil
}

// outOfControl loses s to her fire (rule "Fires"): she burns and drifts for the rest of the
// game, and every base already in contact with her rolls at once to catch fire ("any base
// contacting the burning base must roll 1d10"), in scenario order.
func (p *phase) outOfControl(s *Ship) error {
	var touching []*Ship
	for _, o := range p.g.Ships {
		if o != s && p.g.onTable(o) && table.Contact(s.Corners(), o.Corners()) {
			touching = append(touching, o)
		}
	}
	s.Status = Burnt
	p.release(s)
	p.eventAs(adjudicator.KindLoss, "Fires.4", "%s's fire is out of control: she is lost, and burns and drifts downwind for the rest of the game", s.ID)
	for _, o := range touching {
		if err := p.catchFire(o, s, "is in contact with"); err != nil {
			return err
		}
	}
	return nil
}

// cut tries to cut s free of t (rule "Cutting Free"): 1d10, 1-4 succeeds, +2 for each other
// enemy ship in contact with s. Against a lashing (t a friend lashed to s) two successful
// cuts at that same lashing, by either ship of the pair, free them (rule "Lashing"); a cut at one lashing does not
// count towards another.
func (p *phase) cut(s *Ship, id string) error {
	t := p.g.ship(id)
	lashed := contains(s.Lashed, id)
	if !contains(s.Grappled, id) && !lashed {
		p.event("CuttingFree.1", "%s is not grappled with %s", s.ID, id)
		return nil
	}
	others := 0
	for _, e := range p.g.Ships {
		if e != t && e.Side != s.Side && e.Active() && table.Contact(s.Corners(), e.Corners()) {
			others++
		}
	}
	v, err := p.d10(fmt.Sprintf("cut/%s/%s", s.ID, id), "CuttingFree.1", 1)
	if err != nil {
		return err
	}
	score := v[0] + 2*others // a 0 reads 10: a failure
	if score > 4 {
		p.event("CuttingFree.2", "%s tries to cut free of %s: %d%s = %d, fails (1-4 succeeds)", s.ID, id, shown(v[0]), plus(others), score)
		return nil
	}
	if lashed {
		if !contains(s.CutAt, id) {
			s.CutAt, t.CutAt = addSorted(s.CutAt, id), addSorted(t.CutAt, s.ID)
			p.event("Lashing.1", "%s cuts at her lashing to %s: %d%s, one of the two cuts it needs", s.ID, id, shown(v[0]), plus(others))
			return nil
		}
		s.CutAt, t.CutAt = removeID(s.CutAt, id), removeID(t.CutAt, s.ID)
		s.Lashed, t.Lashed = removeID(s.Lashed, id), removeID(t.Lashed, s.ID)
		p.event("Lashing.1", "%s cuts free of %s: the second successful cut ends the lashing", s.ID, id)
		return nil
	}
	s.Grappled, t.Grappled = removeID(s.Grappled, id), removeID(t.Grappled, s.ID)
	p.event("CuttingFree.1", "%s cuts free of %s: %d%s, success", s.ID, id, shown(v[0]), plus(others))
	return nil
}

func plus(others int) string {
	if others == 0 {
		return ""
	}
	return fmt.Sprintf(" +%d (%d other enem%s in contact)", 2*others, others, map[bool]string{true: "y", false: "ies"}[others == 1])
}
