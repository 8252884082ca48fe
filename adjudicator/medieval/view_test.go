package medieval

import (
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/table"
)

var _ adjudicator.Summarizer = (*Game)(nil)

// TestSummary: a side's summary has a line per ship of its own, each followed by the enemy
// ships in range with range, band and arc; the other side's ships have none; the referee's
// lists every ship; ships out of the battle say so.
func TestSummary(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.ship("CHRIST").Pose = table.Pose{At: table.Point{X: 1800, Y: 2400}, Heading: 270} // bow to bow 2" from THOMAS
	g.ship("REAR2").Status = Sunk
	lines := g.Summary("english").Lines()
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		"THOMAS E-MAIN 12,24 h090 SEA ",
		", flagship",
		"\n  enemy CHRIST at 2\" (close), arc bow",
		"\nREAR2 sunk",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the English summary lacks %q:\n%s", want, got)
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "CHRIST") || strings.HasPrefix(l, "BARBA") {
			t.Errorf("the English summary lists a French ship: %s", l)
		}
	}
	if ref := "\n" + strings.Join(g.Summary("").Lines(), "\n"); !strings.Contains(ref, "\nCHRIST F-1 ") || !strings.Contains(ref, "\nTHOMAS E-MAIN") {
		t.Errorf("the referee's summary lacks a side:\n%s", ref)
	}
}
