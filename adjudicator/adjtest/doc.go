// Package adjtest is the conformance harness every ruleset's tests call: the properties the
// host, the ledger and replay rely on of any adjudicator.Game (Encode determinism, the
// Parse/String round trip, dice by label, bot self-play to the end, replay equality) and the
// section-coverage check of a ruleset's rule-case corpus.
//
// A ruleset's test calls Conformance for a scenario and SectionCoverage with the sections its
// cases cite; Scripted is the roller of its rule cases (the dice by label).
package adjtest
