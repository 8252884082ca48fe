package lepanto

import "navarch/adjudicator"

// headlines ranks Lepanto's events for a report's subject (adjudicator.Headliner): the end
// of the game, then a ship or leader lost, a wing broken, damage and boarding, attacks,
// movement; chit draws and activations last.
var headlines = []adjudicator.Weight{
	{Text: "Standing order:", N: -1}, // the player's own order told back: never the news
	{Rule: "10.1", N: 9},
	{Rule: "9.6", Text: " has ", N: 8}, // sunk or surrendered
	{Rule: "9.6", Text: "flees", N: 8},
	{Rule: "8.2", Text: "captures", N: 8},
	{Rule: "4.3", Text: "is killed", N: 8},
	{Rule: "4.3", Text: "lost at sea", N: 8},
	{Rule: "12.5", Text: "aground", N: 8},
	{Rule: "9.9", N: 7}, // a wing at LF
	{Rule: "9.8", N: 7}, // at LMA
	{Rule: "9.5", N: 6}, // a hit and what it did
	{Rule: "9.1", N: 6},
	{Rule: "9.2", N: 6},
	{Rule: "8.1", N: 6},
	{Rule: "6.3", N: 6},
	{Rule: "12.2", Text: "drifts", N: 6},
	{Rule: "6.2", Text: "rams", N: 5},
	{Rule: "7.1", Text: "tries to grapple", N: 5},
	{Rule: "5.5", N: 4},
	{Rule: "5.3", N: 4},
	{Rule: "4.5", Text: "revealed", N: 4},
	{Rule: "8.2", N: 4},
	{Rule: "9.7", N: 3},
	{Rule: "9.6", N: 3},
	{Rule: "2.4.4", Text: "disengages", N: 3},
	{Rule: "11.1", N: 2},
	{Rule: "3", Text: " moves ", N: 2},
	{Rule: "2.4.1", Text: " moves ", N: 2},
	{Rule: "12.3", N: 2},
}

// Weight ranks an event for a report's subject (adjudicator.Headliner).
func (g *Game) Weight(e adjudicator.Event) int { return adjudicator.Weigh(headlines, e) }
