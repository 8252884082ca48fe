// Package duel is a tiny ruleset that only tests use: two ships exchange fire for a few
// turns. It shows that a rule system plugs into navarch through the declared interfaces
// alone (adjudicator.Ruleset, Game, Bot; a render.Map in render/duelmap; one entry in the
// ruleset list), and it is the harness's own check (adjudicator/adjtest).
//
// The rulebook, whose sections the cases cite:
//
//	1   Sequence. The game has as many turns as the scenario says; each turn is one step in
//	    which both sides give orders at once.
//	1.1 A side that sends no orders holds fire.
//	2   Fire. A side's ship that fires rolls one die (label fire/SIDE); 5 or 6 hits, and the
//	    other ship loses one hull point. Both sides fire at once: a ship sunk this turn still
//	    fires.
//	2.1 A ship that holds fire repairs one hull point, up to its starting hull, before the
//	    turn's hits count.
//	3   Victory. A ship with no hull points sinks, and the other side wins; both sunk, or the
//	    last turn played with both afloat, is a draw.
package duel
