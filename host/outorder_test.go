package host

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestAnswersBeforeWelcomes: the answer to a player's mail goes before the
// welcome mails of the games created before it, which may be thousands; the welcomes all
// still go, each game's in the order queued.
func TestAnswersBeforeWelcomes(t *testing.T) {
	f := newFixture(t)
	keys := playerKeys(f.outbox())
	c := &capture{}
	if err := f.h.Flush(context.Background(), c); err != nil { // the first game's welcomes
		t.Fatal(err)
	}
	for i := range 20 {
		if _, err := f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
			Players: []PlayerSpec{{"p1", "christian", fmt.Sprintf("c%d@example.org", i), "UTC"}, {"p2", "ottoman", fmt.Sprintf("o%d@example.org", i), "UTC"}}}); err != nil {
			t.Fatal(err)
		}
	}
	f.send("alice@example.org", "JOIN\nKEY "+keys["alice@example.org"])
	c.sent = nil
	if err := f.h.Flush(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if len(c.sent) != 41 {
		t.Fatalf("%d mails sent, want 40 welcomes and the answer", len(c.sent))
	}
	if c.sent[0].To[0] != "alice@example.org" || !strings.Contains(c.sent[0].Subject, "notice") {
		t.Errorf("the first mail sent is %q to %v, not the answer to alice's JOIN", c.sent[0].Subject, c.sent[0].To)
	}
	for i, o := range c.sent[1:] {
		if want := fmt.Sprintf("%c%d@example.org", "co"[i%2], i/2); o.To[0] != want || !strings.Contains(o.Subject, "welcome") {
			t.Errorf("mail %d: %q to %v, want the welcome to %s", i+1, o.Subject, o.To, want)
		}
	}
}
