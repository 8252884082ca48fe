package oinavarcoi

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
)

// Standing orders give the player, by mail and without a round trip, the choice the event
// table leaves to him (rules Event.omens "raise a squadron's morale", Event.navarch "lower a
// squadron in melee"): OMEN SQ... and NAVARCH SQ... name his squadrons in the order he
// prefers them. They may go in any orders the side sends, take effect when those orders are
// resolved, and hold until changed (DEFAULT withdraws one). When the event comes, the first
// squadron of the list the event can apply to is chosen; if none can, the engine's default.
//
//	OMEN SQ [SQ...]      good omens raise the first of these below Determined
//	NAVARCH SQ [SQ...]   a navarch killed falls in the first of these in melee
//	SHARE SQ [SQ...]     the odd half stand of a loss two of them share (rule Melee.two)
//	                     goes to the first of these among them
//	INITIATIVE FIRST|SECOND   the choice when the side wins the initiative (rule
//	                     Initiative: "Higher roll chooses whether to move first or
//	                     second"), made at once: no step waits for it
//	OMEN DEFAULT | NAVARCH DEFAULT | SHARE DEFAULT | INITIATIVE DEFAULT

// splitStanding separates the standing orders from the step's own orders.
func splitStanding(os []*Order) (standing, rest []*Order) {
	for _, o := range os {
		if o.Standing != "" {
			standing = append(standing, o)
		} else {
			rest = append(rest, o)
		}
	}
	return standing, rest
}

// Standing implements adjudicator.StandingOrders: the OMEN, NAVARCH, SHARE and INITIATIVE
// lines, each a line of its own.
func (g *Game) Standing(side string, orders []adjudicator.Order) (standing, rest []adjudicator.Order) {
	for _, o := range orders {
		if o.(*Order).Standing != "" {
			standing = append(standing, o)
		} else {
			rest = append(rest, o)
		}
	}
	return standing, rest
}

// validateStanding: one OMEN and one NAVARCH line a mail, naming the side's own war
// squadrons. One that has left the table since is let pass (the event skips it), so that
// standing orders held with advance orders do not make them fail.
func (g *Game) validateStanding(side string, os []*Order) []lineErr {
	var errs []lineErr
	var own []string
	for _, s := range g.Squadrons {
		if s.Side == side && !s.Freighter {
			own = append(own, s.ID)
		}
	}
	seen := map[string]bool{}
	for _, o := range os {
		if seen[o.Standing] {
			errs = append(errs, lineErr{o, "one " + o.Standing + " line a mail", nil})
			continue
		}
		seen[o.Standing] = true
		if o.Standing == "INITIATIVE" {
			continue
		}
		for _, id := range o.Prefer {
			if !slices.Contains(own, id) {
				errs = append(errs, lineErr{o, fmt.Sprintf("%s is not a war squadron of yours", id), own})
				break
			}
		}
	}
	return errs
}

// applyStanding records the standing orders of each side, in the sides' order; each side
// alone is told (the list is its own plan; the event that uses it says so). Standing orders
// held since they were sent (ApplyStanding) come first, and every side is told of them: they
// count from this step on.
func (rs *resolver) applyStanding(orders map[string][]adjudicator.Order) {
	g := rs.g
	held := g.held
	g.held = nil
	for _, h := range held {
		for _, o := range h.orders {
			rs.applyOne(h.side, o, true)
		}
	}
	for _, side := range g.sc.Sides {
		standing, _ := splitStanding(own(orders[side]))
		for _, o := range standing {
			rs.applyOne(side, o, false)
		}
	}
}

// heldStanding are a side's standing orders sent before the step that applies them.
type heldStanding struct {
	side   string
	orders []*Order
}

// ApplyStanding implements adjudicator.StandingOrders: the next Resolve applies side's
// standing orders, held since they were sent, before the step's own; each replaces the
// side's earlier one of its kind. The start of a turn (its event and initiative), the
// initiative choice and the second movement (its melee) apply every side's (docs/OINAVARCOI.md
// "Standing orders and the steps that use them").
func (g *Game) ApplyStanding(side string, standing []adjudicator.Order) {
	var os []*Order
	for _, o := range standing {
		if x, ok := o.(*Order); ok && x.Standing != "" {
			os = append(os, x)
		}
	}
	g.held = append(g.held, heldStanding{side, os})
}

// applyOne records one standing order of side; held says it was held until now (every side
// is told), else it came with the step's own orders (its side alone).
func (rs *resolver) applyOne(side string, o *Order, held bool) {
	g := rs.g
	i := g.sc.SideIndex(side)
	if i < 0 {
		return
	}
	rule := map[string]string{"OMEN": "Event.omens", "NAVARCH": "Event.navarch", "SHARE": "Melee.two", "INITIATIVE": "Initiative"}[o.Standing]
	switch o.Standing {
	case "OMEN":
		g.OmenPrefer[i] = slices.Clone(o.Prefer)
	case "NAVARCH":
		g.NavarchPrefer[i] = slices.Clone(o.Prefer)
	case "SHARE":
		g.SharePrefer[i] = slices.Clone(o.Prefer)
	case "INITIATIVE":
		g.Initiative[i] = strings.Join(o.Prefer, "")
	default:
		return
	}
	if held {
		rs.eventAs(adjudicator.KindTold, rule, "Standing order of %s, sent before and applied now: %s", side, o)
		return
	}
	rs.told(side, rule, o)
}

// preferred returns the first squadron of prefer that can take the event, or nil.
func (g *Game) preferred(prefer []string, can func(*Squadron) bool) *Squadron {
	for _, id := range prefer {
		if s := g.sq(id); s != nil && can(s) {
			return s
		}
	}
	return nil
}

// why says how a squadron was chosen for an event: by the side's standing order, or by
// default (with the reason no squadron of the order could take it).
func why(kind string, prefer []string, byOrder bool, def string) string {
	switch {
	case byOrder:
		return fmt.Sprintf("by %s standing order", kind)
	case len(prefer) > 0:
		return fmt.Sprintf("none of its %s order (%s) can take it; by default, %s", kind, strings.Join(prefer, " "), def)
	}
	return "by default, " + def
}

// standingText says the side's standing orders in force, for its help and order forms.
func (g *Game) standingText(i int) string {
	text := func(kind string, prefer []string, def string) string {
		if len(prefer) == 0 {
			return kind + " DEFAULT (" + def + ")"
		}
		return kind + " " + strings.Join(prefer, " ")
	}
	init := []string{}
	if g.Initiative[i] != "" {
		init = []string{g.Initiative[i]}
	}
	return "standing orders: " + text("OMEN", g.OmenPrefer[i], "good omens raise your first squadron of lowest crew morale") +
		"; " + text("NAVARCH", g.NavarchPrefer[i], "a navarch killed falls in your first squadron in melee") +
		"; " + text("SHARE", g.SharePrefer[i], "the odd half stand of a shared loss falls on the first in your fleet list") +
		"; " + text("INITIATIVE", init, "you are asked to MOVE FIRST or SECOND when you win the initiative")
}

// standingLines are the side's standing orders in force as order lines naming only its war
// squadrons still on the table, for its order form (sent back, they change nothing).
func (g *Game) standingLines(side string) (out []string) {
	i := g.sc.SideIndex(side)
	if g.Initiative[i] != "" {
		defer func() { out = append(out, "INITIATIVE "+g.Initiative[i]) }()
	}
	for k, prefer := range [][]string{g.OmenPrefer[i], g.NavarchPrefer[i], g.SharePrefer[i]} {
		var ids []string
		for _, id := range prefer {
			if s := g.sq(id); s != nil && s.Side == side && !s.Freighter && s.OnTable() {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			out = append(out, []string{"OMEN", "NAVARCH", "SHARE"}[k]+" "+strings.Join(ids, " "))
		}
	}
	return out
}

// ValidateStanding implements adjudicator.StandingOrders: one line of each kind a mail,
// naming the side's own war squadrons, whatever step is due.
func (g *Game) ValidateStanding(side string, standing []adjudicator.Order) []adjudicator.LineError {
	var out []adjudicator.LineError
	os, rest := splitStanding(own(standing))
	for _, o := range rest {
		out = append(out, adjudicator.LineError{Line: o.line, Text: o.String(), Err: fmt.Errorf("%w: not a standing order", adjudicator.ErrIllegal)})
	}
	for _, e := range g.validateStanding(side, os) {
		out = append(out, adjudicator.LineError{Line: e.o.line, Text: e.o.String(), Err: fmt.Errorf("%w: %s", adjudicator.ErrIllegal, e.why), Legal: e.legal})
	}
	return out
}

// StandingKind implements adjudicator.StandingOrders: one plain kind. Every step that reads
// OMEN, NAVARCH, SHARE or INITIATIVE (the start of a turn, the initiative winner's choice, the
// second side's movement and the melee after it: rules Event.omens, Event.navarch,
// Initiative, Melee.two) applies every side's standing orders; the deployment and the first
// side's movement read none of them.
func (g *Game) StandingKind(adjudicator.Order) string { return "" }
