// Package play drives a game between the rules engine and its log: each step of the game
// becomes one activation in the ledger, in the caller's store transaction.
package play

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/store"
)

// SideOrders are one player's accepted orders for the current step.
type SideOrders struct {
	Player, Side string
	Orders       []adjudicator.Order
	Entropy      []byte
	MessageID    string
	Received     time.Time
	Private      bool // keep the text in the side's own view (orders that reveal hidden set-up)
	// Held: advance orders held from an earlier mail and used in this step; that mail may
	// feed a record in each step that uses some of them (log format v3's "held yes").
	Held bool
	// For: in a team game, the player asked whom the side's commander (Player) answers for
	// (log format v4's "for").
	For string
}

// Result is what a step did.
type Result struct {
	Step   adjudicator.Step
	Events []adjudicator.Event
	Rolls  []*dice.Roll
	// Checkpoint is set when the step ended a game turn (its seed revealed) or the game.
	Checkpoint *gamelog.Checkpoint
}

// Step performs g's current step and writes it to the log of game id: the end of the
// previous game turn when a new one starts (its seed revealed), the activation, the orders
// records, the close, the orders' text, every roll, every event and the new state's hash;
// and the end of the game when it ends. Orders must have passed g.Parse and g.Validate.
// Everything is written in tx: the caller commits the step whole or not at all.
func Step(tx *store.Tx, id ident.GameID, g adjudicator.Game, orders []SideOrders, deadline time.Time) (Result, error) {
	st := g.Next()
	players, err := AskedIn(tx, id, g, st)
	if err != nil {
		return Result{Step: st}, err
	}
	opened, err := Open(tx, id, g, players, deadline)
	if err != nil {
		return opened, err
	}
	var uses []uint64
	for _, o := range orders {
		i, _, err := Record(tx, id, st, o)
		if err != nil {
			return opened, err
		}
		uses = append(uses, i)
	}
	res, err := Resolve(tx, id, g, orders, uses)
	if res.Checkpoint == nil {
		res.Checkpoint = opened.Checkpoint
	}
	return res, err
}

// AskedIn returns the players g's step st, about to open, asks in game id, by the latest
// commands (Asked), which its opening puts in force.
func AskedIn(tx *store.Tx, id ident.GameID, g adjudicator.Game, st adjudicator.Step) ([]string, error) {
	all, err := ledger.Players(tx, id)
	if err != nil {
		return nil, err
	}
	as, err := ledger.NextCommands(tx, id)
	if err != nil {
		return nil, err
	}
	return Asked(g, st, all, as), nil
}

// Open writes the opening of g's current step: the end of the previous game turn when a
// new one starts (its seed revealed; the result carries the checkpoint), then the
// activation record naming the players who must act. Orders are recorded as they arrive (Record) and the step is resolved
// when they are complete (Resolve).
func Open(tx *store.Tx, id ident.GameID, g adjudicator.Game, players []string, deadline time.Time) (Result, error) {
	st := g.Next()
	res := Result{Step: st}
	if st.Kind == adjudicator.Over {
		return res, fmt.Errorf("play: the game is over")
	}
	if st.Act == 0 && st.Turn > 1 {
		c, err := ledger.EndTurn(tx, id, st.Turn-1)
		if err != nil {
			return res, err
		}
		res.Checkpoint = &c
	}
	err := ledger.Open(tx, id, ledger.Activation{Turn: st.Turn, Act: st.Act, Players: players, What: st.What, Deadline: deadline, Secret: st.Secret,
		Standing: st.Standing})
	return res, err
}

// StandingRecord is one standing record a mail's standing orders became.
type StandingRecord struct {
	Index  uint64
	Sender uint64 // v5, a team side's: the sender record naming the player (ledger.SenderRecord), else 0
	Kind   string // "" the plain kind
	Orders []adjudicator.Order
}

// RecordStanding writes a player's standing orders (those so.Standing split from his mail)
// as standing records sealed for his side, in a v4 game: the next step whose Step.Standing
// lists his side (v5: his side and the orders' kind) applies them (docs/LOG-FORMAT.md 3). A
// v4 game writes one record; a v5 game one for each kind (so.StandingKind), the plain kind
// first and then by kind name, each holding its orders in the order sent.
func RecordStanding(tx *store.Tx, id ident.GameID, so adjudicator.StandingOrders, player string, standing []adjudicator.Order, received time.Time, messageID string) ([]StandingRecord, error) {
	g, err := store.Record(tx, id, 0)
	if err != nil {
		return nil, err
	}
	groups := []StandingRecord{{Orders: standing}}
	if gamelog.AtLeast(g.Get("format"), gamelog.FormatV5) {
		groups = byKind(so, standing)
	}
	for i, gr := range groups {
		var lines []string
		for _, o := range gr.Orders {
			lines = append(lines, o.String())
		}
		if groups[i].Index, err = ledger.RecordStanding(tx, id, ledger.StandingOrders{Player: player, Kind: gr.Kind, Lines: lines,
			Received: received, MessageID: messageID}); err != nil {
			return nil, err
		}
		if groups[i].Sender, err = ledger.SenderRecord(tx, id, groups[i].Index); err != nil {
			return nil, err
		}
	}
	return groups, nil
}

// byKind groups standing orders by kind: the plain kind first, then by kind name.
func byKind(so adjudicator.StandingOrders, standing []adjudicator.Order) []StandingRecord {
	var kinds []string
	of := map[string][]adjudicator.Order{}
	for _, o := range standing {
		k := so.StandingKind(o)
		if _, ok := of[k]; !ok {
			kinds = append(kinds, k)
		}
		of[k] = append(of[k], o)
	}
	slices.Sort(kinds) // "" first
	var out []StandingRecord
	for _, k := range kinds {
		out = append(out, StandingRecord{Kind: k, Orders: of[k]})
	}
	return out
}

// applyStanding gives the engine the standing orders the step's close used, in log order,
// each read back from its lines; byKind (v5): each order is of its record's kind.
func applyStanding(g adjudicator.Game, used []ledger.StandingOrders, byKind bool) error {
	if len(used) == 0 {
		return nil
	}
	so, ok := g.(adjudicator.StandingOrders)
	if !ok {
		return fmt.Errorf("the close uses standing orders, and the %T game has none", g)
	}
	for _, u := range used {
		parsed, errs := g.Parse(u.Side, strings.Join(u.Lines, "\n"))
		if len(errs) > 0 {
			return fmt.Errorf("standing record %d: %v", u.Index, errs[0])
		}
		for _, o := range parsed {
			if k := so.StandingKind(o); byKind && k != u.Kind {
				return fmt.Errorf("standing record %d of kind %q holds %q, a standing order of kind %q", u.Index, u.Kind, o, k)
			}
		}
		so.ApplyStanding(u.Side, parsed)
	}
	return nil
}

// Record writes an orders record for the open step and returns its index and hash, which
// the receipt quotes.
func Record(tx *store.Tx, id ident.GameID, st adjudicator.Step, o SideOrders) (uint64, ident.Hash, error) {
	return ledger.RecordOrders(tx, id, ledger.Orders{Turn: st.Turn, Act: st.Act, Player: o.Player,
		Canonical: []byte(adjudicator.Canonical(o.Orders)), Entropy: o.Entropy, Received: o.Received,
		MessageID: o.MessageID, Private: o.Private || st.Secret, Held: o.Held, For: o.For})
}

// Resolve closes the open step with the orders records it uses (uses[i] is orders[i]'s),
// resolves it with the engine and writes its rolls, events and state; and the end of the
// game when it ends.
func Resolve(tx *store.Tx, id ident.GameID, g adjudicator.Game, orders []SideOrders, uses []uint64) (Result, error) {
	st := g.Next()
	res := Result{Step: st}
	act, err := ledger.Close(tx, id, st.Turn, st.Act, uses)
	if err != nil {
		return res, err
	}
	used, err := ledger.StandingUsed(tx, id)
	if err != nil {
		return res, err
	}
	if err := applyStanding(g, used, false); err != nil { // the daemon wrote each record of its kind (RecordStanding)
		return res, fmt.Errorf("resolve turn %d activation %d: %w", st.Turn, st.Act, err)
	}
	bySide := map[string][]adjudicator.Order{}
	for _, o := range orders {
		bySide[o.Side] = append(bySide[o.Side], o.Orders...)
	}
	if st.Kind == adjudicator.Auto {
		bySide = nil
	}
	if res.Events, err = g.Resolve(bySide, act); err != nil {
		return res, fmt.Errorf("resolve turn %d activation %d: %w", st.Turn, st.Act, err)
	}
	res.Rolls = act.Rolls()
	if err := record(tx, id, g, st, act, res.Events); err != nil {
		return res, err
	}
	return res, finish(tx, id, g, &res)
}

func record(tx *store.Tx, id ident.GameID, g adjudicator.Game, st adjudicator.Step, act *dice.Activation, events []adjudicator.Event) error {
	if _, err := ledger.AppendRolls(tx, id, act, 0); err != nil {
		return err
	}
	for _, e := range events {
		if err := ledger.AppendEvent(tx, id, eventOf(st, e)); err != nil {
			return err
		}
	}
	sealed := false
	if s, ok := g.(adjudicator.Sealer); ok {
		sealed = s.Sealed()
	}
	return ledger.AppendState(tx, id, st.Turn, st.Act, sha256.Sum256(g.Encode()), sealed)
}

// eventOf is the ledger's event of the engine's e in step st.
func eventOf(st adjudicator.Step, e adjudicator.Event) ledger.Event {
	return ledger.Event{Turn: st.Turn, Act: st.Act, Side: e.Side, Rule: e.Rule, Text: []string{e.Text}, Rolls: e.Rolls, Kind: string(e.Kind)}
}

func finish(tx *store.Tx, id ident.GameID, g adjudicator.Game, res *Result) error {
	next := g.Next()
	if next.Kind != adjudicator.Over {
		return nil
	}
	c, err := ledger.End(tx, id, res.Step.Turn, next.What)
	res.Checkpoint = &c
	return err
}

// Players maps the genesis record's players to their sides.
func Players(genesis *gamelog.Record) map[string]string {
	out := map[string]string{}
	for _, p := range genesis.All("player") {
		id, side, _ := strings.Cut(p, " ")
		out[id] = side
	}
	return out
}

// ErrOtherEngine is the refusal to replay a log made by another version of its ruleset's
// engine (adjudicator.Ruleset.Version): replay adjudicates a game only by the rules it was
// played by.
var ErrOtherEngine = errors.New("it replays a game only with the rules it was played by")

// Find returns the ruleset with id from the explicit list.
func Find(rulesets []adjudicator.Ruleset, id string) (adjudicator.Ruleset, error) {
	i := slices.IndexFunc(rulesets, func(r adjudicator.Ruleset) bool { return r.ID() == id })
	if i < 0 {
		return nil, fmt.Errorf("no ruleset %q in this navarch", id)
	}
	return rulesets[i], nil
}
