package main

import (
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/adjudicator/medieval"
	"navarch/adjudicator/oinavarcoi"
	"navarch/play"
	"navarch/render"
	"navarch/render/lepantomap"
	"navarch/render/medievalmap"
	"navarch/render/oinavarcoimap"
)

// ruleset is one entry of the list: a rule system, its map (nil if it has none) and the
// scenario navarch demo plays unless told another.
type ruleset struct {
	rules adjudicator.Ruleset
	view  render.Map
	demo  string
}

// list is the explicit list of rule systems this navarch adjudicates, each with its map.
// Adding a rule system is adding an entry here; nothing else imports a ruleset.
var list = []ruleset{
	{lepanto.Ruleset, lepantomap.Map, "lions-at-sea"},
	{medieval.Ruleset, medievalmap.Map, "sluys-1340"},
	{oinavarcoi.Ruleset, oinavarcoimap.Map, "clash"},
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

// demoRulesets are the entries navarch demo may play: those whose games have a bot
// (adjudicator.Bot) to play the sides. A ruleset without one is not offered.
func demoRulesets(l []ruleset) []ruleset {
	var out []ruleset
	for _, r := range l {
		if hasBot(r) {
			out = append(out, r)
		}
	}
	return out
}

func demoRulesetIDs(l []ruleset) []string {
	var out []string
	for _, r := range demoRulesets(l) {
		out = append(out, r.rules.ID())
	}
	return out
}

// hasBot says whether the games of r's demo scenario have a bot.
func hasBot(r ruleset) bool {
	g, err := r.rules.New(adjudicator.Config{Scenario: r.demo})
	if err != nil {
		return false
	}
	_, ok := g.(adjudicator.Bot)
	return ok
}

// demoRuleset is the entry of l for the ruleset id for navarch demo, or an error that says
// why it cannot be played.
func demoRuleset(l []ruleset, id string) (ruleset, error) {
	rs, err := play.Find(rulesetsOf(l), id)
	if err != nil {
		return ruleset{}, fmt.Errorf("%w (navarch rules lists them)", err)
	}
	i := slices.IndexFunc(l, func(r ruleset) bool { return r.rules == rs })
	if !hasBot(l[i]) {
		return ruleset{}, fmt.Errorf("ruleset %s has no bot to play its sides, so the demo cannot play it; rulesets with one: %s",
			id, strings.Join(demoRulesetIDs(l), ", "))
	}
	return l[i], nil
}
