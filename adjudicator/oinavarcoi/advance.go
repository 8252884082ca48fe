package oinavarcoi

import (
	"slices"

	"navarch/adjudicator"
)

// movementOrder reports whether o belongs to a movement step: a squadron's line or a signal.
func movementOrder(o *Order) bool { return o.Signal != "" || o.Sq != "" && !o.Deploy }

// Applicable returns the orders of side that belong to the current step
// (adjudicator.AdvanceOrders): at deployment its DEPLOY lines and its signal list; after the
// initiative its MOVE FIRST/SECOND if it won, and its phalanx orders; when its movement is
// due, its squadrons' lines and its signal. Standing orders (OMEN, NAVARCH) held come along
// with the step's orders; alone they answer no step.
func (g *Game) Applicable(side string, held []adjudicator.Order) []adjudicator.Order {
	st := g.Next()
	if st.Kind != adjudicator.NeedOrders || !slices.Contains(st.Sides, side) {
		return nil
	}
	var out, standing []adjudicator.Order
	for _, o := range held {
		ord := o.(*Order)
		switch {
		case ord.Standing != "":
			standing = append(standing, o)
		case !g.Deployed:
			if ord.Deploy || ord.Signal != "" {
				out = append(out, o)
			}
		case g.Phase == phaseChoose && (ord.Choice != "" && side == g.Winner || ord.Phalanx != ""):
			out = append(out, o)
		case (g.Phase == phaseMove1 || g.Phase == phaseMove2) && movementOrder(ord) && g.ownLine(side, ord):
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		return nil // standing orders alone answer no step: the player is still asked
	}
	return append(out, standing...)
}

// Later returns the orders of side that belong to steps still to come: movement lines and
// signals for its squadrons, and MOVE FIRST/SECOND, when the current step is not the one
// they are due in (a SIGNAL line at deployment is the list, due now), and standing orders
// that came with no order due now.
func (g *Game) Later(side string, orders []adjudicator.Order) []adjudicator.Order {
	now := g.Applicable(side, orders)
	st := g.Next()
	due := st.Kind == adjudicator.NeedOrders && slices.Contains(st.Sides, side)
	var out []adjudicator.Order
	for _, o := range orders {
		ord := o.(*Order)
		if slices.Contains(now, o) || !g.ownLine(side, ord) {
			continue
		}
		moving := due && g.Deployed && (g.Phase == phaseMove1 || g.Phase == phaseMove2)
		choosing := due && g.Deployed && g.Phase == phaseChoose
		switch {
		case ord.Standing != "": // held with the orders they came with, used with the next ones due
			out = append(out, o)
		case movementOrder(ord) && !moving:
			out = append(out, o)
		case ord.Choice != "" && !choosing:
			out = append(out, o)
		}
	}
	return out
}

// ownLine reports whether o is for side's own squadron, or a signal, choice or standing
// order (which name no single squadron).
func (g *Game) ownLine(side string, o *Order) bool {
	if o.Sq == "" || o.Deploy {
		return o.Signal != "" || o.Choice != "" || o.Standing != ""
	}
	s := g.sq(o.Sq)
	return s != nil && s.Side == side && s.OnTable()
}

var _ adjudicator.AdvanceOrders = (*Game)(nil)
