package lepanto

import (
	"slices"
	"strings"

	"navarch/adjudicator"
)

// Applicable returns the held orders of side that answer the step now due
// (adjudicator.AdvanceOrders): a player may order several groups in one mail, say ahead
// where his leaders go at the next Leader Move chit (LEADER TO, or the standing LEADERS
// STAY), in what order the boardings go (BOARD), which units leave at the next Disengage
// chit (DISENGAGE), and which group a fury chit activates again with what orders (an
// ACTIVATE line followed by that group's unit lines, 2.4.2). Standing orders held come along
// with the step's orders; alone they answer no step, so the player is still asked for it.
func (g *Game) Applicable(side string, held []adjudicator.Order) []adjudicator.Order {
	if g.Wait == waitNone || !slices.Contains(g.WaitSides, side) {
		return nil
	}
	var out []adjudicator.Order
	if g.Wait == waitFury {
		out = g.furyHeld(held)
	} else {
		fury := g.furyBlocks(held)
		for _, o := range held {
			if g.dueNow(o) && !fury[o] {
				out = append(out, o)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	var all []adjudicator.Order // in the order they were sent
	for _, o := range held {
		if _, standing := o.(*standingOrder); standing || slices.Contains(out, o) {
			all = append(all, o)
		}
	}
	return all
}

// furyBlocks marks the unit orders that follow an ACTIVATE line for the group it names: they
// are that fury activation's (2.4.2), not the group's own.
func (g *Game) furyBlocks(held []adjudicator.Order) map[adjudicator.Order]bool {
	unitGroup := func(id string) string {
		if u := g.unit(id); u != nil {
			return u.Group
		}
		return ""
	}
	out := map[adjudicator.Order]bool{}
	group := ""
	for _, o := range held {
		switch x := o.(type) {
		case *activateOrder:
			group = x.group
		case *unitOrder:
			if u := unitGroup(x.unit); group != "" && u == group && !x.disengage {
				out[o] = true
			}
		}
	}
	return out
}

// furyHeld is the first held ACTIVATE line for a group the chit drawn may activate again,
// with the unit lines that follow it (2.4.2).
func (g *Game) furyHeld(held []adjudicator.Order) []adjudicator.Order {
	eligible := g.furyGroups(g.WaitGroup)
	var out []adjudicator.Order
	group := ""
	for _, o := range held {
		switch x := o.(type) {
		case *activateOrder:
			if len(out) > 0 {
				return out
			}
			if slices.Contains(eligible, x.group) {
				out, group = append(out, o), x.group
			}
		case *unitOrder:
			if u := g.unit(x.unit); len(out) > 0 && u != nil && u.Group == group && !x.disengage {
				out = append(out, o)
			}
		}
	}
	return out
}

// dueNow reports whether an order belongs to the step now waited for.
func (g *Game) dueNow(o adjudicator.Order) bool {
	switch x := o.(type) {
	case *unitOrder:
		u := g.unit(x.unit)
		if x.disengage {
			return g.Wait == waitDisengage && u != nil && u.InPlay() && len(u.Engaged) > 0
		}
		return g.Wait == waitGroup && u != nil && u.Group == g.WaitGroup
	case *leaderOrder:
		return g.Wait == waitLeaderMove
	case *standingOrder:
		return g.Wait == waitLeaderMove && x.verb == "LEADERS" || g.Wait == waitDisengage && x.verb == "ENGAGED"
	case *boardOrder:
		return g.Wait == waitBoarding
	}
	return false
}

// Later returns the orders for steps still to come: unit orders for the side's units outside
// the group now due, DISENGAGE lines for its units, ACTIVATE lines for its groups, LEADER TO
// orders for its leaders and BOARD orders, when they are not due now. Standing orders take
// effect with the step's orders they come with; in a mail that answers no step they are held
// too, and come into force with the next step the side answers.
func (g *Game) Later(side string, orders []adjudicator.Order) []adjudicator.Order {
	now := g.Applicable(side, orders)
	var out []adjudicator.Order
	for _, o := range orders {
		if slices.Contains(now, o) {
			continue
		}
		switch x := o.(type) {
		case *unitOrder:
			if u := g.unit(x.unit); u != nil && u.Side == side && u.InPlay() {
				out = append(out, o)
			}
		case *activateOrder:
			if gr := g.group(x.group); gr != nil && gr.Side == side {
				out = append(out, o)
			}
		case *leaderOrder:
			if l := g.leader(x.leader); l != nil && l.Side == side && l.Status == "" {
				out = append(out, o)
			}
		case *boardOrder, *standingOrder:
			out = append(out, o)
		}
	}
	return out
}

// BotAdvanceOrders returns the bot's orders for every group of side that has not acted this
// turn, as if each were activated now, and its standing LEADERS STAY; then, for the chits to
// come, an ACTIVATE block for each of its groups (a fury chit takes the first it may, 2.4.2),
// DISENGAGE lines for its damaged engaged units (or ENGAGED STAY when it has none, 2.4.4) and
// the boardings' order (8): what a player sends to order ahead.
func (g *Game) BotAdvanceOrders(side string) string {
	wait, sides, group := g.Wait, g.WaitSides, g.WaitGroup
	defer func() { g.Wait, g.WaitSides, g.WaitGroup = wait, sides, group }()
	var lines, fury []string
	for _, gr := range g.Groups {
		if gr.Side != side {
			continue
		}
		g.Wait, g.WaitSides, g.WaitGroup = waitGroup, []string{side}, gr.ID
		text := g.BotOrders(side)
		if !gr.Acted && text != "" {
			lines = append(lines, text)
		}
		fury = append(fury, strings.TrimSpace("ACTIVATE "+gr.ID+"\n"+text))
	}
	if !slices.Contains(g.LeadersStay, side) {
		lines = append(lines, "LEADERS STAY") // the bot never moves its leaders (2.4.1)
	}
	g.Wait, g.WaitSides, g.WaitGroup = waitDisengage, []string{side}, ChitDisengage
	out := g.botDisengage(side)
	stay := slices.Contains(g.EngagedStay, side)
	switch {
	case out != "" && stay:
		lines = append(lines, "ENGAGED ASK", out)
	case out != "":
		lines = append(lines, out)
	case !stay:
		lines = append(lines, "ENGAGED STAY")
	}
	g.Wait, g.WaitSides, g.WaitGroup = waitBoarding, []string{side}, ChitBoarding
	if b := g.BotOrders(side); b != "" {
		lines = append(lines, b)
	}
	return strings.Join(append(lines, fury...), "\n")
}

var _ adjudicator.AdvanceOrders = (*Game)(nil)
