package host

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/medieval"
	"navarch/adjudicator/oinavarcoi"
	"navarch/ledger/ledgertest"
	"navarch/mail"
	"navarch/store"
)

// TestOrderFormEveryRuleset: in a Medieval and an Oi Navarcoi! game through the daemon, each
// request for orders lists the side's units that may act, and its pre-filled lines, sent back
// unchanged, are accepted, step after step (issue 15.2).
func TestOrderFormEveryRuleset(t *testing.T) {
	for _, rs := range []adjudicator.Ruleset{medieval.Ruleset, oinavarcoi.Ruleset} {
		t.Run(rs.ID(), func(t *testing.T) {
			s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			f := &fixture{t: t, s: s, now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
			f.h = New(s, []adjudicator.Ruleset{rs}, Config{Address: "navarch@host.example", Domain: "navarch.host.example",
				Now: func() time.Time { return f.now }, Rand: ledgertest.Rand(t.Name())}, slog.New(slog.DiscardHandler))
			sc := rs.Scenarios()[0]
			addr := map[string]string{sc.Sides[0]: "alice@example.org", sc.Sides[1]: "bob@example.com"}
			if f.tag, err = f.h.CreateGame(GameSpec{Ruleset: rs.ID(), Scenario: sc.ID, Players: []PlayerSpec{
				{"alice", sc.Sides[0], addr[sc.Sides[0]], "UTC"}, {"bob", sc.Sides[1], addr[sc.Sides[1]], "UTC"}}}); err != nil {
				t.Fatal(err)
			}
			keys := map[string]string{}
			for _, m := range f.outbox() {
				if k := keyRE.FindStringSubmatch(m.Text); k != nil {
					keys[m.To[0]] = k[1]
				}
			}
			for _, who := range []string{"alice@example.org", "bob@example.com"} {
				f.send(who, "JOIN\nKEY "+keys[who])
			}
			mails, forms := f.outbox(), 0
			for i := 0; i < 12 && len(mails) > 0; i++ {
				var next []mail.Outgoing
				for _, m := range mails {
					if !strings.Contains(m.Subject, "orders due") {
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
