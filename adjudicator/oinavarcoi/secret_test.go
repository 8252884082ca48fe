package oinavarcoi

import (
	"strings"
	"testing"

	"navarch/adjudicator"
)

// TestDeploymentStaysSecret: the deployment is a Secret step for both sides at once; after it
// the positions are public but a side's signal list appears only in its own events and Help,
// and the state stays sealed while a signal is unused; giving the signal reveals it.
func TestDeploymentStaysSecret(t *testing.T) {
	g := newScenario(t, "clash")
	st := g.Next()
	if !st.Secret || st.Kind != adjudicator.NeedOrders || len(st.Sides) != 2 {
		t.Fatalf("deployment step %+v", st)
	}
	athens, _ := g.Parse("athens", "DEPLOY A1 AT 24,11 EPI-POLLON\nSIGNAL TURN-LEFT WING LEFT\nNAVARCH A3 A1")
	if errs := g.Validate("athens", athens); len(errs) > 0 {
		t.Fatal(errs)
	}
	events, err := g.Resolve(map[string][]adjudicator.Order{"athens": athens}, hashRoller{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if (strings.Contains(e.Text, "TURN-LEFT") || strings.Contains(e.Text, "NAVARCH")) && e.Side != "athens" {
			t.Errorf("the signal list or the standing order leaks: %+v", e)
		}
	}
	if !strings.Contains(g.Help("athens"), "SIGNAL TURN-LEFT WING LEFT") {
		t.Errorf("athens's help does not show its signals")
	}
	if strings.Contains(g.Help("sparta"), "SIGNAL TURN-LEFT WING LEFT") || strings.Contains(g.Help("sparta"), "NAVARCH A3") {
		t.Errorf("sparta's help shows athens's signals or standing order")
	}
	if !strings.Contains(g.Help("athens"), "NAVARCH A3 A1") {
		t.Errorf("athens's help does not show its standing order")
	}
	if !g.Sealed() {
		t.Errorf("not sealed with an unused signal")
	}
	if v := g.View("sparta"); len(v.Signals) > 0 {
		t.Errorf("sparta's view shows signals %v", v.Signals)
	}
	if v := g.View("athens"); len(v.Signals) != 1 || v.Signals[0] != "TURN-LEFT LEFT" {
		t.Errorf("athens's view shows signals %v", v.Signals)
	}
	if a1 := g.sq("A1"); a1.Formation != Pollon || a1.Pose.At.X != 2400 {
		t.Errorf("A1 not deployed as ordered: %+v", a1)
	}
	for g.Next().Kind == adjudicator.NeedOrders && g.Phase != phaseMove1 && g.Phase != phaseMove2 {
		w := g.Next().Sides[0]
		os, _ := g.Parse(w, "MOVE SECOND")
		if _, err := g.Resolve(map[string][]adjudicator.Order{w: os}, hashRoller{}); err != nil {
			t.Fatal(err)
		}
	}
	if g.Over {
		t.Skip("the game ended at the first event")
	}
	for g.Next().Sides[0] != "athens" {
		if _, err := g.Resolve(nil, hashRoller{}); err != nil {
			t.Fatal(err)
		}
	}
	os, _ := g.Parse("athens", "SIGNAL TURN-LEFT WING LEFT")
	if errs := g.Validate("athens", os); len(errs) > 0 {
		t.Fatal(errs)
	}
	events, err = g.Resolve(map[string][]adjudicator.Order{"athens": os}, hashRoller{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasEvent(events, "", "athens signals TURN-LEFT to its LEFT wing") {
		t.Errorf("the signal given is not announced: %v", events)
	}
	if g.Sealed() {
		t.Errorf("still sealed with every signal used")
	}
}

// TestHelpListsEnemiesInReach: each squadron's entry lists the enemies in reach with the
// distance and whether it would strike front, flank or rear.
func TestHelpListsEnemiesInReach(t *testing.T) {
	g := newScenario(t, "clash")
	g.Deployed, g.Turn, g.Phase, g.First = true, 1, phaseMove1, "athens"
	g.Squadrons = []*Squadron{g.sq("A3"), g.sq("S1")}
	g.sq("A3").Pose.At.X, g.sq("A3").Pose.At.Y, g.sq("A3").Pose.Heading = 4500, 3000, 270
	g.sq("A3").Formation = Keras
	g.sq("S1").Pose.At.X, g.sq("S1").Pose.At.Y = 3000, 3000
	h := g.Help("athens")
	for _, want := range []string{"DEPLOY SQ1 AT", "A3 (Acharnian squadron), RIGHT wing: EPI-KERAS, 4 stands", "enemy S1 (EPI-MIAS) at 5\": would strike its FLANK (port)", "A3 MOVE 4 TURN R 45 MOVE 4"} {
		if !strings.Contains(h, want) {
			t.Errorf("help lacks %q:\n%s", want, h)
		}
	}
}

// TestPhalanxOrdersAreSecret: in the amphibious battle the step after the initiative roll
// takes both sides' orders as a Secret step (rule Phalanx.orders); elsewhere only the winner
// is asked, openly.
func TestPhalanxOrdersAreSecret(t *testing.T) {
	for id, want := range map[string]bool{"amphibious": true, "clash": false} {
		g := newScenario(t, id)
		g.Deployed, g.Turn, g.Phase, g.Winner = true, 1, phaseChoose, "sparta"
		st := g.Next()
		if st.Secret != want || (len(st.Sides) == 2) != want {
			t.Errorf("%s: choose step %+v", id, st)
		}
	}
}

// TestSummaryListsEnemiesInReach: every report's summary gives each squadron of the side and
// the enemies in its reach, with distance and front, flank or rear.
func TestSummaryListsEnemiesInReach(t *testing.T) {
	g := newScenario(t, "clash")
	g.Deployed, g.Turn, g.Phase, g.First = true, 1, phaseMove1, "athens"
	g.Squadrons = []*Squadron{g.sq("A3"), g.sq("S1")}
	g.sq("A3").Pose.At.X, g.sq("A3").Pose.At.Y, g.sq("A3").Pose.Heading = 4500, 3000, 270
	g.sq("A3").Formation = Keras
	g.sq("S1").Pose.At.X, g.sq("S1").Pose.At.Y = 3000, 3000
	var _ adjudicator.Summarizer = g
	sum := strings.Join(g.Summary("athens").Lines(), "\n")
	for _, want := range []string{"A3 (Acharnian squadron), RIGHT wing: EPI-KERAS, 4 stands", "enemy S1 (EPI-MIAS) at 5\": would strike its FLANK (port)"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if got := g.Summary("sparta").Lines(); len(got) == 0 || !strings.HasPrefix(got[0], "S1 ") {
		t.Errorf("sparta's summary does not start with its own squadron: %q", got)
	}
}
