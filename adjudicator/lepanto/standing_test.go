package lepanto

import (
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
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

// TestApplyStandingHeld: standing orders held since they were sent (ApplyStanding) are applied
// by the next Resolve in the order given (REACT after HOLD FIRE undoes it for its units,
// 5.3, 6.2), each told to every side; one that names nothing of the side's is passed over.
func TestApplyStandingHeld(t *testing.T) {
	g := newGame(t)
	orders, errs := g.Parse("christian", "HOLD FIRE BAR\nREACT BAR-VEN1 RAM\nHOLD FIRE SIR-ALI\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	g.ApplyStanding("christian", orders)
	events, err := g.Resolve(nil, dice.NewActivation(1, 0, ident.Hash{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range g.Units {
		if u.Group != "BAR" {
			if u.HoldMove || u.HoldRam {
				t.Errorf("%s holds fire: not of BAR", u.ID)
			}
			continue
		}
		if !u.HoldMove || u.HoldRam != (u.ID != "BAR-VEN1") {
			t.Errorf("%s: hold move %v, hold ram %v", u.ID, u.HoldMove, u.HoldRam)
		}
	}
	var told []string
	for _, e := range events {
		if strings.HasPrefix(e.Text, "Standing order") {
			if e.Side != "" {
				t.Errorf("held standing order told to %s alone: %q", e.Side, e.Text)
			}
			told = append(told, e.Text)
		}
	}
	want := []string{"Standing order of christian, sent before and applied now: HOLD FIRE BAR",
		"Standing order of christian, sent before and applied now: REACT BAR-VEN1 RAM"}
	if !slices.Equal(told, want) {
		t.Errorf("told %q, want %q", told, want)
	}
	if len(g.held) != 0 {
		t.Error("held standing orders kept after the Resolve that applied them")
	}
}
