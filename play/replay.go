package play

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/gamelog"
	"navarch/ledger"
)

// ReplayReport is the outcome of Replay.
type ReplayReport struct {
	Ruleset string // the genesis record's ruleset id
	Steps   int    // activations re-run
	States  int    // state hashes matched
	Records int    // rolls, events and states re-derived byte for byte
	// Withheld counts records of re-run steps that this view does not hold (sealed events,
	// sealed states): they could not be compared.
	Withheld int
	// Incomplete says why replay stopped before the log's end (orders withheld from this
	// view), or "". Nothing after that point was checked.
	Incomplete string
	Result     string // the game's result, if it ended
	// Stopped is the step the engine still had next when the log ended the game before the
	// rules did (a referee's ENDGAME, a resignation), or "".
	Stopped string
	// Game is the engine's game as the log leaves it.
	Game adjudicator.Game
}

// Replay re-runs a game from its exported log (docs/DICE.md 6): from the genesis record's
// ruleset, scenario and options, each close is one step of the engine, resolved with the
// orders whose text the log holds and with the logged rolls, which the engine must ask for
// exactly, label by label; each state record must match the engine's state hash. The
// first divergence is an error naming the record. The log is assumed verified (navarch
// verify); Replay checks the engine, not the hashes.
func Replay(f *gamelog.File, rulesets []adjudicator.Ruleset) (*ReplayReport, error) {
	rp := &replayer{f: f, rep: &ReplayReport{}, players: map[uint64]string{}, defaults: map[uint64]bool{}}
	if err := rp.start(rulesets); err != nil {
		return rp.rep, err
	}
	for rp.i = 1; rp.i < len(f.Entries); rp.i++ {
		if err := rp.entry(); err != nil {
			return rp.rep, err
		}
	}
	rp.rep.Game = rp.g
	return rp.rep, nil
}

type replayer struct {
	f        *gamelog.File
	rep      *ReplayReport
	g        adjudicator.Game
	sides    map[string]string // player → side
	players  map[uint64]string // orders record → player
	defaults map[uint64]bool   // orders records of the rules' no-orders default
	act      []string          // the players the open activation asks
	declared bool              // the genesis declares secrecy (gamelog.SecrecyDeclared)
	secret   bool              // the open activation's record said "secret yes"
	i        int
}

func (rp *replayer) fail(format string, args ...any) error {
	return rp.failAt(rp.f.Entries[rp.i].Index, format, args...)
}

func (rp *replayer) failAt(i uint64, format string, args ...any) error {
	e := rp.f.Entries[i]
	return fmt.Errorf("record %d (line %d): %s", e.Index, e.Line, fmt.Sprintf(format, args...))
}

// EngineOf returns the ruleset that replays the game whose genesis record is g: the one it
// names, at the engine version it names; else why not (no such ruleset, or ErrOtherEngine).
func EngineOf(g *gamelog.Record, rulesets []adjudicator.Ruleset) (adjudicator.Ruleset, error) {
	rs, err := Find(rulesets, g.Get("ruleset"))
	if err != nil {
		return nil, err
	}
	if v := g.Get("engine"); v != rs.Version() {
		return nil, fmt.Errorf("the game was played with version %q of the %s engine, and this navarch has version %q: %w",
			v, rs.ID(), rs.Version(), ErrOtherEngine)
	}
	return rs, nil
}

func (rp *replayer) start(rulesets []adjudicator.Ruleset) error {
	g := rp.f.Entries[0].Record
	if g == nil || g.Type != gamelog.TypeGenesis {
		return fmt.Errorf("record 0 is not a genesis record")
	}
	rs, err := EngineOf(g, rulesets)
	if err != nil {
		return err
	}
	rp.rep.Ruleset = rs.ID()
	rp.sides = Players(g)
	rp.declared = g.Get("secrecy") == gamelog.SecrecyDeclared
	cfg := adjudicator.Config{Scenario: g.Get("scenario"), Options: strings.Fields(g.Get("options"))}
	if g.Has("tables") {
		cfg.Tables = map[string][]byte{rs.ID(): g.Bytes("tables")}
	}
	rp.g, err = rs.New(cfg)
	return err
}

func (rp *replayer) entry() error {
	r := rp.f.Entries[rp.i].Record
	switch {
	case r == nil:
		return nil
	case r.Type == gamelog.TypeActivation:
		rp.act = strings.Fields(r.Get("act"))
		rp.secret = r.Get("secret") == "yes"
	case r.Type == gamelog.TypeOrders:
		rp.players[rp.f.Entries[rp.i].Index] = r.Get("player")
		rp.defaults[rp.f.Entries[rp.i].Index] = r.Has("default")
	case r.Type == gamelog.TypeClose:
		return rp.step(r)
	case r.Type == gamelog.TypeEnd:
		if st := rp.g.Next(); st.Kind != adjudicator.Over {
			rp.rep.Stopped = st.What
		}
		rp.rep.Result = r.Get("result")
	}
	return nil
}

// step re-runs the activation that the close record at rp.i closes: the engine must ask
// for exactly the logged rolls and write exactly the logged records, byte for byte (every
// roll's reading and result, every event, the state hash), so that the readable log is the
// engine's own account of what happened.
func (rp *replayer) step(cl *gamelog.Record) error {
	st := rp.g.Next()
	if uint64(st.Turn) != cl.Uint("turn") || uint64(st.Act) != cl.Uint("activation") {
		return rp.fail("the log closes turn %s activation %s, the engine's next step is turn %d activation %d (%s)",
			cl.Get("turn"), cl.Get("activation"), st.Turn, st.Act, st.What)
	}
	if err := rp.checkAct(st); err != nil {
		return err
	}
	if rp.declared && rp.secret != st.Secret {
		return rp.fail("turn %d activation %d (%s): the activation declared secret %v; by the rules it is %v", st.Turn, st.Act, st.What, rp.secret, st.Secret)
	}
	c, err := rp.collect(st.Secret)
	if err != nil {
		return err
	}
	if c.missing != "" {
		rp.rep.Incomplete = fmt.Sprintf("turn %d activation %d (%s) uses %s, withheld from this view: replay stops there; the full (referee's) export, or this side's export after the game's end, re-runs the rest", st.Turn, st.Act, st.What, c.missing)
		rp.i = len(rp.f.Entries)
		return nil
	}
	orders := c.orders
	if st.Kind == adjudicator.Auto {
		orders = nil
	}
	for _, side := range st.Sides {
		if errs := rp.g.Validate(side, orders[side]); len(errs) > 0 && len(orders[side]) > 0 {
			return rp.fail("turn %d activation %d: the logged orders of %s are not legal: %v", st.Turn, st.Act, side, errs[0])
		}
	}
	replay := dice.NewReplay(c.rolls)
	events, err := resolve(rp.g, orders, replay)
	if err != nil {
		return rp.fail("turn %d activation %d: %v", st.Turn, st.Act, err)
	}
	if err := replay.Done(); err != nil {
		return rp.fail("turn %d activation %d: %v", st.Turn, st.Act, err)
	}
	rp.rep.Steps++
	return rp.compare(st, c, rp.expected(st, replay.Rolls(), events))
}

// checkAct: the activation record must ask exactly the players of the sides the rules ask
// (none for an automatic step), so that no orders record can be slipped into a step that
// takes none.
func (rp *replayer) checkAct(st adjudicator.Step) error {
	var want []string
	if st.Kind == adjudicator.NeedOrders {
		for p, side := range rp.sides {
			if slices.Contains(st.Sides, side) {
				want = append(want, p)
			}
		}
	}
	have := slices.Clone(rp.act)
	slices.Sort(want)
	slices.Sort(have)
	if !slices.Equal(want, have) {
		return rp.fail("turn %d activation %d (%s) asks %v; the rules ask %v", st.Turn, st.Act, st.What, have, want)
	}
	return nil
}

// expected returns the records the ledger writes after a step's orders texts: its rolls,
// its events, its state (play.record).
func (rp *replayer) expected(st adjudicator.Step, rolls []*dice.Roll, events []adjudicator.Event) []*gamelog.Builder {
	var out []*gamelog.Builder
	for _, r := range rolls {
		out = append(out, ledger.RollRecord(st.Turn, st.Act, r))
	}
	for _, e := range events {
		out = append(out, ledger.EventRecord(ledger.EventIn(rp.f.Entries[0].Record.Get("format"), eventOf(st, e))))
	}
	sealed := false
	if s, ok := rp.g.(adjudicator.Sealer); ok {
		sealed = s.Sealed()
	}
	return append(out, ledger.StateRecord(st.Turn, st.Act, sha256.Sum256(rp.g.Encode()), sealed))
}

// compare checks the logged records of a step against the engine's, byte for byte; a
// record withheld from this view is counted, not compared.
func (rp *replayer) compare(st adjudicator.Step, c collected, want []*gamelog.Builder) error {
	if len(want) != len(c.narrative) {
		return rp.failAt(c.first, "turn %d activation %d: the engine writes %d records after the orders, the log has %d", st.Turn, st.Act, len(want), len(c.narrative))
	}
	for i, b := range want {
		got := c.narrative[i]
		if got.rec == nil {
			rp.rep.Withheld++
			continue
		}
		rec, err := b.Build(got.index)
		if err != nil {
			return rp.failAt(got.index, "the engine's record does not build: %v", err)
		}
		if rec.Type == gamelog.TypeState && got.rec.Type == gamelog.TypeState && rec.Get("state-hash") != got.rec.Get("state-hash") {
			return rp.failAt(got.index, "the engine's state after turn %d activation %d does not match the logged state hash", st.Turn, st.Act)
		}
		if string(rec.Raw) != string(got.rec.Raw) {
			return rp.failAt(got.index, "the logged %s differs from what the engine wrote:\n  logged: %s\n  engine: %s", got.rec.Type, oneLine(got.rec.Raw), oneLine(rec.Raw))
		}
		rp.rep.Records++
		if rec.Type == gamelog.TypeState {
			rp.rep.States++
		}
	}
	return nil
}

func oneLine(raw []byte) string {
	return strings.ReplaceAll(strings.TrimSuffix(string(raw), "\n"), "\n", " | ")
}

// collected is what follows a close in the log: the orders by side, the rolls, and the
// records the engine's resolution wrote (nil where withheld from this view).
type collected struct {
	orders    map[string][]adjudicator.Order
	rolls     []dice.Roll
	narrative []logRec
	first     uint64
	missing   string // what of the step's orders this view lacks
}

type logRec struct {
	index uint64
	rec   *gamelog.Record
}

// collect reads what follows a close up to its state record. rp.i is left on the last
// record read. The step's orders texts are sealed exactly when the rules' step is secret
// (their zero bytes in E are then the rules' choice, not the daemon's; in a game whose
// activations declare no secrecy this is the only place that checks it).
func (rp *replayer) collect(secret bool) (collected, error) {
	c := collected{orders: map[string][]adjudicator.Order{}}
	for rp.i+1 < len(rp.f.Entries) {
		e := rp.f.Entries[rp.i+1]
		r, what := e.Record, ""
		if r != nil {
			what = r.Type
			if r.Type == gamelog.TypeSealed {
				what, r = r.Get("what"), e.Inner
			}
		}
		if c.first == 0 {
			c.first = e.Index
		}
		switch {
		case what == gamelog.TypeOrdersText:
			rp.i++
			if sealed := e.Record.Type == gamelog.TypeSealed || r != nil && r.Has("side"); sealed != secret {
				return c, rp.fail("an orders text sealed %v in a step the rules make secret %v", sealed, secret)
			}
			if r == nil {
				c.missing = "orders"
				continue
			}
			if err := rp.ordersText(r, c.orders); err != nil {
				return c, err
			}
		case what == gamelog.TypeRoll:
			rp.i++
			c.rolls = append(c.rolls, logged(r))
			c.narrative = append(c.narrative, logRec{e.Index, r})
		case what == gamelog.TypeEvent || e.Record == nil:
			rp.i++
			c.narrative = append(c.narrative, logRec{e.Index, r})
		case what == gamelog.TypeState:
			rp.i++
			c.narrative = append(c.narrative, logRec{e.Index, r})
			return c, nil
		default:
			return c, nil
		}
	}
	return c, nil
}

func (rp *replayer) ordersText(r *gamelog.Record, orders map[string][]adjudicator.Order) error {
	player, ok := rp.players[r.Uint("orders")]
	if !ok {
		return rp.fail("text of orders record %s, which this view does not hold", r.Get("orders"))
	}
	if rp.defaults[r.Uint("orders")] {
		return nil // the rules' default: the side sent nothing
	}
	side := rp.sides[player]
	parsed, errs := rp.g.Parse(side, string(gamelog.OrdersText(r.All("line"))))
	if len(errs) > 0 {
		return rp.fail("the engine does not understand the logged orders of %s: %v", player, errs[0])
	}
	orders[side] = append(orders[side], parsed...)
	return nil
}

// resolve runs the engine on orders and dice from a log, which may have been forged: an
// engine panic is reported as an error, never passed on.
func resolve(g adjudicator.Game, orders map[string][]adjudicator.Order, r dice.Roller) (events []adjudicator.Event, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the engine failed on these logged orders: %v", p)
		}
	}()
	return g.Resolve(orders, r)
}

func logged(r *gamelog.Record) dice.Roll {
	count, sides, _ := gamelog.ParseDice(r.Get("dice"))
	var values []int
	for _, v := range strings.Fields(r.Get("values")) {
		n := 0
		fmt.Sscan(v, &n)
		values = append(values, n)
	}
	return dice.Roll{Label: r.Get("label"), Sides: sides, Count: count, Values: values}
}
