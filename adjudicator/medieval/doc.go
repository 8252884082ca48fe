// Package medieval holds the medieval d10 naval ruleset (its rulebook and readings: docs/MEDIEVAL.md) on
// the open table of package table: ship data, scenarios, the card deck, orders and the rules.
//
// The rulebook has no numbered sections; rule cases cite a heading of the text and the
// paragraph under it, e.g. "Gunnery.3" (testdata/sections.txt lists them, quoting each).
// docs/MEDIEVAL.md gives the readings of unclear rules and the substitutes for the numbers
// the text does not give.
package medieval
