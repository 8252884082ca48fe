package oinavarcoi

import (
	"slices"
	"strings"

	"navarch/adjudicator"
)

// Team games (adjudicator.Teams, docs/OINAVARCOI.md "Team games"). "Fleets are grouped into
// wings" (rule Deployment.zone), each with the signals written for it (rule Signals.list): a
// player commands a wing of the fleet list, or the army's phalanxes in the amphibious battle
// (rule Phalanx.orders). The side's commander makes the choices of the whole fleet: its signal
// list before the battle (half its squadrons, rounded up, for the whole fleet), the
// initiative winner's MOVE FIRST or SECOND (rule Initiative), and the standing OMEN, NAVARCH,
// SHARE and INITIATIVE orders. A squadron stays under its fleet-list wing's commander even
// if its DEPLOY line puts it in another wing.

// The commands outside the wings: a side's phalanxes, and the freighters of a convoy
// (rule Scenarios.convoy), which the fleet list puts in no wing.
const (
	armyCommand   = "ARMY"
	convoyCommand = "CONVOY"
)

// Commands lists side's wings in the order LEFT, CENTRE, RIGHT, each with the squadrons the
// fleet list gives it, then the convoy (its freighters) and the army (its phalanxes) if the
// scenario has them.
func (g *Game) Commands(side string) []adjudicator.Command {
	var out []adjudicator.Command
	for _, w := range Wings {
		c := adjudicator.Command{ID: w, Title: "the " + strings.ToLower(w) + " wing", Units: g.wingSquadrons(side, w)}
		if len(c.Units) > 0 {
			out = append(out, c)
		}
	}
	convoy := adjudicator.Command{ID: convoyCommand, Title: "the convoy (freighters)"}
	for _, d := range g.sc.Squadrons {
		if d.Side == side && d.Freighter {
			convoy.Units = append(convoy.Units, d.ID)
		}
	}
	if len(convoy.Units) > 0 {
		out = append(out, convoy)
	}
	army := adjudicator.Command{ID: armyCommand, Title: "the army (phalanxes)"}
	for _, p := range g.Phalanxes {
		if p.Side == side {
			army.Units = append(army.Units, p.ID)
		}
	}
	if len(army.Units) > 0 {
		out = append(out, army)
	}
	return out
}

// wingSquadrons lists the squadrons of side the fleet list puts in wing w, in its order.
func (g *Game) wingSquadrons(side, w string) []string {
	var out []string
	for _, d := range g.sc.Squadrons {
		if d.Side == side && d.Wing == w {
			out = append(out, d.ID)
		}
	}
	return out
}

// Acting lists the units of side the current step asks orders for: at the secret deployment
// the squadrons that deploy (rule Deployment.secret); at the initiative the side's phalanxes
// in the amphibious battle (rule Phalanx.orders); in the side's movement phase its squadrons
// in play and out of melee (rule Movement.each), and those in melee of a wing a signal is
// written for, whose commander may give it (rule Signals.give).
func (g *Game) Acting(side string) []string {
	st := g.Next()
	if st.Kind != adjudicator.NeedOrders || !slices.Contains(st.Sides, side) {
		return nil
	}
	var out []string
	switch {
	case !g.Deployed:
		for _, s := range g.Squadrons {
			if s.Side == side && !s.Freighter && s.Status != Beached {
				out = append(out, s.ID)
			}
		}
	case g.Phase == phaseChoose:
		for _, p := range g.Phalanxes {
			if p.Side == side && !p.Routed {
				out = append(out, p.ID)
			}
		}
	default:
		i := g.sc.SideIndex(side)
		for _, s := range g.Squadrons {
			signal := !g.Signalled[i] && slices.ContainsFunc(g.Signals[i], func(e SignalEntry) bool { return !e.Used && e.Wing == s.Wing })
			if s.Side == side && s.InPlay() && (len(s.Melee) == 0 || signal) {
				out = append(out, s.ID)
			}
		}
	}
	return out
}

// Chooses: the signal list at deployment (rule Signals.list) and the initiative winner's
// choice (rule Initiative) are the whole fleet's.
func (g *Game) Chooses(side string) bool {
	st := g.Next()
	if st.Kind != adjudicator.NeedOrders || !slices.Contains(st.Sides, side) {
		return false
	}
	return !g.Deployed || g.Phase == phaseChoose && side == g.Winner
}

// OrderUnits: a squadron's line (DEPLOY too) gives orders to the squadron, a PHALANX line to
// the phalanx, a SIGNAL in battle to the wing's squadrons the step asks orders for ("announced before moving that
// wing", rule Signals.give: its commander writes it above his squadrons' lines). The signal
// list, MOVE FIRST|SECOND and the standing orders are the side's.
func (g *Game) OrderUnits(side string, o adjudicator.Order) []string {
	oo, ok := o.(*Order)
	switch {
	case !ok || oo.Standing != "" || oo.Choice != "":
		return nil
	case oo.Phalanx != "":
		return []string{oo.Phalanx}
	case oo.Signal != "":
		if !g.Deployed {
			return nil
		}
		wing := g.wingSquadrons(side, oo.Wing)
		acting := g.Acting(side)
		var out []string
		for _, id := range wing {
			if slices.Contains(acting, id) {
				out = append(out, id)
			}
		}
		if len(out) == 0 {
			return wing // no squadron of the wing may move: still its commander's
		}
		return out
	}
	return []string{oo.Sq}
}
