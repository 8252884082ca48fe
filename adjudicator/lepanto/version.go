package lepanto

// Version implements adjudicator.Ruleset: the version of this engine that the genesis record
// of every Lepanto game names. Raise it with any change that resolves the same orders and dice
// differently; logs of the old version are then refused by replay.
func (ruleset) Version() string { return "0.1.0" }
