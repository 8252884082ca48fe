package lepanto

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
	"navarch/dice"
	"navarch/ident"
)

// TestOrderFormEveryStep: in every scenario, played by the bots for up to 150 steps, each
// side asked for orders gets a form whose pre-filled lines pass Parse and Validate; a group's
// form lists each of its units in play with hex, facing and MP and a PASS line for it
// (2.2, 3, 5.2.1, 16.05).
func TestOrderFormEveryStep(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		t.Run(sc.ID, func(t *testing.T) {
			groups := 0
			playByBots(t, sc.ID, 150, "", func(_ int, g *Game, st adjudicator.Step) {
				for _, side := range st.Sides {
					f := adjtest.CheckForm(t, g, side)
					if g.SetUp && g.Wait == waitGroup {
						groups++
						checkGroupForm(t, g, f)
					}
				}
			})
			if groups == 0 {
				t.Error("no group activation was played")
			}
		})
	}
}

// playByBots plays a game of scenario sc by the bots for up to steps steps (to its end, if
// sooner), each step's dice keyed by seed, the scenario and the step's number; before sees
// the game and the step due before the bots' orders for it are resolved.
func playByBots(t *testing.T, sc string, steps int, seed string, before func(i int, g *Game, st adjudicator.Step)) {
	t.Helper()
	gi, err := Ruleset.New(adjudicator.Config{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*Game)
	for i := 0; i < steps && g.Next().Kind != adjudicator.Over; i++ {
		st := g.Next()
		before(i, g, st)
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			orders[side], _ = g.Parse(side, g.BotOrders(side))
		}
		key := sha256.Sum256([]byte(fmt.Sprintf("%s%s/%d", seed, sc, i)))
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash(key))); err != nil {
			t.Fatalf("step %d (%s): %v", i, st.What, err)
		}
	}
}

func checkGroupForm(t *testing.T, g *Game, f adjudicator.Form) {
	t.Helper()
	var want []string
	for _, u := range g.Units {
		if u.Group == g.WaitGroup && u.InPlay() {
			want = append(want, u.ID)
		}
	}
	if len(f.Units) != len(want) || len(f.Lines) != len(want) {
		t.Fatalf("group %s: form of %d units and %d lines, want %d: %+v", g.WaitGroup, len(f.Units), len(f.Lines), len(want), f)
	}
	for i, fu := range f.Units {
		u := g.unit(want[i])
		if fu.ID != u.ID || fu.Where != u.Hex.String() || fu.Facing != u.Facing.String() || !strings.HasPrefix(fu.Allowance, fmt.Sprint(g.allowanceIn(u, u.Sailing))+" MP") ||
			f.Lines[i] != u.ID+" PASS" {
			t.Fatalf("form entry %+v, line %q, for %s at %s facing %s", fu, f.Lines[i], u.ID, u.Hex, u.Facing)
		}
	}
}
