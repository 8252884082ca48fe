package ledger

import (
	"fmt"
	"strings"
	"time"

	"navarch/adjudicator/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// Activation is an activation being opened: who must act and by when (docs/DICE.md 3).
type Activation struct {
	Turn, Act uint32
	Players   []string  // who must act; none for a draw or an automatic step
	What      string    // e.g. "draw" or "group VEN-A"
	Deadline  time.Time // zero for none
}

// Open writes the activation record. Activations follow each other in (turn, activation)
// order, within the committed chain and after the game's start.
func Open(tx *store.Tx, id ident.GameID, a Activation) error {
	in, err := readInfo(tx, id)
	if err != nil {
		return err
	}
	if _, err := startHash(tx, id); err != nil {
		return err
	}
	if a.Turn < 1 || a.Turn > in.turns {
		return fmt.Errorf("open turn %d: %w (1..%d)", a.Turn, ErrChainExhausted, in.turns)
	}
	if err := checkNext(tx, id, a.Turn, a.Act); err != nil {
		return err
	}
	for _, p := range a.Players {
		if in.players[p] == "" {
			return fmt.Errorf("open activation for %q: %w", p, ErrNotPlayer)
		}
	}
	_, err = add(tx, id, gamelog.New(gamelog.TypeActivation).AddUint("turn", uint64(a.Turn)).
		AddUint("activation", uint64(a.Act)).Add("act", strings.Join(a.Players, " ")).
		Add("what", gamelog.CleanText(a.What)).AddTime("deadline", a.Deadline))
	if err != nil {
		return err
	}
	return writeCursor(tx, id, cursor{turn: a.Turn, act: a.Act})
}

func checkNext(tx *store.Tx, id ident.GameID, t, a uint32) error {
	cur, err := readCursor(tx, id)
	if err != nil {
		return err
	}
	rev, err := revealed(tx, id)
	if err != nil {
		return err
	}
	if cur.opened && (t < cur.turn || t == cur.turn && a <= cur.act) || t <= rev {
		return fmt.Errorf("open turn %d activation %d after turn %d activation %d (revealed up to %d): %w", t, a, cur.turn, cur.act, rev, ErrSequence)
	}
	return nil
}

// Orders is an accepted order mail.
type Orders struct {
	Turn, Act uint32 // the activation open when the mail arrived
	Player    string
	Canonical []byte // canonical order text (gamelog.CanonicalOrders)
	Entropy   []byte // the player's optional ENTROPY line
	Received  time.Time
	MessageID string
	// Private keeps the orders record and, once a close uses it, the text in the ordering
	// side's view only (orders that would reveal hidden set-up); otherwise every view sees
	// the record at once and the text after the close.
	Private bool
}

// RecordOrders writes an orders record and returns its index and orders hash, which the
// receipt quotes.
func RecordOrders(tx *store.Tx, id ident.GameID, o Orders) (uint64, ident.Hash, error) {
	in, err := readInfo(tx, id)
	if err != nil {
		return 0, ident.Hash{}, err
	}
	if _, err := startHash(tx, id); err != nil {
		return 0, ident.Hash{}, err
	}
	if in.players[o.Player] == "" {
		return 0, ident.Hash{}, fmt.Errorf("orders of %q: %w", o.Player, ErrNotPlayer)
	}
	h := gamelog.OrdersHash(o.Canonical)
	b := gamelog.New(gamelog.TypeOrders).AddUint("turn", uint64(o.Turn)).AddUint("activation", uint64(o.Act)).
		Add("player", o.Player)
	if o.Private { // the hash of a short secret text could be matched against guesses
		b.Add("side", in.players[o.Player])
	}
	b.AddHex("orders-hash", h[:]).AddHex("entropy", o.Entropy).AddTime("received", o.Received)
	if mid := gamelog.CleanText(o.MessageID); mid != "" {
		b.Add("message-id", mid)
	}
	rec, err := add(tx, id, b)
	if err != nil {
		return 0, h, err
	}
	side := ""
	if o.Private {
		side = in.players[o.Player]
	}
	return rec.Index, h, store.PutSecret(tx, id, ordersKey(rec.Index), append([]byte(side+"\n"), o.Canonical...))
}

func ordersKey(i uint64) string { return fmt.Sprintf("orders/%020d", i) }

// Close fixes the inputs of the open activation (the orders records it uses) in a close
// record and returns the Roller for its dice. Nothing may be rolled for the activation
// before its close; the rolls are written by AppendRolls in the same transaction.
func Close(tx *store.Tx, id ident.GameID, t, a uint32, uses []uint64) (*dice.Activation, error) {
	cur, err := readCursor(tx, id)
	if err != nil {
		return nil, err
	}
	if !cur.opened || cur.closed || cur.turn != t || cur.act != a {
		return nil, fmt.Errorf("close turn %d activation %d: %w: not the open activation", t, a, ErrSequence)
	}
	inputs, err := readInputs(tx, id, uses)
	if err != nil {
		return nil, err
	}
	e := dice.InputsHash(t, a, inputs)
	b := gamelog.New(gamelog.TypeClose).AddUint("turn", uint64(t)).AddUint("activation", uint64(a))
	for _, u := range uses {
		b.AddUint("use", u)
	}
	if _, err := add(tx, id, b.AddHex("inputs-hash", e[:])); err != nil {
		return nil, err
	}
	if err := appendOrdersTexts(tx, id, uses); err != nil {
		return nil, err
	}
	cur.closed = true
	if err := writeCursor(tx, id, cur); err != nil {
		return nil, err
	}
	key, err := activationKey(tx, id, t, a, e)
	if err != nil {
		return nil, err
	}
	return dice.NewActivation(t, a, key), nil
}

// appendOrdersTexts publishes the text of the orders a close used, so that replay can re-run
// them; the log checks each against its orders hash.
func appendOrdersTexts(tx *store.Tx, id ident.GameID, uses []uint64) error {
	for _, u := range uses {
		v, err := store.Secret(tx, id, ordersKey(u))
		if err != nil {
			return err
		}
		side, text, ok := strings.Cut(string(v), "\n")
		if !ok {
			return fmt.Errorf("close: no text kept for orders record %d", u)
		}
		b := gamelog.New(gamelog.TypeOrdersText).AddUint("orders", u)
		if side != "" {
			b.Add("side", side)
		}
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if line != "" {
				b.Add("line", line)
			}
		}
		if _, err := add(tx, id, b); err != nil {
			return err
		}
	}
	return nil
}

func readInputs(tx *store.Tx, id ident.GameID, uses []uint64) ([]dice.Input, error) {
	var inputs []dice.Input
	for _, u := range uses {
		r, err := store.Record(tx, id, u)
		if err != nil {
			return nil, err
		}
		if r.Type != gamelog.TypeOrders {
			return nil, fmt.Errorf("close uses record %d, a %s record: %w", u, r.Type, ErrSequence)
		}
		inputs = append(inputs, dice.Input{Player: r.Get("player"), OrdersHash: r.Hash32("orders-hash"), Entropy: r.Bytes("entropy")})
	}
	return inputs, nil
}

func activationKey(tx *store.Tx, id ident.GameID, t, a uint32, e ident.Hash) (ident.Hash, error) {
	xt, err := turnSeed(tx, id, t)
	if err != nil {
		return ident.Hash{}, err
	}
	s, err := startHash(tx, id)
	if err != nil {
		return ident.Hash{}, err
	}
	return dice.ActivationKey(xt, id, s, t, a, e), nil
}

func turnSeed(tx *store.Tx, id ident.GameID, t uint32) (ident.Hash, error) {
	in, err := readInfo(tx, id)
	if err != nil {
		return ident.Hash{}, err
	}
	top, err := store.Secret(tx, id, secretSeed)
	if err != nil {
		return ident.Hash{}, err
	}
	if len(top) != 32 || t < 1 || t > in.turns {
		return ident.Hash{}, fmt.Errorf("seed of turn %d: %w", t, ErrChainExhausted)
	}
	return dice.ChainSeed(id, in.turns, ident.Hash(top), t)
}

// AppendRolls writes the activation's rolls not yet written, in request order. The engine
// may interleave AppendRolls and AppendEvent to keep the log in the order things happened.
func AppendRolls(tx *store.Tx, id ident.GameID, act *dice.Activation, from int) (int, error) {
	rolls := act.Rolls()
	for _, r := range rolls[from:] {
		if _, err := add(tx, id, rollRecord(act, r)); err != nil {
			return from, err
		}
		from++
	}
	return from, nil
}

func rollRecord(act *dice.Activation, r *dice.Roll) *gamelog.Builder {
	vals := make([]string, len(r.Values))
	for i, v := range r.Values {
		vals[i] = fmt.Sprint(v)
	}
	b := gamelog.New(gamelog.TypeRoll).AddUint("turn", uint64(act.Turn)).AddUint("activation", uint64(act.Act)).
		AddUint("seq", uint64(r.Seq)).Add("label", r.Label).Add("dice", fmt.Sprintf("%dd%d", r.Count, r.Sides)).
		Add("values", strings.Join(vals, " "))
	if r.As != "" {
		b.Add("as", r.As)
		if r.As == dice.AsDraw {
			b.Add("items", strings.Join(r.Items, " "))
		}
		shown, _ := r.Shown()
		b.Add("shown", strings.Join(shown, " "))
	}
	if rule := gamelog.CleanText(r.Rule); rule != "" {
		b.Add("rule", rule)
	}
	if note := gamelog.CleanText(r.Note); note != "" {
		b.Add("result", note)
	}
	return b
}

// Event is something the engine did, for the log. Side, if set, limits it to that side's
// view (other views carry only its leaf hash).
type Event struct {
	Turn, Act uint32
	Side      string
	Rule      string
	Text      []string
}

// AppendEvent writes an event record.
func AppendEvent(tx *store.Tx, id ident.GameID, e Event) error {
	b := gamelog.New(gamelog.TypeEvent).AddUint("turn", uint64(e.Turn)).AddUint("activation", uint64(e.Act))
	if e.Side != "" {
		b.Add("side", e.Side)
	}
	if r := gamelog.CleanText(e.Rule); r != "" {
		b.Add("rule", r)
	}
	for _, t := range e.Text {
		b.Add("text", gamelog.CleanText(t))
	}
	_, err := add(tx, id, b)
	return err
}

// AppendState writes the hash of the state after an activation. A sealed state holds hidden
// information: since the rest of the state is public, its hash could be matched against
// every guess of the hidden part, so a sealed state record is in the full (referee's) view
// only.
func AppendState(tx *store.Tx, id ident.GameID, t, a uint32, h ident.Hash, sealed bool) error {
	b := gamelog.New(gamelog.TypeState).AddUint("turn", uint64(t)).AddUint("activation", uint64(a))
	if sealed {
		b.Add("sealed", "yes")
	}
	_, err := add(tx, id, b.AddHex("state-hash", h[:]))
	return err
}
