package lepanto

import "testing"

// TestScenarioSetup checks scenario 13.2 as set up: wind from the east (13.2.1), Christians
// facing NE and Ottomans NW with their map edges (13.2.2), every unit on the northern map on
// its own hex with its leader aboard, and two captains per wing (13.2.3).
func TestScenarioSetup(t *testing.T) {
	g := newGame(t)
	if g.Wind != "E" {
		t.Errorf("wind from %s, want E (13.2.1)", g.Wind)
	}
	want := map[string]Dir{"christian": NE, "ottoman": NW}
	seen := map[Hex]string{}
	for _, u := range g.Units {
		if u.Facing != want[u.Side] {
			t.Errorf("%s faces %s, want %s (13.2.2)", u.ID, u.Facing, want[u.Side])
		}
		if !g.m.InSection(u.Hex, "north") {
			t.Errorf("%s at %s is off the northern map (13.2.2)", u.ID, u.Hex)
		}
		if o, ok := seen[u.Hex]; ok {
			t.Errorf("%s and %s share %s", u.ID, o, u.Hex)
		}
		seen[u.Hex] = u.ID
	}
	if g.sc.Edges["christian"] != "west" || g.sc.Edges["ottoman"] != "east" {
		t.Errorf("map edges %v (13.2.2)", g.sc.Edges)
	}
	for _, l := range g.Leaders {
		if u := g.unit(l.Unit); u == nil || u.Group != l.Group || !u.Single() {
			t.Errorf("leader %s aboard %s, not a single ship of his group (4.1)", l.ID, l.Unit)
		}
	}
	for _, w := range g.Wings {
		if w.Captains != 2 {
			t.Errorf("wing %s has %d captains, want 2 (13.2.3)", w.ID, w.Captains)
		}
	}
	if len(g.Units) != 35 || len(g.Groups) != 8 {
		t.Errorf("%d units in %d groups", len(g.Units), len(g.Groups))
	}
}
