package play_test

import (
	"bytes"
	"log/slog"
	"path/filepath"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/adjudicator/medieval"
	"navarch/adjudicator/oinavarcoi"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

// TestRestoreFromSnapshot: in each ruleset, a game played by its bots step by step can be
// restored after every step from its snapshot, to the very state of the live engine; the
// game goes on with the restored engine every other step, and the whole log then replays to
// the same state (a restored engine that resolved anything differently would have written
// another state hash). A snapshot changed by a byte, or of an earlier state record, is
// refused.
func TestRestoreFromSnapshot(t *testing.T) {
	all := []adjudicator.Ruleset{lepanto.Ruleset, medieval.Ruleset, oinavarcoi.Ruleset}
	for _, rs := range all {
		t.Run(rs.ID(), func(t *testing.T) {
			s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			sc := rs.Scenarios()[0]
			cfg := adjudicator.Config{Scenario: sc.ID}
			ps := []ledger.Player{{ID: "alice", Side: sc.Sides[0]}, {ID: "bob", Side: sc.Sides[1]}}
			player := map[string]string{sc.Sides[0]: "alice", sc.Sides[1]: "bob"}
			var id ident.GameID
			if err := s.Update(func(tx *store.Tx) error {
				c, err := play.Create(tx, rs, cfg, ps, ledgertest.Clock, ledgertest.Rand("snapshot "+rs.ID()))
				if err != nil {
					return err
				}
				id = c.Game
				for _, p := range ps {
					if err := ledger.Join(tx, id, p.ID, nil, ledgertest.Clock, ""); err != nil {
						return err
					}
				}
				_, err = ledger.Start(tx, id, false)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			restore := func() adjudicator.Game {
				var r adjudicator.Game
				s.View(func(tx *store.Tx) error { r = play.Restore(tx, id, all); return nil })
				return r
			}
			if restore() != nil {
				t.Fatal("a game before its first step is restored")
			}
			g, _ := rs.New(cfg)
			steps := 0
			for ; steps < 80 && g.Next().Kind != adjudicator.Over; steps++ {
				st := g.Next()
				var orders []play.SideOrders
				for _, side := range st.Sides {
					text := g.(adjudicator.Bot).BotOrders(side)
					o, errs := g.Parse(side, text)
					if len(errs) == 0 {
						errs = g.Validate(side, o)
					}
					if len(errs) > 0 {
						t.Fatalf("step %d: the bot's orders are refused: %v\n%s", steps, errs, text)
					}
					orders = append(orders, play.SideOrders{Player: player[side], Side: side, Orders: o, Received: ledgertest.Clock})
				}
				if err := s.Update(func(tx *store.Tx) error {
					if _, err := play.Step(tx, id, g, orders, ledgertest.Clock); err != nil {
						return err
					}
					return play.SaveSnapshot(tx, id, g)
				}); err != nil {
					t.Fatalf("step %d: %v", steps, err)
				}
				r := restore()
				if r == nil {
					t.Fatalf("step %d (%s): not restored from its snapshot", steps, st.What)
				}
				if !bytes.Equal(r.Encode(), g.Encode()) {
					t.Fatalf("step %d: the restored state differs from the live one", steps)
				}
				if steps%2 == 1 {
					g = r
				}
			}
			if steps < 5 {
				t.Fatalf("only %d steps played", steps)
			}
			s.View(func(tx *store.Tx) error {
				replayed, err := play.Load(tx, id, all)
				if err != nil {
					t.Fatalf("the log played partly by restored engines does not replay: %v", err)
				}
				if !bytes.Equal(replayed.Encode(), g.Encode()) {
					t.Error("the replayed state differs from the engine's")
				}
				return nil
			})
			var at uint64
			var data []byte
			s.View(func(tx *store.Tx) error { at, data, _, err = store.Snapshot(tx, id); return err })
			for what, put := range map[string]func(tx *store.Tx) error{
				"a byte changed": func(tx *store.Tx) error {
					bad := bytes.Clone(data)
					i := bytes.IndexAny(bad, "123456789")
					bad[i] = "234567891"[bytes.IndexByte([]byte("123456789"), bad[i])]
					return store.PutSnapshot(tx, id, at, bad)
				},
				"an earlier state": func(tx *store.Tx) error { return store.PutSnapshot(tx, id, at-1, data) },
				"not JSON":         func(tx *store.Tx) error { return store.PutSnapshot(tx, id, at, []byte("{")) },
			} {
				if err := s.Update(put); err != nil {
					t.Fatal(err)
				}
				if restore() != nil {
					t.Errorf("a snapshot with %s is restored", what)
				}
			}
			if err := s.Update(func(tx *store.Tx) error { return store.PutSnapshot(tx, id, at, data) }); err != nil {
				t.Fatal(err)
			}
			if restore() == nil {
				t.Error("the snapshot put back is refused")
			}
		})
	}
}
