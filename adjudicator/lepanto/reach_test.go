package lepanto

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
)

// TestReachOnStillBoard: the order form's reach, planned on a board that indexes the units'
// hexes once (board.still), is at every step of every scenario, for every unit in play, the
// reach planned on a board that looks at every unit for each hex (3, 16.05).
func TestReachOnStillBoard(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		t.Run(sc.ID, func(t *testing.T) {
			gi, err := Ruleset.New(adjudicator.Config{Scenario: sc.ID})
			if err != nil {
				t.Fatal(err)
			}
			g := gi.(*Game)
			compared := 0
			for i := 0; i < 30 && g.Next().Kind != adjudicator.Over; i++ {
				st := g.Next()
				if i%5 == 0 {
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
				}
				orders := map[string][]adjudicator.Order{}
				for _, side := range st.Sides {
					orders[side], _ = g.Parse(side, g.BotOrders(side))
				}
				key := sha256.Sum256([]byte(fmt.Sprintf("reach %s/%d", sc.ID, i)))
				if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash(key))); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
			}
			if compared == 0 {
				t.Error("no hex reached")
			}
		})
	}
}
