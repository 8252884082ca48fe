package host

import (
	"log/slog"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
)

// TestOwnAddressNeverAPlayers: navarch never reads mail from its own address, so a game
// with a player or referee at it (or at a subaddress of it) is refused, and a daemon whose
// address is already a player's refuses to start, naming the field.
func TestOwnAddressNeverAPlayers(t *testing.T) {
	f := newFixture(t)
	for _, spec := range []GameSpec{
		{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Players: []PlayerSpec{{"alice", "christian", "Navarch+x@host.example", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}},
		{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Referees: []string{"navarch@host.example"},
			Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}},
	} {
		if _, err := f.h.CreateGame(spec); err == nil || !strings.Contains(err.Error(), "navarch's own address") {
			t.Errorf("a game with navarch's own address: %v", err)
		}
	}
	if err := f.h.OwnAddressInUse(); err != nil {
		t.Errorf("OwnAddressInUse = %v", err)
	}
	f.outbox()
	f.ref("REPLACE bob navarch+bob@host.example")
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(flat(m.Text), "navarch's own address") {
		t.Errorf("REPLACE to navarch's own address: %+v", m)
	}
	h := New(f.s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Address: "bob@example.com", Domain: "navarch.host.example"}, slog.New(slog.DiscardHandler))
	err := h.OwnAddressInUse()
	if err == nil || !strings.HasPrefix(err.Error(), "address: ") || !strings.Contains(err.Error(), "player bob of game "+f.tag) {
		t.Errorf("a daemon whose address is a player's: %v", err)
	}
}
