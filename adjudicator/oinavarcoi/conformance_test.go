package oinavarcoi_test

import (
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/oinavarcoi"
	"navarch/play/playtest"
)

// TestConformance: Oi Navarcoi! meets the harness every ruleset meets (playtest.Conformance),
// in every scenario.
func TestConformance(t *testing.T) {
	for _, sc := range oinavarcoi.Ruleset.Scenarios() {
		t.Run(sc.ID, func(t *testing.T) {
			playtest.Conformance(t, oinavarcoi.Ruleset, playtest.Options{Config: adjudicator.Config{Scenario: sc.ID}, Seed: "conformance " + sc.ID})
		})
	}
}
