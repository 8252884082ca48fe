package medieval

import (
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
)

// roundTrips plays scenario id to its end with bot players and counts the round trips by mail
// (a request and its answer) the host would need: a side is asked at each card of its own
// unless the orders it holds answer the card legally. In "advance" mode every answer also
// orders the side's other Divisions (BotAdvanceOrders), held until their cards are turned.
func roundTrips(t *testing.T, id string, advance bool) (requests, turns int) {
	t.Helper()
	g := newScenario(t, id)
	held := map[string][]adjudicator.Order{}
	for g.Next().Kind != adjudicator.Over {
		st := g.Next()
		if st.Kind == adjudicator.Auto {
			held = map[string][]adjudicator.Order{} // orders ahead are for one turn
		}
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			use := g.Applicable(side, held[side])
			if len(use) == 0 || len(g.Validate(side, use)) > 0 {
				requests++
				text := g.BotOrders(side)
				if advance {
					text = g.BotAdvanceOrders(side)
				}
				all, errs := g.Parse(side, text)
				if len(errs) > 0 {
					t.Fatal(errs)
				}
				use = all
				if advance {
					held[side], use = g.Later(side, all), g.Applicable(side, all)
				}
			} else {
				held[side] = g.Later(side, held[side])
			}
			if errs := g.Validate(side, use); len(errs) > 0 {
				t.Fatalf("bot orders refused: %v", errs)
			}
			orders[side] = use
		}
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(st.Act), byte(st.Turn)})); err != nil {
			t.Fatal(err)
		}
	}
	return requests, g.Turn
}

// TestRoundTrips: orders ahead save round trips by mail (docs/BENCHMARKS.md gives the
// figures): a side asked at every card of its own needs one round trip a card; ordering the
// other Divisions ahead needs fewer.
func TestRoundTrips(t *testing.T) {
	for _, sc := range Ruleset.Scenarios() {
		asked, turns := roundTrips(t, sc.ID, false)
		ahead, turnsAhead := roundTrips(t, sc.ID, true)
		t.Logf("%s: asked at every card %d round trips in %d turns (%.1f a turn); ordering ahead %d in %d (%.1f a turn)",
			sc.ID, asked, turns, float64(asked)/float64(turns), ahead, turnsAhead, float64(ahead)/float64(turnsAhead))
		if float64(ahead)/float64(turnsAhead) >= float64(asked)/float64(turns) {
			t.Errorf("%s: ordering ahead saves nothing", sc.ID)
		}
	}
}
