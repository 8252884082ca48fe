// Package dice derives every audited die roll of a game from the game's commitments (docs/DICE.md).
//
// Nothing here reads a clock, a global random source or the file system: a roll is a pure
// function of the committed seed chain, the players' join entropy, the inputs of the
// activation and the roll's label. The exact bytes are specified in docs/LOG-FORMAT.md and
// pinned by the golden vectors in testdata/vectors.golden; changing any tag or layout is a new
// version tag ("navarch/v2/…"), never an edit of v1.
//
// An engine asks for rolls through the Roller interface only. Special dice (the average die,
// a d10 whose 10 reads 0, draws from a cup or deck) are mappings of a plain die, so that every
// roll in the log is a plain die that any verifier can recompute.
package dice
