package lepanto

import (
	"slices"
	"testing"

	"navarch/adjudicator"
)

// TestReachOnStillBoard: the order form's reach, planned on a board that indexes the units'
// hexes once (board.still), is at every step of every scenario, for every unit in play, the
// reach planned on a board that looks at every unit for each hex (3, 16.05).
func TestReachOnStillBoard(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		t.Run(sc.ID, func(t *testing.T) {
			compared := 0
			playByBots(t, sc.ID, 30, "reach ", func(i int, g *Game, _ adjudicator.Step) {
				if i%5 != 0 {
					return
				}
				for _, u := range g.Units {
					if !u.InPlay() {
						continue
					}
					fast, slow := g.reach(u), g.reachOn(&board{g: g, moved: map[string]position{}}, u)
					if !slices.Equal(fast, slow) {
						t.Fatalf("step %d, %s: reach %v on the still board, %v on the other", i, u.ID, fast, slow)
					}
					compared += len(slow)
				}
			})
			if compared == 0 {
				t.Error("no hex reached")
			}
		})
	}
}
