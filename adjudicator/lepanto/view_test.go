package lepanto

import (
	"fmt"
	"strings"
	"testing"

	"navarch/adjudicator"
)

// TestViewHidesOtherSidesLeaders: a hidden leader is in his own side's view and the
// referee's, and nowhere in the other side's (4.5).
func TestViewHidesOtherSidesLeaders(t *testing.T) {
	g := newGame(t)
	g.leader("SIROQ").Hidden = true
	for side, want := range map[string]bool{"ottoman": true, "": true, "christian": false} {
		v := g.View(side)
		text := strings.Join(v.Summary(), "\n")
		if strings.Contains(text, "SIROQ") != want {
			t.Errorf("view %q shows SIROQ: %t, want %t", side, !want, want)
		}
		if !strings.Contains(text, "BAR-LANT  0512 NE HV 4 FV 5, leader BARBARIGO") {
			t.Errorf("view %q summary:\n%s", side, text)
		}
	}
}

var _ adjudicator.Summarizer = (*Game)(nil)

// TestSummarySections: a side's summary has the positions, then the victory points as they
// stand in a section of their own (10.1), every line of the breakdown in it and none among
// the positions.
func TestSummarySections(t *testing.T) {
	g := newGame(t)
	sum := g.Summary("christian")
	if len(sum) != 2 || sum[0].Heading != "Positions" || sum[1].Heading != "Victory points (10.1)" {
		t.Fatalf("sections: %+v", sum)
	}
	if !strings.Contains(strings.Join(sum[0].Lines, "\n"), "BAR-LANT  0512 NE") {
		t.Errorf("positions: %q", sum[0].Lines)
	}
	vp, lines := g.VictoryPoints()
	if len(sum[1].Lines) != 1+len(lines) || !strings.HasPrefix(sum[1].Lines[0], fmt.Sprintf("Christian victory points if the game ended now: %d, ", vp)) {
		t.Errorf("victory points %d %v: %q", vp, lines, sum[1].Lines)
	}
	for _, l := range sum[0].Lines {
		if strings.Contains(l, "victory") || strings.HasPrefix(strings.TrimSpace(l), "+") || strings.HasPrefix(strings.TrimSpace(l), "-") {
			t.Errorf("a victory point line among the positions: %q", l)
		}
	}
}
