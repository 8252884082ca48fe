package play_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/duel"
	"navarch/adjudicator/lepanto"
	"navarch/adjudicator/medieval"
	"navarch/adjudicator/oinavarcoi"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/forge"
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
			s, id, cfg, player := startedGame(t, rs, "snapshot "+rs.ID())
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
			var err error
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

// TestRestoreReplaysForward: a snapshot of an earlier state serves: Restore re-runs on it the
// steps the log closed since, to the state of the whole log's replay, from every state
// record up to play.SnapshotEvery×4 records back, in each ruleset's self-play, in a Lepanto
// game whose draws use standing orders sent before the snapshot's state, and in team games
// (v5 and v4) whose assignments lie before it. A snapshot older than that, or holding another
// state than its record's, is refused (the log is then replayed); RestoreCurrent, for a write
// transaction, uses only a snapshot of the last state record.
func TestRestoreReplaysForward(t *testing.T) {
	all := []adjudicator.Ruleset{lepanto.Ruleset, medieval.Ruleset, oinavarcoi.Ruleset, duel.Ruleset}
	games := map[string]func(t *testing.T) (*store.Store, ident.GameID){
		"team v5": func(t *testing.T) (*store.Store, ident.GameID) { s, c := forge.TeamGame(t, 3); return s, c.Game },
		"team v4": func(t *testing.T) (*store.Store, ident.GameID) {
			s, c := forge.TeamGameIn(t, 3, gamelog.FormatV4)
			return s, c.Game
		},
		"team standing":    func(t *testing.T) (*store.Store, ident.GameID) { s, c := forge.TeamStandingGame(t); return s, c.Game },
		"lepanto":          func(t *testing.T) (*store.Store, ident.GameID) { return botGame(t, lepanto.Ruleset, 60, false) },
		"lepanto standing": func(t *testing.T) (*store.Store, ident.GameID) { return botGame(t, lepanto.Ruleset, 60, true) },
		"medieval":         func(t *testing.T) (*store.Store, ident.GameID) { return botGame(t, medieval.Ruleset, 60, false) },
		"oinavarcoi":       func(t *testing.T) (*store.Store, ident.GameID) { return botGame(t, oinavarcoi.Ruleset, 60, false) },
	}
	for name, game := range games {
		t.Run(name, func(t *testing.T) {
			s, id := game(t)
			var f *gamelog.File
			var want []byte
			s.View(func(tx *store.Tx) error {
				var buf bytes.Buffer
				if err := ledger.Export(tx, id, ledger.View{Full: true}, &buf); err != nil {
					t.Fatal(err)
				}
				var err error
				if f, err = gamelog.ParseFile(buf.Bytes()); err != nil {
					t.Fatal(err)
				}
				g, err := play.Load(tx, id, all)
				if err != nil {
					t.Fatal(err)
				}
				want = g.Encode()
				return nil
			})
			var states []uint64
			for _, e := range f.Entries {
				if r := e.Record; r.Type == gamelog.TypeState || r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeState {
					states = append(states, e.Index)
				}
			}
			last := states[len(states)-1]
			restoredFrom, refused := 0, 0
			for _, k := range states {
				rep, err := play.Replay(&gamelog.File{Format: f.Format, View: f.View, Entries: f.Entries[:k+1]}, all)
				if err != nil {
					t.Fatalf("replay up to record %d: %v", k, err)
				}
				data, err := json.Marshal(rep.Game)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Update(func(tx *store.Tx) error { return store.PutSnapshot(tx, id, k, data) }); err != nil {
					t.Fatal(err)
				}
				var r, current adjudicator.Game
				s.View(func(tx *store.Tx) error {
					r, current = play.Restore(tx, id, all), play.RestoreCurrent(tx, id, all)
					return nil
				})
				if (current != nil) != (k == last) || current != nil && !bytes.Equal(current.Encode(), want) {
					t.Errorf("RestoreCurrent of the snapshot of state record %d (the last %d): %v", k, last, current != nil)
				}
				switch {
				case last-k > 4*play.SnapshotEvery:
					if r != nil {
						t.Errorf("a snapshot %d records before the last state is used", last-k)
					}
					refused++
				case r == nil:
					t.Fatalf("the snapshot of state record %d (%d records before the last) is refused", k, last-k)
				case !bytes.Equal(r.Encode(), want):
					t.Fatalf("restored from state record %d: not the log's state", k)
				default:
					restoredFrom++
				}
				if k == states[0] && len(states) > 1 { // the first state's engine as the second's
					if err := s.Update(func(tx *store.Tx) error { return store.PutSnapshot(tx, id, states[1], data) }); err != nil {
						t.Fatal(err)
					}
					s.View(func(tx *store.Tx) error { r = play.Restore(tx, id, all); return nil })
					if r != nil {
						t.Error("a snapshot of another state than its record's is used")
					}
				}
			}
			t.Logf("%d state records; restored from %d, %d too old", len(states), restoredFrom, refused)
			if restoredFrom < min(3, len(states)) {
				t.Errorf("restored from %d states only", restoredFrom)
			}
		})
	}
}

// botGame is a game of rs played by its bots for steps steps, without snapshots. With
// standing, alice sends her side's standing orders of Lepanto's chit kind (LEADERS STAY)
// before the first of the last fifteen steps that does not apply them: a later draw does.
func botGame(t *testing.T, rs adjudicator.Ruleset, steps int, standing bool) (*store.Store, ident.GameID) {
	t.Helper()
	s, id, cfg, player := startedGame(t, rs, "forward "+rs.ID())
	sc := rs.Scenarios()[0]
	g, _ := rs.New(cfg)
	used, sent := false, false
	for i := 0; i < steps && g.Next().Kind != adjudicator.Over; i++ {
		st := g.Next()
		var orders []play.SideOrders
		for _, side := range st.Sides {
			o, errs := g.Parse(side, g.(adjudicator.Bot).BotOrders(side))
			if len(errs) == 0 {
				errs = g.Validate(side, o)
			}
			if len(errs) > 0 {
				t.Fatalf("step %d: the bot's orders are refused: %v", i, errs)
			}
			orders = append(orders, play.SideOrders{Player: player[side], Side: side, Orders: o, Received: ledgertest.Clock})
		}
		if err := s.Update(func(tx *store.Tx) error {
			if standing && !sent && i >= steps-15 && !slices.ContainsFunc(st.Standing, func(x string) bool { return x == sc.Sides[0] || strings.HasPrefix(x, sc.Sides[0]+"/") }) {
				sent = true // a step that does not apply it: a state record lies between it and its use
				so := g.(adjudicator.StandingOrders)
				o, errs := g.Parse(sc.Sides[0], "LEADERS STAY")
				if len(errs) > 0 {
					t.Fatalf("LEADERS STAY: %v", errs)
				}
				if _, err := play.RecordStanding(tx, id, so, "alice", o, ledgertest.Clock, "<standing@alice.example>"); err != nil {
					return err
				}
			}
			_, err := play.Step(tx, id, g, orders, ledgertest.Clock)
			return err
		}); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if standing && !used {
			s.View(func(tx *store.Tx) error {
				return store.Records(tx, id, func(_ uint64, raw []byte, _ ident.Hash) error {
					used = used || bytes.HasPrefix(raw, []byte("type close\n")) && bytes.Contains(raw, []byte("\nstanding "))
					return nil
				})
			})
		}
	}
	if standing && !used {
		t.Fatal("no close used the standing orders")
	}
	return s, id
}

// startedGame creates and starts a game of rs's first scenario between alice and bob on a
// store of its own (closed with the test), its creation's randomness from seed; player
// names each side's player.
func startedGame(t *testing.T, rs adjudicator.Ruleset, seed string) (*store.Store, ident.GameID, adjudicator.Config, map[string]string) {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	sc := rs.Scenarios()[0]
	cfg := adjudicator.Config{Scenario: sc.ID}
	ps := []ledger.Player{{ID: "alice", Side: sc.Sides[0]}, {ID: "bob", Side: sc.Sides[1]}}
	var id ident.GameID
	if err := s.Update(func(tx *store.Tx) error {
		c, err := play.Create(tx, rs, cfg, ps, ledgertest.Clock, ledgertest.Rand(seed))
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
	return s, id, cfg, map[string]string{sc.Sides[0]: "alice", sc.Sides[1]: "bob"}
}
