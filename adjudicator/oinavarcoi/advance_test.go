package oinavarcoi

import (
	"testing"

	"navarch/adjudicator"
)

// TestAdvanceOrders: movement lines sent with the deployment or the initiative choice are
// held for the side's movement step, then used there; signals too; a choice is used when the
// side wins the initiative; orders for another side's squadrons are neither.
func TestAdvanceOrders(t *testing.T) {
	g := newScenario(t, "clash")
	text := "DEPLOY A1 AT 20,12\nSIGNAL ENGAGE WING LEFT\nA1 MOVE 2\nS1 MOVE\nMOVE SECOND"
	orders, errs := g.Parse("athens", text)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if now := adjudicator.Canonical(g.Applicable("athens", orders)); now != "DEPLOY A1 AT 20,12\nSIGNAL ENGAGE WING LEFT\n" {
		t.Errorf("applicable at deployment: %q", now)
	}
	later := g.Later("athens", orders)
	if got := adjudicator.Canonical(later); got != "A1 MOVE 2\nMOVE SECOND\n" {
		t.Errorf("later at deployment: %q", got)
	}
	later = append(later, &Order{Signal: "ENGAGE", Wing: "LEFT"})
	g.Deployed, g.Turn, g.Phase, g.Winner = true, 1, phaseChoose, "athens"
	if now := adjudicator.Canonical(g.Applicable("athens", later)); now != "MOVE SECOND\n" {
		t.Errorf("applicable at the choice: %q", now)
	}
	if now := g.Applicable("sparta", later); len(now) != 0 {
		t.Errorf("the loser's held choice is applicable: %v", now)
	}
	g.Phase, g.First = phaseMove1, "athens"
	now := g.Applicable("athens", later)
	if got := adjudicator.Canonical(now); got != "A1 MOVE 2\nSIGNAL ENGAGE WING LEFT\n" {
		t.Errorf("applicable at movement: %q", got)
	}
	if len(g.Later("athens", later)) != 1 {
		t.Errorf("later at movement: %v", g.Later("athens", later))
	}
	g.Signals[0] = []SignalEntry{{Kind: "ENGAGE", Wing: "LEFT"}}
	if errs := g.Validate("athens", now); len(errs) > 0 {
		t.Errorf("held orders no longer legal: %v", errs)
	}
}

// TestAdvanceStanding: standing orders come along with the orders due now, are held with
// advance orders when nothing is due, and alone answer no step (the player is still asked);
// held with movement lines, they are used in the side's movement step.
func TestAdvanceStanding(t *testing.T) {
	g := newScenario(t, "clash")
	parse := func(text string) []adjudicator.Order {
		t.Helper()
		orders, errs := g.Parse("athens", text)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return orders
	}
	orders := parse("DEPLOY A1 AT 20,12\nOMEN A3\nA1 MOVE 2")
	if now := adjudicator.Canonical(g.Applicable("athens", orders)); now != "DEPLOY A1 AT 20,12\nOMEN A3\n" {
		t.Errorf("applicable at deployment: %q", now)
	}
	if later := adjudicator.Canonical(g.Later("athens", orders)); later != "A1 MOVE 2\n" {
		t.Errorf("later at deployment: %q", later)
	}
	alone := parse("NAVARCH A2 A1")
	if now := g.Applicable("athens", alone); len(now) != 0 {
		t.Errorf("a standing order alone answers the step: %v", now)
	}
	if later := g.Later("athens", alone); len(later) != 1 {
		t.Errorf("a standing order alone is not held: %v", later)
	}
	g.Deployed, g.Turn, g.Phase, g.First = true, 1, phaseMove2, "sparta"
	held := parse("NAVARCH A2 A1\nA1 MOVE 2")
	if later := g.Later("athens", held); len(later) != 0 {
		t.Errorf("later at athens' movement: %v", later)
	}
	now := g.Applicable("athens", held)
	if got := adjudicator.Canonical(now); got != "A1 MOVE 2\nNAVARCH A2 A1\n" {
		t.Errorf("applicable at movement: %q", got)
	}
	if errs := g.Validate("athens", now); len(errs) > 0 {
		t.Fatalf("held orders refused: %v", errs)
	}
	if _, err := g.Resolve(map[string][]adjudicator.Order{"athens": now}, hashRoller{}); err != nil {
		t.Fatal(err)
	}
	if got := g.NavarchPrefer[0]; len(got) != 2 || got[0] != "A2" {
		t.Errorf("the held standing order was not used: %v", got)
	}
}
