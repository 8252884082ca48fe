package lepanto

import (
	"slices"
	"strings"

	"navarch/adjudicator"
)

// Applicable returns the held unit orders for the units of the group whose Action Phase is
// due (adjudicator.AdvanceOrders): a player may order several groups in one mail.
func (g *Game) Applicable(side string, held []adjudicator.Order) []adjudicator.Order {
	if g.Wait != waitGroup || g.WaitSides[0] != side {
		return nil
	}
	var out []adjudicator.Order
	for _, o := range held {
		if uo, ok := o.(*unitOrder); ok && !uo.disengage {
			if u := g.unit(uo.unit); u != nil && u.Group == g.WaitGroup {
				out = append(out, o)
			}
		}
	}
	return out
}

// Later returns the unit orders for the side's units outside the group now due.
func (g *Game) Later(side string, orders []adjudicator.Order) []adjudicator.Order {
	now := g.Applicable(side, orders)
	var out []adjudicator.Order
	for _, o := range orders {
		uo, ok := o.(*unitOrder)
		if !ok || uo.disengage || slices.Contains(now, o) {
			continue
		}
		if u := g.unit(uo.unit); u != nil && u.Side == side && u.InPlay() {
			out = append(out, o)
		}
	}
	return out
}

// BotAdvanceOrders returns the bot's orders for every group of side that has not acted this
// turn, as if each were activated now: what a player sends to order ahead.
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
	return strings.Join(lines, "\n")
}

var _ adjudicator.AdvanceOrders = (*Game)(nil)
