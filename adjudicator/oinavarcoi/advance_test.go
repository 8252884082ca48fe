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
