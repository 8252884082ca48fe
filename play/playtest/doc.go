// Package playtest is the through-the-ledger conformance harness every ruleset's tests call:
// a ruleset's bots play one game to the rules' end through play, the ledger and a real bbolt
// store, with the checks the host, the ledger and replay rely on of any adjudicator.Game
// (Encode determinism, the Parse/String round trip, dice by label, replay equality).
//
// The pure helpers a ruleset's tests use without a store (rule cases, scripted dice, order
// forms, section coverage) stay in adjudicator/adjtest, which imports nothing outside the
// adjudicator tree.
package playtest
