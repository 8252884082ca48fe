package main

import (
	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
)

// rulesets is the explicit list of rule systems this navarch adjudicates.
var rulesets = []adjudicator.Ruleset{lepanto.Ruleset}

// rulesetByID is the ruleset of that id, or nil.
func rulesetByID(id string) adjudicator.Ruleset {
	for _, rs := range rulesets {
		if rs.ID() == id {
			return rs
		}
	}
	return nil
}
