// Package adjtest holds the pure test helpers of the rulesets: the rule-case reader
// (ReadCase), the dice handed out by label (Scripted), the order-form check (CheckForm) and
// the section-coverage check of a ruleset's rule-case corpus (SectionCoverage).
//
// It imports nothing outside the adjudicator tree, so that the pure engine builds and tests
// without the store; the through-the-ledger conformance harness (bot self-play, the log
// verified and replayed) is play/playtest.
package adjtest
