package play_test

import (
	"bytes"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/medieval"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

// TestMedievalRoundTrips plays the largest medieval scenario, Sluys (six Divisions,
// eighteen cards a turn), to the rules' end through the ledger with bot players, and counts
// the mail round trips each side needs per game turn: a side is asked at a card of its own
// unless the orders it holds answer the card legally, as the host does (host/orders.go
// useHeld: the held lines that belong to the card are used, the rest stay held). Two kinds
// of player are measured:
//   - asked: he answers each request with that card's orders only;
//   - advance: he answers each request with that card's orders and lines for all his other
//     Divisions' cards (medieval.Game.BotAdvanceOrders), used when their cards are turned
//     if still legal; his standing orders (GRAPPLE, AGAINST) need no mail of their own.
//
// The bots close, grapple and board, so the game has boarding actions; the log of the
// advance game verifies and replays. The goal is at most 8 round trips a side per game turn
// with advance orders (docs/BENCHMARKS.md).
func TestMedievalRoundTrips(t *testing.T) {
	perSide := map[string]float64{}
	for _, mode := range []string{"asked", "advance"} {
		requests, turns, log := medievalGame(t, mode)
		for _, side := range []string{"english", "french"} {
			n := requests[side]
			perSide[mode] = max(perSide[mode], float64(n)/float64(turns))
			t.Logf("sluys-1340, %s: %s %d round trips in %d turns: %.1f a game turn", mode, side, n, turns, float64(n)/float64(turns))
		}
		if !bytes.Contains(log, []byte("board/")) || !bytes.Contains(log, []byte("grappled: a boarding action ensues")) {
			t.Errorf("%s: the bots' game has no boarding action", mode)
		}
	}
	if perSide["advance"] >= perSide["asked"] {
		t.Errorf("ordering ahead saves nothing: %.1f against %.1f a side per game turn", perSide["advance"], perSide["asked"])
	}
	if perSide["advance"] > 8 {
		t.Errorf("advance orders: %.1f round trips a side per game turn, more than the goal of 8", perSide["advance"])
	}
}

// medievalGame plays Sluys to its end with bots of one kind (see TestMedievalRoundTrips),
// one store transaction a step, and returns the round trips by side, the game turns, and
// the full log, which must verify and replay.
func medievalGame(t *testing.T, mode string) (map[string]int, int, []byte) {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cfg := adjudicator.Config{Scenario: "sluys-1340"}
	ps := []ledger.Player{{ID: "alice", Side: "english"}, {ID: "bob", Side: "french"}}
	who := map[string]string{"english": "alice", "french": "bob"}
	var c ledger.Created
	err = s.Update(func(tx *store.Tx) error {
		if c, err = play.Create(tx, medieval.Ruleset, cfg, ps, ledgertest.Clock, ledgertest.Rand("medieval "+mode)); err != nil {
			return err
		}
		_, err = ledger.Start(tx, c.Game, true)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := medieval.Ruleset.New(cfg)
	g := eng.(*medieval.Game)
	held := map[string][]adjudicator.Order{}
	requests := map[string]int{}
	for n := 0; g.Next().Kind != adjudicator.Over; n++ {
		if n > 400 {
			t.Fatal("the game does not end")
		}
		st := g.Next()
		var orders []play.SideOrders
		for _, side := range st.Sides {
			use := g.Applicable(side, held[side])
			if len(use) > 0 && len(g.Validate(side, use)) == 0 {
				held[side] = slices.DeleteFunc(held[side], func(o adjudicator.Order) bool { return slices.Contains(use, o) })
			} else {
				requests[side]++
				text := g.BotOrders(side)
				if mode == "advance" {
					text = g.BotAdvanceOrders(side)
				}
				all, errs := g.Parse(side, text)
				if len(errs) > 0 {
					t.Fatalf("the bot's orders %q: %v", text, errs)
				}
				use, held[side] = g.Applicable(side, all), g.Later(side, all)
				if mode == "asked" {
					use, held[side] = all, nil
				}
			}
			if errs := g.Validate(side, use); len(errs) > 0 {
				t.Fatalf("turn %d %s: the bot's orders are refused: %v", st.Turn, side, errs)
			}
			orders = append(orders, play.SideOrders{Player: who[side], Side: side, Orders: use, Received: ledgertest.Clock})
		}
		if err := s.Update(func(tx *store.Tx) error { _, err := play.Step(tx, c.Game, g, orders, ledgertest.Clock); return err }); err != nil {
			t.Fatalf("turn %d act %d (%s): %v", st.Turn, st.Act, st.What, err)
		}
	}
	data, err := ledgertest.Export(s, c.Game, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := play.Replay(verified(t, data, c.Verifier), []adjudicator.Ruleset{medieval.Ruleset})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if rr.Steps == 0 || rr.States != rr.Steps || rr.Result == "" || rr.Result != g.Result {
		t.Errorf("replay %+v after turn %d", rr, g.Turn)
	}
	t.Logf("%s: %d steps to the end of turn %d: %s", mode, rr.Steps, g.Turn, rr.Result)
	return requests, g.Turn, data
}
