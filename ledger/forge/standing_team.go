package forge

import (
	"log/slog"
	"strings"
	"testing"

	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// StandingUsedPlayers are a team side (venice: alice, bob) against one player (ottoman:
// carol).
var StandingUsedPlayers = []ledger.Player{{ID: "alice", Side: "venice"}, {ID: "bob", Side: "venice"}, {ID: "carol", Side: "ottoman"}}

// StandingUsedGame is a v5 game of StandingUsedPlayers stopped in play: its first step (a
// draw) applies both sides' standing orders, and bob (a team player) and carol (alone on
// her side) send one mail of them each (<bob@example.org>, <carol@example.org>) before it
// closes. From the close on every view holds both standing records; bob's sender record
// only his side's copy and the full one (the game has not ended).
func StandingUsedGame(t testing.TB) (*store.Store, ledger.Created) {
	t.Helper()
	s, err := store.Open(t.TempDir()+"/navarch.db", slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	sp := ledger.Spec{Ruleset: "lepanto1571", Scenario: "13.1", Engine: "test", MaxTurns: 4, Players: StandingUsedPlayers, Created: ledgertest.Clock,
		Commands: []ledger.Assignment{{Side: "venice", Player: "alice", Commander: true}, {Side: "ottoman", Player: "carol", Commander: true}}}
	var c ledger.Created
	err = s.Update(func(tx *store.Tx) error {
		var err error
		if c, err = ledger.Create(tx, sp, ledgertest.Rand("standing used")); err != nil {
			return err
		}
		if _, err := ledger.Start(tx, c.Game, true); err != nil {
			return err
		}
		if err := ledger.Open(tx, c.Game, ledger.Activation{Turn: 1, Act: 1, What: "draw", Standing: []string{"ottoman", "venice"}}); err != nil {
			return err
		}
		for _, p := range []string{"bob", "carol"} {
			if _, err := ledger.RecordStanding(tx, c.Game, ledger.StandingOrders{Player: p, Lines: []string{"HOLD FIRE X"}, Received: ledgertest.Clock,
				MessageID: "<" + p + "@example.org>"}); err != nil {
				return err
			}
		}
		_, err = ledger.Close(tx, c.Game, 1, 1, nil)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// StandingUsedAttack is the Ottoman copy of StandingUsedGame with bob's standing record,
// which the close unsealed for every view, naming him (as v4 wrote it): verify refuses it
// at that record. It returns the honest Ottoman copy too.
func StandingUsedAttack(t testing.TB) (Forged, Game) {
	t.Helper()
	s, c := StandingUsedGame(t)
	g := TeamExport(t, s, c, ledger.View{Side: "ottoman"})
	b := Blocks(g.Data)
	i := Find(t, b, "sealed", "side venice\nwhat standing")
	if !strings.Contains(b[i], "\n\nunseal ") {
		t.Fatalf("the Ottoman copy lacks the used standing record %d", i-1)
	}
	x := Clone(b)
	outer, inner, _ := strings.Cut(x[i], "\n\n")
	x[i] = outer + "\n\n" + strings.Replace(inner, "\nactivation 1\nside venice\n", "\nactivation 1\nplayer bob\nside venice\nreceived 2026-11-30T12:00:00Z\nmessage-id <bob@example.org>\n", 1)
	return Forged{Name: "side:ottoman: a team side's used standing record naming its player", Data: Resign(t, g.Key, Rechain(t, g.Key, x)), Index: int64(i - 1),
		Reason: "names no player"}, g
}
