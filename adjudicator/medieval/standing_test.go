package medieval

import (
	"testing"

	"navarch/adjudicator"
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
