package render_test

import (
	"errors"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/render"
	"navarch/render/lepantomap"
)

// TestNoMap: a ruleset without a map gives ErrNoMap, which callers recognise with errors.Is.
func TestNoMap(t *testing.T) {
	g, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: "lions-at-sea"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := render.Game(nil, g, "x", "", false); !errors.Is(err, render.ErrNoMap) {
		t.Errorf("no map: err %v, want ErrNoMap", err)
	}
	data, err := render.Game(lepantomap.Map, g, "x", "christian", false)
	if err != nil || len(data) < 8 || string(data[1:4]) != "PNG" {
		t.Errorf("Lepanto's map: %d bytes, err %v; want a PNG", len(data), err)
	}
}

// TestMapOfAnotherRuleset: a map handed a game of another ruleset is an error, not a panic.
func TestMapOfAnotherRuleset(t *testing.T) {
	var other struct{ adjudicator.Game }
	if _, err := render.Game(lepantomap.Map, other, "x", "", false); err == nil || errors.Is(err, render.ErrNoMap) {
		t.Errorf("err %v, want a failure other than ErrNoMap", err)
	}
}
