package host

import (
	"strings"
	"testing"

	"navarch/adjudicator/medieval"
	"navarch/store"
)

// TestCheckShowsWhatOrdersWouldDo: CHECK with a ruleset that can say what orders would do
// (adjudicator.Checker: the medieval game) answers with where each ship would end, before
// the orders count, and records nothing.
func TestCheckShowsWhatOrdersWouldDo(t *testing.T) {
	f, keys := joinedFixture(t, medieval.Ruleset, "")
	for _, m := range f.outbox() {
		if !strings.Contains(m.Subject, "Your move") || !strings.Contains(m.Text, "edited to your orders, and your key:") {
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
