package lepanto

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
)

// TestTeamsSplitPlays: in every scenario, each side's bot orders split among 2 and 4 players
// by their commands, each player's part sent alone, pass Parse and Validate and resolve as the
// whole side's (adjtest.TeamPlay), over 400 steps: group activations (2.2), fury chits (2.4.2),
// Disengage (2.4.4), Boarding (8).
func TestTeamsSplitPlays(t *testing.T) {
	for _, n := range []int{2, 4} {
		shared := 0
		for _, sc := range Ruleset.Scenarios() {
			t.Run(fmt.Sprintf("%s/%d", sc.ID, n), func(t *testing.T) {
				newGame := func() adjudicator.Game {
					g, err := Ruleset.New(adjudicator.Config{Scenario: sc.ID})
					if err != nil {
						t.Fatal(err)
					}
					return g
				}
				pl := adjtest.TeamPlay(t, newGame, n, 400, sc.ID, adjtest.LastPlayerFirst)
				if pl.Asked < 10 {
					t.Errorf("%+v", pl)
				}
				shared += pl.Shared
			})
		}
		if shared == 0 {
			t.Errorf("%d players: no step's orders came from two players", n)
		}
	}
}

// TestTeamsCommands: the Battle of Lepanto gives each side its wings (13.1: the Christian left,
// center, reserve and right; the Ottoman right, center, reserve and left) with their groups
// within, every unit in exactly one group and one wing.
func TestTeamsCommands(t *testing.T) {
	gi, err := Ruleset.New(adjudicator.Config{Scenario: "battle-of-lepanto"})
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*Game)
	for _, side := range g.sc.Sides {
		var wings []string
		inWing, inGroup := map[string]int{}, map[string]int{}
		for _, c := range g.Commands(side) {
			if c.Within == "" {
				wings = append(wings, c.ID)
			}
			for _, u := range c.Units {
				if g.unit(u).Side != side {
					t.Errorf("%s's command %s holds %s of %s", side, c.ID, u, g.unit(u).Side)
				}
				if c.Within == "" {
					inWing[u]++
				} else {
					inGroup[u]++
					if g.unit(u).Group != c.ID {
						t.Errorf("group command %s holds %s of group %s", c.ID, u, g.unit(u).Group)
					}
				}
			}
		}
		slices.Sort(wings)
		if !slices.Equal(wings, []string{"CENTER", "LEFT", "RESERVE", "RIGHT"}) {
			t.Errorf("%s's wings %v", side, wings)
		}
		for _, u := range g.Units {
			if u.Side == side && (inWing[u.ID] != 1 || inGroup[u.ID] != 1) {
				t.Errorf("%s is in %d wings and %d groups", u.ID, inWing[u.ID], inGroup[u.ID])
			}
		}
	}
}

// TestTeamsLatePlayer: in every scenario, split among 2 and 4 players, a player who never
// sends his part (a wing's, or the side's commander's with its choices) leaves the others'
// orders standing: each passes alone and Resolve takes them, his units getting the rules'
// no-orders default, over a whole game by the bots (adjtest.LatePlay).
func TestTeamsLatePlayer(t *testing.T) {
	adjtest.LateEveryScenario(t, Ruleset, 400, adjtest.LastPlayerFirst)
}

// leaderBot is the bot with the leaders' orders it declines: at set-up every leader sets up
// hidden, the first one aboard another single ship of his group if he may (4.5); at a Leader
// Move chit every leader that may moves to the first ship he may (2.4.1).
type leaderBot struct{ *Game }

func (b leaderBot) BotOrders(side string) string {
	g := b.Game
	var lines []string
	switch {
	case !g.SetUp:
		for _, l := range g.Leaders {
			if l.Side != side || l.Status != "" {
				continue
			}
			line := l.ID + " HIDDEN"
			if ships := g.leaderShips(l.Group); len(lines) == 0 && len(ships) > 1 {
				line = l.ID + " ON " + ships[len(ships)-1] + " HIDDEN"
			}
			lines = append(lines, line)
		}
	case g.Wait == waitLeaderMove && slices.Contains(g.WaitSides, side):
		for _, l := range g.Leaders {
			if to := g.leaderTargets(l.ID); l.Side == side && len(to) > 0 {
				lines = append(lines, l.ID+" TO "+to[0])
			}
		}
	default:
		return g.BotOrders(side)
	}
	return strings.Join(lines, "\n")
}

// TestTeamsLeaders: the hidden set-up (4.5) and Leader Move chits (2.4.1), every leader given
// orders, split among 2 and 4 players by their groups' commands, pass alone and resolve as
// the whole side's; with a player late, his leaders keep the orders of battle's ships.
func TestTeamsLeaders(t *testing.T) {
	for _, sc := range []string{"lions-at-sea", "battle-of-lepanto"} {
		newGame := func() adjudicator.Game {
			g, err := Ruleset.New(adjudicator.Config{Scenario: sc})
			if err != nil {
				t.Fatal(err)
			}
			return leaderBot{g.(*Game)}
		}
		for _, n := range []int{2, 4} {
			if pl := adjtest.TeamPlay(t, newGame, n, 200, sc, adjtest.LastPlayerFirst); pl.Shared == 0 {
				t.Errorf("%s, %d players: %+v", sc, n, pl)
			}
			adjtest.LatePlay(t, newGame, n, n-1, 200, sc, adjtest.LastPlayerFirst)
		}
	}
}
