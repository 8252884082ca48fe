package oinavarcoi

import "navarch/adjudicator"

// kinds gives Oi Navarcoi!'s events the kind of their rule's section (adjudicator.KindOf):
// the battle's end, then squadrons lost or routed, breakthroughs and flank attacks, melee,
// morale, the event table, movement, the initiative; the events whose kind depends on what
// happened (a fleet leaving the field, a squadron lost, wrecked or routing, a breakthrough,
// an outflanking, a race won, a Battle test's losses, a navarch or an admiral killed, good
// omens, a freighter taken, a launch, a move, a standing order told back) are given theirs
// where they are recorded. The deployments and the rest are notes.
var kinds = []adjudicator.KindRule{
	{Rule: "Designed.victory", Kind: adjudicator.KindEnd},
	{Rule: "Stands.squadron", Kind: adjudicator.KindLoss},
	{Rule: "Phalanx.rout", Kind: adjudicator.KindLoss},
	{Rule: "Flank.outnumbered", Kind: adjudicator.KindBreak},
	{Rule: "Scenarios.convoy", Kind: adjudicator.KindBreak},
	{Rule: "Flank.victim", Kind: adjudicator.KindHit},
	{Rule: "Dice.d3", Kind: adjudicator.KindHit},
	{Rule: "Melee.two", Kind: adjudicator.KindHit},
	{Rule: "Rout.edges", Kind: adjudicator.KindHit},
	{Rule: "Melee", Kind: adjudicator.KindAttack},
	{Rule: "Morale", Kind: adjudicator.KindAttack},
	{Rule: "Diekplous", Kind: adjudicator.KindAttack},
	{Rule: "Periplous", Kind: adjudicator.KindAttack},
	{Rule: "Pursuit.start", Kind: adjudicator.KindAction},
	{Rule: "Phalanx.melee", Kind: adjudicator.KindAction},
	{Rule: "Event.weather", Kind: adjudicator.KindChange},
	{Rule: "Signals.give", Kind: adjudicator.KindChange},
	{Rule: "Signals.kinds", Kind: adjudicator.KindChange},
	{Rule: "Disorder", Kind: adjudicator.KindMove},
	{Rule: "Formations", Kind: adjudicator.KindMove},
	{Rule: "Phalanx", Kind: adjudicator.KindMove},
	{Rule: "Freighters", Kind: adjudicator.KindMove},
	{Rule: "Pursuit", Kind: adjudicator.KindMove},
	{Rule: "Flotsam", Kind: adjudicator.KindMove},
	{Rule: "Initiative", Kind: adjudicator.KindRoutine},
	{Rule: "", Kind: adjudicator.KindNote},
}
