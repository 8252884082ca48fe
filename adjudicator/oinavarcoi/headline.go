package oinavarcoi

import "navarch/adjudicator"

// headlines ranks Oi Navarcoi!'s events for a report's subject (adjudicator.Headliner): the
// battle's end and withdrawals, then squadrons lost or routed, breakthroughs and flank
// attacks, melee, morale, the event table, movement, the initiative; the deployments and dice last, and
// a standing order told back to its player never.
var headlines = []adjudicator.Weight{
	{Text: "Standing order:", N: -1}, // the player's own order told back: never the news
	{Rule: "Designed.victory", N: 9},
	{Rule: "Event.withdrawal", Text: "leaves the field", N: 9},
	{Rule: "Stands.squadron", N: 8},
	{Rule: "Rout.edges", Text: "lost", N: 8},
	{Rule: "Rout.edges", Text: "wrecked", N: 8},
	{Rule: "Phalanx.rout", N: 8},
	{Rule: "Event.navarch", Text: "admiral is killed", N: 8},
	{Rule: "Rout.move", Text: "routs", N: 7},
	{Rule: "Flank.outnumbered", N: 7},
	{Rule: "Phalanx.melee", Text: "routs", N: 7},
	{Rule: "Scenarios.convoy", N: 7},
	{Rule: "Diekplous.outcomes", Text: "Diekplous!", N: 6},
	{Rule: "Periplous.outcomes", Text: "Periplous!", N: 6},
	{Rule: "Periplous.race", Text: "wins the race", N: 6},
	{Rule: "Flank.victim", N: 6},
	{Rule: "Dice.d3", N: 6},
	{Rule: "Melee.two", N: 6},
	{Rule: "Melee.battle", Text: "loses", N: 6},
	{Rule: "Rout.edges", N: 6},
	{Rule: "Event.navarch", Text: "is killed", N: 5},
	{Rule: "Event.omens", Text: "rises", N: 5},
	{Rule: "Melee", N: 5},
	{Rule: "Morale", N: 5},
	{Rule: "Diekplous", N: 5},
	{Rule: "Periplous", N: 5},
	{Rule: "Pursuit.start", N: 4},
	{Rule: "Phalanx.melee", N: 4},
	{Rule: "Freighters", Text: "takes", N: 4},
	{Rule: "Event.weather", N: 3},
	{Rule: "Signals.give", N: 3},
	{Rule: "Signals.kinds", N: 3},
	{Rule: "Scenarios.bottled", Text: "launched", N: 3},
	{Rule: "Disorder", N: 2},
	{Rule: "Formations", N: 2},
	{Rule: "Movement.each", Text: " moves ", N: 2},
	{Rule: "Phalanx", N: 2},
	{Rule: "Freighters", N: 2},
	{Rule: "Pursuit", N: 2},
	{Rule: "Flotsam", N: 2},
	{Rule: "Initiative", N: 1},
}

// Weight ranks an event for a report's subject (adjudicator.Headliner).
func (g *Game) Weight(e adjudicator.Event) int { return adjudicator.Weigh(headlines, e) }
