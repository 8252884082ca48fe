package lepanto

import (
	"errors"
	"fmt"
	"slices"

	"navarch/adjudicator"
)

// Validate checks a side's orders for the current step against the state. It plays the
// maneuvers through in order, so that each unit's move is checked against where the units
// ordered before it will stand; dice results may still void an order at resolution (a target
// sunk by reaction fire, say), and the report says so.
func (g *Game) Validate(side string, orders []adjudicator.Order) []adjudicator.LineError {
	standing, orders := splitStanding(orders)
	if !g.SetUp && slices.Contains(g.sc.Sides, side) {
		v := &validation{g: g, side: side, seen: map[string]bool{}}
		for _, o := range standing {
			v.standing(o)
		}
		v.setUp(orders)
		return v.errs
	}
	if g.Wait == waitNone || !slices.Contains(g.WaitSides, side) {
		return []adjudicator.LineError{{Err: fmt.Errorf("%w: no orders are awaited from %s now", adjudicator.ErrIllegal, side)}}
	}
	v := &validation{g: g, side: side, b: &board{g: g, moved: map[string]position{}}, seen: map[string]bool{}, grappled: map[Hex]bool{}}
	for _, o := range standing {
		v.standing(o)
	}
	switch g.Wait {
	case waitBoarding:
		v.board(orders)
	case waitGroup:
		v.group = g.WaitGroup
		v.units(orders)
	case waitFury:
		v.fury(orders)
	case waitLeaderMove:
		for _, o := range orders {
			v.leaderMove(o)
		}
	case waitDisengage:
		for _, o := range orders {
			v.disengage(o)
		}
	}
	return v.errs
}

type validation struct {
	g        *Game
	side     string
	group    string
	b        *board
	seen     map[string]bool
	repaired bool
	reloaded bool         // a group activated again counts as reloaded (5.6)
	grappled map[Hex]bool // hexes a grappling attempt was made from (7.1)
	errs     []adjudicator.LineError
}

func (v *validation) fail(o adjudicator.Order, legal []string, format string, args ...any) {
	v.errs = append(v.errs, adjudicator.LineError{Line: o.Line(), Text: o.String(),
		Err: fmt.Errorf("%w: %s", adjudicator.ErrIllegal, fmt.Sprintf(format, args...)), Legal: legal})
}

func (v *validation) units(orders []adjudicator.Order) {
	var members map[string]bool // units of the stack just ordered, which may fire on lines of their own
	for _, o := range orders {
		uo, ok := o.(*unitOrder)
		if !ok {
			v.fail(o, nil, "only unit orders of group %s are due now", v.group)
			continue
		}
		if members[uo.unit] && uo.fireOnly() {
			delete(members, uo.unit)
			v.fire(uo, v.g.unit(uo.unit))
			continue
		}
		members = nil
		if len(uo.stack) > 0 && !v.stackable(uo) {
			continue
		}
		for _, part := range uo.expand() {
			v.unit(part)
		}
		if len(uo.stack) > 0 {
			members = map[string]bool{}
			for _, m := range uo.stack {
				members[m] = true
			}
		}
	}
}

// stackable: the units of a moving stack stand together in the stack's hex, facing alike,
// and none is a galleass or engaged (3.2, 3.2.1).
func (v *validation) stackable(o *unitOrder) bool {
	g := v.g
	lead := g.unit(o.unit)
	for _, id := range o.stack {
		m := g.unit(id)
		switch {
		case lead == nil || m == nil || m.Group != v.group || !m.InPlay():
			v.fail(o, g.groupUnits(v.group), "%s is not a unit of group %s in play", id, v.group)
		case v.b.pos(m) != v.b.pos(lead):
			v.fail(o, nil, "%s does not stand in %s's hex facing the same way: move it separately (3.2.1)", id, lead.ID)
		case m.Galleass() || lead.Galleass():
			v.fail(o, nil, "galleasses never stack (3.2)")
		default:
			continue
		}
		return false
	}
	return true
}

// fury: an ACTIVATE line names a group that has acted this turn, in the chit's section
// (2.4.2), and the unit orders are that group's. In a team game (adjudicator.Teams) the side's
// commander chooses the group and each group's commander gives its orders in case it is the
// one: orders without ACTIVATE are checked for each group they name that may act again.
func (v *validation) fury(orders []adjudicator.Order) {
	eligible := v.g.furyGroups(v.g.WaitGroup)
	if len(orders) == 0 {
		return // no orders: the chit is not used
	}
	v.reloaded = true
	i := slices.IndexFunc(orders, func(o adjudicator.Order) bool { _, ok := o.(*activateOrder); return ok })
	if i < 0 {
		v.furyGroupsOrders(orders, eligible)
		return
	}
	a := orders[i].(*activateOrder)
	if !slices.Contains(eligible, a.group) {
		v.fail(orders[i], eligible, "want ACTIVATE with a group that has acted this turn in the chit's section")
		return
	}
	v.group = a.group
	v.units(slices.Delete(slices.Clone(orders), i, i+1))
}

// furyGroupsOrders checks a fury chit's unit orders sent without ACTIVATE: each for a unit of
// a group that may act again, each group's orders checked as that group's activation.
func (v *validation) furyGroupsOrders(orders []adjudicator.Order, eligible []string) {
	by := map[string][]adjudicator.Order{}
	for _, o := range orders {
		uo, ok := o.(*unitOrder)
		u := v.g.unit(uoUnit(uo))
		if !ok || u == nil || !slices.Contains(eligible, u.Group) {
			v.fail(o, eligible, "the orders for a fury chit are ACTIVATE with a group that has acted this turn in the chit's section, and unit orders for such a group")
			continue
		}
		by[u.Group] = append(by[u.Group], o)
	}
	for _, gr := range eligible {
		if len(by[gr]) > 0 {
			v.group, v.b = gr, &board{g: v.g, moved: map[string]position{}}
			v.seen, v.grappled, v.repaired = map[string]bool{}, map[Hex]bool{}, false
			v.units(by[gr])
		}
	}
}

func (v *validation) unit(o *unitOrder) {
	g := v.g
	u := g.unit(o.unit)
	switch {
	case u == nil || u.Group != v.group:
		v.fail(o, g.groupUnits(v.group), "%s is not a unit of group %s", o.unit, v.group)
		return
	case !u.InPlay():
		v.fail(o, nil, "%s is out of play (%s)", u.ID, u.Status)
		return
	case v.seen[u.ID] && u.Galleass():
		v.fail(o, nil, "%s has orders on an earlier line; a unit acts once per activation (2.2): give a galleass's fires on its one line, UNIT FIRE T1 FIRE T2 (5.2.1)", u.ID)
		return
	case v.seen[u.ID] && o.fireOnly():
		v.fail(o, nil, "%s has orders on an earlier line; a unit moved in a STACK fires on a line of its own right after the stack's line (2.2, 3.2.1)", u.ID)
		return
	case v.seen[u.ID]:
		v.fail(o, nil, "%s has orders on an earlier line; a unit acts once per activation (2.2)", u.ID)
		return
	}
	v.seen[u.ID] = true
	if o.pass {
		return
	}
	if o.disengage {
		v.fail(o, nil, "DISENGAGE is an order for the Disengage chit (2.4.4)")
		return
	}
	if o.dest != nil { // MOVE TO: the path of fewest MP, which the order then holds (and the log records)
		path, err := v.b.route(u, o.move, *o.dest, o.destFace)
		if err != nil {
			var me *moveError
			errors.As(err, &me)
			v.fail(o, g.reach(u), "%s", me.msg)
			return
		}
		o.move, o.dest, o.destFace = path, nil, nil
	}
	res := moveResult{end: v.b.pos(u)}
	if len(o.move) > 0 || o.ram != "" || o.grapple != "" {
		var err error
		if res, err = v.b.plan(u, o.move); err != nil {
			var me *moveError
			errors.As(err, &me)
			v.fail(o, me.legal, "%s", me.msg)
			return
		}
		v.b.moved[u.ID] = res.end
	}
	if o.ram != "" || o.grapple != "" {
		target := o.ram + o.grapple
		if why := v.g.ramTarget(u, v.g.unit(target), res.end, v.g.allowance(u)-res.mp, o.grapple != ""); why != "" {
			v.fail(o, nil, "%s cannot %s %s: %s", u.ID, map[bool]string{true: "grapple", false: "ram"}[o.grapple != ""], target, why)
			return
		}
		if o.ramGrab && u.Galleass() {
			v.fail(o, nil, "%s cannot grapple %s after its ram: galleasses cannot grapple (5)", u.ID, target)
			return
		}
		if o.grapple != "" {
			if v.grappled[res.end.hex] {
				v.fail(o, nil, "%s cannot grapple from %s: a stack makes a single grappling attempt (7.1)", u.ID, res.end.hex)
				return
			}
			v.grappled[res.end.hex] = true
		}
	}
	if len(o.fire) > 0 {
		v.fire(o, u)
	}
	if o.repair {
		v.repair(o, u, res.entered > 0 || o.ram != "" || o.grapple != "")
	}
}

// disengage: an engaged unit of the side leaves the engagement hex along a legal way out
// (2.4.4, 7.2).
func (v *validation) disengage(o adjudicator.Order) {
	uo, ok := o.(*unitOrder)
	u := v.g.unit(uoUnit(uo))
	switch {
	case !ok || !uo.disengage:
		v.fail(o, nil, "only UNIT DISENGAGE orders are due for the Disengage chit")
	case u == nil || u.Side != v.side || len(u.Engaged) == 0:
		v.fail(o, v.g.engagedUnits(v.side), "%s is not an engaged unit of yours", uo.unit)
	case v.seen[u.ID]:
		v.fail(o, nil, "%s has orders on an earlier line", u.ID)
	default:
		v.seen[u.ID] = true
		if _, err := v.b.planOut(u, uo.move); err != nil {
			v.fail(o, nil, "%v", err)
		}
	}
}

func uoUnit(o *unitOrder) string {
	if o == nil {
		return ""
	}
	return o.unit
}

func (g *Game) engagedUnits(side string) []string {
	var out []string
	for _, u := range g.Units {
		if u.InPlay() && u.Side == side && len(u.Engaged) > 0 {
			out = append(out, u.ID)
		}
	}
	return out
}

// fire: the unit can fire (a group activated again counts as reloaded, 5.6), each target is
// an enemy in its arc, and only a galleass fires more than once, at most once into each of
// the hexes around it (5.2.1).
func (v *validation) fire(o *unitOrder, u *Unit) {
	g := v.g
	c := *u
	if v.reloaded {
		c.Fired = false
	}
	if why := g.canFire(&c, false); why != "" {
		v.fail(o, nil, "%s cannot fire: it %s", u.ID, why)
		return
	}
	if len(o.fire) > 1 && !u.Galleass() {
		v.fail(o, nil, "only a galleass fires more than once in an activation (5.2.1)")
		return
	}
	targets := v.b.targets(u)
	hexes := map[Hex]bool{}
	for _, t := range o.fire {
		if !slices.Contains(targets, t) {
			v.fail(o, targets, "%s is not an enemy unit adjacent to %s and in its arc of fire (5.2.1)", t, u.ID)
			return
		}
		h := v.b.pos(g.unit(t)).hex
		if hexes[h] {
			v.fail(o, nil, "a galleass fires once into each hex around it: %s is in %s, fired at already (5.2.1)", t, h)
			return
		}
		hexes[h] = true
	}
}

// targets lists the enemy units in play that u, where it stands on the board, has in arc.
func (b *board) targets(u *Unit) []string {
	p := b.pos(u)
	var out []string
	for _, t := range b.g.Units {
		if t.InPlay() && t.Side != u.Side && inArc(u, p, b.pos(t).hex) {
			out = append(out, t.ID)
		}
	}
	return out
}

// repair: one attempt per group activation, for a Mast Down unit that did not move (turning
// in place is "facing change without moving", 3.1.3), is not engaged and is within 2 hexes
// of another unit of its group (9.1.1).
func (v *validation) repair(o *unitOrder, u *Unit, moved bool) {
	if why := v.g.cannotRepair(u, moved); why != "" {
		v.fail(o, nil, "%s cannot be repaired: %s (9.1.1)", u.ID, why)
		return
	}
	if v.repaired {
		v.fail(o, nil, "a group makes a single repair check per activation (9.1.1)")
	}
	v.repaired = true
}

func (g *Game) cannotRepair(u *Unit, moved bool) string {
	switch {
	case !u.MastDown:
		return "it is not Mast Down"
	case moved:
		return "it moves in its Maneuver Segment"
	case len(u.Engaged) > 0:
		return "it is engaged"
	}
	for _, o := range g.Units {
		if o != u && o.InPlay() && o.Group == u.Group && o.Hex.Distance(u.Hex) <= 2 {
			return ""
		}
	}
	return "no other unit of its group is within 2 hexes"
}

func (g *Game) groupUnits(group string) []string {
	var out []string
	for _, u := range g.Units {
		if u.Group == group && u.InPlay() {
			out = append(out, u.ID)
		}
	}
	return out
}

// leaderMove: a leader of the side moves to another unit of his group within two hexes,
// a single ship while his group has one (2.4.1, 4.1).
func (v *validation) leaderMove(o adjudicator.Order) {
	lo, ok := o.(*leaderOrder)
	if !ok {
		v.fail(o, nil, "only LEADER TO UNIT orders are due for the Leader Move chit")
		return
	}
	if why := v.g.cannotMoveLeader(v.side, lo.leader, lo.target); why != "" {
		v.fail(o, v.g.leaderTargets(lo.leader), "%s", why)
	}
}

func (g *Game) cannotMoveLeader(side, id, target string) string {
	l, t := g.leader(id), g.unit(target)
	switch {
	case l == nil || l.Side != side || l.Status != "":
		return fmt.Sprintf("%s is not a leader of yours in play", id)
	case !slices.Contains(g.leaderTargets(id), target) || t == nil:
		return fmt.Sprintf("%s may not move to %s: another unit of group %s within two hexes, a single ship while the group has one (2.4.1)", id, target, l.Group)
	}
	return ""
}

func (g *Game) leaderTargets(id string) []string {
	l := g.leader(id)
	if l == nil || l.Status != "" {
		return nil
	}
	from := g.unit(l.Unit)
	if from == nil || !from.InPlay() {
		return nil // aboard a fled ship, out of the game with it (9.6)
	}
	singles := false
	for _, u := range g.Units {
		singles = singles || u.InPlay() && u.Group == l.Group && u.Single()
	}
	var out []string
	for _, u := range g.Units {
		d := u.Hex.Distance(from.Hex)
		if u.InPlay() && u.Group == l.Group && u != from && d >= 1 && d <= 2 && (u.Single() || !singles) {
			out = append(out, u.ID)
		}
	}
	return out
}
