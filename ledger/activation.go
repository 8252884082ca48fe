package ledger

import (
	"navarch/beacon"

	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"navarch/dice"
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
	// Secret: its orders stay in each ordering side's view (hidden set-up); declared in the
	// activation record before any orders, so that the daemon cannot choose later which
	// texts enter E as zero bytes (docs/LOG-FORMAT.md 3).
	Secret bool
	// Standing (v4) are the sides whose pending standing orders the step applies
	// (adjudicator.Step.Standing; v5: an entry "side/kind" names one kind of the side's,
	// and before v5 such entries are left out); its close uses every such standing record
	// written before its cut.
	Standing []string
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
	act, asks := a.Players, []string(nil)
	if in.hidesAsking() { // v5: a count for each team side, never its players' names
		act, asks = splitAsked(in, a.Players)
	}
	b := gamelog.New(gamelog.TypeActivation).AddUint("turn", uint64(a.Turn)).
		AddUint("activation", uint64(a.Act)).Add("act", strings.Join(act, " ")).
		Add("what", gamelog.CleanText(a.What)).AddTime("deadline", a.Deadline)
	if a.Secret && in.declared {
		b.Add("secret", "yes")
	}
	if sides := gamelog.StandingTokens(in.format, a.Standing); len(sides) > 0 && gamelog.AtLeast(in.format, gamelog.FormatV4) {
		b.Add("standing", strings.Join(sides, " ")) // before v5 without side/kind entries
	}
	for _, x := range asks {
		b.Add("team-asks", x)
	}
	rec, err := add(tx, id, b)
	if err != nil {
		return err
	}
	if err := store.PutMeta(tx, id, metaActivation, binary.BigEndian.AppendUint64(nil, rec.Index)); err != nil {
		return err
	}
	if err := putAsked(tx, id, a.Players); err != nil {
		return err
	}
	if err := promoteCommands(tx, id); err != nil { // an ASSIGN takes effect from the next step
		return err
	}
	for _, k := range []string{metaRound, metaBeacon, metaUses} { // the new step names its own round
		if err := store.PutMeta(tx, id, k, nil); err != nil {
			return err
		}
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
	// Default (v2) records the rules' no-orders default for a player who sent nothing: no
	// text, no entropy, no mail. Close writes these itself.
	Default bool
	// Held (v3) marks orders held in advance and used now, whose mail may feed an orders
	// record in each step that uses some of them; any other mail feeds one record only.
	Held bool
	// For (v4, a team game) is the player asked whom the side's commander, Player, answers
	// for: the close counts the record as For's.
	For string
}

// RecordOrders writes an orders record and returns its index and orders hash
// H(tag "orders" ‖ text), which the receipt quotes. In a v2 game the record shows only the
// salted commitment to the text (so that nobody learns orders, not even NONE, before the
// close discloses them) and the player's own entropy.
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
	b := gamelog.New(gamelog.TypeOrders).AddUint("turn", uint64(o.Turn)).AddUint("activation", uint64(o.Act))
	team := in.hidesAsking() && in.teamSide(in.players[o.Player])
	var replaces uint64
	if team { // v5: the record names the team side; the sender record after it, the player
		b.Add("side", in.players[o.Player])
		if replaces, err = replacedRecord(tx, id, o); err != nil {
			return 0, ident.Hash{}, err
		}
	} else {
		b.Add("player", o.Player)
	}
	if in.v2() {
		if err := ordersV2(tx, id, in, o, b, team); err != nil {
			return 0, h, err
		}
		if replaces > 0 {
			b.AddUint("replaces", replaces)
		}
	} else {
		if o.Private { // the hash of a short secret text could be matched against guesses
			b.Add("side", in.players[o.Player])
		}
		b.AddHex("orders-hash", h[:]).AddHex("entropy", o.Entropy).AddTime("received", o.Received)
		if mid := gamelog.CleanText(o.MessageID); mid != "" {
			b.Add("message-id", mid)
		}
	}
	rec, err := add(tx, id, b)
	if err != nil {
		return 0, h, err
	}
	if team {
		side := in.players[o.Player]
		if err := addSealed(tx, id, o.Turn, o.Act, side, gamelog.TypeSender, senderRecord(rec.Index, side, o)); err != nil {
			return 0, h, err
		}
	}
	side := ""
	if o.Private {
		side = in.players[o.Player]
	}
	return rec.Index, h, store.PutSecret(tx, id, ordersKey(rec.Index), append([]byte(side+"\n"), o.Canonical...))
}

// ordersV2 fills a v2 orders record: it belongs to the open activation, which must ask its
// player; a default (the rules' no-orders default) carries no entropy and no mail. A team
// side's record of v5 (team) leaves its time, mail and stand-in to its sender record.
func ordersV2(tx *store.Tx, id ident.GameID, in info, o Orders, b *gamelog.Builder, team bool) error {
	cur, err := readCursor(tx, id)
	if err != nil {
		return err
	}
	if !cur.opened || cur.closed || cur.turn != o.Turn || cur.act != o.Act {
		return fmt.Errorf("orders for turn %d activation %d: %w: not the open activation", o.Turn, o.Act, ErrSequence)
	}
	if in.declared {
		secret, err := openSecret(tx, id)
		if err != nil {
			return err
		}
		if secret != o.Private {
			return fmt.Errorf("orders for turn %d activation %d: %w: private %v, but the activation declared secret %v",
				o.Turn, o.Act, ErrSequence, o.Private, secret)
		}
	}
	i, err := store.Len(tx, id)
	if err != nil {
		return err
	}
	n, err := nonce(tx, id, i)
	if err != nil {
		return err
	}
	c := gamelog.OrdersCommitment(n, o.Canonical)
	b.AddHex("commitment", c[:])
	if o.Default {
		if len(o.Canonical) > 0 || len(o.Entropy) > 0 {
			return fmt.Errorf("default orders of %s carry orders or entropy", o.Player)
		}
		b.AddHex("entropy", nil).Add("default", "yes")
		if !team {
			b.AddTime("received", o.Received)
		}
		return nil
	}
	if o.For != "" && (!gamelog.AtLeast(in.format, gamelog.FormatV4) || in.players[o.For] != in.players[o.Player] || o.For == o.Player) {
		return fmt.Errorf("orders of %s for %s: %w", o.Player, o.For, ErrNotPlayer)
	}
	b.AddHex("entropy", o.Entropy)
	if team {
		if o.Held && gamelog.AtLeast(in.format, gamelog.FormatV3) {
			b.Add("held", "yes")
		}
		return nil
	}
	b.AddTime("received", o.Received)
	if mid := gamelog.CleanText(o.MessageID); mid != "" {
		b.Add("message-id", mid)
	}
	if o.Held && gamelog.AtLeast(in.format, gamelog.FormatV3) {
		b.Add("held", "yes")
	}
	if o.For != "" {
		b.Add("for", o.For)
	}
	return nil
}

// openActivation reads the open activation's record.
func openActivation(tx *store.Tx, id ident.GameID) (*gamelog.Record, error) {
	v, err := store.Meta(tx, id, metaActivation)
	if err != nil || len(v) != 8 {
		return nil, fmt.Errorf("no activation record kept: %v", err)
	}
	r, err := store.Record(tx, id, binary.BigEndian.Uint64(v))
	return &r, err
}

// openSecret reports whether the open activation's record declared it secret.
func openSecret(tx *store.Tx, id ident.GameID) (bool, error) {
	v, err := store.Meta(tx, id, metaActivation)
	if err != nil || len(v) != 8 {
		return false, fmt.Errorf("no open activation record: %w", err)
	}
	r, err := store.Record(tx, id, binary.BigEndian.Uint64(v))
	if err != nil {
		return false, err
	}
	return r.Get("secret") == "yes", nil
}

func ordersKey(i uint64) string { return fmt.Sprintf("orders/%020d", i) }

// Close fixes the inputs of the open activation (the orders records it uses) in a close
// record and returns the Roller for its dice. Nothing may be rolled for the activation
// before its close; the rolls are written by AppendRolls in the same transaction.
//
// In a v2 game, a side the activation asked that sent nothing gets a default orders record
// (no text, no entropy), so that the close uses exactly one record per side asked; and the
// text of secret orders enters E as 32 zero bytes, so that neither E nor the step's dice
// can be matched against guesses of it (docs/LOG-FORMAT.md 2).
func Close(tx *store.Tx, id ident.GameID, t, a uint32, uses []uint64) (*dice.Activation, error) {
	cur, err := readCursor(tx, id)
	if err != nil {
		return nil, err
	}
	if !cur.opened || cur.closed || cur.turn != t || cur.act != a {
		return nil, fmt.Errorf("close turn %d activation %d: %w: not the open activation", t, a, ErrSequence)
	}
	in, err := readInfo(tx, id)
	if err != nil {
		return nil, err
	}
	var round *beacon.Round
	cut, err := store.Len(tx, id) // the standing records before it are used (closeStanding)
	if err != nil {
		return nil, err
	}
	if c, err := Beacon(tx, id); err != nil {
		return nil, err
	} else if c != nil { // the defaults were written before the round was named (Complete)
		r, err := stepRound(tx, id)
		if err != nil {
			return nil, fmt.Errorf("close turn %d activation %d: %w", t, a, err)
		}
		round = &r
		_, named, fixed, err := Named(tx, id)
		cut = named
		if err != nil {
			return nil, err
		}
		for _, u := range uses {
			if !slices.Contains(fixed, u) {
				return nil, fmt.Errorf("close turn %d activation %d: %w: orders record %d came after the round was named", t, a, ErrSequence, u)
			}
		}
		uses = fixed
	} else if in.v2() {
		if uses, err = withDefaults(tx, id, in, t, a, uses); err != nil {
			return nil, err
		}
	}
	inputs, err := readInputs(tx, id, in, uses)
	if err != nil {
		return nil, err
	}
	e := dice.InputsHash(t, a, inputs)
	b := gamelog.New(gamelog.TypeClose).AddUint("turn", uint64(t)).AddUint("activation", uint64(a))
	for _, u := range uses {
		b.AddUint("use", u)
	}
	b.AddHex("inputs-hash", e[:])
	act, err := openActivation(tx, id)
	if err != nil {
		return nil, err
	}
	standing, err := closeStanding(tx, id, in, act, cut)
	if err != nil {
		return nil, err
	}
	for _, s := range standing {
		b.AddUint("standing", s)
	}
	if _, err := add(tx, id, b); err != nil {
		return nil, err
	}
	if err := appendOrdersTexts(tx, id, in, t, a, uses); err != nil {
		return nil, err
	}
	cur.closed = true
	if err := writeCursor(tx, id, cur); err != nil {
		return nil, err
	}
	key, err := activationKey(tx, id, t, a, e, round)
	if err != nil {
		return nil, err
	}
	return dice.NewActivation(t, a, key), nil
}

// withDefaults adds a default orders record for each side the open activation asked that
// has none among uses (v4: for each player asked who has none).
func withDefaults(tx *store.Tx, id ident.GameID, in info, t, a uint32, uses []uint64) ([]uint64, error) {
	act, err := openActivation(tx, id)
	if err != nil {
		return nil, fmt.Errorf("close turn %d activation %d: %w", t, a, err)
	}
	// v4: one record per player asked (several may share a side); before, one per side.
	key := func(p string) string { return in.players[p] }
	if gamelog.AtLeast(in.format, gamelog.FormatV4) {
		key = func(p string) string { return p }
	}
	have := map[string]bool{}
	for _, u := range uses {
		r, err := store.Record(tx, id, u)
		if err != nil {
			return nil, err
		}
		_, p, err := ordersPlayer(tx, id, &r)
		if err != nil {
			return nil, err
		}
		have[key(p)] = true
	}
	asked, err := askedPlayers(tx, id, in, act)
	if err != nil {
		return nil, err
	}
	for _, p := range asked {
		if have[key(p)] {
			continue
		}
		// In a secret step the default is as secret as the orders it stands for (a
		// declared game seals every text of a secret activation).
		secret := in.declared && act.Get("secret") == "yes"
		i, _, err := RecordOrders(tx, id, Orders{Turn: t, Act: a, Player: p, Default: true, Private: secret})
		if err != nil {
			return nil, err
		}
		have[key(p)] = true
		uses = append(uses, i)
	}
	return uses, nil
}

// appendOrdersTexts publishes the text of the orders a close used, so that replay can re-run
// them; the log checks each against its orders record. In a v2 game the text discloses the
// nonce of the record's commitment, and the text of secret orders is sealed for its side.
func appendOrdersTexts(tx *store.Tx, id ident.GameID, in info, t, a uint32, uses []uint64) error {
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
		if in.v2() {
			n, err := nonce(tx, id, u)
			if err != nil {
				return err
			}
			b.AddHex("nonce", n[:])
		}
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if line != "" {
				b.Add("line", line)
			}
		}
		if in.v2() && side != "" {
			err = addSealed(tx, id, t, a, side, gamelog.TypeOrdersText, b)
		} else {
			_, err = add(tx, id, b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readInputs returns the inputs of E over the orders records used: their texts' orders
// hashes (from the store), or in a v2 game 32 zero bytes for secret orders.
func readInputs(tx *store.Tx, id ident.GameID, in info, uses []uint64) ([]dice.Input, error) {
	var inputs []dice.Input
	for _, u := range uses {
		r, err := store.Record(tx, id, u)
		if err != nil {
			return nil, err
		}
		if r.Type != gamelog.TypeOrders {
			return nil, fmt.Errorf("close uses record %d, a %s record: %w", u, r.Type, ErrSequence)
		}
		v, err := store.Secret(tx, id, ordersKey(u))
		if err != nil {
			return nil, err
		}
		side, text, ok := strings.Cut(string(v), "\n")
		if !ok {
			return nil, fmt.Errorf("close: no text kept for orders record %d", u)
		}
		input := dice.Input{Player: ordersInputID(&r), OrdersHash: gamelog.OrdersHash([]byte(text)), Entropy: r.Bytes("entropy")}
		if side != "" && in.v2() {
			input.OrdersHash = ident.Hash{}
		}
		inputs = append(inputs, input)
	}
	return inputs, nil
}

// activationKey is K_{t,a}, keyed by the step's beacon round where it has one.
func activationKey(tx *store.Tx, id ident.GameID, t, a uint32, e ident.Hash, round *beacon.Round) (ident.Hash, error) {
	xt, err := turnSeed(tx, id, t)
	if err != nil {
		return ident.Hash{}, err
	}
	s, err := startHash(tx, id)
	if err != nil {
		return ident.Hash{}, err
	}
	if round != nil {
		return dice.BeaconKey(xt, id, s, t, a, e, round.Number, round.Randomness()), nil
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
		if _, err := add(tx, id, RollRecord(act.Turn, act.Act, r)); err != nil {
			return from, err
		}
		from++
	}
	return from, nil
}

// RollRecord returns the roll record of r in activation (t, a), as AppendRolls writes it and
// replay re-derives it.
func RollRecord(t, a uint32, r *dice.Roll) *gamelog.Builder {
	vals := make([]string, len(r.Values))
	for i, v := range r.Values {
		vals[i] = fmt.Sprint(v)
	}
	b := gamelog.New(gamelog.TypeRoll).AddUint("turn", uint64(t)).AddUint("activation", uint64(a)).
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
	// Rolls are the labels of the step's rolls behind the event, Kind what it is to a player
	// (adjudicator.Event); a log of navarch/v4 and later records them (EventIn).
	Rolls []string
	Kind  string
}

// EventIn is e as a log of format records it: without its rolls and kind before navarch/v4
// (docs/LOG-FORMAT.md 9).
func EventIn(format string, e Event) Event {
	if !gamelog.AtLeast(format, gamelog.FormatV4) {
		e.Rolls, e.Kind = nil, ""
	}
	return e
}

// AppendEvent writes an event record (sealed for its side in a v2 game, when it has one), as
// the game's format records it (EventIn).
func AppendEvent(tx *store.Tx, id ident.GameID, e Event) error {
	in, err := readInfo(tx, id)
	if err != nil {
		return err
	}
	e = EventIn(in.format, e)
	return addViewed(tx, id, e.Turn, e.Act, e.Side, gamelog.TypeEvent, EventRecord(e), e.Side != "")
}

// EventRecord returns the event record of e, as AppendEvent writes it (before any seal) and
// replay re-derives it.
func EventRecord(e Event) *gamelog.Builder {
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
	for _, r := range e.Rolls {
		b.Add("roll", r)
	}
	if e.Kind != "" {
		b.Add("kind", e.Kind)
	}
	return b
}

// addViewed writes b, sealed in a v2 game when it is withheld from some views.
func addViewed(tx *store.Tx, id ident.GameID, t, a uint32, side, what string, b *gamelog.Builder, withheld bool) error {
	if withheld {
		in, err := readInfo(tx, id)
		if err != nil {
			return err
		}
		if in.v2() {
			return addSealed(tx, id, t, a, side, what, b)
		}
	}
	_, err := add(tx, id, b)
	return err
}

// AppendState writes the hash of the state after an activation. A sealed state holds hidden
// information: since the rest of the state is public, its hash could be matched against
// every guess of the hidden part, so a sealed state record is in the full (referee's) view
// only.
func AppendState(tx *store.Tx, id ident.GameID, t, a uint32, h ident.Hash, sealed bool) error {
	return addViewed(tx, id, t, a, "", gamelog.TypeState, StateRecord(t, a, h, sealed), sealed)
}

// LastStateHash is the state hash of the last state record of the log's first size records,
// sealed or not, or nil if there is none (or it cannot be read). The store indexes the last
// state record (store.LastState), so that this reads one record, not the log backwards.
func LastStateHash(tx *store.Tx, id ident.GameID, size uint64) []byte {
	i, ok, err := store.LastState(tx, id)
	if err != nil || !ok {
		return nil
	}
	if i >= size { // a state record past size: walk back from size (no caller asks that)
		return lastStateBefore(tx, id, size)
	}
	r, err := store.Record(tx, id, i)
	if err != nil {
		return nil
	}
	return stateHashOf(tx, id, &r)
}

// StateRecord returns the state record, as AppendState writes it (before any seal) and
// replay re-derives it.
func StateRecord(t, a uint32, h ident.Hash, sealed bool) *gamelog.Builder {
	b := gamelog.New(gamelog.TypeState).AddUint("turn", uint64(t)).AddUint("activation", uint64(a))
	if sealed {
		b.Add("sealed", "yes")
	}
	return b.AddHex("state-hash", h[:])
}
