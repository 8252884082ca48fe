package lepanto_test

import (
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/play/playtest"
)

// TestConformance: Lepanto meets the harness every ruleset meets (playtest.Conformance).
func TestConformance(t *testing.T) {
	for _, cfg := range []adjudicator.Config{
		{Scenario: "lions-at-sea"},
		{Scenario: "lions-at-sea", Options: []string{lepanto.OptionWind, lepanto.OptionSailing}},
	} {
		t.Run(cfg.Scenario+"+"+joined(cfg.Options), func(t *testing.T) {
			playtest.Conformance(t, lepanto.Ruleset, playtest.Options{Config: cfg, Seed: "conformance"})
		})
	}
}

func joined(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}
