package host

import (
	"strings"
	"testing"

	"navarch/mail"
	"navarch/rulesets"
	"navarch/test/racesplit"
)

// TestBotOrdersByMailEveryRuleset: a game of every listed ruleset's demo scenario, played
// through the host by mail with the orders its bot would write, as a player sends them with
// his key: every request for orders is answered by a receipt, the game moves on, the reports
// carry the ruleset's map, and the log verifies.
func TestBotOrdersByMailEveryRuleset(t *testing.T) {
	racesplit.Long(t) // on one goroutine (Handle on the test's): the detector finds nothing
	for _, e := range rulesets.List {
		t.Run(e.Rules.ID(), func(t *testing.T) {
			f, keys := joinedFixture(t, e.Rules, e.Demo)
			f.h.cfg.Maps = rulesets.Maps(rulesets.List)
			var sc = e.Rules.Scenarios()[0]
			for _, s := range e.Rules.Scenarios() {
				if s.ID == e.Demo {
					sc = s
				}
			}
			side := map[string]string{"alice@example.org": sc.Sides[0], "bob@example.com": sc.Sides[1]}
			mails, orders, maps := f.outbox(), 0, 0
			for i := 0; i < 20 && len(mails) > 0; i++ {
				var next []mail.Outgoing
				for _, m := range mails {
					maps += pngs(t, m)
					if !strings.Contains(m.Subject, "Your move") {
						continue
					}
					text := f.botOrders(side[m.To[0]])
					if strings.TrimSpace(text) == "" {
						text = "NONE" // the bot has nothing to order: the player says so
					}
					f.send(m.To[0], text+"\nKEY "+keys[m.To[0]])
					got := f.outbox()
					if find(got, m.To[0], "orders accepted") == nil {
						t.Fatalf("the bot's orders of %s were not accepted: %v\n%s", m.To[0], subjects(got), text)
					}
					orders++
					next = append(next, got...)
				}
				mails = next
			}
			t.Logf("%d orders by mail accepted, %d maps in reports", orders, maps)
			if orders < 4 || maps == 0 {
				t.Errorf("%d orders accepted and %d maps sent; want the game to move on, with maps", orders, maps)
			}
			f.checkLog()
		})
	}
}

// pngs is the number of m's attachments that are maps: PNG files, drawn after the commit
// from the drawing order the host queued.
func pngs(t *testing.T, m mail.Outgoing) int {
	t.Helper()
	n := 0
	for _, a := range m.Attachments {
		if a.ContentType == "image/png" && strings.HasSuffix(a.Name, ".png") {
			n++
		}
	}
	return n
}
