package host

import (
	"strings"
	"testing"
)

// TestEveryRequestHasAMap: every mail that asks for orders shows the board to play from,
// whether a report carries the request or it goes alone (the set-up's request, a step with
// nothing to report to the side): its map is attached and shown in the HTML part.
func TestEveryRequestHasAMap(t *testing.T) {
	f := newFixture(t)
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who]) // then the set-up is asked for
	}
	bare, carried := 0, 0
	for i := 0; i < 200 && f.turn() <= 1; i++ {
		answered := false
		for _, m := range f.outbox() {
			if !strings.Contains(m.Subject, "Your move") {
				continue
			}
			if mailIs(m, "report") {
				carried++
			} else {
				bare++
			}
			if len(m.Attachments) == 0 || m.Attachments[0].ContentType != "image/png" || !strings.Contains(m.HTML, `src="cid:`+m.Attachments[0].Name) {
				t.Fatalf("%q to %s: no map shown (attachments %d)", m.Subject, m.To[0], len(m.Attachments))
			}
			f.send(m.To[0], "NONE\nKEY "+keys[m.To[0]])
			answered = true
		}
		if !answered {
			t.Fatal("the game waits, and no one was asked")
		}
	}
	if bare == 0 || carried == 0 {
		t.Errorf("requests alone %d, in reports %d: the test must see both", bare, carried)
	}
}
