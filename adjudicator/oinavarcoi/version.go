package oinavarcoi

// Version implements adjudicator.Ruleset: the version of this engine, written into every
// game's genesis record; replay refuses a log made by another. 0.2.0: full-size play's
// default places fitted to the zone, the periplous race's d3 losses, the OMEN and NAVARCH
// standing orders.
//
// 0.3.0 (docs/OINAVARCOI.md, "Engine 0.3.0"): a successful diekplous fights its melee at
// once; flotsam never unforms; a wheel into contact takes no test; an unformed squadron
// that spends a stationary turn reforms; the deployment band holds the whole squadron; good
// omens on equal dice go to a roll-off's winner; a signal is carried out where its line
// stands; the standing orders INITIATIVE and SHARE and the conditional IF. Games begun under
// 0.2.0 are stranded (navarch check, the daemon).
// 0.4.0: standing orders sent before the step that uses them are applied with it
// (Game.ApplyStanding, Step.Standing), and every side is told of them then.
//
// 0.4.1: each event names the rolls behind it and its kind (adjudicator.Event: log v4's
// roll and kind fields); the same orders and dice resolve as in 0.4.0, but the events differ.
func (ruleset) Version() string { return "0.4.1" }
