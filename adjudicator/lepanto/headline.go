package lepanto

import "navarch/adjudicator"

// kinds gives Lepanto's events the kind of their rule's section (adjudicator.KindOf): the end
// of the game, then a wing broken, damage and boarding, fire, movement; the events whose kind
// depends on what happened (a ship sunk, fled or captured, a leader killed, a ram, a grapple,
// a leader revealed, a ship disengaging or moving, a standing order told back) are given
// theirs where they are recorded. Chit draws, activations and the rest are notes.
var kinds = []adjudicator.KindRule{
	{Rule: "10.1", Kind: adjudicator.KindEnd},
	{Rule: "9.9", Kind: adjudicator.KindBreak}, // a wing at LF
	{Rule: "9.8", Kind: adjudicator.KindBreak}, // at LMA
	{Rule: "9.5", Kind: adjudicator.KindHit},   // a hit and what it did
	{Rule: "9.1", Kind: adjudicator.KindHit},
	{Rule: "9.2", Kind: adjudicator.KindHit},
	{Rule: "8.1", Kind: adjudicator.KindHit},
	{Rule: "6.3", Kind: adjudicator.KindHit},
	{Rule: "5.5", Kind: adjudicator.KindAction},
	{Rule: "5.3", Kind: adjudicator.KindAction},
	{Rule: "8.2", Kind: adjudicator.KindAction},
	{Rule: "9.7", Kind: adjudicator.KindChange},
	{Rule: "9.6", Kind: adjudicator.KindChange},
	{Rule: "11.1", Kind: adjudicator.KindMove},
	{Rule: "12.3", Kind: adjudicator.KindMove},
	{Rule: "", Kind: adjudicator.KindNote},
}
