package lepanto

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
)

// Standing orders give back by mail the choices the rulebook leaves to a player where no
// step asks him (DESIGN: a choice must not cost a round trip). They may go in any orders a
// side sends, take effect when those orders are resolved (before the step's own orders) and
// hold until changed. Each has today's behaviour as its default:
//
//	HOLD FIRE UNIT|GROUP [MOVE|RAM]   no reaction fire (5.3 "can occur"; 6.2 "if desired")
//	REACT UNIT|GROUP [MOVE|RAM]       reaction fire again (the default)
//	LEADERS STAY | LEADERS ASK        not asked, or asked again, at Leader Move chits (2.4.1)
//	CAPTAIN GROUP ON UNIT             where a captain taking command of GROUP goes (4.4)
//	EVADE UNIT|GROUP BOW|STERN [N|S]  which way round an evade goes, leaning north or south (9.6 "may change facing")
//	LET BURN UNIT|GROUP | EXTINGUISH UNIT|GROUP   no extinguish roll, or the roll again (9.2.1 "can attempt")
//	AIM UNIT|GROUP SINGLE|SQUADRON    the unit of a stack its reaction fire takes (5.3)
//	RETURN UNIT AT HEX [FACING DIR]   where a fled unit comes back (9.6 "can reenter")
//	ENGAGED STAY | ENGAGED ASK        not asked, or asked again, at Disengage chits (2.4.4)
type standingOrder struct {
	line   int
	verb   string // HOLD, REACT, LEADERS, CAPTAIN
	target string // unit or group (HOLD, REACT, CAPTAIN); STAY or ASK (LEADERS)
	scope  string // MOVE, RAM or "" for both (HOLD, REACT)
	ship   string // CAPTAIN's unit
}

func (o *standingOrder) Line() int { return o.line }

func (o *standingOrder) String() string {
	switch o.verb {
	case "HOLD":
		return strings.TrimSpace("HOLD FIRE " + o.target + " " + o.scope)
	case "REACT":
		return strings.TrimSpace("REACT " + o.target + " " + o.scope)
	case "LEADERS", "ENGAGED":
		return o.verb + " " + o.target
	case "EVADE", "AIM":
		return o.verb + " " + o.target + " " + o.scope
	case "LET":
		return "LET BURN " + o.target
	case "EXTINGUISH":
		return "EXTINGUISH " + o.target
	case "RETURN":
		return strings.TrimSpace("RETURN " + o.target + " AT " + o.ship + " " + o.scope)
	}
	return "CAPTAIN " + o.target + " ON " + o.ship
}

// parseStanding reads a standing order line, or returns nil if the line is not one.
func parseStanding(n int, f []string) (adjudicator.Order, error) {
	switch {
	case f[0] == "HOLD" && len(f) >= 2 && f[1] == "FIRE":
		return parseFireChoice(n, "HOLD", f[2:])
	case f[0] == "REACT":
		return parseFireChoice(n, "REACT", f[1:])
	case f[0] == "LEADERS":
		if len(f) != 2 || f[1] != "STAY" && f[1] != "ASK" {
			return nil, fmt.Errorf("want LEADERS STAY or LEADERS ASK")
		}
		return &standingOrder{line: n, verb: "LEADERS", target: f[1]}, nil
	case f[0] == "CAPTAIN":
		if len(f) != 4 || f[2] != "ON" {
			return nil, fmt.Errorf("want CAPTAIN GROUP ON UNIT")
		}
		return &standingOrder{line: n, verb: "CAPTAIN", target: f[1], ship: f[3]}, nil
	case f[0] == "ENGAGED":
		if len(f) != 2 || f[1] != "STAY" && f[1] != "ASK" {
			return nil, fmt.Errorf("want ENGAGED STAY or ENGAGED ASK")
		}
		return &standingOrder{line: n, verb: "ENGAGED", target: f[1]}, nil
	case f[0] == "EVADE":
		if len(f) < 3 || len(f) > 4 || f[2] != "BOW" && f[2] != "STERN" || len(f) == 4 && f[3] != "N" && f[3] != "S" {
			return nil, fmt.Errorf("want EVADE UNIT|GROUP BOW|STERN [N|S]")
		}
		return &standingOrder{line: n, verb: "EVADE", target: f[1], scope: strings.Join(f[2:], " ")}, nil
	case f[0] == "AIM":
		if len(f) != 3 || f[2] != "SINGLE" && f[2] != "SQUADRON" {
			return nil, fmt.Errorf("want AIM UNIT|GROUP SINGLE|SQUADRON")
		}
		return &standingOrder{line: n, verb: "AIM", target: f[1], scope: f[2]}, nil
	case f[0] == "LET" && len(f) >= 2 && f[1] == "BURN", f[0] == "EXTINGUISH":
		verb, rest := f[0], f[1:]
		if verb == "LET" {
			rest = f[2:]
		}
		if len(rest) != 1 {
			return nil, fmt.Errorf("want LET BURN UNIT|GROUP or EXTINGUISH UNIT|GROUP")
		}
		return &standingOrder{line: n, verb: verb, target: rest[0]}, nil
	case f[0] == "RETURN":
		return parseReturn(n, f)
	}
	return nil, nil
}

// parseReturn reads RETURN UNIT AT HEX [FACING DIR].
func parseReturn(n int, f []string) (adjudicator.Order, error) {
	bad := fmt.Errorf("want RETURN UNIT AT HEX [FACING DIR]")
	if len(f) != 4 && (len(f) != 6 || f[4] != "FACING") || f[2] != "AT" {
		return nil, bad
	}
	if _, err := ParseHex(f[3]); err != nil {
		return nil, fmt.Errorf("%w: %v", bad, err)
	}
	o := &standingOrder{line: n, verb: "RETURN", target: f[1], ship: f[3]}
	if len(f) == 6 {
		d, err := ParseDir(f[5])
		if err != nil {
			return nil, fmt.Errorf("%w: %v", bad, err)
		}
		o.scope = "FACING " + d.String()
	}
	return o, nil
}

func parseFireChoice(n int, verb string, rest []string) (adjudicator.Order, error) {
	if len(rest) < 1 || len(rest) > 2 || len(rest) == 2 && rest[1] != "MOVE" && rest[1] != "RAM" {
		return nil, fmt.Errorf("want %s UNIT|GROUP [MOVE|RAM]", map[string]string{"HOLD": "HOLD FIRE", "REACT": "REACT"}[verb])
	}
	o := &standingOrder{line: n, verb: verb, target: rest[0]}
	if len(rest) == 2 {
		o.scope = rest[1]
	}
	return o, nil
}

// splitStanding separates the standing orders from the step's own orders.
func splitStanding(orders []adjudicator.Order) (standing, rest []adjudicator.Order) {
	for _, o := range orders {
		if _, ok := o.(*standingOrder); ok {
			standing = append(standing, o)
		} else {
			rest = append(rest, o)
		}
	}
	return standing, rest
}

// Standing implements adjudicator.StandingOrders: the standing orders of the list above, each
// a line of its own.
func (g *Game) Standing(side string, orders []adjudicator.Order) (standing, rest []adjudicator.Order) {
	return splitStanding(orders)
}

// KindChit is the kind of the standing orders a chit drawn reads (docs/LEPANTO.md "Standing
// orders and the steps that use them"): LEADERS (2.4.1, whom a Leader Move chit asks),
// ENGAGED (2.4.4, whom a Disengage chit asks), LET BURN and EXTINGUISH (9.2.1, the Fire
// Roll chit's extinguish rolls). The draw step applies them alone, so that a HOLD FIRE sent
// in the same mail stays sealed until the enemy activation it is meant for.
const KindChit = "chit"

// StandingKind implements adjudicator.StandingOrders: KindChit for the choices a chit
// drawn reads, the plain kind for the others.
func (g *Game) StandingKind(o adjudicator.Order) string {
	if so, ok := o.(*standingOrder); ok {
		switch so.verb {
		case "LEADERS", "ENGAGED", "LET", "EXTINGUISH":
			return KindChit
		}
	}
	return ""
}

// standing checks a standing order of the side: it names the side's own unit or group.
func (v *validation) standing(o adjudicator.Order) {
	so := o.(*standingOrder)
	g := v.g
	switch so.verb {
	case "HOLD", "REACT", "EVADE", "AIM", "LET", "EXTINGUISH":
		if len(g.fireChoiceUnits(v.side, so.target)) == 0 {
			v.fail(o, nil, "%s is not a unit or group of yours in play", so.target)
		}
	case "RETURN":
		if u := g.unit(so.target); u == nil || u.Side != v.side || u.Status != "" && u.Status != "fled" {
			v.fail(o, nil, "%s is not a unit of yours in play or fled", so.target)
		}
	case "CAPTAIN":
		gr := g.group(so.target)
		switch {
		case gr == nil || gr.Side != v.side:
			v.fail(o, nil, "%s is not a group of yours", so.target)
		case !slices.Contains(g.leaderShips(gr.ID), so.ship):
			v.fail(o, g.leaderShips(gr.ID), "a captain of %s goes aboard a unit of his group in play, a single ship while it has one (4.1, 4.4)", gr.ID)
		}
	}
}

// fireChoiceUnits lists the side's units in play a HOLD FIRE or REACT order names: the unit,
// or every unit of the group.
func (g *Game) fireChoiceUnits(side, target string) []*Unit {
	var out []*Unit
	for _, u := range g.Units {
		if u.Side == side && u.InPlay() && (u.ID == target || u.Group == target) {
			out = append(out, u)
		}
	}
	return out
}

// leaderShips lists where a leader of the group may start or a captain go: its single ships
// in play, or its squadrons if it has none (4.1, 4.4).
func (g *Game) leaderShips(group string) []string {
	var singles, all []string
	for _, u := range g.Units {
		if u.Group == group && u.InPlay() {
			all = append(all, u.ID)
			if u.Single() {
				singles = append(singles, u.ID)
			}
		}
	}
	if len(singles) > 0 {
		return singles
	}
	return all
}

// heldStanding are a side's standing orders sent before the step that applies them.
type heldStanding struct {
	side   string
	orders []adjudicator.Order
}

// ApplyStanding implements adjudicator.StandingOrders: the next Resolve applies side's
// standing orders, held since they were sent, before the step's own orders; each replaces
// what an earlier one of the same kind said for its units (as in the orders of a step).
func (g *Game) ApplyStanding(side string, standing []adjudicator.Order) {
	var own []adjudicator.Order
	for _, o := range standing {
		if _, ok := o.(*standingOrder); ok {
			own = append(own, o)
		}
	}
	g.held = append(g.held, heldStanding{side, own})
}

// applyHeld applies the standing orders ApplyStanding gave, in the order given, and tells
// every side of each (it counts from now on, so the rules make it known); one that names
// a unit or group of the side no longer in play is passed over.
func (rs *resolver) applyHeld() {
	g := rs.g
	held := g.held
	g.held = nil
	for _, h := range held {
		for _, o := range h.orders {
			so := o.(*standingOrder)
			if !rs.applicable(h.side, so) {
				continue
			}
			rs.heldNow = true
			rs.applyOne(h.side, so)
			rs.heldNow = false
		}
	}
}

// told tells of a standing order applied: its side alone when it came with the step's own
// orders (v3's way), every side when it was held until now.
func (rs *resolver) told(side, rule string, o *standingOrder) {
	if rs.heldNow { // told to every side, never a report's headline
		rs.eventAs(adjudicator.KindTold, rule, "Standing order of %s, sent before and applied now: %s", side, o)
		return
	}
	rs.privateAs(adjudicator.KindTold, side, rule, "Standing order: %s", o) // never a report's headline
}

// applicable says whether a held standing order still names something of side's.
func (rs *resolver) applicable(side string, o *standingOrder) bool {
	g := rs.g
	switch o.verb {
	case "CAPTAIN":
		gr := g.group(o.target)
		return gr != nil && gr.Side == side && slices.Contains(g.leaderShips(gr.ID), o.ship)
	case "RETURN":
		u := g.unit(o.target)
		return u != nil && u.Side == side && (u.Status == "" || u.Status == "fled")
	case "LEADERS", "ENGAGED":
		return true
	}
	return len(g.fireChoiceUnits(side, o.target)) > 0
}

// applyStanding records the standing orders of every side, in the sides' order.
// A captain navarch placed by default may be moved by his owner's CAPTAIN order in the next
// orders the owner sends ("at the owning player's wish", 4.4); after them he stays.
func (rs *resolver) applyStanding(orders map[string][]adjudicator.Order) {
	g := rs.g
	rs.applyHeld()
	for _, side := range g.sc.Sides {
		standing, _ := splitStanding(orders[side])
		for _, o := range standing {
			rs.applyOne(side, o.(*standingOrder))
		}
		if _, sent := orders[side]; sent {
			for _, l := range g.Leaders {
				if l.Side == side {
					l.Placed = false
				}
			}
		}
	}
}

func (rs *resolver) applyOne(side string, o *standingOrder) {
	g := rs.g
	switch o.verb {
	case "HOLD", "REACT":
		hold := o.verb == "HOLD"
		for _, u := range g.fireChoiceUnits(side, o.target) {
			if o.scope != "RAM" {
				u.HoldMove = hold
			}
			if o.scope != "MOVE" {
				u.HoldRam = hold
			}
		}
		rs.told(side, "5.3", o)
	case "LEADERS":
		g.LeadersStay = slices.DeleteFunc(slices.Clone(g.LeadersStay), func(s string) bool { return s == side })
		if o.target == "STAY" {
			g.LeadersStay = append(g.LeadersStay, side)
			slices.Sort(g.LeadersStay)
		}
		rs.told(side, "2.4.1", o)
	case "EVADE", "AIM", "LET", "EXTINGUISH":
		for _, u := range g.fireChoiceUnits(side, o.target) {
			switch o.verb {
			case "EVADE":
				mode, lean, _ := strings.Cut(o.scope, " ")
				u.EvadeStern, u.EvadeLean = mode == "STERN", lean
			case "AIM":
				u.ReactAt = map[string]string{"SINGLE": "single", "SQUADRON": "squadron"}[o.scope]
			default:
				u.NoExtinguish = o.verb == "LET"
			}
		}
		rs.told(side, map[string]string{"EVADE": "9.6", "AIM": "5.3", "LET": "9.2.1", "EXTINGUISH": "9.2.1"}[o.verb], o)
	case "RETURN":
		u := g.unit(o.target)
		u.ReturnAt = strings.TrimSpace(o.ship + " " + strings.TrimPrefix(o.scope, "FACING "))
		rs.told(side, "9.6", o)
	case "ENGAGED":
		g.EngagedStay = slices.DeleteFunc(slices.Clone(g.EngagedStay), func(s string) bool { return s == side })
		if o.target == "STAY" {
			g.EngagedStay = append(g.EngagedStay, side)
			slices.Sort(g.EngagedStay)
		}
		rs.told(side, "2.4.4", o)
	case "CAPTAIN":
		g.group(o.target).CaptainOn = o.ship
		rs.told(side, "4.4", o)
		for _, l := range g.Leaders {
			if l.Placed && l.Status == "" && l.Group == o.target && l.Unit != o.ship {
				rs.event("4.4", "%s moves aboard %s at his player's wish", l.ID, o.ship)
				l.Unit = o.ship
			}
		}
	}
}

// ValidateStanding implements adjudicator.StandingOrders: each standing order names the
// side's own unit or group (as in the orders of a step), whatever step is due.
func (g *Game) ValidateStanding(side string, standing []adjudicator.Order) []adjudicator.LineError {
	v := &validation{g: g, side: side, seen: map[string]bool{}}
	for _, o := range standing {
		if _, ok := o.(*standingOrder); !ok {
			v.fail(o, nil, "not a standing order")
			continue
		}
		v.standing(o)
	}
	return v.errs
}
