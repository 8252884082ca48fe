package medieval

import "navarch/adjudicator"

// kinds gives the medieval game's events the kind of their rule's section
// (adjudicator.KindOf): the battle's end, then a ship lost, crippled or boarded, fire, hits,
// shooting, movement; the events whose kind depends on what happened (a ship lost to fire or
// off the table, a boarding action begun, a broadside fired, a missile hit or miss, a
// reload) are given theirs where they are recorded. Cards drawn and the rest are notes.
var kinds = []adjudicator.KindRule{
	{Rule: "Designed.victory", Kind: adjudicator.KindEnd},
	{Rule: "Damage.1", Kind: adjudicator.KindLoss},
	{Rule: "Damage.2", Kind: adjudicator.KindBreak},
	{Rule: "Boarding.2", Kind: adjudicator.KindBreak},
	{Rule: "Fires", Kind: adjudicator.KindHit},
	{Rule: "CuttingFree", Kind: adjudicator.KindAttack},
	{Rule: "Gunnery.11", Kind: adjudicator.KindAttack},
	{Rule: "Missile.3", Kind: adjudicator.KindAttack},
	{Rule: "Damage", Kind: adjudicator.KindAttack},
	{Rule: "Lashing", Kind: adjudicator.KindChange},
	{Rule: "Passing", Kind: adjudicator.KindChange},
	{Rule: "Defence", Kind: adjudicator.KindChange},
	{Rule: "Movement", Kind: adjudicator.KindMove},
	{Rule: "", Kind: adjudicator.KindNote},
}
