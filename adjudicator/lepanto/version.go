package lepanto

// Version implements adjudicator.Ruleset: the version of this engine that the genesis record
// of every Lepanto game names. Raise it with any change that resolves the same orders and dice
// differently; logs of the old version are then refused by replay.
// 0.2.0: the readings of that release (galleasses, 12.5, 7.1, 5.6, map edges, standing orders).
func (ruleset) Version() string { return "0.2.0" }
