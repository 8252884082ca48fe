package medieval

import (
	"fmt"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
)

// TestTeamsSplitPlays: in every scenario, each side's bot orders split among 2 and 4 players
// by Divisions, each player's part sent alone, pass Parse and Validate and resolve as the
// whole side's (adjtest.TeamPlay), over every card of a played game (rule "Sequence").
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
				if pl := adjtest.TeamPlay(t, newGame, n, 300, sc.ID, adjtest.LastPlayerFirst); pl.Asked < 10 {
					t.Errorf("%+v", pl)
				}
			})
		}
	}
}

// TestTeamsCommands: each side's commands are its Divisions (rule "Organisation"), every
// ship in exactly one, the one of her Division.
func TestTeamsCommands(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		gi, err := Ruleset.New(adjudicator.Config{Scenario: sc.ID})
		if err != nil {
			t.Fatal(err)
		}
		g := gi.(*Game)
		seen := map[string]int{}
		for _, side := range sc.Sides {
			for _, c := range g.Commands(side) {
				if dv := g.division(c.ID); dv == nil || dv.Side != side || c.Within != "" {
					t.Errorf("%s: %s's command %+v is not a Division of the side", sc.ID, side, c)
				}
				for _, id := range c.Units {
					if g.ship(id).Division != c.ID {
						t.Errorf("%s: %s in command %s", sc.ID, id, c.ID)
					}
					seen[id]++
				}
			}
		}
		for _, s := range g.Ships {
			if seen[s.ID] != 1 {
				t.Errorf("%s: %s is in %d commands", sc.ID, s.ID, seen[s.ID])
			}
		}
	}
}

// TestTeamsLatePlayer: in every scenario, split among 2 and 4 players, a player who never
// sends his part (a wing's, or the side's commander's with its choices) leaves the others'
// orders standing: each passes alone and Resolve takes them, his units getting the rules'
// no-orders default, over a whole game by the bots (adjtest.LatePlay).
func TestTeamsLatePlayer(t *testing.T) {
	adjtest.LateEveryScenario(t, Ruleset, 300, adjtest.LastPlayerFirst)
}
