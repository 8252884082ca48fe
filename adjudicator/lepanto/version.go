package lepanto

// Version implements adjudicator.Ruleset: the version of this engine that the genesis record
// of every Lepanto game names. Raise it with any change that resolves the same orders and dice
// differently; logs of the old version are then refused by replay.
// 0.2.0: the readings of that release (galleasses, 12.5, 7.1, 5.6, map edges, standing orders).
// 0.3.0: the second review of the rulebook (docs/LEPANTO.md "Engine 0.3.0"): evades within
// 9.6's turns, engaged units held, leaders flee with their ships, ram results where the units
// met, the fire roll, returns, repair after a turn in place, free forced lowering of sails,
// stacks' fire, galleass turns, and the new choices by mail. Games begun under 0.2.0 are
// stranded (navarch check, the daemon), as docs/deploy/README.md's Upgrading says.
// 0.4.0: standing orders sent before the step that uses them are applied with it
// (Game.ApplyStanding, Step.Standing), and the step tells every side of them.
// 0.4.1: each event names the rolls behind it and its kind (adjudicator.Event: log v4's
// roll and kind fields), the report's subject chosen by kind; the same orders and dice
// resolve as in 0.4.0, but the events differ, so replay refuses the other.
// 0.5.0: a draw applies every side's standing orders of the chit kind (LEADERS, ENGAGED,
// LET BURN, EXTINGUISH: Game.StandingKind) while the cup holds a chit that reads them, so a
// choice mailed after the side's last applying step counts at the next chit drawn (2.4.1,
// 2.4.4, 9.2.1); a held standing order's public event is of kind told.
func (ruleset) Version() string { return "0.5.0" }
