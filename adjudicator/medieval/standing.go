package medieval

import (
	"fmt"

	"navarch/adjudicator"
)

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

// ApplyStanding implements adjudicator.StandingOrders: side's ships' wishes held since they
// were sent are applied by the next Resolve before the phasing side's own lines, each a
// ship's standing GRAPPLE, NOGRAPPLE or AGAINST, which replaces her earlier one. Every card
// applies every side's (docs/MEDIEVAL.md "Standing orders and the steps that use them"): a
// ship of either side may come into contact or be boarded in any Division's phase.
func (g *Game) ApplyStanding(side string, standing []adjudicator.Order) {
	for _, ao := range standing {
		if o, ok := ao.(*Order); ok && (o.Grapple != "" || o.Against != "") {
			if s := g.ship(o.Ship); s != nil && s.Side == side {
				g.held = append(g.held, &Order{line: o.line, Ship: o.Ship, Grapple: o.Grapple, Against: o.Against})
			}
		}
	}
}

// ValidateStanding implements adjudicator.StandingOrders: each line is a ship's wish alone,
// for a ship of the side's (any Division, whatever card is turned), AGAINST naming an enemy
// ship.
func (g *Game) ValidateStanding(side string, standing []adjudicator.Order) []adjudicator.LineError {
	var errs []adjudicator.LineError
	for _, ao := range standing {
		o := ao.(*Order)
		fail := func(format string, args ...any) {
			errs = append(errs, adjudicator.LineError{Line: o.line, Text: o.String(), Err: fmt.Errorf("%w: %s", adjudicator.ErrIllegal, fmt.Sprintf(format, args...))})
		}
		s, t := g.ship(o.Ship), g.ship(o.Against)
		switch {
		case !o.wishOnly():
			fail("a standing order is a ship's GRAPPLE, NOGRAPPLE or AGAINST alone")
		case s == nil || s.Side != side:
			fail("%s is not a ship of yours", o.Ship)
		case o.Against != "" && (t == nil || t.Side == side):
			fail("%s is not an enemy ship", o.Against)
		}
	}
	return errs
}

// StandingKind implements adjudicator.StandingOrders: one plain kind. Every step that reads a
// ship's GRAPPLE, NOGRAPPLE or AGAINST (a card's Sail/Fight phase: rules "Grappling",
// "Boarding" iii) applies every side's standing orders; the shuffle at a turn's start reads
// none of them.
func (g *Game) StandingKind(adjudicator.Order) string { return "" }
