package medieval_test

import (
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
	"navarch/adjudicator/medieval"
)

// TestConformance: the medieval engine meets the harness every ruleset meets
// (adjtest.Conformance), in every scenario.
func TestConformance(t *testing.T) {
	for _, sc := range medieval.Ruleset.Scenarios() {
		t.Run(sc.ID, func(t *testing.T) {
			adjtest.Conformance(t, medieval.Ruleset, adjtest.Options{Config: adjudicator.Config{Scenario: sc.ID}, Seed: "conformance " + sc.ID})
		})
	}
}
