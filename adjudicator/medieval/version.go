package medieval

// Version implements adjudicator.Ruleset: the version of this engine, written into every
// game's genesis record; replay refuses a log made by another.
func (ruleset) Version() string { return "0.2.0" }
