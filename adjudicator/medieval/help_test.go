package medieval

import (
	"strings"
	"testing"

	"navarch/adjudicator/table"
)

// TestHelp: the help names the side's own ships, each with her allowance from where she
// stands and the enemies within 20" with range, band and arc, and none of the enemy's ships
// as the reader's own.
func TestHelp(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	enemy := g.ship("CHRIST")
	g.ship("THOMAS").Pose.At = enemy.Pose.At.Add(table.Point{X: -1000}) // 10" west of CHRIST's centre: bow to bow 6"
	h := g.Help("english")
	for _, want := range []string{
		"LION TURN P30 MOVE 1.5 TURN P30 MOVE 1.5",
		"THOMAS (Cog Thomas, E-MAIN)",
		"at heading 090 running: MOVE up to 5 (each half 2.5 with turns)",
		"wind from 330: headings 271-029 are into the wind",
		"enemy CHRIST at 6\" (long), arc bow",
		"LION AGAINST EAGLE, on any card",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("help lacks %q:\n%s", want, h)
		}
	}
	if got := strings.Join(g.EnemiesInRange("english"), "\n"); !strings.Contains(got, "THOMAS: enemy CHRIST at 6\" (long), arc bow") {
		t.Errorf("enemies in range: %s", got)
	}
	if strings.Contains(h, "\nCHRIST (") {
		t.Errorf("the English help lists a French ship as theirs")
	}
}
