package medieval

import "navarch/adjudicator"

// headlines ranks the medieval game's events for a report's subject (adjudicator.Headliner):
// the battle's end, then a ship lost or gone, boarding and fire, hits, shooting, movement;
// cards drawn last.
var headlines = []adjudicator.Weight{
	{Rule: "Designed.victory", N: 9},
	{Rule: "Damage.1", N: 8},
	{Rule: "Fires.4", Text: "is lost", N: 8},
	{Rule: "Damage.2", Text: "left the table", N: 8},
	{Rule: "Damage.2", N: 7},
	{Rule: "Boarding.2", N: 7},
	{Rule: "Grappling.1", Text: "grappled", N: 6},
	{Rule: "Fires", N: 6},
	{Rule: "CuttingFree", N: 5},
	{Rule: "Gunnery.11", N: 5},
	{Rule: "Missile.3", N: 5},
	{Rule: "Damage", N: 5},
	{Rule: "Missile.2", Text: "a hit", N: 5},
	{Rule: "Gunnery.8", Text: "fires", N: 4},
	{Rule: "Missile.2", Text: "shoots", N: 3},
	{Rule: "Lashing", N: 3},
	{Rule: "Passing", N: 3},
	{Rule: "Defence", N: 3},
	{Rule: "Movement", N: 2},
	{Rule: "Gunnery.3", Text: "reloads", N: 1},
}

// Weight ranks an event for a report's subject (adjudicator.Headliner).
func (g *Game) Weight(e adjudicator.Event) int { return adjudicator.Weigh(headlines, e) }
