// Package adjudicator is the pure rules engine shared by every ruleset: it does no I/O, reads
// no clock and gets randomness only from adjudicator/dice.
package adjudicator

// EngineVersion names the engine in every game's genesis record; replay must run the same
// engine version the game was played with.
const EngineVersion = "0.1.0"
