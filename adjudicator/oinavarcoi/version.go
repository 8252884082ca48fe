package oinavarcoi

// Version implements adjudicator.Ruleset: the version of this engine, written into every
// game's genesis record; replay refuses a log made by another. 0.2.0: full-size play's
// default places fitted to the zone, the periplous race's d3 losses, the OMEN and NAVARCH
// standing orders.
func (ruleset) Version() string { return "0.2.0" }
