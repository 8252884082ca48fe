package oinavarcoi

import (
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
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

// TestApplyStandingHeld: OMEN and INITIATIVE held since they were sent (ApplyStanding) are in
// force after the next Resolve, each told to every side; a later one of a kind replaces it.
func TestApplyStandingHeld(t *testing.T) {
	g := newScenario(t, "clash")
	orders, errs := g.Parse("athens", "OMEN A3\nOMEN A2 A1\nINITIATIVE SECOND\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	g.ApplyStanding("athens", orders)
	events, err := g.Resolve(nil, dice.NewActivation(1, 0, ident.Hash{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.OmenPrefer[0]; !slices.Equal(got, []string{"A2", "A1"}) || g.Initiative[0] != "SECOND" {
		t.Errorf("omen %v, initiative %q: want the later OMEN and SECOND", got, g.Initiative[0])
	}
	n := 0
	for _, e := range events {
		if strings.HasPrefix(e.Text, "Standing order of athens, sent before and applied now:") {
			n++
			if e.Side != "" {
				t.Errorf("told to %s alone: %q", e.Side, e.Text)
			}
		}
	}
	if n != 3 || len(g.held) != 0 {
		t.Errorf("%d held standing orders told (want 3), %d kept", n, len(g.held))
	}
}
