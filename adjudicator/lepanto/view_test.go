package lepanto

import (
	"strings"
	"testing"
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
