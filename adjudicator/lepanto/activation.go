package lepanto

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
)

// orders resolves the step that waited for orders. A side that sent none gets the
// no-orders default: its units hold and it moves no leaders.
func (rs *resolver) orders(orders map[string][]adjudicator.Order) error {
	g := rs.g
	wait, group := g.Wait, g.WaitGroup
	g.Wait, g.WaitSides, g.WaitGroup = waitNone, nil, ""
	switch wait {
	case waitGroup:
		return rs.actionPhase(group, orders[g.group(group).Side], false)
	case waitFury:
		return rs.furyPhase(group, orders[furyChits[group][0]])
	case waitDisengage:
		return rs.disengage(orders)
	case waitBoarding:
		return rs.boardings(g.orderedPairs(orders[g.Drawer]))
	}
	for _, side := range g.leaderMoveOrder() { // the drawing player moves his leaders first (2.4.1)
		for _, o := range orders[side] {
			if lo, ok := o.(*leaderOrder); ok {
				rs.moveLeader(side, lo)
			}
		}
	}
	return nil
}

// actionPhase is a Group's Action Phase (2.2): each ordered unit in turn resolves its
// Maneuver, Battle and Recovery Segments before the next unit acts.
func (rs *resolver) actionPhase(group string, orders []adjudicator.Order, again bool) error {
	g := rs.g
	gr := g.group(group)
	if again { // a second activation reloads the whole group (5.6)
		for _, u := range g.Units {
			if u.Group == group && u.InPlay() {
				u.Fired = false
			}
		}
	}
	if len(orders) == 0 {
		rs.event("2.2", "Group %s takes no action", group)
	}
	repaired := false
	rs.grappled = map[Hex]bool{}
	for _, o := range orders {
		uo, ok := o.(*unitOrder)
		if !ok {
			continue
		}
		var err error
		if parts := uo.expand(); len(parts) > 1 {
			err = rs.stackSegments(parts, &repaired)
		} else {
			err = rs.unitSegments(uo, &repaired)
		}
		if err != nil {
			return err
		}
	}
	gr.Acted = true
	return nil
}

// lowerSails: a unit under sail within 3 hexes of the enemy lowers its sails before it acts,
// at no cost (12.3; 12.4 charges only voluntary changes); a ROW step ordered is that.
func (rs *resolver) lowerSails(u *Unit, o *unitOrder) *unitOrder {
	if !u.Sailing || !rs.g.enemyWithin(u, u.Hex, 3) {
		return o
	}
	u.Sailing = false
	rs.event("12.3", "%s is within 3 hexes of the enemy and lowers its sails, at no cost", u.ID)
	if len(o.move) > 0 && o.move[0].kind == stepRow {
		c := *o
		c.move = o.move[1:]
		return &c
	}
	return o
}

func (rs *resolver) unitSegments(o *unitOrder, repaired *bool) error {
	g := rs.g
	u := g.unit(o.unit)
	if u == nil || !u.InPlay() || o.pass {
		return nil
	}
	o = rs.lowerSails(u, o)
	if o.dest != nil { // a MOVE TO not validated: its path is found now, as Validate would
		path, err := (&board{g: g}).route(u, o.move, *o.dest, o.destFace)
		if err != nil {
			rs.event("3", "%s cannot move as ordered: %v; it stays at %s", u.ID, err, u.Hex)
			return nil
		}
		c := *o
		c.move, c.dest, c.destFace = path, nil, nil
		o = &c
	}
	attack := o.ram != "" || o.grapple != ""
	res := moveResult{end: position{u.Hex, u.Facing, u.Sailing}}
	if len(o.move) > 0 {
		var err error
		if res, err = rs.maneuver(u, o.move, !attack); err != nil || !u.InPlay() {
			return err
		}
	}
	return rs.afterManeuver(u, o, res, repaired)
}

// stackSegments: a stack moves together (3.2.1), its units one by one along its path, and
// stops as one: reaction fire then takes, at each hex where units of it stopped, the unit
// its firer's player aims at (5.3, AIM); then the stack's own unit makes its ram or grapple,
// fire and repair. Its other units fire on lines of their own that follow (2.2: "all
// combat ... is performed by individual units").
func (rs *resolver) stackSegments(parts []*unitOrder, repaired *bool) error {
	g := rs.g
	lead := parts[0]
	attack := lead.ram != "" || lead.grapple != ""
	var stopped []*Unit
	var leadRes moveResult
	for i, o := range parts {
		u := g.unit(o.unit)
		if u == nil || !u.InPlay() || o.pass {
			continue
		}
		o = rs.lowerSails(u, o)
		if i == 0 {
			lead = o
		}
		res := moveResult{end: position{u.Hex, u.Facing, u.Sailing}}
		if len(o.move) > 0 {
			var err error
			if res, err = rs.maneuver(u, o.move, false); err != nil {
				return err
			}
		}
		if i == 0 {
			leadRes = res
		}
		if res.entered > 0 && u.InPlay() && (i > 0 || !attack) {
			stopped = append(stopped, u)
		}
	}
	for len(stopped) > 0 {
		h := stopped[0].Hex
		var here, rest []*Unit
		for _, u := range stopped {
			if u.Hex == h {
				here = append(here, u)
			} else {
				rest = append(rest, u)
			}
		}
		if err := rs.reactionFire(here...); err != nil {
			return err
		}
		stopped = rest
	}
	u := g.unit(lead.unit)
	if u == nil || !u.InPlay() || lead.pass {
		return nil
	}
	return rs.afterManeuver(u, lead, leadRes, repaired)
}

// afterManeuver is the rest of a unit's segments once it has moved: its ram or grapple, its
// Battle Segment and its Recovery Segment (2.2).
func (rs *resolver) afterManeuver(u *Unit, o *unitOrder, res moveResult, repaired *bool) error {
	g := rs.g
	attack := o.ram != "" || o.grapple != ""
	if attack {
		if err := rs.contact(u, o, g.allowance(u)-res.mp); err != nil || !u.InPlay() {
			return err
		}
	}
	if len(o.fire) > 0 {
		if err := rs.battle(u, o.fire); err != nil {
			return err
		}
	}
	if o.repair && !*repaired && u.InPlay() {
		*repaired = true
		return rs.recover(u, res.entered > 0 || attack)
	}
	return nil
}

// maneuver moves the unit as ordered if the move is still legal, then, if it stops there,
// lets enemies that now have it in arc make reaction fire (5.3). A move that dice results
// have made illegal is not made (the report says why).
func (rs *resolver) maneuver(u *Unit, steps []pathStep, stops bool) (moveResult, error) {
	b := &board{g: rs.g}
	res, err := b.plan(u, steps)
	if err != nil {
		rs.event("3", "%s cannot move as ordered any more: %v; it stays at %s", u.ID, err, u.Hex)
		return moveResult{end: position{u.Hex, u.Facing, u.Sailing}, mp: rs.g.allowance(u)}, nil
	}
	from := u.Hex
	defer func() { rs.traceMove(u, pathHexes(from, steps, u.Hex)) }()
	if u.Sailing || len(steps) > 0 && steps[0].kind == stepSail {
		drifted, err := rs.sailMove(u, steps, res.end)
		if err != nil || drifted {
			return moveResult{end: position{u.Hex, u.Facing, u.Sailing}, mp: rs.g.allowance(u), entered: 1}, err
		}
	} else {
		u.Hex, u.Facing, u.Sailing = res.end.hex, res.end.facing, res.end.sailing
	}
	rs.eventAs(adjudicator.KindMove, "3", "%s moves %s→%s facing %s, %d MP%s", u.ID, from, u.Hex, u.Facing, res.mp, map[bool]string{true: ", under sail", false: ""}[u.Sailing])
	if res.entered == 0 || !stops {
		return res, nil
	}
	return res, rs.reactionFire(u)
}

// pathHexes lists the hexes a move went through, from its start to where the unit ended.
func pathHexes(from Hex, steps []pathStep, end Hex) []Hex {
	path := []Hex{from}
	for _, s := range steps {
		if s.kind == stepHex && s.hex != path[len(path)-1] {
			path = append(path, s.hex)
			if s.hex == end {
				break
			}
		}
	}
	if path[len(path)-1] != end {
		path = append(path, end)
	}
	return path
}

// contact resolves the ram or grapple that ends a unit's maneuver, if it is still possible.
func (rs *resolver) contact(u *Unit, o *unitOrder, mpLeft int) error {
	g := rs.g
	target := g.unit(o.ram + o.grapple)
	if why := g.ramTarget(u, target, position{u.Hex, u.Facing, u.Sailing}, mpLeft, o.grapple != ""); why != "" {
		rs.event("6.1", "%s cannot attack %s any more: %s", u.ID, o.ram+o.grapple, why)
		return nil
	}
	if o.grapple != "" {
		if rs.grappled[u.Hex] {
			rs.event("7.1", "%s cannot grapple from %s: a stack makes a single grappling attempt", u.ID, u.Hex)
			return nil
		}
		rs.grappled[u.Hex] = true
		return rs.grapple(u, target)
	}
	return rs.ram(u, target, o.ramOnce, o.ramBelow, o.ramGrab && !u.Galleass()) // galleasses cannot grapple (5)
}

// reactionFire: every enemy unit able to fire that has the units that just stopped in a hex
// in its arc fires first (5.3), unless its player's standing HOLD FIRE keeps it from it:
// reaction "can occur", and is the default. At a stack it fires at the unit its player's
// standing AIM names (a single ship or the squadron), else at the stack's own unit.
func (rs *resolver) reactionFire(movers ...*Unit) error {
	g := rs.g
	b := &board{g: g}
	for _, e := range slices.Clone(g.Units) {
		var left []*Unit
		for _, m := range movers {
			if m.InPlay() && m.Hex == movers[0].Hex {
				left = append(left, m)
			}
		}
		if len(left) == 0 {
			return nil
		}
		if e.Side == left[0].Side || e.HoldMove || g.canFire(e, true) != "" || !inArc(e, b.pos(e), left[0].Hex) {
			continue
		}
		if err := rs.artilleryFire(e, aimAt(e, left), true); err != nil {
			return err
		}
	}
	return nil
}

// aimAt picks the unit of a stack that e's reaction fire takes (5.3, AIM).
func aimAt(e *Unit, stack []*Unit) *Unit {
	for _, u := range stack {
		if e.ReactAt == "single" && u.Single() || e.ReactAt == "squadron" && !u.Single() {
			return u
		}
	}
	return stack[0]
}

// battle is the Battle Segment: the ordered Artillery Fire, if it is still possible. A
// galleass fires at each of its targets in turn, one per hex, and is inverted once all have
// been fired at (5.2.1, 5.6).
func (rs *resolver) battle(u *Unit, targets []string) error {
	g := rs.g
	if why := g.canFire(u, false); why != "" {
		rs.event("5.2", "%s does not fire at %s: it %s", u.ID, strings.Join(targets, ", "), why)
		return nil
	}
	b := &board{g: g}
	for _, target := range targets {
		t := g.unit(target)
		if !u.InPlay() {
			return nil
		}
		if t == nil || !t.InPlay() || !slices.Contains(b.targets(u), t.ID) {
			rs.event("5.2", "%s does not fire: %s is no longer an enemy in its arc", u.ID, target)
			continue
		}
		if err := rs.artilleryFire(u, t, false); err != nil {
			return err
		}
	}
	return nil
}

// recover is the Recovery Segment: the group's single repair check, 5 or 6 (9.1.1).
func (rs *resolver) recover(u *Unit, moved bool) error {
	if why := rs.g.cannotRepair(u, moved); why != "" {
		rs.event("9.1.1", "%s cannot be repaired: %s", u.ID, why)
		return nil
	}
	d6, roll, err := rs.roll("repair/"+u.ID, 6, "9.1.1")
	if err != nil {
		return err
	}
	ok := d6 >= 5
	roll.Note = map[bool]string{true: "repaired", false: "not repaired"}[ok]
	if ok {
		u.MastDown = false
	}
	rs.event("9.1.1", "Repair of %s: d6 %d, %s", u.ID, d6, roll.Note)
	return nil
}

// furyPhase: the side activates again one group that has acted (2.4.2). The ACTIVATE line
// may come anywhere among the orders (a team game's commander sends it apart from the group's
// orders); without it the chit is not used. Orders for units of other groups (sent by their
// commanders in case theirs was chosen) are not used.
func (rs *resolver) furyPhase(chit string, orders []adjudicator.Order) error {
	i := slices.IndexFunc(orders, func(o adjudicator.Order) bool { _, ok := o.(*activateOrder); return ok })
	if i < 0 {
		rs.event("2.4.2", "The %s chit is not used", chit)
		return nil
	}
	a := orders[i].(*activateOrder)
	if !slices.Contains(rs.g.furyGroups(chit), a.group) {
		return fmt.Errorf("lepanto: %s chit's ACTIVATE names no group that may act again", chit)
	}
	var group []adjudicator.Order
	for _, o := range orders {
		if uo, ok := o.(*unitOrder); ok {
			if u := rs.g.unit(uo.unit); u != nil && u.Group == a.group {
				group = append(group, o)
			}
		}
	}
	rs.event("2.4.2", "%s chit: group %s is activated again, reloaded", chit, a.group)
	rs.g.Drawer = furyChits[chit][0]
	return rs.actionPhase(a.group, group, true)
}

func (rs *resolver) moveLeader(side string, o *leaderOrder) {
	g := rs.g
	if why := g.cannotMoveLeader(side, o.leader, o.target); why != "" {
		rs.event("2.4.1", "%s does not move: %s", o.leader, why)
		return
	}
	l := g.leader(o.leader)
	from := l.Unit
	l.Unit = o.target
	if l.Hidden {
		rs.privateAs(adjudicator.KindMove, side, "2.4.1", "%s moves from %s to %s, still hidden", l.Name, from, o.target)
		return
	}
	rs.eventAs(adjudicator.KindMove, "2.4.1", "%s moves from %s to %s", l.Name, from, o.target)
}

// furyGroups lists the groups a fury chit may activate again: the chit side's groups that
// have acted this turn and have a unit in play in the chit's section (2.4.2).
func (g *Game) furyGroups(chit string) []string {
	side, section := furyChits[chit][0], furyChits[chit][1]
	var out []string
	for _, gr := range g.Groups {
		if gr.Side != side || !gr.Acted {
			continue
		}
		for _, u := range g.Units {
			if u.Group == gr.ID && u.InPlay() && g.m.InSection(u.Hex, section) {
				out = append(out, gr.ID)
				break
			}
		}
	}
	return out
}

func (g *Game) String() string {
	return fmt.Sprintf("lepanto %s turn %d act %d", g.sc.ID, g.Turn, g.Act)
}
