// Package lepanto is the Lepanto 1571 ruleset ("A Sea Turned Red by Blood"): galleys,
// galleasses and flagships on a hex map, activated by Group Activation Markers and special
// chits drawn from a cup.
//
// Comments and test cases cite the rulebook's sections (rules/lepanto-1571.txt). The rulebook
// does not print its tables (section 16), its map or its counters' values; every number this
// package uses that the text does not give lives in data/ and is marked there as a
// substitute. A referee who owns the printed game can load corrected table files for a game.
package lepanto
