package duel

import (
	"slices"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
)

// TestTeams: a duel's side is its one ship, one command (1); each turn asks it, FIRE and
// HOLD give it orders, and a side split among 2 or 4 players plays as the whole side.
func TestTeams(t *testing.T) {
	g := newGame(t)
	adjtest.CheckCommands(t, g, sides)
	if got := g.Commands("red"); len(got) != 1 || !slices.Equal(got[0].Units, []string{"red"}) {
		t.Errorf("red's commands %+v", got)
	}
	if got := g.Acting("blue"); !slices.Equal(got, []string{"blue"}) {
		t.Errorf("blue acting %v", got)
	}
	for _, n := range []int{2, 4} {
		if pl := adjtest.TeamPlay(t, func() adjudicator.Game { return newGame(t) }, n, 20, "duel", adjtest.LastPlayerFirst); pl.Asked == 0 {
			t.Error("no step asked for orders")
		}
	}
}

func newGame(t *testing.T) *Game {
	t.Helper()
	g, err := Ruleset.New(adjudicator.Config{Scenario: "long"})
	if err != nil {
		t.Fatal(err)
	}
	return g.(*Game)
}
