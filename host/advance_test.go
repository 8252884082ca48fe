package host

import (
	"strings"
	"testing"
)

// TestAdvanceOrders: orders sent ahead for a group are held out of the log and used when its
// marker is drawn, without asking the player again (DESIGN 3.4).
func TestAdvanceOrders(t *testing.T) {
	f, keys := started(t)
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "NONE\nKEY "+keys[who]) // the set-up
	}
	pending := f.outbox() // the first request after the set-up
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nBAR-VEN1 MOVE 0711")
	held := f.outbox()
	if len(held) != 1 || !strings.Contains(held[0].Text, "held as advance orders") && !strings.Contains(held[0].Subject, "accepted") {
		t.Fatalf("advance orders: %v", subjects(held))
	}
	moved := false
	for i := 0; i < 40 && !moved; i++ {
		mails := append(pending, f.outbox()...)
		pending = nil
		for _, m := range mails {
			if strings.Contains(m.Subject, "report") && strings.Contains(m.Text, "BAR-VEN1 moves 0611→0711") {
				moved = true
			}
			if strings.Contains(m.Subject, "orders due") && strings.Contains(m.Text, "group BAR ") {
				t.Fatalf("alice was asked for group BAR despite her advance orders:\n%s", m.Text)
			}
		}
		for _, m := range mails {
			if strings.Contains(m.Subject, "orders due") {
				f.send(m.To[0], "NONE\nKEY "+keys[m.To[0]])
			}
		}
	}
	if !moved {
		t.Error("the advance orders were never used")
	}
	f.checkLog()
}
