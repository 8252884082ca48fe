package lepanto

import (
	"testing"

	"navarch/adjudicator"
)

// TestStandingSplit: every standing order of the list (standing.go) is told apart from the
// step's own orders, in the order sent, and each part reads back to itself.
func TestStandingSplit(t *testing.T) {
	g := newGame(t)
	text := "BAR-VEN1 MOVE 0610 FACE N\nhold fire bar\nREACT BAR-VEN1 RAM\nDECANAL TO CAN-GAL\nLEADERS STAY\n" +
		"CAPTAIN BAR ON BAR-LANT\nBOARD BAR-VEN1\nEVADE BAR STERN\nLET BURN BAR-VEN1\nEXTINGUISH BAR\nAIM BAR SQUADRON\n" +
		"RETURN BAR-VEN1 AT 0813 FACING SW\nENGAGED STAY\nACTIVATE BAR\nBAR-VEN2 PASS\n"
	orders, errs := g.Parse("christian", text)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	standing, rest := g.Standing("christian", orders)
	wantStanding := "HOLD FIRE BAR\nREACT BAR-VEN1 RAM\nLEADERS STAY\nCAPTAIN BAR ON BAR-LANT\nEVADE BAR STERN\n" +
		"LET BURN BAR-VEN1\nEXTINGUISH BAR\nAIM BAR SQUADRON\nRETURN BAR-VEN1 AT 0813 FACING SW\nENGAGED STAY\n"
	if got := adjudicator.Canonical(standing); got != wantStanding {
		t.Errorf("standing:\n%s\nwant:\n%s", got, wantStanding)
	}
	wantRest := "BAR-VEN1 MOVE 0610 FACE N\nDECANAL TO CAN-GAL\nBOARD BAR-VEN1\nACTIVATE BAR\nBAR-VEN2 PASS\n"
	if got := adjudicator.Canonical(rest); got != wantRest {
		t.Errorf("rest:\n%s\nwant:\n%s", got, wantRest)
	}
	for _, part := range [][]adjudicator.Order{standing, rest} {
		text := adjudicator.Canonical(part)
		again, errs := g.Parse("christian", text)
		if len(errs) > 0 || adjudicator.Canonical(again) != text {
			t.Errorf("%q reads back as %q (%v)", text, adjudicator.Canonical(again), errs)
		}
	}
}
