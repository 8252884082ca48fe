package main

import (
	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/render"
	"navarch/render/lepantomap"
)

// ruleset is one entry of the list: a rule system and its map (nil if it has none).
type ruleset struct {
	rules adjudicator.Ruleset
	view  render.Map
}

// list is the explicit list of rule systems this navarch adjudicates, each with its map.
// Adding a rule system is adding an entry here; nothing else imports a ruleset.
var list = []ruleset{
	{lepanto.Ruleset, lepantomap.Map},
}

// rulesets are the rule systems of the list.
var rulesets = rulesetsOf(list)

// maps are the list's maps by ruleset id, for the host's configuration.
var maps = mapsOf(list)

func rulesetsOf(l []ruleset) []adjudicator.Ruleset {
	out := make([]adjudicator.Ruleset, len(l))
	for i, r := range l {
		out[i] = r.rules
	}
	return out
}

func mapsOf(l []ruleset) map[string]render.Map {
	out := map[string]render.Map{}
	for _, r := range l {
		if r.view != nil {
			out[r.rules.ID()] = r.view
		}
	}
	return out
}

// rulesetByID is the ruleset of that id, or nil.
func rulesetByID(id string) adjudicator.Ruleset {
	for _, rs := range rulesets {
		if rs.ID() == id {
			return rs
		}
	}
	return nil
}
