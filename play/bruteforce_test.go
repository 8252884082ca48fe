package play_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
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

// TestNoHiddenPlacementRecoverable tries every legal placement of the christian side's two
// hidden leaders (4.5) against each copy of the log, as a dishonest opponent would (issue
// 10, finding 2): for each candidate it computes every hash the log could hold of it (the
// set-up orders' hash, the hidden events' and the sealed state's records at every index,
// the state hash) and searches the copy for them. The ottoman and public copies must yield
// nothing; the full copy, which holds the truth, must yield the true placement, so that the
// search is shown to work.
func TestNoHiddenPlacementRecoverable(t *testing.T) {
	views, truth := hiddenGame(t)
	cands := placements(t)
	if !slices.Contains(cands, truth) {
		t.Fatalf("the true placement %q is not among the %d candidates", truth, len(cands))
	}
	n := len(bytes.Split(views["full"], []byte("\ntype "))) + 2
	found := map[string][]string{}
	for _, cand := range cands {
		for _, h := range fingerprints(t, cand, n) {
			for name, data := range views {
				if bytes.Contains(data, []byte(h)) {
					found[name] = append(found[name], cand)
					break
				}
			}
		}
	}
	for _, name := range []string{"side:ottoman", "public"} {
		if len(found[name]) > 0 {
			t.Errorf("view %s gives away the placement: %q", name, found[name])
		}
	}
	if !slices.Contains(found["full"], truth) {
		t.Errorf("the search finds nothing even in the full view (found %q): it proves nothing", found["full"])
	}
	t.Logf("%d legal placements tried against %d views", len(cands), len(views))
}

// hiddenGame plays the set-up and a few steps with two christian leaders hidden and returns
// each view's export and the set-up text.
func hiddenGame(t *testing.T) (map[string][]byte, string) {
	t.Helper()
	const setUp = "BARBARIGO ON BAR-LANT HIDDEN\nQUERINI ON QUE-ELB HIDDEN"
	s, id, g := newHiddenGame(t)
	for n := 0; n < 4; n++ {
		stepBots(t, s, id, g, map[string]string{"christian": setUp, "ottoman": ""}, n == 0)
	}
	views := map[string][]byte{}
	for _, v := range []ledger.View{{Full: true}, {Side: "ottoman"}, {}} {
		views[v.Name()] = export(t, s, id, v)
	}
	o, _ := g.Parse("christian", setUp)
	return views, adjudicator.Canonical(o)
}

// placements lists every legal set-up text hiding BARBARIGO and QUERINI aboard any unit.
func placements(t *testing.T) []string {
	t.Helper()
	g := newLepanto(t)
	var units []string
	for _, u := range g.(*lepanto.Game).Units {
		if u.Side == "christian" {
			units = append(units, u.ID)
		}
	}
	choices := func(leader string) []string {
		out := []string{leader + " HIDDEN", ""}
		for _, u := range units {
			out = append(out, fmt.Sprintf("%s ON %s HIDDEN", leader, u), fmt.Sprintf("%s ON %s", leader, u))
		}
		return out
	}
	var out []string
	for _, a := range choices("BARBARIGO") {
		for _, b := range choices("QUERINI") {
			o, errs := g.Parse("christian", a+"\n"+b)
			if c := adjudicator.Canonical(o); len(errs) == 0 && len(g.Validate("christian", o)) == 0 && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// fingerprints are the hex strings a copy of the log could hold of a candidate set-up: its
// orders hash, the hash of the state it leads to, and the leaf hash of each record it
// writes for the christian side alone (at every index a log of n records could give it).
func fingerprints(t *testing.T, canonical string, n int) []string {
	t.Helper()
	g := newLepanto(t)
	st := g.Next()
	o, _ := g.Parse("christian", canonical)
	events, err := g.Resolve(map[string][]adjudicator.Order{"christian": o}, dice.NewActivation(st.Turn, st.Act, [32]byte{}))
	if err != nil {
		t.Fatal(err)
	}
	oh, sh := gamelog.OrdersHash([]byte(canonical)), adjudicator.StateHash(g)
	out := []string{hex.EncodeToString(oh[:]), hex.EncodeToString(sh[:])}
	var recs []*gamelog.Builder
	for _, e := range events {
		if e.Side == "christian" {
			recs = append(recs, ledger.EventRecord(ledger.Event{Turn: st.Turn, Act: st.Act, Side: e.Side, Rule: e.Rule, Text: []string{e.Text}}))
		}
	}
	recs = append(recs, ledger.StateRecord(st.Turn, st.Act, sh, true))
	for _, b := range recs {
		for i := 0; i < n; i++ {
			r, err := b.Build(uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			leaf := gamelog.Leaf(r.Raw)
			out = append(out, hex.EncodeToString(leaf[:]))
		}
	}
	return out
}

var hiddenCfg = adjudicator.Config{Scenario: "lions-at-sea"}

func newLepanto(t *testing.T) adjudicator.Game {
	t.Helper()
	g, err := lepanto.Ruleset.New(hiddenCfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func newHiddenGame(t *testing.T) (*store.Store, ident.GameID, adjudicator.Game) {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var c ledger.Created
	err = s.Update(func(tx *store.Tx) error {
		if c, err = play.Create(tx, lepanto.Ruleset, hiddenCfg, players, ledgertest.Clock, ledgertest.Rand("brute")); err != nil {
			return err
		}
		_, err = ledger.Start(tx, c.Game, true)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, c.Game, newLepanto(t)
}

// stepBots plays g's next step with the bots' orders, or with text[side] where given.
func stepBots(t *testing.T, s *store.Store, id ident.GameID, g adjudicator.Game, text map[string]string, useText bool) {
	t.Helper()
	st := g.Next()
	var orders []play.SideOrders
	for _, side := range st.Sides {
		txt := g.(*lepanto.Game).BotOrders(side)
		if useText {
			txt = text[side]
		}
		o, errs := g.Parse(side, txt)
		if len(errs) > 0 || len(g.Validate(side, o)) > 0 {
			t.Fatalf("orders refused: %v %v", errs, g.Validate(side, o))
		}
		orders = append(orders, play.SideOrders{Player: map[string]string{"christian": "alice", "ottoman": "bob"}[side], Side: side, Orders: o})
	}
	if err := s.Update(func(tx *store.Tx) error { _, err := play.Step(tx, id, g, orders, ledgertest.Clock); return err }); err != nil {
		t.Fatal(err)
	}
}

func export(t *testing.T, s *store.Store, id ident.GameID, v ledger.View) []byte {
	t.Helper()
	data, err := ledgertest.Export(s, id, v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
