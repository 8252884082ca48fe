package play_test

import (
	"bytes"
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

// TestHiddenSetUpStaysSecret: a leader hidden at set-up (4.5) appears in the hiding side's
// copy of the log only; the other side's and the public copy carry neither the order, the
// event nor the state hashes that could be matched against guesses, and every copy verifies;
// the full copy replays.
func TestHiddenSetUpStaysSecret(t *testing.T) {
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cfg := adjudicator.Config{Scenario: "lions-at-sea"}
	var c ledger.Created
	err = s.Update(func(tx *store.Tx) error {
		if c, err = play.Create(tx, lepanto.Ruleset, cfg, players, ledgertest.Clock, ledgertest.Rand("hidden")); err != nil {
			return err
		}
		_, err = ledger.Start(tx, c.Game, true)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := lepanto.Ruleset.New(cfg)
	setUp := map[string]string{"christian": "BARBARIGO ON BAR-LANT HIDDEN\nQUERINI ON QUE-ELB HIDDEN", "ottoman": ""}
	for n := 0; n < 8; n++ {
		st := g.Next()
		var orders []play.SideOrders
		for _, side := range st.Sides {
			text := g.(*lepanto.Game).BotOrders(side)
			if n == 0 {
				text = setUp[side]
			}
			o, errs := g.Parse(side, text)
			if len(errs) > 0 || len(g.Validate(side, o)) > 0 {
				t.Fatalf("orders refused: %v %v", errs, g.Validate(side, o))
			}
			orders = append(orders, play.SideOrders{Player: map[string]string{"christian": "alice", "ottoman": "bob"}[side], Side: side, Orders: o})
		}
		if err := s.Update(func(tx *store.Tx) error { _, err := play.Step(tx, c.Game, g, orders, ledgertest.Clock); return err }); err != nil {
			t.Fatal(err)
		}
	}
	views := map[string][]byte{}
	for _, v := range []ledger.View{{Full: true}, {Side: "christian"}, {Side: "ottoman"}, {}} {
		data, err := ledgertest.Export(s, c.Game, v)
		if err != nil {
			t.Fatal(err)
		}
		views[v.Name()] = data
		f, err := gamelog.ParseFile(data)
		if err != nil {
			t.Fatal(err)
		}
		if rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: c.Verifier}); !rep.OK() {
			t.Errorf("view %s: %v", v.Name(), rep.Failure)
		}
	}
	secret := [][]byte{[]byte("BAR-LANT HIDDEN"), []byte("hidden aboard BAR-LANT"), []byte("\nsealed yes\n")}
	for _, name := range []string{"side:ottoman", "public"} {
		for _, s := range secret {
			if bytes.Contains(views[name], s) {
				t.Errorf("view %s holds %q", name, s)
			}
		}
	}
	for _, s := range secret {
		if !bytes.Contains(views["full"], s) {
			t.Errorf("the full view lacks %q", s)
		}
	}
	if !bytes.Contains(views["side:christian"], secret[1]) {
		t.Error("the christian view lacks its own hidden set-up")
	}
	f, _ := gamelog.ParseFile(views["full"])
	if _, err := play.Replay(f, rulesets); err != nil {
		t.Errorf("replay of the full view: %v", err)
	}
}
