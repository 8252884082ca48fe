package oinavarcoi

import (
	"fmt"
	"slices"

	"navarch/adjudicator"
)

// lineErr is an illegal order with what would be legal.
type lineErr struct {
	o     *Order
	why   string
	legal []string
}

// Validate checks orders against the state for the current step.
func (g *Game) Validate(side string, orders []adjudicator.Order) []adjudicator.LineError {
	st := g.Next()
	var errs []lineErr
	standing, os := splitStanding(own(orders))
	due := st.Kind == adjudicator.NeedOrders && slices.Contains(st.Sides, side)
	if due {
		errs = g.validateStanding(side, standing)
	}
	switch {
	case !due:
		for _, o := range own(orders) {
			errs = append(errs, lineErr{o, fmt.Sprintf("no orders of %s are due now (%s)", side, st.What), nil})
		}
	case !g.Deployed:
		errs = append(errs, g.validateDeploy(side, os)...)
	case g.Phase == phaseChoose:
		choices := 0
		seen := map[string]bool{}
		for _, o := range os {
			switch {
			case o.Phalanx != "":
				if why := g.validatePhalanx(side, o, seen); why != "" {
					errs = append(errs, lineErr{o, why, nil})
				}
			case o.Choice != "" && side == g.Winner && choices == 0:
				choices++
			default:
				errs = append(errs, lineErr{o, "the initiative winner writes one line: MOVE FIRST or MOVE SECOND (and in the amphibious battle each side orders its phalanxes)", []string{"MOVE FIRST", "MOVE SECOND", "PHALANX ID MOVE|REDRESS|DEPLOY"}})
			}
		}
	default:
		errs = append(errs, g.validateMove(side, os)...)
	}
	var out []adjudicator.LineError
	for _, e := range errs {
		out = append(out, adjudicator.LineError{Line: e.o.line, Text: e.o.String(), Err: fmt.Errorf("%w: %s", adjudicator.ErrIllegal, e.why), Legal: e.legal})
	}
	return out
}
