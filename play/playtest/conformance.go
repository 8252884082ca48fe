package playtest

import (
	"bytes"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/adjtest"
	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

// Options chooses the game Conformance plays.
type Options struct {
	Config adjudicator.Config // the game set up; Scenario is required
	Seed   string             // the game's keys and seeds (ledgertest.Rand)
	// MaxSteps bounds the self-play: a game that has not ended after this many steps fails
	// (0: 5000).
	MaxSteps int
}

// Conformance checks a ruleset against what the host, the ledger and replay rely on, playing
// one game of o.Config with the ruleset's bot (its games must implement adjudicator.Bot):
//
//   - version: Version is set, and the genesis record names it;
//   - encode: two new games encode alike, and Encode is the same twice at every step;
//   - round trip: at every step, each side's bot orders, parsed, printed (String) and parsed
//     again, give the same orders, and are valid;
//   - scripted dice: a twin game resolved with the same order text and the step's rolls
//     handed out by label (adjtest.Scripted) asks for exactly those rolls and reaches the same
//     events and state;
//   - self-play: the bots play to the rules' end through the ledger, one store transaction
//     per step;
//   - events: every event has a kind of adjudicator.Kinds and names as behind it only rolls
//     of its own step, each behind one event at most, and every roll of a step with events
//     is behind one of them unless it was rolled after the step's last event;
//   - replay: the exported log verifies, and play.Replay re-runs every step to the same state
//     hashes and the same final Encode.
func Conformance(t testing.TB, rs adjudicator.Ruleset, o Options) {
	t.Helper()
	if o.MaxSteps == 0 {
		o.MaxSteps = 5000
	}
	if rs.Version() == "" {
		t.Errorf("%s: Version is empty; the genesis record must name the engine", rs.ID())
	}
	a, errA := rs.New(o.Config)
	b, errB := rs.New(o.Config)
	if errA != nil || errB != nil {
		t.Fatalf("new %+v: %v, %v", o.Config, errA, errB)
	}
	if !bytes.Equal(a.Encode(), b.Encode()) {
		t.Errorf("two new games of %+v encode differently", o.Config)
	}
	if _, ok := a.(adjudicator.Bot); !ok {
		t.Fatalf("%s: the games have no bot (adjudicator.Bot); Conformance plays with it", rs.ID())
	}
	p := newPlayed(t, rs, o)
	defer p.s.Close()
	p.play(t, o.MaxSteps)
	p.replay(t)
}

// played is a game played by the bots through a store.
type played struct {
	rs      adjudicator.Ruleset
	cfg     adjudicator.Config
	s       *store.Store
	c       ledger.Created
	players map[string]string // side → player
	g, twin adjudicator.Game
	steps   int
}

func newPlayed(t testing.TB, rs adjudicator.Ruleset, o Options) *played {
	t.Helper()
	i := slices.IndexFunc(rs.Scenarios(), func(s adjudicator.Scenario) bool { return s.ID == o.Config.Scenario })
	if i < 0 {
		t.Fatalf("%s has no scenario %q", rs.ID(), o.Config.Scenario)
	}
	p := &played{rs: rs, cfg: o.Config, players: map[string]string{}}
	var players []ledger.Player
	for k, side := range rs.Scenarios()[i].Sides {
		id := fmt.Sprintf("player%d", k+1)
		players = append(players, ledger.Player{ID: id, Side: side})
		p.players[side] = id
	}
	var err error
	if p.s, err = store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	err = p.s.Update(func(tx *store.Tx) error {
		if p.c, err = play.Create(tx, rs, o.Config, players, ledgertest.Clock, ledgertest.Rand(o.Seed)); err != nil {
			return err
		}
		for _, pl := range players {
			if err := ledger.Join(tx, p.c.Game, pl.ID, []byte(pl.ID+" joins"), ledgertest.Clock, pl.ID+"-join@example.org"); err != nil {
				return err
			}
		}
		_, err := ledger.Start(tx, p.c.Game, false)
		return err
	})
	if err != nil {
		p.s.Close()
		t.Fatal(err)
	}
	p.g, _ = rs.New(o.Config)
	p.twin, _ = rs.New(o.Config)
	return p
}

// play plays the game to its end, checking each step.
func (p *played) play(t testing.TB, maxSteps int) {
	t.Helper()
	for ; p.g.Next().Kind != adjudicator.Over; p.steps++ {
		if p.steps >= maxSteps {
			t.Fatalf("the game has not ended after %d steps", maxSteps)
		}
		st := p.g.Next()
		if tw := p.twin.Next(); !slices.Equal(tw.Sides, st.Sides) || tw.Turn != st.Turn || tw.Act != st.Act || tw.Kind != st.Kind {
			t.Fatalf("step %d: the twin's next step %+v differs from %+v", p.steps, tw, st)
		}
		orders, texts := p.orders(t, st)
		var res play.Result
		err := p.s.Update(func(tx *store.Tx) error {
			var err error
			res, err = play.Step(tx, p.c.Game, p.g, orders, ledgertest.Clock)
			return err
		})
		if err != nil {
			t.Fatalf("turn %d activation %d (%s): %v", st.Turn, st.Act, st.What, err)
		}
		p.checkTwin(t, st, texts, res)
		checkEvents(t, st, res)
		if !bytes.Equal(p.g.Encode(), p.g.Encode()) {
			t.Fatalf("turn %d activation %d: Encode differs between two calls", st.Turn, st.Act)
		}
	}
}

// checkEvents checks a step's events' kinds and rolls (Conformance: events).
func checkEvents(t testing.TB, st adjudicator.Step, res play.Result) {
	t.Helper()
	rolled := map[string]int{} // label → its place among the step's rolls
	for i, r := range res.Rolls {
		rolled[r.Label] = i
	}
	behind, last := map[string]bool{}, -1
	for _, e := range res.Events {
		if !slices.Contains(adjudicator.Kinds, e.Kind) {
			t.Fatalf("turn %d activation %d: event %q has no kind of adjudicator.Kinds (%q)", st.Turn, st.Act, e.Text, e.Kind)
		}
		for _, l := range e.Rolls {
			i, ok := rolled[l]
			if !ok || behind[l] {
				t.Fatalf("turn %d activation %d: event %q is behind roll %q, not a roll of the step or behind another event", st.Turn, st.Act, e.Text, l)
			}
			behind[l], last = true, max(last, i)
		}
	}
	if len(res.Events) == 0 {
		return
	}
	for i, r := range res.Rolls {
		if !behind[r.Label] && i < last {
			t.Fatalf("turn %d activation %d: roll %q, made before rolls behind the step's events, is behind none", st.Turn, st.Act, r.Label)
		}
	}
}

// orders are the bots' orders for step st, each side's checked for the round trip; texts
// are their canonical texts by side, as the log keeps them.
func (p *played) orders(t testing.TB, st adjudicator.Step) ([]play.SideOrders, map[string]string) {
	t.Helper()
	if st.Kind != adjudicator.NeedOrders {
		return nil, nil
	}
	var out []play.SideOrders
	texts := map[string]string{}
	for _, side := range st.Sides {
		text := p.g.(adjudicator.Bot).BotOrders(side)
		orders, errs := p.g.Parse(side, text)
		if len(errs) == 0 {
			errs = p.g.Validate(side, orders)
		}
		if len(errs) > 0 {
			t.Fatalf("turn %d activation %d: the bot's orders for %s are refused: %v\n%s", st.Turn, st.Act, side, errs, text)
		}
		canon := adjudicator.Canonical(orders)
		again, errs := p.g.Parse(side, canon)
		if len(errs) > 0 || adjudicator.Canonical(again) != canon {
			t.Fatalf("turn %d activation %d: %s's orders do not survive Parse(String()): %v\nprinted:\n%sreparsed:\n%s",
				st.Turn, st.Act, side, errs, canon, adjudicator.Canonical(again))
		}
		texts[side] = canon
		out = append(out, play.SideOrders{Player: p.players[side], Side: side, Orders: orders, Received: ledgertest.Clock, Private: st.Secret})
	}
	return out, texts
}

// checkTwin resolves the same step on the twin from the orders' text and the step's rolls by
// label: the same rolls must be asked for, and the same events and state reached.
func (p *played) checkTwin(t testing.TB, st adjudicator.Step, texts map[string]string, res play.Result) {
	t.Helper()
	var orders map[string][]adjudicator.Order
	if st.Kind == adjudicator.NeedOrders {
		orders = map[string][]adjudicator.Order{}
		for side, text := range texts {
			o, errs := p.twin.Parse(side, text)
			if len(errs) > 0 {
				t.Fatalf("turn %d activation %d: the twin refuses %s's orders: %v", st.Turn, st.Act, side, errs)
			}
			orders[side] = o
		}
	}
	sr := adjtest.FromRolls(res.Rolls)
	events, err := p.twin.Resolve(orders, sr)
	if err != nil {
		t.Fatalf("turn %d activation %d: the twin, with the step's dice by label: %v", st.Turn, st.Act, err)
	}
	if left := sr.Left(); len(left) > 0 {
		t.Fatalf("turn %d activation %d: the twin did not ask for the rolls %v", st.Turn, st.Act, left)
	}
	if !slices.EqualFunc(events, res.Events, adjudicator.Event.Equal) {
		t.Fatalf("turn %d activation %d: the twin's events differ:\n%v\nwant\n%v", st.Turn, st.Act, events, res.Events)
	}
	if !bytes.Equal(p.twin.Encode(), p.g.Encode()) {
		t.Fatalf("turn %d activation %d: the twin's state differs", st.Turn, st.Act)
	}
}

// replay exports the full log, verifies it and replays it.
func (p *played) replay(t testing.TB) {
	t.Helper()
	data, err := ledgertest.Export(p.s, p.c.Game, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: p.c.Verifier}); !rep.OK() {
		t.Fatalf("the self-played log does not verify: %v", rep.Failure)
	}
	if g := f.Entries[0].Record; g == nil || g.Get("engine") != p.rs.Version() {
		t.Errorf("the genesis record does not name the engine version %q", p.rs.Version())
	}
	rr, err := play.Replay(f, []adjudicator.Ruleset{p.rs})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if rr.Steps != p.steps || rr.States != rr.Steps || rr.Result == "" {
		t.Errorf("replay: %d steps, %d states, result %q; played %d steps", rr.Steps, rr.States, rr.Result, p.steps)
	}
	if !bytes.Equal(rr.Game.Encode(), p.g.Encode()) {
		t.Error("the replayed game's state differs from the played one")
	}
	t.Logf("%s %s: %d steps, %s", p.rs.ID(), p.cfg.Scenario, p.steps, rr.Result)
}
