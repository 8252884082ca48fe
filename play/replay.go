package play

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
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
	sides    map[string]string          // player → side
	players  map[uint64]string          // orders record → player
	defaults map[uint64]bool            // orders records of the rules' no-orders default
	act      []string                   // the players the open activation asks
	declared bool                       // the genesis declares secrecy (gamelog.SecrecyDeclared)
	secret   bool                       // the open activation's record said "secret yes"
	v4       bool                       // the log's format has standing records
	v5       bool                       // ... sealed by kind
	standing []string                   // the sides the open activation's record declared ("standing")
	held     map[uint64]*gamelog.Record // v4: the standing records this view holds
	i        int
	// resumed: the replay began from an engine restored at a state record (forward), with the
	// records after it: the checks that need the records before it are not made (the caller
	// checks the state the engine reaches against the log's), and a standing record written
	// before it is read by earlier.
	resumed bool
	earlier func(i uint64) *gamelog.Record

	// Team games (v4): the assignments this view holds, and the sides whose assignments are
	// withheld from it (another side's, before the game's end).
	assigns []ledger.Assignment
	hidden  map[string]bool
	opened  []ledger.Assignment // the assignments when the open activation opened
	tr      teamReplay          // v5: the team sides' counts and senders (replay_teamhide.go)
}

func (rp *replayer) fail(format string, args ...any) error {
	return rp.failAt(rp.f.Entries[rp.i].Index, format, args...)
}

func (rp *replayer) failAt(i uint64, format string, args ...any) error {
	e := rp.f.Entries[min(i, uint64(len(rp.f.Entries)-1))]
	if e.Index != i { // a resumed replay's entries start at its state record
		if j := slices.IndexFunc(rp.f.Entries, func(e gamelog.Entry) bool { return e.Index == i }); j >= 0 {
			e = rp.f.Entries[j]
		}
	}
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
	rp.setUp(g)
	cfg := adjudicator.Config{Scenario: g.Get("scenario"), Options: strings.Fields(g.Get("options"))}
	if g.Has("tables") {
		cfg.Tables = map[string][]byte{rs.ID(): g.Bytes("tables")}
	}
	rp.g, err = rs.New(cfg)
	return err
}

// setUp reads what the genesis record g fixes for the replay.
func (rp *replayer) setUp(g *gamelog.Record) {
	rp.sides = Players(g)
	rp.declared = g.Get("secrecy") == gamelog.SecrecyDeclared
	rp.v4 = gamelog.AtLeast(g.Get("format"), gamelog.FormatV4)
	rp.v5 = gamelog.AtLeast(g.Get("format"), gamelog.FormatV5)
	rp.held = map[uint64]*gamelog.Record{}
	rp.tr.start(g, rp.sides)
}

func (rp *replayer) entry() error {
	r := rp.f.Entries[rp.i].Record
	if r != nil {
		rp.tr.record(rp.f.Entries[rp.i], rp.sides)
	}
	switch {
	case r == nil:
		return nil
	case r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeAssign:
		rp.assign(r, rp.f.Entries[rp.i].Inner)
	case r.Type == gamelog.TypeActivation:
		rp.act = strings.Fields(r.Get("act"))
		rp.opened = slices.Clone(rp.assigns) // an ASSIGN takes effect from the next step
		rp.secret = r.Get("secret") == "yes"
		rp.standing = strings.Fields(r.Get("standing"))
		rp.tr.activation(r)
	case r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeStanding:
		if in := rp.f.Entries[rp.i].Inner; in != nil {
			rp.held[rp.f.Entries[rp.i].Index] = in
		}
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
	if !rp.resumed { // both read the assignments, which may lie before a resumed replay's start
		if err := rp.checkAct(st); err != nil {
			return err
		}
		if err := rp.checkTeamPlayers(st, cl); err != nil {
			return err
		}
	}
	if rp.declared && rp.secret != st.Secret {
		return rp.fail("turn %d activation %d (%s): the activation declared secret %v; by the rules it is %v", st.Turn, st.Act, st.What, rp.secret, st.Secret)
	}
	if err := rp.checkStanding(st); err != nil {
		return err
	}
	held, missing := rp.heldOrders(cl)
	c, err := rp.collect(st.Secret)
	if err != nil {
		return err
	}
	if missing != "" && c.missing == "" {
		c.missing = missing
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
	if err := rp.applyHeld(held); err != nil {
		return err
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

// checkAct: the activation record must ask exactly the players the rules ask (none for an
// automatic step): the players of the sides asked, or in a team game the players who
// command the units the step asks, by the assignments made before it opened (Asked); so
// that no orders record can be slipped into a step that takes none. A side whose
// assignments this view does not hold is checked to be asked through its own players only.
func (rp *replayer) checkAct(st adjudicator.Step) error {
	var players []ledger.Player
	for p, side := range rp.sides {
		players = append(players, ledger.Player{ID: p, Side: side})
	}
	slices.SortFunc(players, func(a, b ledger.Player) int { return strings.Compare(a.ID, b.ID) })
	want := Asked(rp.g, st, players, rp.opened)
	if rp.tr.v5 { // a team side's players are counted (team-asks), not named
		var err error
		if want, err = rp.checkCounts(st, want); err != nil {
			return err
		}
	}
	have := slices.Clone(rp.act)
	slices.Sort(have)
	if len(rp.hidden) > 0 && st.Kind == adjudicator.NeedOrders && !rp.tr.v5 { // v5: checkCounts
		want = slices.DeleteFunc(want, func(p string) bool { return rp.hidden[rp.sides[p]] })
		var seen []string
		for _, p := range have {
			if !rp.hidden[rp.sides[p]] {
				continue
			}
			if !slices.Contains(st.Sides, rp.sides[p]) {
				return rp.fail("turn %d activation %d (%s) asks %s, of a side the rules do not ask", st.Turn, st.Act, st.What, p)
			}
			seen = append(seen, rp.sides[p])
		}
		for s := range rp.hidden {
			if slices.Contains(st.Sides, s) && !slices.Contains(seen, s) {
				return rp.fail("turn %d activation %d (%s) asks none of side %s, which the rules ask", st.Turn, st.Act, st.What, s)
			}
		}
		have = slices.DeleteFunc(have, func(p string) bool { return rp.hidden[rp.sides[p]] })
	}
	if !slices.Equal(want, have) {
		return rp.fail("turn %d activation %d (%s) asks %v; the rules ask %v", st.Turn, st.Act, st.What, have, want)
	}
	return nil
}

// assign applies an assign record sealed at r (in, its content, where this view holds it).
func (rp *replayer) assign(r, in *gamelog.Record) {
	if in == nil {
		if rp.hidden == nil {
			rp.hidden = map[string]bool{}
		}
		rp.hidden[r.Get("side")] = true
		return
	}
	a := ledger.Assignment{Side: in.Get("side"), Player: in.Get("player"), Commander: in.Get("commander") == "yes", Commands: in.All("command")}
	if a.Commander { // the side has one commander: whoever held it hands it over
		for i := range rp.assigns {
			if rp.assigns[i].Side == a.Side {
				rp.assigns[i].Commander = false
			}
		}
	}
	if i := slices.IndexFunc(rp.assigns, func(x ledger.Assignment) bool { return x.Player == a.Player }); i >= 0 {
		rp.assigns[i] = a
		return
	}
	rp.assigns = append(rp.assigns, a)
}

// checkStanding: in v4 the activation declared the sides whose standing orders the rules'
// step applies (adjudicator.Step.Standing; v5: with their kinds, before v5 without the
// side/kind entries), which verify cannot know.
func (rp *replayer) checkStanding(st adjudicator.Step) error {
	if !rp.v4 {
		return nil
	}
	want := gamelog.StandingTokens(rp.f.Format, st.Standing)
	if !slices.Equal(want, rp.standing) {
		return rp.fail("turn %d activation %d (%s) declares the standing orders of %v; the rules' step applies those of %v", st.Turn, st.Act, st.What, rp.standing, want)
	}
	return nil
}

// heldOrders returns the standing records the close uses, in its order, or what of them this
// view lacks.
func (rp *replayer) heldOrders(cl *gamelog.Record) ([]*gamelog.Record, string) {
	var out []*gamelog.Record
	for _, s := range cl.All("standing") {
		n, _ := strconv.ParseUint(s, 10, 64)
		r, ok := rp.held[n]
		if !ok && rp.earlier != nil {
			r = rp.earlier(n)
			ok = r != nil
		}
		if !ok {
			return nil, "standing record " + s
		}
		out = append(out, r)
	}
	return out, ""
}

// applyHeld gives the engine the standing orders the close used, as play.Resolve does.
func (rp *replayer) applyHeld(held []*gamelog.Record) error {
	var used []ledger.StandingOrders
	for _, r := range held {
		used = append(used, ledger.StandingOrders{Player: r.Get("player"), Side: r.Get("side"), Kind: r.Get("kind"), Lines: r.All("line"), Index: r.Index})
	}
	if err := applyStanding(rp.g, used, rp.v5); err != nil {
		return rp.fail("%v", err)
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
	side := rp.tr.sideOf[r.Uint("orders")]
	if player == "" {
		player = "side " + side // v5: a team side's record, whose sender this view may lack
	}
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
