package medieval

import (
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

var _ adjudicator.Summarizer = (*Game)(nil)

// TestSummary: a side's summary shows the whole battle: a line per ship of its own, each
// followed by every enemy still fighting with range and arc (band too within 20", the far
// ones on one line); then, under their own heading, the enemy's ships; the referee's lists every
// ship; ships out of the battle say so.
func TestSummary(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.ship("CHRIST").Pose = table.Pose{At: table.Point{X: 1800, Y: 2400}, Heading: 270} // bow to bow 2" from THOMAS
	g.ship("REAR2").Status = Sunk
	sum := g.Summary("english")
	if len(sum) != 2 || sum[0].Heading != "Your ships" || sum[1].Heading != "The enemy's ships" {
		t.Fatalf("sections %+v", sum)
	}
	own, enemy := strings.Join(sum[0].Lines, "\n"), "\n"+strings.Join(sum[1].Lines, "\n")
	for _, want := range []string{
		"THOMAS E-MAIN 12,24 h090 SEA ",
		", flagship",
		"\n  enemy CHRIST at 2\" (close), arc bow",
		"\n  beyond 20\": RICH 34.5\" bow, DENIS 34.56\" bow, GEORGE 40.01\" bow,",
		"\nREAR2 sunk",
	} {
		if !strings.Contains(own, want) {
			t.Errorf("the English ships' lines lack %q:\n%s", want, own)
		}
	}
	for _, want := range []string{"\nCHRIST F-1 18,24 h270", "\nBARBA F-GEN 54,40 h210"} {
		if !strings.Contains(enemy, want) {
			t.Errorf("the enemy's ships lack %q:\n%s", want, enemy)
		}
	}
	if strings.Contains(enemy, "\nTHOMAS") || strings.Contains(enemy, "  enemy ") {
		t.Errorf("the enemy's section lists an English ship or bearings:\n%s", enemy)
	}
	if ref := "\n" + strings.Join(g.Summary("").Lines(), "\n"); !strings.Contains(ref, "\nCHRIST F-1 ") || !strings.Contains(ref, "\nTHOMAS E-MAIN") {
		t.Errorf("the referee's summary lacks a side:\n%s", ref)
	}
}

// TestSummaryFireAndAgainst: a burning ship's line counts the attempts made and the Command
// and Control phases burnt, of four each (rule "Fires"), and shows her standing AGAINST.
func TestSummaryFireAndAgainst(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	s := g.ship("THOMAS")
	s.Burning, s.FireTries, s.FireTurns, s.Against = true, 1, 2, "CHRIST"
	got := strings.Join(g.Summary("english").Lines(), "\n")
	for _, want := range []string{
		"on fire (1 of 4 attempts made, 2 of 4 Command and Control phases burnt)",
		"standing order AGAINST CHRIST",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
}

// TestOrderFormAgainst: a ship in contact with two enemies is offered AGAINST, her standing
// choice of the phasing ship she fights (rule "Boarding" iii).
func TestOrderFormAgainst(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Act, g.Card = 1, 1, "F-GEN/CC"
	g.Ships = slices.DeleteFunc(g.Ships, func(s *Ship) bool { return s.ID != "THOMAS" && s.ID != "EDWARD" && s.ID != "GEN2" })
	g.ship("THOMAS").Pose = table.Pose{At: table.Point{X: 2000, Y: 2000}}
	g.ship("GEN2").Pose = table.Pose{At: table.Point{X: 2125, Y: 2000}}
	g.ship("EDWARD").Pose = table.Pose{At: table.Point{X: 2250, Y: 2000}}
	f := g.OrderForm("french")
	var may []string
	for _, u := range f.Units {
		if u.ID == "GEN2" {
			may = u.May
		}
	}
	if !slices.ContainsFunc(may, func(m string) bool { return strings.HasPrefix(m, "AGAINST THOMAS|EDWARD ") }) {
		t.Errorf("GEN2 may %q, want AGAINST THOMAS|EDWARD", may)
	}
	if len(f.Lines) == 0 {
		t.Errorf("the form's pre-filled lines do not validate")
	}
}
