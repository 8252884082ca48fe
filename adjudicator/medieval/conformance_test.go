package medieval_test

import (
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/medieval"
	"navarch/play/playtest"
)

// TestConformance: the medieval engine meets the harness every ruleset meets
// (playtest.Conformance), in every scenario.
func TestConformance(t *testing.T) {
	for _, sc := range medieval.Ruleset.Scenarios() {
		t.Run(sc.ID, func(t *testing.T) {
			playtest.Conformance(t, medieval.Ruleset, playtest.Options{Config: adjudicator.Config{Scenario: sc.ID}, Seed: "conformance " + sc.ID})
		})
	}
}
