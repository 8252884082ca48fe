package medieval

import (
	"strings"
	"testing"
)

// TestCheck: CHECK says where the orders would put each ship, stops at contact as Resolve
// does, answers a bad line with its error, and changes nothing.
func TestCheck(t *testing.T) {
	g := newScenario(t, "sluys-1340")
	g.Turn, g.Act, g.Card = 1, 1, "E-MAIN/SF1"
	g.ship("EDWARD").Pose = g.ship("THOMAS").Pose.Forward(800) // 8" ahead of THOMAS
	before := string(g.Encode())
	orders, _ := g.Parse("english", "THOMAS MOVE 5\nJOHN MOVE 2.5 TURN S30 MOVE 2.5")
	got := strings.Join(g.Check("english", orders), "\n")
	for _, want := range []string{
		"THOMAS would end at 16.5,24 h090, stopped in contact with EDWARD", // EDWARD's stern at 18.5, THOMAS's bow 2" ahead of her centre
		"JOHN would end at",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("check lacks %q:\n%s", want, got)
		}
	}
	bad, _ := g.Parse("english", "THOMAS MOVE 9")
	if got := strings.Join(g.Check("english", bad), "\n"); !strings.Contains(got, "running: MOVE up to 5") {
		t.Errorf("a bad line: %s", got)
	}
	if string(g.Encode()) != before {
		t.Error("CHECK changed the game")
	}
}
