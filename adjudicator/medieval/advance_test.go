package medieval

import (
	"testing"

	"navarch/adjudicator"
)

func lines(orders []adjudicator.Order) string { return adjudicator.Canonical(orders) }

// TestAdvanceOrders: held lines are used when their ship's Division's card of their kind is
// turned, a ship's first fitting line first; the rest stay for later; lines for enemy or
// unknown ships are neither used nor held.
func TestAdvanceOrders(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Act, g.Card = 1, 1, "E-MAIN/SF1"
	held, errs := g.Parse("english", "THOMAS RELOAD PORT\nTHOMAS MOVE 2\nTHOMAS MOVE 3\nEDWARD HOLD\nHUNT MOVE 1\nCHRIST MOVE 1\nNOSUCH MOVE 1")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got, want := lines(g.Applicable("english", held)), "THOMAS MOVE 2\nEDWARD HOLD\n"; got != want {
		t.Errorf("on E-MAIN's Sail/Fight card: %q, want %q", got, want)
	}
	if got, want := lines(g.Later("english", held)), "THOMAS RELOAD PORT\nTHOMAS MOVE 3\nHUNT MOVE 1\n"; got != want {
		t.Errorf("held for later: %q, want %q", got, want)
	}
	if got := g.Applicable("french", held); len(got) != 0 {
		t.Errorf("the French are not asked on an English card: %v", got)
	}
	g.Card = "E-MAIN/CC"
	if got, want := lines(g.Applicable("english", held)), "THOMAS RELOAD PORT\nEDWARD HOLD\n"; got != want {
		t.Errorf("on E-MAIN's Command and Control card: %q, want %q", got, want)
	}
	g.Card = "E-VAN/SF2"
	if got, want := lines(g.Applicable("english", held)), "HUNT MOVE 1\n"; got != want {
		t.Errorf("on E-VAN's Sail/Fight card: %q, want %q", got, want)
	}
	g.Card = "E-MAIN/SF2"
	g.ship("THOMAS").Status = Sunk
	if got, want := lines(g.Applicable("english", held)), "EDWARD HOLD\n"; got != want {
		t.Errorf("THOMAS sunk: %q, want %q", got, want)
	}
	if got, want := lines(g.Later("english", held)), "HUNT MOVE 1\n"; got != want {
		t.Errorf("THOMAS sunk, held for later: %q, want %q", got, want)
	}
	g.Card = ""
	if got := g.Applicable("english", held); len(got) != 0 {
		t.Errorf("no card turned: %v", got)
	}
}
