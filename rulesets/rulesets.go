// Package rulesets is the list of rule systems navarch adjudicates, each with its map and
// the scenario navarch demo plays.
//
// Adding a rule system is adding an Entry to List; nothing else imports a ruleset but this
// list and tests. The command, the demo and every test that means "every ruleset" range
// over List.
package rulesets

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

// Entry is one rule system of the list: its rules, its map (nil if it has none) and the
// scenario navarch demo plays unless told another.
type Entry struct {
	Rules adjudicator.Ruleset
	Map   render.Map
	Demo  string
}

// List is the explicit list of rule systems navarch adjudicates, each with its map.
var List = []Entry{
	{lepanto.Ruleset, lepantomap.Map, "lions-at-sea"},
	{medieval.Ruleset, medievalmap.Map, "sluys-1340"},
	{oinavarcoi.Ruleset, oinavarcoimap.Map, "clash"},
}

// Rules are the rule systems of l, in its order.
func Rules(l []Entry) []adjudicator.Ruleset {
	out := make([]adjudicator.Ruleset, len(l))
	for i, e := range l {
		out[i] = e.Rules
	}
	return out
}

// Maps are l's maps by ruleset id, for the host's configuration; an entry without a map has
// none here.
func Maps(l []Entry) map[string]render.Map {
	out := map[string]render.Map{}
	for _, e := range l {
		if e.Map != nil {
			out[e.Rules.ID()] = e.Map
		}
	}
	return out
}

// HasBot says whether the games of e's demo scenario have a bot (adjudicator.Bot) to play
// their sides.
func HasBot(e Entry) bool {
	g, err := e.Rules.New(adjudicator.Config{Scenario: e.Demo})
	if err != nil {
		return false
	}
	_, ok := g.(adjudicator.Bot)
	return ok
}

// WithBot are the entries of l navarch demo may play: those whose games have a bot. A
// ruleset without one is not offered.
func WithBot(l []Entry) []Entry {
	var out []Entry
	for _, e := range l {
		if HasBot(e) {
			out = append(out, e)
		}
	}
	return out
}

// IDs are the ruleset ids of l, in its order.
func IDs(l []Entry) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.Rules.ID())
	}
	return out
}

// Demo is the entry of l for the ruleset id for navarch demo, or an error that says why it
// cannot be played.
func Demo(l []Entry, id string) (Entry, error) {
	rs, err := play.Find(Rules(l), id)
	if err != nil {
		return Entry{}, fmt.Errorf("%w (navarch rules lists them)", err)
	}
	i := slices.IndexFunc(l, func(e Entry) bool { return e.Rules == rs })
	if !HasBot(l[i]) {
		return Entry{}, fmt.Errorf("ruleset %s has no bot to play its sides, so the demo cannot play it; rulesets with one: %s",
			id, strings.Join(IDs(WithBot(l)), ", "))
	}
	return l[i], nil
}
