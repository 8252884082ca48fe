package medieval

import "navarch/adjudicator"

// Standing implements adjudicator.StandingOrders: a ship's GRAPPLE or NOGRAPPLE (rule
// "Grappling") and AGAINST (rule "Boarding" iii) hold until changed. A line that also orders
// the phase is split into the ship's standing line (her wishes alone) and her line for the
// phase (without them).
func (g *Game) Standing(side string, orders []adjudicator.Order) (standing, rest []adjudicator.Order) {
	for _, ao := range orders {
		o := ao.(*Order)
		switch {
		case o.Grapple == "" && o.Against == "":
			rest = append(rest, o)
		case o.wishOnly():
			standing = append(standing, o)
		default:
			wish := &Order{line: o.line, Ship: o.Ship, Grapple: o.Grapple, Against: o.Against}
			phase := *o
			phase.Grapple, phase.Against = "", ""
			standing, rest = append(standing, wish), append(rest, &phase)
		}
	}
	return standing, rest
}
