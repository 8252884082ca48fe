package lepanto

import (
	"slices"
	"strings"

	"navarch/adjudicator"
)

// Applicable returns the held orders of side that answer the step now due
// (adjudicator.AdvanceOrders): a player may order several groups in one mail, say ahead
// where his leaders go at the next Leader Move chit (LEADER TO, or the standing LEADERS
// STAY) and in what order the boardings go (BOARD). Standing orders held come along with
// the step's orders; alone they answer no step, so the player is still asked for it.
func (g *Game) Applicable(side string, held []adjudicator.Order) []adjudicator.Order {
	if g.Wait == waitNone || !slices.Contains(g.WaitSides, side) {
		return nil
	}
	var out []adjudicator.Order
	due := false
	for _, o := range held {
		_, standing := o.(*standingOrder)
		if g.dueNow(o) {
			due = true
		}
		if standing || g.dueNow(o) {
			out = append(out, o)
		}
	}
	if !due {
		return nil
	}
	return out
}

// dueNow reports whether an order belongs to the step now waited for.
func (g *Game) dueNow(o adjudicator.Order) bool {
	switch x := o.(type) {
	case *unitOrder:
		u := g.unit(x.unit)
		return g.Wait == waitGroup && !x.disengage && u != nil && u.Group == g.WaitGroup
	case *leaderOrder:
		return g.Wait == waitLeaderMove
	case *standingOrder:
		return g.Wait == waitLeaderMove && x.verb == "LEADERS"
	case *boardOrder:
		return g.Wait == waitBoarding
	}
	return false
}

// Later returns the orders for steps still to come: unit orders for the side's units outside
// the group now due, LEADER TO orders for its leaders and BOARD orders, when they are not
// due now. Standing orders are neither: they take effect with the orders they came with.
func (g *Game) Later(side string, orders []adjudicator.Order) []adjudicator.Order {
	now := g.Applicable(side, orders)
	var out []adjudicator.Order
	for _, o := range orders {
		if slices.Contains(now, o) {
			continue
		}
		switch x := o.(type) {
		case *unitOrder:
			if u := g.unit(x.unit); !x.disengage && u != nil && u.Side == side && u.InPlay() {
				out = append(out, o)
			}
		case *leaderOrder:
			if l := g.leader(x.leader); l != nil && l.Side == side && l.Status == "" {
				out = append(out, o)
			}
		case *boardOrder:
			out = append(out, o)
		}
	}
	return out
}

// BotAdvanceOrders returns the bot's orders for every group of side that has not acted this
// turn, as if each were activated now, and its standing LEADERS STAY: what a player sends to
// order ahead.
func (g *Game) BotAdvanceOrders(side string) string {
	wait, sides, group := g.Wait, g.WaitSides, g.WaitGroup
	defer func() { g.Wait, g.WaitSides, g.WaitGroup = wait, sides, group }()
	var lines []string
	for _, gr := range g.Groups {
		if gr.Side != side || gr.Acted {
			continue
		}
		g.Wait, g.WaitSides, g.WaitGroup = waitGroup, []string{side}, gr.ID
		if text := g.BotOrders(side); text != "" {
			lines = append(lines, text)
		}
	}
	if !slices.Contains(g.LeadersStay, side) {
		lines = append(lines, "LEADERS STAY") // the bot never moves its leaders (2.4.1)
	}
	return strings.Join(lines, "\n")
}

var _ adjudicator.AdvanceOrders = (*Game)(nil)
