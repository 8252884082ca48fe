package medieval

import (
	"slices"

	"navarch/adjudicator"
)

var _ adjudicator.AdvanceOrders = (*Game)(nil)

// Kinds of order line, by the card they belong to (rule "Sequence").
const (
	sailFightLine = "sail/fight"
	commandLine   = "command"
	eitherLine    = "" // HOLD, or standing orders alone (GRAPPLE, NOGRAPPLE, AGAINST): fits any card
)

// lineKind says which card a line belongs to.
func lineKind(o *Order) string {
	switch {
	case len(o.Path) > 0 || o.Shoot != "" || len(o.Fire) > 0 || len(o.Fight) > 0:
		return sailFightLine
	case o.Reloading || len(o.Pass) > 0 || o.Douse || len(o.Cut) > 0:
		return commandLine
	}
	return eitherLine
}

// Applicable implements adjudicator.AdvanceOrders (docs/DESIGN.md 3.4): of the orders side
// holds, those for the ships of the Division whose card is turned, each ship's first line
// that fits the card (a Sail/Fight line on a Sail/Fight card, a Command and Control line on
// a Command and Control card, a HOLD or standing-orders line on either); lines for ships out of the
// battle are passed over, so they never hold the others up. A player can so order a
// Division's two Sail/Fight phases and its Command and Control phase in one mail, a line each
// in the order they are to be used.
func (g *Game) Applicable(side string, held []adjudicator.Order) []adjudicator.Order {
	div, cc := g.ActiveDivision()
	if div == "" || g.division(div).Side != side {
		return nil
	}
	want := sailFightLine
	if cc {
		want = commandLine
	}
	var out []adjudicator.Order
	var seen []string
	for _, ord := range held {
		o, ok := ord.(*Order)
		if !ok {
			continue
		}
		s := g.ship(o.Ship)
		if s == nil || s.Side != side || s.Division != div || (!s.Active() && s.Status != Leaving) || slices.Contains(seen, o.Ship) {
			continue
		}
		if k := lineKind(o); k == eitherLine || k == want {
			out = append(out, ord)
			seen = append(seen, o.Ship)
		}
	}
	return out
}

// Later implements adjudicator.AdvanceOrders: the orders for side's own ships, still in the
// battle or leaving it, that are not used now (Applicable); lines for other ships are neither.
func (g *Game) Later(side string, orders []adjudicator.Order) []adjudicator.Order {
	now := g.Applicable(side, orders)
	var out []adjudicator.Order
	for _, ord := range orders {
		o, ok := ord.(*Order)
		if !ok || slices.Contains(now, ord) {
			continue
		}
		if s := g.ship(o.Ship); s != nil && s.Side == side && (s.Active() || s.Status == Leaving) {
			out = append(out, ord)
		}
	}
	return out
}
