// Package adjudicator is the pure rules engine shared by every ruleset: it does no I/O, reads
// no clock and gets randomness only from package dice.
//
// A ruleset is a value (Ruleset) in the explicit list of package rulesets; the engine never
// imports one. A game of a ruleset is a state machine (Game): Next says what the game needs
// now (an automatic step such as a chit draw, or orders from one or both sides); Parse and
// Validate turn a side's order text into orders or into errors by line; Resolve performs the
// step with the orders and dice and returns what happened; Encode gives the canonical state
// whose hash the log records, so that a replay can prove it reached the same state.
//
// Every ruleset's Parse reads order text through ReadLines (ParseLines), so that a mail reads
// the same in every game: line ends, "#" comments, blank lines, END on a line of its own, the
// MaxLine cap and the line numbers are decided here (docs/ORDERS.md), the words by the ruleset.
//
// Invalid and illegal are different: an order that is not understood (ErrNotUnderstood) is
// answered with what was read; an order that is understood but not allowed now (ErrIllegal)
// is answered with what would be legal. Neither is ever half-applied: a step resolves only
// with a complete, valid set of orders, or with the game's no-orders default.
package adjudicator
