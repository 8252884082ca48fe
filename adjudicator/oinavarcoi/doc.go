// Package oinavarcoi is the Oi Navarcoi! ruleset: ancient trireme squadrons on an open table,
// 2d6 tests and the average die, played by mail (its rulebook and readings: docs/OINAVARCOI.md).
//
// The rulebook has no numbered sections; this package names them HEADING.TOPIC
// (testdata/sections.txt lists them with the text they cover) and every event cites one.
// Squadrons are single footprints on the table (adjudicator/table): a rectangle whose size
// depends on the formation (data/rules.txt, SUBSTITUTE). Strength is counted in half stands.
// Every roll is asked for by label through dice.Roller; nothing here reads a clock, a global
// random source or a map's iteration order.
package oinavarcoi
