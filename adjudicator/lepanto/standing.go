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
	case "LEADERS":
		return "LEADERS " + o.target
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
	}
	return nil, nil
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

// standing checks a standing order of the side: it names the side's own unit or group.
func (v *validation) standing(o adjudicator.Order) {
	so := o.(*standingOrder)
	g := v.g
	switch so.verb {
	case "HOLD", "REACT":
		if len(g.fireChoiceUnits(v.side, so.target)) == 0 {
			v.fail(o, nil, "%s is not a unit or group of yours in play", so.target)
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

// applyStanding records the standing orders of every side, in the sides' order.
// A captain navarch placed by default may be moved by his owner's CAPTAIN order in the next
// orders the owner sends ("at the owning player's wish", 4.4); after them he stays.
func (rs *resolver) applyStanding(orders map[string][]adjudicator.Order) {
	g := rs.g
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
		rs.private(side, "5.3", "Standing order: %s", o)
	case "LEADERS":
		g.LeadersStay = slices.DeleteFunc(slices.Clone(g.LeadersStay), func(s string) bool { return s == side })
		if o.target == "STAY" {
			g.LeadersStay = append(g.LeadersStay, side)
			slices.Sort(g.LeadersStay)
		}
		rs.private(side, "2.4.1", "Standing order: %s", o)
	case "CAPTAIN":
		g.group(o.target).CaptainOn = o.ship
		rs.private(side, "4.4", "Standing order: %s", o)
		for _, l := range g.Leaders {
			if l.Placed && l.Status == "" && l.Group == o.target && l.Unit != o.ship {
				rs.event("4.4", "%s moves aboard %s at his player's wish", l.ID, o.ship)
				l.Unit = o.ship
			}
		}
	}
}
