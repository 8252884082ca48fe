package host

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/medieval"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// TestCheckShowsWhatOrdersWouldDo: CHECK with a ruleset that can say what orders would do
// (adjudicator.Checker: the medieval game) answers with where each ship would end, before
// the orders count, and records nothing (issue 17).
func TestCheckShowsWhatOrdersWouldDo(t *testing.T) {
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f := &fixture{t: t, s: s, now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	f.h = New(s, []adjudicator.Ruleset{medieval.Ruleset}, Config{Address: "navarch@host.example", Domain: "navarch.host.example",
		Now: func() time.Time { return f.now }, Rand: ledgertest.Rand(t.Name())}, slog.New(slog.DiscardHandler))
	sc := medieval.Ruleset.Scenarios()[0]
	if f.tag, err = f.h.CreateGame(GameSpec{Ruleset: "medieval", Scenario: sc.ID, Players: []PlayerSpec{
		{"alice", sc.Sides[0], "alice@example.org", "UTC"}, {"bob", sc.Sides[1], "bob@example.com", "UTC"}}}); err != nil {
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
	for _, m := range f.outbox() {
		if !strings.Contains(m.Subject, "orders due") || !strings.Contains(m.Text, "edited to your orders, and your key:") {
			continue
		}
		before := logLen(t, f)
		f.send(m.To[0], "CHECK\n"+formLines(t, m.Text)+"\nKEY "+keys[m.To[0]])
		r := find(f.outbox(), m.To[0], "orders checked")
		if r == nil || !strings.Contains(r.Text, "If they counted now, without dice:") ||
			!(strings.Contains(r.Text, " would end at ") || strings.Contains(r.Text, " stays at ")) {
			t.Fatalf("CHECK does not say what the orders would do: %+v", r)
		}
		if logLen(t, f) != before {
			t.Error("CHECK wrote to the log")
		}
		return
	}
	t.Fatal("no request with an order form")
}

func logLen(t *testing.T, f *fixture) uint64 {
	t.Helper()
	var n uint64
	err := f.s.View(func(tx *store.Tx) error {
		id, _ := store.GameByTag(tx, f.tag)
		var err error
		n, err = store.Len(tx, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
