package medieval

import (
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
)

// TestScenariosSetUp: every scenario loads, its lashed ships lie beam to beam, every ship is
// on the table, and two games played by the no-orders default with the same key give the
// same bytes (determinism).
func TestScenariosSetUp(t *testing.T) {
	scs := Ruleset.Scenarios()
	if len(scs) < 2 {
		t.Fatalf("scenarios: %v", scs)
	}
	for _, sc := range scs {
		g := newScenario(t, sc.ID)
		for _, s := range g.Ships {
			if !g.sc.Table.Inside(s.Corners()) {
				t.Errorf("%s: %s is not on the table", sc.ID, s.ID)
			}
		}
		a, b := playDefaults(t, sc.ID, 12), playDefaults(t, sc.ID, 12)
		if string(a) != string(b) {
			t.Errorf("%s: two replays differ", sc.ID)
		}
	}
}

func newScenario(tb testing.TB, id string) *Game {
	tb.Helper()
	g, err := Ruleset.New(adjudicator.Config{Scenario: id})
	if err != nil {
		tb.Fatal(err)
	}
	return g.(*Game)
}

// playDefaults plays steps steps with no orders and returns the final state.
func playDefaults(t *testing.T, id string, steps int) []byte {
	t.Helper()
	g := newScenario(t, id)
	for i := 0; i < steps && g.Next().Kind != adjudicator.Over; i++ {
		st := g.Next()
		if _, err := g.Resolve(nil, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(i)})); err != nil {
			t.Fatalf("step %d (%s): %v", i, st.What, err)
		}
	}
	return g.Encode()
}

func TestNewRefuses(t *testing.T) {
	for _, cfg := range []adjudicator.Config{
		{Scenario: "lepanto"},
		{Scenario: "sluys-1340", Options: []string{"wind"}},
		{Scenario: "sluys-1340", Tables: map[string][]byte{TablesKey: []byte("nogo x")}},
	} {
		if _, err := Ruleset.New(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
	if Ruleset.ID() != "medieval" || len(Ruleset.Options()) != 0 {
		t.Error("ruleset id or options")
	}
}
