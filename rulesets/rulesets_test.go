package rulesets_test

import (
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/play/playtest"
	"navarch/rulesets"
)

// TestEveryEntry: every entry of the list is a ruleset with a unique id, an engine version,
// scenarios with two sides or more, a map, and a demo scenario of its own that a bot plays.
func TestEveryEntry(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range rulesets.List {
		id := e.Rules.ID()
		t.Run(id, func(t *testing.T) {
			if id == "" || seen[id] {
				t.Fatalf("ruleset id %q empty or listed twice", id)
			}
			seen[id] = true
			if e.Rules.Version() == "" || e.Rules.Title() == "" {
				t.Errorf("version %q, title %q", e.Rules.Version(), e.Rules.Title())
			}
			if e.Map == nil {
				t.Error("no map")
			}
			scs := e.Rules.Scenarios()
			if !slices.ContainsFunc(scs, func(s adjudicator.Scenario) bool { return s.ID == e.Demo }) {
				t.Errorf("the demo scenario %q is not one of the ruleset's", e.Demo)
			}
			for _, sc := range scs {
				if len(sc.Sides) < 2 {
					t.Errorf("scenario %s has sides %v", sc.ID, sc.Sides)
				}
			}
			if !rulesets.HasBot(e) {
				t.Error("the demo scenario's games have no bot")
			}
		})
	}
	if got := rulesets.Maps(rulesets.List); len(got) != len(rulesets.List) {
		t.Errorf("%d maps for %d entries", len(got), len(rulesets.List))
	}
}

// TestConformanceEveryRuleset: every listed ruleset's demo scenario meets the harness
// (playtest.Conformance), so a ruleset added to the list is held to it even before its own
// tests call it.
func TestConformanceEveryRuleset(t *testing.T) {
	for _, e := range rulesets.List {
		t.Run(e.Rules.ID(), func(t *testing.T) {
			playtest.Conformance(t, e.Rules, playtest.Options{Config: adjudicator.Config{Scenario: e.Demo}, Seed: "every ruleset"})
		})
	}
}

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
	l := []rulesets.Entry{{Rules: lepanto.Ruleset, Demo: "lions-at-sea"}, {Rules: noBot{lepanto.Ruleset}, Demo: "lions-at-sea"}}
	if ids := rulesets.IDs(rulesets.WithBot(l)); len(ids) != 1 || ids[0] != "lepanto1571" {
		t.Errorf("offered %v, want lepanto1571 only", ids)
	}
	if _, err := rulesets.Demo(l, "nobot"); err == nil || !strings.Contains(err.Error(), "has no bot") || !strings.Contains(err.Error(), "with one: lepanto1571") {
		t.Errorf("nobot: %v, want a refusal saying it has no bot", err)
	}
	if _, err := rulesets.Demo(l, "nosuch"); err == nil || !strings.Contains(err.Error(), "no ruleset") {
		t.Errorf("nosuch: %v", err)
	}
	if r, err := rulesets.Demo(l, "lepanto1571"); err != nil || r.Demo != "lions-at-sea" {
		t.Errorf("lepanto1571: %+v, %v", r, err)
	}
}

// TestListMedieval: the ruleset list holds the medieval rules with their map, and the demo
// offers them (their games have a bot).
func TestListMedieval(t *testing.T) {
	if rulesets.Maps(rulesets.List)["medieval"] == nil {
		t.Error("the medieval ruleset has no map in the list")
	}
	if r, err := rulesets.Demo(rulesets.List, "medieval"); err != nil || r.Demo != "sluys-1340" {
		t.Errorf("demo of medieval: %+v, %v", r, err)
	}
}
