package lepanto

import (
	"testing"

	"navarch/adjudicator"
)

// TestScenarioSetup checks every scenario as set up (13.x): wind from the east, Christians
// facing NE and Ottomans NW with their map edges, every unit on the scenario's maps on a hex
// of its own, each leader aboard a single ship of his group (4.1), the captains of each wing.
func TestScenarioSetup(t *testing.T) {
	want := map[string]struct {
		units, groups int
		captains      map[string]int
	}{
		"lions-at-sea":      {35, 8, map[string]int{"christian-left": 2, "ottoman-right": 2}},
		"lepanto-clash":     {74, 12, map[string]int{"christian-center": 1, "christian-reserve": 1, "ottoman-center": 2}},
		"waiting-for-doria": {46, 8, map[string]int{"christian-right": 2, "ottoman-left": 2}},
		"battle-of-lepanto": {162, 29, map[string]int{"christian-center": 1, "christian-reserve": 1, "ottoman-reserve": 2, "christian-right": 2}},
	}
	for _, sc := range Ruleset.Scenarios() {
		t.Run(sc.ID, func(t *testing.T) {
			gm, err := Ruleset.New(adjudicator.Config{Scenario: sc.ID})
			if err != nil {
				t.Fatal(err)
			}
			g := gm.(*Game)
			w, ok := want[sc.ID]
			if !ok {
				t.Fatalf("scenario %s has no expectations here", sc.ID)
			}
			checkSetup(t, g)
			if len(g.Units) != w.units || len(g.Groups) != w.groups {
				t.Errorf("%d units in %d groups, want %d in %d", len(g.Units), len(g.Groups), w.units, w.groups)
			}
			for wing, n := range w.captains {
				if c := g.wing(wing).Captains; c != n {
					t.Errorf("wing %s has %d captains, want %d", wing, c, n)
				}
			}
		})
	}
}

func checkSetup(t *testing.T, g *Game) {
	t.Helper()
	if g.Wind != "E" {
		t.Errorf("wind from %s, want E", g.Wind)
	}
	facing := map[string]Dir{"christian": NE, "ottoman": NW}
	seen := map[Hex]string{}
	for _, u := range g.Units {
		if u.Facing != facing[u.Side] {
			t.Errorf("%s faces %s, want %s", u.ID, u.Facing, facing[u.Side])
		}
		onMap := false
		for _, sec := range g.sc.Sections {
			onMap = onMap || g.m.InSection(u.Hex, sec)
		}
		if !onMap {
			t.Errorf("%s at %s is off the scenario's maps %v", u.ID, u.Hex, g.sc.Sections)
		}
		if o, ok := seen[u.Hex]; ok {
			t.Errorf("%s and %s share %s", u.ID, o, u.Hex)
		}
		seen[u.Hex] = u.ID
	}
	if g.sc.Edges["christian"] != "west" || g.sc.Edges["ottoman"] != "east" {
		t.Errorf("map edges %v", g.sc.Edges)
	}
	for _, gr := range g.Groups {
		n := 0
		for _, l := range g.Leaders {
			if u := g.unit(l.Unit); u != nil && u.Group == gr.ID {
				n++
				if !u.Single() {
					t.Errorf("leader %s aboard squadron %s (4.1)", l.ID, l.Unit)
				}
			}
		}
		if n != 1 {
			t.Errorf("group %s has %d leaders aboard", gr.ID, n)
		}
	}
}
