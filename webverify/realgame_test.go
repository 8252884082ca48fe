package webverify

import (
	"crypto/ed25519"
	"encoding/hex"
	"log/slog"
	"path/filepath"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

// realGameCases are Lepanto games the bots play through the rules engine and the ledger (as
// play's self-play tests do): hidden leaders, chit draws from a shrinking cup, fire, ramming
// and boarding, exported in every view, once stopped in play and once played to the end.
// It also returns the views of the game in play, with the installation key, as sources of
// random edits (mutationCases).
func realGameCases(t *testing.T) ([]logCase, []game) {
	var out []logCase
	var sources []game
	for _, c := range []struct {
		name  string
		steps int // 0: to the rules' end
	}{{"in play", 25}, {"played out", 0}} {
		s, key := botGame(t, "lions-at-sea", "webverify "+c.name, c.steps)
		var priv ed25519.PrivateKey
		if err := s.s.View(func(tx *store.Tx) error { var err error; priv, err = store.InstallationKey(tx); return err }); err != nil {
			t.Fatal(err)
		}
		for _, view := range []ledger.View{{Full: true}, {Side: "christian"}, {Side: "ottoman"}, {}} {
			data, err := ledgertest.Export(s.s, s.id, view)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, logCase{Name: "lepanto game " + c.name + ", view " + view.Name(), Log: data, Key: hex.EncodeToString(key)})
			f, err := gamelog.ParseFile(data)
			if err != nil {
				t.Fatal(err)
			}
			if c.steps > 0 && !view.Full {
				sources = append(sources, game{Data: data, Key: priv, File: f})
			}
		}
		s.s.Close()
	}
	return out, sources
}

type stored struct {
	s  *store.Store
	id [16]byte
}

func botGame(t *testing.T, scenario, seed string, steps int) (stored, ed25519.PublicKey) {
	t.Helper()
	cfg := adjudicator.Config{Scenario: scenario}
	players := []ledger.Player{{ID: "alice", Side: "christian"}, {ID: "bob", Side: "ottoman"}}
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	var c ledger.Created
	err = s.Update(func(tx *store.Tx) error {
		if c, err = play.Create(tx, lepanto.Ruleset, cfg, players, ledgertest.Clock, ledgertest.Rand(seed)); err != nil {
			return err
		}
		for _, p := range players {
			if err := ledger.Join(tx, c.Game, p.ID, []byte(p.ID+" joins"), ledgertest.Clock, p.ID+"-join@example.org"); err != nil {
				return err
			}
		}
		_, err := ledger.Start(tx, c.Game, false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	g, err := lepanto.Ruleset.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; g.Next().Kind != adjudicator.Over && (steps == 0 || n < steps); n++ {
		if n > 5000 {
			t.Fatal("the game does not end")
		}
		st := g.Next()
		var orders []play.SideOrders
		for _, side := range st.Sides {
			parsed, errs := g.Parse(side, g.(*lepanto.Game).BotOrders(side))
			if len(errs) == 0 {
				errs = g.Validate(side, parsed)
			}
			if len(errs) > 0 {
				t.Fatalf("the bot's orders are refused: %v", errs)
			}
			player := map[string]string{"christian": "alice", "ottoman": "bob"}[side]
			orders = append(orders, play.SideOrders{Player: player, Side: side, Orders: parsed, Received: ledgertest.Clock})
		}
		if err := s.Update(func(tx *store.Tx) error {
			_, err := play.Step(tx, c.Game, g, orders, ledgertest.Clock)
			return err
		}); err != nil {
			t.Fatalf("turn %d activation %d: %v", st.Turn, st.Act, err)
		}
	}
	return stored{s, c.Game}, c.Verifier
}
