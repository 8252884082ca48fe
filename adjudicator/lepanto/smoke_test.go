package lepanto

import (
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/dice"
)

func TestSmoke(t *testing.T) {
	gm, err := Ruleset.New(adjudicator.Config{Scenario: "lions-at-sea"})
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*Game)
	for i := 0; i < 60 && !g.Over; i++ {
		st := g.Next()
		act := dice.NewActivation(st.Turn, st.Act, dice.Hash{byte(i)})
		var orders map[string][]adjudicator.Order
		if st.Kind == adjudicator.NeedOrders {
			orders = map[string][]adjudicator.Order{}
		}
		ev, err := g.Resolve(orders, act)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ev {
			t.Logf("T%d A%d [%s] %s", st.Turn, st.Act, e.Rule, e.Text)
		}
	}
}
