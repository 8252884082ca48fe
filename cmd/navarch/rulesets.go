package main

import (
	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
)

// rulesets is the explicit list of rule systems this navarch adjudicates.
var rulesets = []adjudicator.Ruleset{lepanto.Ruleset}
