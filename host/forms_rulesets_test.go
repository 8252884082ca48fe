package host

import (
	"strings"
	"testing"

	"navarch/mail"
	"navarch/rulesets"
	"navarch/test/racesplit"
)

// TestOrderFormEveryRuleset: in a game of every listed ruleset through the daemon, each
// request for orders lists the side's units that may act, and its pre-filled lines, sent back
// unchanged, are accepted, step after step.
func TestOrderFormEveryRuleset(t *testing.T) {
	racesplit.Long(t) // on one goroutine (Handle on the test's): the detector finds nothing
	for _, rs := range rulesets.Rules(rulesets.List) {
		t.Run(rs.ID(), func(t *testing.T) {
			f, keys := joinedFixture(t, rs, "")
			f.each()
			mails, forms := f.outbox(), 0
			for i := 0; i < 12 && len(mails) > 0; i++ {
				var next []mail.Outgoing
				for _, m := range mails {
					if !strings.Contains(m.Subject, "Your move") {
						continue
					}
					orders := "NONE"
					if strings.Contains(m.Text, "Your units that may act:") && strings.Contains(m.Text, "edited to your orders, and your key:") {
						orders = formLines(t, m.Text)
						forms++
					}
					f.send(m.To[0], orders+"\nKEY "+keys[m.To[0]])
					got := f.outbox()
					if orders != "NONE" && find(got, m.To[0], "orders accepted") == nil {
						t.Fatalf("the order form of %s, sent back unchanged, was not accepted: %v\n%s", m.To[0], subjects(got), orders)
					}
					next = append(next, got...)
				}
				mails = next
			}
			t.Logf("%d order forms sent back unchanged and accepted", forms)
			if forms == 0 {
				t.Error("no request carried an order form")
			}
		})
	}
}
