package lepantomap

import (
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/dice"
	"navarch/ident"
	"navarch/render"
	"navarch/render/rendertest"
)

func fullBattle(b *testing.B) *lepanto.Game {
	g, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: "battle-of-lepanto"})
	if err != nil {
		b.Fatal(err)
	}
	return g.(*lepanto.Game)
}

// battleUnderWay is the full battle (13.1) played by bots until a group has moved and the game
// waits for orders again: the state in which the host draws the report maps it sends.
func battleUnderWay(b *testing.B) *lepanto.Game {
	g := fullBattle(b)
	for i := 0; i < 400 && g.Next().Kind != adjudicator.Over; i++ {
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			orders[side], _ = g.Parse(side, g.BotOrders(side))
		}
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(i), 9})); err != nil {
			b.Fatal(err)
		}
		if g.Turn >= 2 && g.Next().Kind == adjudicator.NeedOrders && len(g.View("").Trace) > 0 {
			return g
		}
	}
	b.Fatal("the bots never reached a report with moves")
	return nil
}

// BenchmarkRenderFullBattle is the whole map of the full battle (13.1), as STATUS FULL sends it.
func BenchmarkRenderFullBattle(b *testing.B) {
	v := fullBattle(b).View("christian")
	rendertest.BenchMap(b, func() render.Picture { return fromView(v, "bench", true) })
}

// BenchmarkRenderReport is the map a report of the full battle sends, cropped to what the
// last activation did.
func BenchmarkRenderReport(b *testing.B) {
	v := battleUnderWay(b).View("christian")
	rendertest.BenchMap(b, func() render.Picture { return fromView(v, "bench", false) })
}
