package oinavarcoi

import (
	"fmt"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
)

// TestTeamsSplitPlays: in every scenario, each side's bot orders split among 2 and 4 players
// by wings, each player's part sent alone, pass Parse and Validate and resolve as the
// whole side's (adjtest.TeamPlay), over deployment (rule Deployment.secret), initiative (rule Initiative) and movement (rule Movement.each).
func TestTeamsSplitPlays(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		for _, n := range []int{2, 4} {
			t.Run(fmt.Sprintf("%s/%d", sc.ID, n), func(t *testing.T) {
				newGame := func() adjudicator.Game {
					g, err := Ruleset.New(adjudicator.Config{Scenario: sc.ID})
					if err != nil {
						t.Fatal(err)
					}
					return g
				}
				if pl := adjtest.TeamPlay(t, newGame, n, 300, sc.ID, adjtest.AsWhole); pl.Asked < 5 || pl.Shared == 0 {
					t.Errorf("%+v", pl)
				}
			})
		}
	}
}
