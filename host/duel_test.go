package host

import (
	"log/slog"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/duel"
	"navarch/ledger/ledgertest"
	"navarch/render"
	"navarch/render/duelmap"
)

// duelFixture is newFixture's game in the test ruleset duel (adjudicator/duel, with its map):
// alice plays red, bob blue, ref@example.net referees, nobody has joined. The tests of mail
// handling that do not depend on a rule system's orders run on it, so that they test the
// host and not Lepanto.
func duelFixture(t *testing.T) *fixture {
	t.Helper()
	f := bareHostFixture(t)
	s := f.s
	var err error
	f.h = New(s, []adjudicator.Ruleset{duel.Ruleset}, Config{Maps: map[string]render.Map{duel.Ruleset.ID(): duelmap.Map},
		Address: "navarch@host.example", Domain: "navarch.host.example",
		Now: func() time.Time { return f.now }, Rand: ledgertest.Rand(t.Name())}, slog.New(slog.DiscardHandler))
	f.tag, err = f.h.CreateGame(GameSpec{Ruleset: duel.Ruleset.ID(), Scenario: "short", Referees: []string{"ref@example.net"},
		Players: []PlayerSpec{{"alice", "red", "Alice@Example.org", "Europe/Rome"}, {"bob", "blue", "bob@example.com", "America/New_York"}}})
	if err != nil {
		t.Fatal(err)
	}
	return f
}
