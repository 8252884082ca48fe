package lepanto

import (
	"slices"
	"strings"

	"navarch/adjudicator"
)

// Team games (adjudicator.Teams, docs/LEPANTO.md "Team games"). A fleet is made of Wings,
// each of several Groups (1.4 Glossary "Admiral", 9: "entire Wings (sections of the Fleet each
// composed of several Groups)"); a Group acts when its Activation Marker is drawn (2.2). A
// player may command a wing or a group within one.

// Commands lists side's wings, each followed by its groups, in the order of battle's order.
// A wing's ID is its position ("LEFT", "CENTER", "RESERVE", "RIGHT"), a group's its marker's
// ("BAR").
func (g *Game) Commands(side string) []adjudicator.Command {
	var out []adjudicator.Command
	for _, w := range g.Wings {
		var groups []adjudicator.Command
		var units []string
		for _, gr := range g.Groups {
			if gr.Wing != w.ID || gr.Side != side {
				continue
			}
			gu := g.unitsOfGroup(gr.ID)
			units = append(units, gu...)
			groups = append(groups, adjudicator.Command{ID: gr.ID, Title: "group " + gr.ID + " (" + gr.Name + ")", Within: wingID(w.ID), Units: gu})
		}
		if len(units) == 0 {
			continue
		}
		out = append(out, adjudicator.Command{ID: wingID(w.ID), Title: "the " + strings.ReplaceAll(w.ID, "-", " ") + " wing", Units: units})
		out = append(out, groups...)
	}
	return out
}

// wingID is a wing's command ID: its position in the fleet, "christian-left" is LEFT.
func wingID(wing string) string {
	_, pos, _ := strings.Cut(wing, "-")
	return strings.ToUpper(pos)
}

// unitsOfGroup lists every unit of a group, in play or not, in canonical order.
func (g *Game) unitsOfGroup(group string) []string {
	var out []string
	for _, u := range g.Units {
		if u.Group == group {
			out = append(out, u.ID)
		}
	}
	return out
}

// Acting lists the units of side the current step asks orders for: at set-up the units of
// the groups whose leaders may be placed (4.5); a group's activation its units in play (2.2);
// a fury chit the units of every group it may activate again (2.4.2), whose commanders give
// their orders in case theirs is the one; Leader Move the units of the groups whose leaders
// may move (2.4.1); Disengage the side's engaged units (2.4.4). A Boarding chit asks only the
// drawing side's choice of the order (8; Chooses).
func (g *Game) Acting(side string) []string {
	if !g.SetUp {
		var groups []string
		for _, l := range g.Leaders {
			if l.Side == side && l.Status == "" {
				groups = append(groups, l.Group)
			}
		}
		return g.groupsInPlay(groups)
	}
	if !slices.Contains(g.WaitSides, side) {
		return nil
	}
	switch g.Wait {
	case waitGroup:
		return g.groupUnits(g.WaitGroup)
	case waitFury:
		return g.groupsInPlay(g.furyGroups(g.WaitGroup))
	case waitLeaderMove:
		var groups []string
		for _, l := range g.Leaders {
			if l.Side == side && len(g.leaderTargets(l.ID)) > 0 {
				groups = append(groups, l.Group)
			}
		}
		return g.groupsInPlay(groups)
	case waitDisengage:
		return g.engagedUnits(side)
	}
	return nil
}

// groupsInPlay lists the units in play of the groups, in canonical order.
func (g *Game) groupsInPlay(groups []string) []string {
	var out []string
	for _, u := range g.Units {
		if u.InPlay() && slices.Contains(groups, u.Group) {
			out = append(out, u.ID)
		}
	}
	return out
}

// Chooses: a fury chit's ACTIVATE (2.4.2) and the Boarding chit's order of the boardings (8)
// are choices of the side.
func (g *Game) Chooses(side string) bool {
	return g.SetUp && slices.Contains(g.WaitSides, side) && (g.Wait == waitFury || g.Wait == waitBoarding)
}

// OrderUnits lists the units an order gives orders to: a unit's (with its STACK, 3.2.1); a
// leader's, the ship he is aboard and the ship he goes to (2.4.1, 4.5); a standing order's,
// its unit or every unit of its group. ACTIVATE, BOARD, LEADERS and ENGAGED are the side's.
func (g *Game) OrderUnits(side string, o adjudicator.Order) []string {
	switch o := o.(type) {
	case *unitOrder:
		return append([]string{o.unit}, o.stack...)
	case *leaderOrder:
		return g.leaderUnits(o.leader, o.target)
	case *setUpOrder:
		return g.leaderUnits(o.leader, o.unit)
	case *standingOrder:
		switch o.verb {
		case "LEADERS", "ENGAGED":
			return nil
		}
		if g.group(o.target) != nil {
			return g.unitsOfGroup(o.target)
		}
		return []string{o.target}
	}
	return nil
}

// leaderUnits are the ship a leader is aboard and the one an order names, if any.
func (g *Game) leaderUnits(leader, to string) []string {
	var out []string
	if l := g.leader(leader); l != nil && l.Unit != "" {
		out = append(out, l.Unit)
	}
	if to != "" && !slices.Contains(out, to) {
		out = append(out, to)
	}
	return out
}
