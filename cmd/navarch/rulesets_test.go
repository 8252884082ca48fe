package main

import (
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
)

// noBot is Lepanto under another id, its games without a bot.
type noBot struct{ adjudicator.Ruleset }

func (noBot) ID() string { return "nobot" }

func (r noBot) New(cfg adjudicator.Config) (adjudicator.Game, error) {
	g, err := r.Ruleset.New(cfg)
	return struct{ adjudicator.Game }{g}, err
}

// TestDemoNeedsABot: navarch demo offers only rulesets whose games have a bot, and says why it
// refuses one without.
func TestDemoNeedsABot(t *testing.T) {
	l := []ruleset{{lepanto.Ruleset, nil, "lions-at-sea"}, {noBot{lepanto.Ruleset}, nil, "lions-at-sea"}}
	if ids := demoRulesetIDs(l); len(ids) != 1 || ids[0] != "lepanto1571" {
		t.Errorf("offered %v, want lepanto1571 only", ids)
	}
	if _, err := demoRuleset(l, "nobot"); err == nil || !strings.Contains(err.Error(), "has no bot") {
		t.Errorf("nobot: %v, want a refusal saying it has no bot", err)
	}
	if _, err := demoRuleset(l, "nosuch"); err == nil || !strings.Contains(err.Error(), "no ruleset") {
		t.Errorf("nosuch: %v", err)
	}
	if r, err := demoRuleset(l, "lepanto1571"); err != nil || r.demo != "lions-at-sea" {
		t.Errorf("lepanto1571: %+v, %v", r, err)
	}
}

// TestListMedieval: the ruleset list holds the medieval rules with their map, and the demo
// offers them (their games have a bot).
func TestListMedieval(t *testing.T) {
	if maps["medieval"] == nil {
		t.Error("the medieval ruleset has no map in the list")
	}
	if r, err := demoRuleset(list, "medieval"); err != nil || r.demo != "sluys-1340" {
		t.Errorf("demo of medieval: %+v, %v", r, err)
	}
}
