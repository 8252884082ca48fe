package oinavarcoi

import (
	"testing"

	"navarch/adjudicator"
)

// TestStandingSplit: OMEN, NAVARCH, SHARE and INITIATIVE lines are told apart from the
// step's own orders, in the order sent, and each part reads back to itself.
func TestStandingSplit(t *testing.T) {
	g := newScenario(t, "clash")
	orders, errs := g.Parse("athens", "DEPLOY A1 AT 20,12\nomen a3\nA1 MOVE 2\nNAVARCH A2 A1\nSHARE A1\nINITIATIVE SECOND\nOMEN DEFAULT\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	standing, rest := g.Standing("athens", orders)
	if got, want := adjudicator.Canonical(standing), "OMEN A3\nNAVARCH A2 A1\nSHARE A1\nINITIATIVE SECOND\nOMEN DEFAULT\n"; got != want {
		t.Errorf("standing %q, want %q", got, want)
	}
	if got, want := adjudicator.Canonical(rest), "DEPLOY A1 AT 20,12\nA1 MOVE 2\n"; got != want {
		t.Errorf("rest %q, want %q", got, want)
	}
	for _, part := range [][]adjudicator.Order{standing, rest} {
		text := adjudicator.Canonical(part)
		again, errs := g.Parse("athens", text)
		if len(errs) > 0 || adjudicator.Canonical(again) != text {
			t.Errorf("%q reads back as %q (%v)", text, adjudicator.Canonical(again), errs)
		}
	}
}
