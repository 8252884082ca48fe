package play_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

var rulesets = []adjudicator.Ruleset{lepanto.Ruleset}

var players = []ledger.Player{{ID: "alice", Side: "christian"}, {ID: "bob", Side: "ottoman"}}

// selfPlay plays a scenario to its end with the bot's orders, one store transaction per
// step, and returns the full export, the verifier key and the number of steps that waited
// for orders per game turn.
func selfPlay(t testing.TB, scenario, seed string) ([]byte, ed25519.PublicKey, map[uint32]int) {
	t.Helper()
	data, key, requests := selfPlayWith(t, adjudicator.Config{Scenario: scenario}, seed)
	return data, key, requests
}

func selfPlayConfig(t testing.TB, cfg adjudicator.Config, seed string) ([]byte, ed25519.PublicKey) {
	t.Helper()
	data, key, _ := selfPlayWith(t, cfg, seed)
	return data, key
}

func selfPlayWith(t testing.TB, cfg adjudicator.Config, seed string) ([]byte, ed25519.PublicKey, map[uint32]int) {
	t.Helper()
	return selfPlaySteps(t, cfg, seed, 0)
}

// selfPlaySteps plays steps steps (0: to the rules' end); a game stopped early is ended as a
// referee's ENDGAME would end it.
func selfPlaySteps(t testing.TB, cfg adjudicator.Config, seed string, steps int) ([]byte, ed25519.PublicKey, map[uint32]int) {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
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
	g, _ := lepanto.Ruleset.New(cfg)
	requests := map[uint32]int{}
	for n := 0; g.Next().Kind != adjudicator.Over; n++ {
		if steps > 0 && n == steps {
			if err := s.Update(func(tx *store.Tx) error {
				_, err := ledger.End(tx, c.Game, g.Next().Turn, "ended by the referee: agreed draw")
				return err
			}); err != nil {
				t.Fatal(err)
			}
			break
		}
		if n > 5000 {
			t.Fatal("the game does not end")
		}
		st := g.Next()
		orders := botOrders(t, g, st)
		if st.Kind == adjudicator.NeedOrders {
			requests[st.Turn]++
		}
		if err := s.Update(func(tx *store.Tx) error {
			_, err := play.Step(tx, c.Game, g, orders, ledgertest.Clock)
			return err
		}); err != nil {
			t.Fatalf("turn %d activation %d (%s): %v", st.Turn, st.Act, st.What, err)
		}
	}
	data, err := ledgertest.Export(s, c.Game, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	return data, c.Verifier, requests
}

// verified parses an export and requires it to verify under key.
func verified(t testing.TB, data []byte, key ed25519.PublicKey) *gamelog.File {
	t.Helper()
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: key}); !rep.OK() {
		t.Fatalf("verify: %v", rep.Failure)
	}
	return f
}

func botOrders(t testing.TB, g adjudicator.Game, st adjudicator.Step) []play.SideOrders {
	t.Helper()
	var out []play.SideOrders
	for _, side := range st.Sides {
		text := g.(*lepanto.Game).BotOrders(side)
		orders, errs := g.Parse(side, text)
		if len(errs) == 0 {
			errs = g.Validate(side, orders)
		}
		if len(errs) > 0 {
			t.Fatalf("the bot's orders are refused: %v\n%s", errs, text)
		}
		player := map[string]string{"christian": "alice", "ottoman": "bob"}[side]
		out = append(out, play.SideOrders{Player: player, Side: side, Orders: orders, Received: ledgertest.Clock})
	}
	return out
}

func TestSelfPlayVerifiesAndReplays(t *testing.T) {
	data, key, requests := selfPlay(t, "lions-at-sea", "self-play")
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: key})
	if !rep.OK() {
		t.Fatalf("self-played log fails verify: %v", rep.Failure)
	}
	if len(rep.Pending) != 0 || rep.RollsChecked != rep.Rolls || rep.Rolls < 50 {
		t.Errorf("pending %v, %d of %d rolls checked", rep.Pending, rep.RollsChecked, rep.Rolls)
	}
	rr, err := play.Replay(f, rulesets)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if rr.Steps == 0 || rr.States != rr.Steps || !strings.Contains(rr.Result, "VP") {
		t.Errorf("replay: %+v", rr)
	}
	if !bytes.Contains(data, []byte("Artillery fire")) || !bytes.Contains(data, []byte("Reaction fire")) {
		t.Error("the bots never fought")
	}
	t.Logf("%d steps, result %s, order requests per turn %v", rr.Steps, rr.Result, requests)
}

// TestEndedEarlyReplays: a game the referee ended mid-turn verifies and replays, the
// report naming the result and the step the rules still had next (docs/DICE.md 6).
func TestEndedEarlyReplays(t *testing.T) {
	data, key, _ := selfPlaySteps(t, adjudicator.Config{Scenario: "lions-at-sea"}, "ended early", 12)
	rr, err := play.Replay(verified(t, data, key), rulesets)
	if err != nil || rr.Steps != 12 || rr.Result != "ended by the referee: agreed draw" || rr.Stopped == "" {
		t.Errorf("replay of a game ended early: %v, %d steps, result %q, stopped at %q", err, rr.Steps, rr.Result, rr.Stopped)
	}
}

// TestReplayCatchesTampering: a roll whose label the engine would not ask for, and a changed
// die, make replay fail at that record even where the chain was rebuilt.
func TestReplayCatchesTampering(t *testing.T) {
	data, _, _ := selfPlay(t, "lions-at-sea", "tamper")
	f, _ := gamelog.ParseFile(data)
	for i, e := range f.Entries {
		r := e.Record
		if r == nil || r.Type != gamelog.TypeRoll || !strings.HasPrefix(r.Get("label"), "fire/") {
			continue
		}
		bad := rebuilt(t, r, func(fl gamelog.Field) (gamelog.Field, bool) {
			if fl.Key == "label" {
				fl.Value = "fire/SOMEONE>ELSE"
			}
			return fl, true
		})
		f.Entries[i].Record = &bad
		_, err := play.Replay(f, rulesets)
		if err == nil || !strings.Contains(err.Error(), "fire/SOMEONE>ELSE") || !errors.Is(err, dice.ErrReplay) && !strings.Contains(err.Error(), "replay diverges") {
			t.Errorf("relabelled roll: %v", err)
		}
		return
	}
	t.Fatal("no fire roll in the game")
}

// TestFullBattleSelfPlay plays scenario 13.1 to its end with the bots (the full
// battle), verifies the log and replays it; it reports the order requests per game turn.
func TestFullBattleSelfPlay(t *testing.T) {
	data, key, requests := selfPlay(t, "battle-of-lepanto", "full battle")
	rr, err := play.Replay(verified(t, data, key), rulesets)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	total := 0
	for _, n := range requests {
		total += n
	}
	t.Logf("full battle: %d steps, %s; %d order requests in %d turns (%.1f per turn): %v",
		rr.Steps, rr.Result, total, len(requests), float64(total)/float64(len(requests)), requests)
	if rr.States != rr.Steps || len(requests) != 7 {
		t.Errorf("replay %+v, %d turns", rr, len(requests))
	}
	if !strings.Contains(rr.Result, "VP") { // the rules' end (10.1), not a referee's ENDGAME
		t.Errorf("the game ended %q, not by the victory count", rr.Result)
	}
	for _, what := range []string{"rams", "tries to grapple", "Boarding:", "Disengage chit:"} { // the whole repertoire
		if !bytes.Contains(data, []byte(what)) {
			t.Errorf("no %q in the full battle's log", what)
		}
	}
}

// TestRoundTrips measures the mail round trips per game turn of the full battle played by
// the bots to its end. It counts one round trip for each side a step that waits for orders
// must ask: a request mail and its reply. A side is not asked when orders it sent before
// answer the step (adjudicator.AdvanceOrders: Applicable orders that Validate accepts), as
// the host does. Three kinds of players are measured:
//   - asked: a player who answers each request with that step's orders only;
//   - standing: the same, with the standing order LEADERS STAY in his first reply, so that
//     Leader Move chits no longer ask him (2.4.1);
//   - advance: a player who answers each request with orders for all his groups still to
//     act this turn and LEADERS STAY (docs/DESIGN.md 3.4); his group orders are used when the
//     group's marker is drawn if they are still legal, and he is asked again otherwise.
//
// The bots use every kind of order (rams, grapples, boardings, disengagements, fury
// chits), so every kind of step is counted; the test fails unless rams, grapples, boardings
// and a Disengage chit that asks someone happen.
//
// The performance goal is at most 8 round trips per game turn with advance orders, both
// sides together (so at most 4 a side).
func TestRoundTrips(t *testing.T) {
	perTurn := map[string]float64{}
	for _, mode := range []string{"asked", "standing", "advance"} {
		requests, turns, seen := roundTrips(t, mode)
		perTurn[mode] = float64(requests) / float64(turns)
		t.Logf("full battle, %s: %d round trips in %d turns: %.1f per game turn (%.1f a side); %v", mode, requests, turns, perTurn[mode], perTurn[mode]/2, seen)
		for _, what := range []string{"rams", "tries to grapple", "Boarding:", "disengage"} {
			if seen[what] == 0 {
				t.Errorf("%s: no event %q: the bots do not use the whole repertoire", mode, what)
			}
		}
	}
	if perTurn["standing"] >= perTurn["asked"] {
		t.Errorf("LEADERS STAY saves nothing: %.1f against %.1f round trips per turn", perTurn["standing"], perTurn["asked"])
	}
	if perTurn["advance"] > 8 {
		t.Errorf("advance orders: %.1f round trips per game turn, more than the goal of 8", perTurn["advance"])
	}
}

// roundTrips plays the full battle with bot players of one kind (see TestRoundTrips) and
// returns the round trips, the game turns played and how many events of each kind of
// attack there were (the steps asking for disengagements as "disengage").
func roundTrips(t *testing.T, mode string) (requests, turns int, seen map[string]int) {
	t.Helper()
	seen = map[string]int{}
	g, _ := lepanto.Ruleset.New(adjudicator.Config{Scenario: "battle-of-lepanto"})
	lg := g.(*lepanto.Game)
	held := map[string][]adjudicator.Order{}
	standing := map[string]bool{}
	for g.Next().Kind != adjudicator.Over {
		st := g.Next()
		if st.Act == 0 {
			turns++
			held = map[string][]adjudicator.Order{} // advance orders are for one turn
		}
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			use := lg.Applicable(side, held[side])
			if len(use) == 0 || len(g.Validate(side, use)) > 0 {
				requests++
				text := lg.BotOrders(side)
				switch {
				case mode == "advance":
					text = lg.BotAdvanceOrders(side)
				case mode == "standing" && !standing[side]:
					text, standing[side] = strings.TrimSpace(text+"\nLEADERS STAY"), true
				}
				use, _ = g.Parse(side, text)
				if mode == "advance" {
					held[side] = lg.Later(side, use)
					use = lg.Applicable(side, use)
				}
			}
			if errs := g.Validate(side, use); len(errs) > 0 {
				t.Fatalf("bot orders refused: %v", errs)
			}
			orders[side] = use
		}
		if strings.HasPrefix(st.What, "disengage") {
			seen["disengage"]++
		}
		events, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(st.Act)}))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			for _, what := range []string{"rams", "tries to grapple", "Boarding:", "captures", "disengages"} {
				if strings.Contains(e.Text, what) {
					seen[what]++
				}
			}
		}
	}
	return requests, turns, seen
}

// TestSelfPlayWithOptions plays the full battle with the wind and sailing rules (11, 12).
func TestSelfPlayWithOptions(t *testing.T) {
	data, key := selfPlayConfig(t, adjudicator.Config{Scenario: "battle-of-lepanto", Options: []string{"sailing", "wind"}}, "options")
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: key}); !rep.OK() {
		t.Fatalf("verify: %v", rep.Failure)
	}
	if _, err := play.Replay(f, rulesets); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if !bytes.Contains(data, []byte("under sail")) {
		t.Error("nobody sailed")
	}
}

// TestCorrectedTables: a referee's corrected table file is used for the game, recorded in
// the genesis record, and used again by replay; the reports then stop calling the
// corrected table a substitute.
func TestCorrectedTables(t *testing.T) {
	printed := []byte("table artillery-fire\nrule 16.11\nsource printed\ncols >=-99\n1-6 NE\nend\n")
	cfg := adjudicator.Config{Scenario: "lions-at-sea", Tables: map[string][]byte{"lepanto1571": printed}}
	data, key := selfPlayConfig(t, cfg, "tables")
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: key}); !rep.OK() {
		t.Fatalf("verify: %v", rep.Failure)
	}
	if !bytes.Equal(f.Entries[0].Record.Bytes("tables"), printed) {
		t.Error("the genesis record does not hold the corrected tables")
	}
	if _, err := play.Replay(f, rulesets); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if !bytes.Contains(data, []byte("Artillery fire")) || bytes.Contains(data, []byte(": 1 (")) {
		t.Error("the corrected table (no effect on any roll) was not used")
	}
	// Without the tables in genesis, replay runs the substitute table and diverges.
	g := rebuilt(t, f.Entries[0].Record, func(fl gamelog.Field) (gamelog.Field, bool) { return fl, fl.Key != "tables" })
	f.Entries[0].Record = &g
	if _, err := play.Replay(f, rulesets); err == nil {
		t.Error("replay with the substitute tables matched a game played with corrected ones")
	}
}

// rebuilt returns r built again from its fields as edit changes them (a field edit drops
// where it returns false), under r's index.
func rebuilt(t *testing.T, r *gamelog.Record, edit func(gamelog.Field) (gamelog.Field, bool)) gamelog.Record {
	t.Helper()
	b := gamelog.New(r.Type)
	for _, fl := range r.Fields() {
		if fl, keep := edit(fl); keep {
			b.Add(fl.Key, fl.Value)
		}
	}
	rec, err := b.Build(r.Index)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// otherVersion is Lepanto under another engine version.
type otherVersion struct{ adjudicator.Ruleset }

func (otherVersion) Version() string { return "0.0.1-old" }

// TestReplayRefusesAnotherEngineVersion: the genesis record names the engine version, and a
// log made by another version is refused with a message saying so, not re-adjudicated.
func TestReplayRefusesAnotherEngineVersion(t *testing.T) {
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var c ledger.Created
	err = s.Update(func(tx *store.Tx) error {
		c, err = play.Create(tx, otherVersion{lepanto.Ruleset}, adjudicator.Config{Scenario: "lions-at-sea"}, players, ledgertest.Clock, ledgertest.Rand("old"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := ledgertest.Export(s, c.Game, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("\nengine 0.0.1-old\n")) {
		t.Fatalf("the genesis record does not name the engine version:\n%s", data)
	}
	f := verified(t, data, c.Verifier)
	if _, err := play.Replay(f, rulesets); !errors.Is(err, play.ErrOtherEngine) || !strings.Contains(err.Error(), `version "0.0.1-old"`) {
		t.Errorf("replay of another version's log: %v, want a refusal naming the version", err)
	}
	if _, err := play.Replay(f, []adjudicator.Ruleset{otherVersion{lepanto.Ruleset}}); err != nil {
		t.Errorf("replay by the version that made it: %v", err)
	}
}
