package host

import (
	"regexp"
	"strings"
	"testing"

	"navarch/mail"
	"navarch/store"
)

// TestAdvanceOrders: orders sent ahead for a group are held out of the log and used when its
// marker is drawn, without asking the player again (docs/DESIGN.md 3.4).
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
			if mailIs(m, "report") && strings.Contains(m.Text, "BAR-VEN1 moves 0611→0711") {
				moved = true
			}
			request := m.Text // a report carries the request after its own part
			if _, after, ok := strings.Cut(m.Text, "--- your move ---"); ok {
				request = after
			}
			if strings.Contains(m.Subject, "Your move") && strings.Contains(request, "group BAR ") {
				t.Fatalf("alice was asked for group BAR despite her advance orders:\n%s", m.Text)
			}
		}
		for _, m := range mails {
			if strings.Contains(m.Subject, "Your move") {
				f.send(m.To[0], "NONE\nKEY "+keys[m.To[0]])
			}
		}
	}
	if !moved {
		t.Error("the advance orders were never used")
	}
	f.checkLog()
}

// Orders for the step with advance orders along: when the step's orders are refused, the
// advance orders are not held either (a refused mail changes nothing, docs/DESIGN.md 4).
func TestRefusedMailHoldsNoAdvanceOrders(t *testing.T) {
	f, keys := started(t)
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "NONE\nKEY "+keys[who]) // the set-up
	}
	var req *mail.Outgoing
	for _, m := range f.outbox() {
		if strings.Contains(m.Subject, "Your move") {
			req = &m
		}
	}
	if req == nil {
		t.Fatal("no request after the set-up")
	}
	who := req.To[0]
	// A unit of the group activated, and one of another group of the same side (13.2).
	unit := map[string]string{"BAR": "BAR-VEN1", "CAN": "CAN-CAN1", "BRA": "BRA-OLT1", "QUE": "QUE-GEN",
		"SIR": "SIR-ALI", "MEH": "MEH-EUB1", "AGA": "AGA-ANA1", "SUL": "SUL-MUS"}
	group := regexp.MustCompile(`group ([A-Z]+) `).FindStringSubmatch(req.Text)[1]
	due, later := unit[group], map[bool]string{true: "BAR-VEN1", false: "SIR-ALI"}[who == "alice@example.org"]
	if strings.HasPrefix(later, group) {
		later = map[bool]string{true: "CAN-CAN1", false: "MEH-EUB1"}[who == "alice@example.org"]
	}
	f.send(who, "KEY "+keys[who]+"\n"+due+" MOVE 0101\n"+later+" PASS") // 0101 is out of reach
	if m := find(f.outbox(), who, "refused"); m == nil {
		t.Fatalf("orders with an illegal move were not refused")
	}
	f.s.View(func(tx *store.Tx) error {
		g, _ := loadGame(tx, store.Games(tx)[0])
		if h, ok := g.Held[g.player(who).Side]; ok {
			t.Errorf("a refused mail left advance orders held: %q", h.Text)
		}
		return nil
	})
}
