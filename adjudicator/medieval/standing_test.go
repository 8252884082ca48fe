package medieval

import (
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
)

// TestStandingSplit: a ship's GRAPPLE, NOGRAPPLE and AGAINST are her standing orders; a line
// that also orders the phase splits into her wishes alone and the phase's line without them,
// and each part reads back to itself.
func TestStandingSplit(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	orders, errs := g.Parse("english", "LION MOVE 1 NOGRAPPLE\nEAGLE GRAPPLE AGAINST HAWK\nBEAR FIRE PORT HAWK\nHAWK HOLD\nBEAR RELOAD PORT AGAINST LION\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	standing, rest := g.Standing("english", orders)
	if got, want := adjudicator.Canonical(standing), "LION NOGRAPPLE\nEAGLE GRAPPLE AGAINST HAWK\nBEAR AGAINST LION\n"; got != want {
		t.Errorf("standing %q, want %q", got, want)
	}
	if got, want := adjudicator.Canonical(rest), "LION MOVE 1\nBEAR FIRE PORT HAWK\nHAWK HOLD\nBEAR RELOAD PORT\n"; got != want {
		t.Errorf("rest %q, want %q", got, want)
	}
	for _, part := range [][]adjudicator.Order{standing, rest} {
		text := adjudicator.Canonical(part)
		again, errs := g.Parse("english", text)
		if len(errs) > 0 || adjudicator.Canonical(again) != text {
			t.Errorf("%q reads back as %q (%v)", text, adjudicator.Canonical(again), errs)
		}
	}
	if orders[0].String() != "LION MOVE 1 NOGRAPPLE" {
		t.Errorf("the split changed the order sent: %s", orders[0])
	}
}

// TestApplyStandingHeld: a ship's wishes held since they were sent (ApplyStanding), for a ship
// of any Division, are in force after the next card's phase and told; one for a ship of the
// other side is passed over.
func TestApplyStandingHeld(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	if _, err := g.Resolve(nil, dice.NewActivation(1, 0, ident.Hash{})); err != nil { // the shuffle
		t.Fatal(err)
	}
	var own, enemy *Ship
	for _, s := range g.Ships {
		switch {
		case s.Side == "english" && own == nil:
			own = s
		case s.Side != "english" && enemy == nil:
			enemy = s
		}
	}
	orders, errs := g.Parse("english", own.ID+" NOGRAPPLE AGAINST "+enemy.ID+"\n"+enemy.ID+" NOGRAPPLE\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	g.ApplyStanding("english", orders)
	events, err := g.Resolve(nil, dice.NewActivation(1, 1, ident.Hash{}))
	if err != nil {
		t.Fatal(err)
	}
	if !own.NoGrapple || own.Against != enemy.ID || enemy.NoGrapple {
		t.Errorf("%s: nograpple %v against %q; %s nograpple %v", own.ID, own.NoGrapple, own.Against, enemy.ID, enemy.NoGrapple)
	}
	told := 0
	for _, e := range events {
		if strings.HasPrefix(e.Text, own.ID+" will") && e.Side == "" {
			told++
		}
	}
	if told != 2 || len(g.held) != 0 {
		t.Errorf("%d wishes told (want 2), %d kept", told, len(g.held))
	}
}
