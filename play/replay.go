package play

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"navarch/adjudicator"
	"navarch/adjudicator/dice"
	"navarch/gamelog"
)

// ReplayReport is the outcome of Replay.
type ReplayReport struct {
	Ruleset string // the genesis record's ruleset id
	Steps   int    // activations re-run
	States  int    // state hashes matched
	Result  string // the game's result, if it ended
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
	rp := &replayer{f: f, rep: &ReplayReport{}, players: map[uint64]string{}}
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
	f       *gamelog.File
	rep     *ReplayReport
	g       adjudicator.Game
	sides   map[string]string // player → side
	players map[uint64]string // orders record → player
	i       int
}

func (rp *replayer) fail(format string, args ...any) error {
	e := rp.f.Entries[rp.i]
	return fmt.Errorf("record %d (line %d): %s", e.Index, e.Line, fmt.Sprintf(format, args...))
}

func (rp *replayer) start(rulesets []adjudicator.Ruleset) error {
	g := rp.f.Entries[0].Record
	if g == nil || g.Type != gamelog.TypeGenesis {
		return fmt.Errorf("record 0 is not a genesis record")
	}
	rs, err := Find(rulesets, g.Get("ruleset"))
	if err != nil {
		return err
	}
	rp.rep.Ruleset = rs.ID()
	if v := g.Get("engine"); v != rs.Version() {
		return fmt.Errorf("the game was played with version %q of the %s engine, and this navarch has version %q: "+
			"it replays a game only with the rules it was played by", v, rs.ID(), rs.Version())
	}
	rp.sides = Players(g)
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
	case r.Type == gamelog.TypeOrders:
		rp.players[rp.f.Entries[rp.i].Index] = r.Get("player")
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

// step re-runs the activation that the close record at rp.i closes.
func (rp *replayer) step(cl *gamelog.Record) error {
	st := rp.g.Next()
	if uint64(st.Turn) != cl.Uint("turn") || uint64(st.Act) != cl.Uint("activation") {
		return rp.fail("the log closes turn %s activation %s, the engine's next step is turn %d activation %d (%s)",
			cl.Get("turn"), cl.Get("activation"), st.Turn, st.Act, st.What)
	}
	orders, rolls, state, withheld, err := rp.collect()
	if err != nil {
		return err
	}
	if st.Kind == adjudicator.Auto {
		orders = nil
	}
	for _, side := range st.Sides {
		if errs := rp.g.Validate(side, orders[side]); len(errs) > 0 && len(orders[side]) > 0 {
			return rp.fail("turn %d activation %d: the logged orders of %s are not legal: %v", st.Turn, st.Act, side, errs[0])
		}
	}
	replay := dice.NewReplay(rolls)
	if err := resolve(rp.g, orders, replay); err != nil {
		return rp.fail("turn %d activation %d: %v", st.Turn, st.Act, err)
	}
	if err := replay.Done(); err != nil {
		return rp.fail("turn %d activation %d: %v", st.Turn, st.Act, err)
	}
	rp.rep.Steps++
	if state == nil {
		return nil
	}
	if sha256.Sum256(rp.g.Encode()) != state.Hash32("state-hash") {
		hint := ""
		if withheld > 0 {
			hint = fmt.Sprintf(" (%d records of this activation are withheld from this view: replay the full export)", withheld)
		}
		return rp.fail("the engine's state after turn %d activation %d does not match the logged state hash%s", st.Turn, st.Act, hint)
	}
	rp.rep.States++
	return nil
}

// collect reads what follows a close up to its state record: the orders' text, parsed for
// each side, and the rolls in seq order. rp.i is left on the state record.
func (rp *replayer) collect() (orders map[string][]adjudicator.Order, rolls []dice.Roll, state *gamelog.Record, withheld int, err error) {
	orders = map[string][]adjudicator.Order{}
	for rp.i+1 < len(rp.f.Entries) {
		e := rp.f.Entries[rp.i+1]
		if e.Record == nil {
			rp.i++
			withheld++
			continue
		}
		switch e.Record.Type {
		case gamelog.TypeOrdersText:
			rp.i++
			if err := rp.ordersText(e.Record, orders); err != nil {
				return nil, nil, nil, 0, err
			}
		case gamelog.TypeRoll:
			rp.i++
			rolls = append(rolls, logged(e.Record))
		case gamelog.TypeEvent:
			rp.i++
		case gamelog.TypeState:
			rp.i++
			return orders, rolls, e.Record, withheld, nil
		default:
			return orders, rolls, nil, withheld, nil
		}
	}
	return orders, rolls, nil, withheld, nil
}

func (rp *replayer) ordersText(r *gamelog.Record, orders map[string][]adjudicator.Order) error {
	player, ok := rp.players[r.Uint("orders")]
	if !ok {
		return rp.fail("text of orders record %s, which this view does not hold", r.Get("orders"))
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
func resolve(g adjudicator.Game, orders map[string][]adjudicator.Order, r dice.Roller) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the engine failed on these logged orders: %v", p)
		}
	}()
	_, err = g.Resolve(orders, r)
	return err
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
