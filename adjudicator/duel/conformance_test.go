package duel_test

import (
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
	"navarch/adjudicator/duel"
)

func TestConformance(t *testing.T) {
	for _, sc := range []string{"short", "long"} {
		t.Run(sc, func(t *testing.T) {
			adjtest.Conformance(t, duel.Ruleset, adjtest.Options{Config: adjudicator.Config{Scenario: sc}, Seed: "duel " + sc})
		})
	}
}
