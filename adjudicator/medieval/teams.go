package medieval

import (
	"navarch/adjudicator"
)

// Team games (adjudicator.Teams, docs/MEDIEVAL.md "Team games"). A fleet is divided into
// Divisions, each with its flagship (rule "Organisation"), and every card turned is one
// Division's (rule "Sequence"): a player commands a Division, and the card asks its
// commander alone. Every order is one ship's line, and a ship without one takes the card's
// no-orders default, so a Division's orders may come from its commander alone.

// Commands lists side's Divisions in the scenario's order, each with its ships; the ID is the
// Division's as the cards name it ("E-VAN").
func (g *Game) Commands(side string) []adjudicator.Command {
	var out []adjudicator.Command
	for _, dv := range g.sc.Divisions {
		if dv.Side != side {
			continue
		}
		c := adjudicator.Command{ID: dv.ID, Title: "the " + dv.Name + " Division"}
		for _, s := range g.Ships {
			if s.Division == dv.ID {
				c.Units = append(c.Units, s.ID)
			}
		}
		if len(c.Units) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// Acting lists the ships of side the card turned asks orders for: its Division's ships
// still in the battle or leaving it (rule "Sequence").
func (g *Game) Acting(side string) []string {
	if g.Over || g.Card == "" {
		return nil
	}
	div, _ := cardDivision(g.Card)
	return g.ownShips(side, div)
}

// Chooses: the medieval rules have no choice of a whole side; every line is a ship's.
func (g *Game) Chooses(side string) bool { return false }

// OrderUnits: a line gives orders to its ship, whatever other ship it names (a PASS's
// receiver, a target, an AGAINST enemy).
func (g *Game) OrderUnits(side string, o adjudicator.Order) []string {
	if mo, ok := o.(*Order); ok {
		return []string{mo.Ship}
	}
	return nil
}
