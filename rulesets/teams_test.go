package rulesets_test

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
	"navarch/dice"
	"navarch/ident"
	"navarch/rulesets"
)

// TestTeamsCoverEveryUnit: for every listed ruleset whose games implement adjudicator.Teams,
// in every scenario, each side's commands are well formed (adjtest.CheckCommands) and every
// unit a step asks for orders (Acting) or the bot's orders give orders to (OrderUnits) is in one
// of the side's commands, and the commands stay as they were at the start (the host gives them
// to players once), over 80 steps played by the bots.
func TestTeamsCoverEveryUnit(t *testing.T) {
	for _, e := range rulesets.List {
		for _, sc := range e.Rules.Scenarios() {
			t.Run(e.Rules.ID()+"/"+sc.ID, func(t *testing.T) {
				g, err := e.Rules.New(adjudicator.Config{Scenario: sc.ID})
				if err != nil {
					t.Fatal(err)
				}
				tm, ok := g.(adjudicator.Teams)
				if !ok {
					t.Skip("no team games")
				}
				adjtest.CheckCommands(t, g, sc.Sides)
				start := map[string]string{}
				for _, side := range sc.Sides {
					start[side] = fmt.Sprint(tm.Commands(side))
				}
				for i := 0; i < 80 && g.Next().Kind != adjudicator.Over; i++ {
					st := g.Next()
					orders := map[string][]adjudicator.Order{}
					for _, side := range sc.Sides {
						if got := fmt.Sprint(tm.Commands(side)); got != start[side] {
							t.Fatalf("step %d (%s): %s's commands changed from %s to %s", i, st.What, side, start[side], got)
						}
					}
					for _, side := range st.Sides {
						var named []string
						named = append(named, tm.Acting(side)...)
						if b, ok := g.(adjudicator.Bot); ok {
							orders[side], _ = g.Parse(side, b.BotOrders(side))
							for _, o := range orders[side] {
								named = append(named, tm.OrderUnits(side, o)...)
							}
						}
						commanded := commandedUnits(tm, side)
						for _, u := range named {
							if !slices.Contains(commanded, u) {
								t.Errorf("step %d (%s): %s's unit %s is in no command", i, st.What, side, u)
							}
						}
					}
					key := ident.Hash(sha256.Sum256([]byte(fmt.Sprintf("%s/%d", sc.ID, i))))
					if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, key)); err != nil {
						t.Fatalf("step %d (%s): %v", i, st.What, err)
					}
				}
			})
		}
	}
}

func commandedUnits(tm adjudicator.Teams, side string) []string {
	var out []string
	for _, c := range tm.Commands(side) {
		out = append(out, c.Units...)
	}
	return out
}
