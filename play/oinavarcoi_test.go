package play_test

import (
	"bytes"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/oinavarcoi"
	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

// oiGame creates and starts an Oi Navarcoi! game of scenario id in a fresh store, with alice
// on the first side and bob on the second.
func oiGame(t *testing.T, id string, opts ...string) (*store.Store, ledger.Created, adjudicator.Game, map[string]string) {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cfg := adjudicator.Config{Scenario: id, Options: opts}
	g, err := oinavarcoi.Ruleset.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sides := g.(*oinavarcoi.Game).View("").Sides
	who := map[string]string{sides[0]: "alice", sides[1]: "bob"}
	ps := []ledger.Player{{ID: "alice", Side: sides[0]}, {ID: "bob", Side: sides[1]}}
	var c ledger.Created
	err = s.Update(func(tx *store.Tx) error {
		if c, err = play.Create(tx, oinavarcoi.Ruleset, cfg, ps, ledgertest.Clock, ledgertest.Rand("oi "+id)); err != nil {
			return err
		}
		_, err = ledger.Start(tx, c.Game, true)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, c, g, who
}

// oiStep plays the current step with the given texts (a side without one sends the bot's).
func oiStep(t *testing.T, s *store.Store, id ident.GameID, g adjudicator.Game, who map[string]string, texts map[string]string) {
	t.Helper()
	st := g.Next()
	var orders []play.SideOrders
	for _, side := range st.Sides {
		text, ok := texts[side]
		if !ok {
			text = g.(*oinavarcoi.Game).BotOrders(side)
		}
		o, errs := g.Parse(side, text)
		if len(errs) == 0 {
			errs = g.Validate(side, o)
		}
		if len(errs) > 0 {
			t.Fatalf("turn %d %s: orders %q refused: %v", st.Turn, side, text, errs)
		}
		orders = append(orders, play.SideOrders{Player: who[side], Side: side, Orders: o, Received: ledgertest.Clock})
	}
	if err := s.Update(func(tx *store.Tx) error { _, err := play.Step(tx, id, g, orders, ledgertest.Clock); return err }); err != nil {
		t.Fatalf("turn %d act %d (%s): %v", st.Turn, st.Act, st.What, err)
	}
}

// TestOiNavarcoiSelfPlayVerifiesAndReplays: every scenario type and Knidos, played to the end
// by the bots through the ledger, with four-stand squadrons and in full-size play; each log
// verifies and replays to the same states.
func TestOiNavarcoiSelfPlayVerifiesAndReplays(t *testing.T) {
	for _, sc := range oinavarcoi.Ruleset.Scenarios() {
		for _, opts := range [][]string{nil, {oinavarcoi.OptionFullSize}} {
			name := strings.Join(append([]string{sc.ID}, opts...), "-")
			t.Run(name, func(t *testing.T) { oiSelfPlay(t, sc.ID, opts...) })
		}
	}
}

func oiSelfPlay(t *testing.T, id string, opts ...string) {
	t.Helper()
	s, c, g, who := oiGame(t, id, opts...)
	for n := 0; g.Next().Kind != adjudicator.Over; n++ {
		if n > 300 {
			t.Fatal("the game does not end")
		}
		oiStep(t, s, c.Game, g, who, nil)
	}
	data, err := ledgertest.Export(s, c.Game, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	f := verified(t, data, c.Verifier)
	rr, err := play.Replay(f, []adjudicator.Ruleset{oinavarcoi.Ruleset})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if rr.Steps == 0 || rr.States != rr.Steps || rr.Result == "" {
		t.Errorf("replay %+v", rr)
	}
	t.Logf("%d steps: %s", rr.Steps, rr.Result)
}

// TestOiNavarcoiDeploymentStaysSecret: athens's deployment and signal list, sent first, are
// in neither sparta's nor the public copy of the log until the step resolves (the orders
// record carries only their hash); after it the positions are public and the signal list is
// in athens's copy only; every copy verifies.
func TestOiNavarcoiDeploymentStaysSecret(t *testing.T) {
	s, c, g, _ := oiGame(t, "clash")
	st := g.Next()
	if !st.Secret {
		t.Fatalf("deployment step %+v is not secret", st)
	}
	text := "DEPLOY A1 AT 20.5,11 EPI-POLLON\nSIGNAL TURN-LEFT WING LEFT"
	o, errs := g.Parse("athens", text)
	if len(errs) > 0 || len(g.Validate("athens", o)) > 0 {
		t.Fatal(errs)
	}
	err := s.Update(func(tx *store.Tx) error {
		if _, err := play.Open(tx, c.Game, g, []string{"alice", "bob"}, ledgertest.Clock); err != nil {
			return err
		}
		_, _, err := play.Record(tx, c.Game, st, play.SideOrders{Player: "alice", Side: "athens", Orders: o, Received: ledgertest.Clock})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	secret := [][]byte{[]byte("DEPLOY A1 AT 20.5,11"), []byte("TURN-LEFT WING LEFT"), []byte("TURN-LEFT to the LEFT")}
	exports := func() map[string][]byte {
		out := map[string][]byte{}
		for _, v := range []ledger.View{{Full: true}, {Side: "athens"}, {Side: "sparta"}, {}} {
			data, err := ledgertest.Export(s, c.Game, v)
			if err != nil {
				t.Fatal(err)
			}
			f, err := gamelog.ParseFile(data)
			if err != nil {
				t.Fatal(err)
			}
			if rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: c.Verifier}); !rep.OK() {
				t.Errorf("view %s: %v", v.Name(), rep.Failure)
			}
			out[v.Name()] = data
		}
		return out
	}
	before := exports()
	for _, name := range []string{"side:sparta", "public"} {
		for _, sec := range secret {
			if bytes.Contains(before[name], sec) {
				t.Errorf("before the reveal, view %s holds %q", name, sec)
			}
		}
	}
	// sparta's orders complete the step; play.Resolve reveals both deployments together.
	so, _ := g.Parse("sparta", "")
	err = s.Update(func(tx *store.Tx) error {
		i, _, err := play.Record(tx, c.Game, st, play.SideOrders{Player: "bob", Side: "sparta", Orders: so, Received: ledgertest.Clock})
		if err != nil {
			return err
		}
		_, err = play.Resolve(tx, c.Game, g, []play.SideOrders{{Player: "alice", Side: "athens", Orders: o}, {Player: "bob", Side: "sparta", Orders: so}}, []uint64{i - 1, i})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	after := exports()
	if !bytes.Contains(after["public"], []byte("A1 (Paralos squadron) deploys at 20.5,11")) {
		t.Errorf("the deployment is not revealed in the public copy")
	}
	if !g.(*oinavarcoi.Game).Sealed() || !bytes.Contains(after["full"], []byte("\nsealed yes\n")) {
		t.Errorf("the state with a secret signal list is not sealed")
	}
	for _, name := range []string{"side:sparta", "public"} {
		if bytes.Contains(after[name], []byte("\nsealed yes\n")) {
			t.Errorf("view %s holds the sealed state's record", name)
		}
		for _, sec := range secret[1:] {
			if bytes.Contains(after[name], sec) {
				t.Errorf("after the reveal, view %s holds the signal list %q", name, sec)
			}
		}
	}
	if !bytes.Contains(after["side:athens"], secret[2]) {
		t.Errorf("athens's copy lacks its signal list")
	}
	if !strings.Contains(string(after["public"]), "has written 1 signals") {
		t.Errorf("the public copy does not count the signals")
	}
}

// TestOiNavarcoiRoundTrips plays Oi Navarcoi!'s largest scenario (Knidos, nine squadrons) to
// the rules' end with bot players and counts the round trips per game turn per side
// (docs/BENCHMARKS.md): asked, where the initiative winner is asked to MOVE FIRST or SECOND
// in a mail of its own; and standing, where INITIATIVE FIRST, sent with the deployment, makes
// the choice at once, so that a side is asked only for its own movement. The goal is at most
// 8 round trips a side per game turn; with the standing order it must be one.
func TestOiNavarcoiRoundTrips(t *testing.T) {
	perSide := map[string]float64{}
	lastTurns := 0
	for _, mode := range []string{"asked", "standing"} {
		trips, turns, used := oiRoundTrips(t, "knidos", mode)
		lastTurns = turns
		perSide[mode] = float64(trips) / float64(2*turns)
		t.Logf("knidos, %s: %d round trips in %d turns: %.2f per side per game turn; %v", mode, trips, turns, perSide[mode], used)
	}
	if perSide["asked"] > 8 || perSide["standing"] > 8 {
		t.Errorf("round trips per side per game turn %v: more than the goal of 8", perSide)
	}
	if perSide["standing"] >= perSide["asked"] || perSide["standing"] > 1+1/float64(lastTurns) {
		t.Errorf("INITIATIVE standing order: %.2f round trips per side per game turn against %.2f asked, want one a turn and the deployment's", perSide["standing"], perSide["asked"])
	}
}

// oiRoundTrips plays scenario id with bots (mode asked: without their INITIATIVE standing
// order) and returns the requests for orders, the game turns and how often the game's rules
// came up (the bots' repertoire).
func oiRoundTrips(t *testing.T, id, mode string) (trips, turns int, used map[string]int) {
	t.Helper()
	gm, err := oinavarcoi.Ruleset.New(adjudicator.Config{Scenario: id})
	if err != nil {
		t.Fatal(err)
	}
	g := gm.(*oinavarcoi.Game)
	used = map[string]int{}
	for n := 0; g.Next().Kind != adjudicator.Over; n++ {
		if n > 300 {
			t.Fatal("the game does not end")
		}
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		for _, side := range st.Sides {
			trips++
			text := g.BotOrders(side)
			if mode == "asked" {
				text = strings.ReplaceAll(text, "INITIATIVE FIRST", "")
			}
			o, errs := g.Parse(side, text)
			if len(errs) == 0 {
				errs = g.Validate(side, o)
			}
			if len(errs) > 0 {
				t.Fatalf("%s: bot orders %q refused: %v", st.What, text, errs)
			}
			orders[side] = o
		}
		ev, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, ident.Hash{byte(st.Act), byte(st.Turn)}))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ev {
			for _, k := range []string{"Diekplous!", "diekplous test", "periplous test", "engages", "contacts", "parries the diekplous", "Periplous!", "race offshore", "signals", "(IF ", "by SHARE", "by OMEN", "by NAVARCH", "reforms", "rallies", "routs", "has lost every stand"} {
				if strings.Contains(e.Text, k) {
					used[k]++
				}
			}
		}
	}
	return trips, int(g.Next().Turn), used
}
