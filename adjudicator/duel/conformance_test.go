package duel_test

import (
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/duel"
	"navarch/play/playtest"
)

func TestConformance(t *testing.T) {
	for _, sc := range []string{"short", "long"} {
		t.Run(sc, func(t *testing.T) {
			playtest.Conformance(t, duel.Ruleset, playtest.Options{Config: adjudicator.Config{Scenario: sc}, Seed: "duel " + sc})
		})
	}
}
