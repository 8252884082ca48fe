package medieval

// Version implements adjudicator.Ruleset: the version of this engine, written into every
// game's genesis record; replay refuses a log made by another.
//
// 0.3.0: one CUT a line; cuts at a lashing counted per lashed pair; a fire is lost after its
// fourth failed attempt or its fourth Command and Control phase, not at the end of a fourth
// turn; a ship that moves into contact with a burning hulk rolls to catch fire; the
// non-phasing ship's AGAINST standing order (whom she fights); a line of standing orders
// alone keeps the card's defaults; the giver of crew components may pass her last level.
// Games begun under 0.2.0 are stranded (navarch check, the daemon), as docs/MEDIEVAL.md says.
//
// 0.4.0: a lashing ends when either ship is sunk, lost to fire or off the table; a raft runs
// the way the wind blows; a fire out of control sets the bases touching it rolling at once;
// a leaving ship's move must take her towards the edge nearest her, and she may not hold;
// a restated standing order is not reported again; the missile range is gunnery's (20");
// the scenarios' set-up (docs/MEDIEVAL.md, "Engine 0.4.0"). Games begun under 0.3.0 are
// stranded likewise.
// 0.5.0: ships' standing orders sent before the card that uses them are applied with it
// (Game.ApplyStanding, Step.Standing).
//
// 0.5.1: each event names the rolls behind it and its kind (adjudicator.Event: log v4's
// roll and kind fields); the same orders and dice resolve as in 0.5.0, but the events differ.
func (ruleset) Version() string { return "0.5.1" }
