package gamelog

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"navarch/dice"
	"navarch/ident"
)

// The rules of log format v2 (docs/LOG-FORMAT.md 3): nothing the daemon can choose feeds a
// key, and nothing withheld from a view is unsalted.

// checkV2Markers refuses a plain record that carries v1's marks of a withheld record: in v2
// such a record must be sealed, since its leaf hash could be matched against guesses.
func (v *verifier) checkV2Markers(e *Entry) error {
	r := e.Record
	if err := v.teamTypeMarker(e); err != nil {
		return err
	}
	var side bool
	switch r.Type {
	case TypeEvent:
		_, side = eventSide(r)
	case TypeOrdersText:
		side = r.Has("side")
	case TypeOrders: // v5: a team side's orders record names its side (verify_teamhide.go)
		side = r.Has("side") && !v.v5
	}
	switch {
	case side:
		return v.fail(e, "a %s record for one side's eyes must be sealed in %s", r.Type, v.f.Format)
	case r.Type == TypeState && r.Has("sealed"):
		return v.fail(e, "a sealed state must be a sealed record in %s", v.f.Format)
	case r.Type == TypeOrders && (r.Has("orders-hash") || !r.Has("commitment")):
		return v.fail(e, "an orders record of %s carries a salted commitment, not a bare orders hash", v.f.Format)
	}
	return nil
}

// readSecrecy reads the genesis record's secrecy: a v2 game created since navarch declares
// each activation's secrecy in its record says SecrecyDeclared; an older one says nothing,
// and the report says what that leaves unchecked.
func (v *verifier) readSecrecy(e *Entry) error {
	s := e.Record.Get("secrecy")
	switch {
	case s == "" && v.v3:
		return v.fail(e, "a genesis of %s or later declares its secrecy (secrecy %s)", FormatV3, SecrecyDeclared)
	case s == "" && v.v2 && !v.opts.AllowUndeclared:
		return v.fail(e, "the genesis record does not declare its secrecy, so the daemon could choose which orders texts enter E as zero bytes (docs/LOG-FORMAT.md 2): refused unless --allow-undeclared (a game created before navarch declared it)")
	case s == "" && v.v2:
		v.rep.Notes = append(v.rep.Notes, "this game's activations do not declare their secrecy (a game created before navarch declared it): "+
			"each sealed orders text is checked to be its player's, and navarch replay checks that its step was secret by the rules")
	case s == "":
	case !v.v2 || s != SecrecyDeclared:
		return v.fail(e, "secrecy %q: only %q, and only in %s and later", s, SecrecyDeclared, FormatV2)
	default:
		v.declared = true
	}
	return nil
}

// checkTextSeal: an orders text sealed (sealed says whether) for side is sealed for its
// player's side alone, and, where the game declares secrecy, exactly when its activation
// declared itself secret; so the daemon cannot choose afterwards which texts enter E as
// zero bytes.
func (v *verifier) checkTextSeal(e *Entry, o ordersRec, sealed bool, side string) error {
	c := v.cur
	switch {
	case sealed && side != o.side:
		return v.fail(e, "the orders text of %s (side %s) is sealed for side %s", o.inputID(), o.side, side)
	case v.declared && sealed != v.secret[c.ta]:
		if sealed {
			return v.fail(e, "an orders text of turn %d activation %d is sealed, but the activation did not declare itself secret", c.ta.t, c.ta.a)
		}
		return v.fail(e, "an orders text of turn %d activation %d is public, but the activation declared itself secret", c.ta.t, c.ta.a)
	}
	return nil
}

var sealable = []string{TypeEvent, TypeState, TypeOrdersText}

// sealableV4 adds v4's records for one side's eyes: assignments, TEAM messages and standing orders.
var sealableV4 = []string{TypeEvent, TypeState, TypeOrdersText, TypeAssign, TypeTeam, TypeStanding}

// sealableV5 adds v5's sender records (a team side's orders record's player).
var sealableV5 = append(slices.Clip(sealableV4), TypeSender)

// checkSealed checks a sealed record and, where this view holds it, the record it withholds,
// which must open the commitment and then passes the rules of its own type in its place.
func (v *verifier) checkSealed(e *Entry) error {
	r := e.Record
	sf := readSealed(r)
	what, side := sf.what, sf.side
	switch {
	case !v.v2:
		return v.fail(e, "sealed records belong to %s and later, not %s", FormatV2, v.f.Format)
	case !v.v4 && !slices.Contains(sealable, what) && what != TypeStanding: // a standing record before v4 is refused as such (verify_standing.go)
		return v.fail(e, "sealed %q: only %v records are withheld", what, sealable)
	case v.v5 && !slices.Contains(sealableV5, what):
		return v.fail(e, "sealed %q: only %v records are withheld", what, sealableV5)
	case v.v4 && !v.v5 && !slices.Contains(sealableV4, what):
		return v.fail(e, "sealed %q: only %v records are withheld", what, sealableV4)
	case side != "" && !v.sides[side]:
		return v.fail(e, "side %q is not in the genesis record", side)
	case (what == TypeState) != (side == ""):
		return v.fail(e, "a sealed %s names the side that may see it (a state, no side: the referee's only)", what)
	case r.Has("kind") && what != TypeStanding:
		return v.fail(e, "a sealed %s carries no kind (only a sealed standing record does, v5)", what)
	}
	if what != TypeOrdersText {
		if err := v.checkPlaceOf(e, sf.turn, sf.act); err != nil {
			return err
		}
		if what == TypeStanding {
			if err := v.checkStandingSeal(e, &sf); err != nil {
				return err
			}
		}
	} else if c := v.cur; c == nil || r.Uint("turn") != uint64(c.ta.t) || r.Uint("activation") != uint64(c.ta.a) {
		// An orders text has no turn of its own: its seal carries the close's.
		return v.fail(e, "a sealed orders text of turn %s activation %s outside that activation's close", sf.turn, sf.act)
	}
	if e.Inner == nil && v.stream != nil {
		v.stream.lacking = true // a failure if the end record comes (streamEnd)
	} else if e.Inner == nil && v.over {
		return v.fail(e, "the game is over, and this copy lacks the record sealed here (after the end every view carries every unseal block, docs/LOG-FORMAT.md 4)")
	}
	if e.Inner == nil {
		v.rep.Withheld++
		if what == TypeOrdersText {
			return v.textWithheld(e)
		}
		return nil
	}
	return v.checkUnsealed(e, &sf)
}

// checkUnsealed checks the record a sealed record withholds (sf: the sealed record's
// fields).
func (v *verifier) checkUnsealed(e *Entry, sf *sealedFields) error {
	in := e.Inner
	var h ident.Hash
	if c := e.seal; c != nil && c.inner == in && c.nonce == e.Nonce {
		h = c.hash
	} else { // not computed by the parser, or changed since
		h = SealedHash(e.Nonce, in.Raw)
	}
	if !isHexOf(sf.commitment, h) && h != hash32Value(sf.commitment) { // the first as a rule
		return v.fail(e, "the unsealed record does not open the commitment (it was changed)")
	}
	if in.Type != sf.what {
		return v.fail(e, "sealed as %s, unsealed as %s", sf.what, in.Type)
	}
	var side string
	switch in.Type {
	case TypeState:
	case TypeEvent:
		side, _ = eventSide(in)
	default:
		side = in.Get("side")
	}
	if in.Type == TypeState && in.Get("sealed") != "yes" || in.Type != TypeState && side != sf.side {
		return v.fail(e, "the unsealed record's view differs from its seal")
	}
	if in.Type != TypeOrdersText {
		if turn, act := placeOf(in); turn != sf.turn || act != sf.act {
			return v.fail(e, "the unsealed record's turn or activation differs from its seal")
		}
	}
	// One Entry serves every unsealed record: checkRecord keeps no pointer to an event, state
	// or orders-text entry (the only types a sealed record withholds).
	v.inner = Entry{Index: e.Index, Leaf: e.Leaf, Record: in, Line: e.Line}
	return v.checkRecord(&v.inner)
}

// checkOrdersV2: an orders record belongs to the open activation and to a player it asks
// for; a default (the rules' no-orders default for a player who sent nothing) has no
// entropy and no mail.
func (v *verifier) checkOrdersV2(e *Entry, ta turnAct, sender, p string) error {
	r := e.Record
	if !v.activations[ta] || v.closes[ta] || ta != v.lastAct {
		return v.fail(e, "orders for turn %d activation %d, which is not the open activation", ta.t, ta.a)
	}
	if !slices.Contains(v.acts[ta], p) {
		return v.fail(e, "orders of %s, whom turn %d activation %d does not ask", p, ta.t, ta.a)
	}
	def := r.Has("default")
	if def && (r.Get("default") != "yes" || len(r.Bytes("entropy")) > 0 || r.Has("message-id")) {
		return v.fail(e, "a default orders record has no entropy and no mail (default yes, entropy empty)")
	}
	if err := v.checkHeld(e, ta); err != nil {
		return err
	}
	if v.current[ta] == nil {
		v.current[ta] = map[string]uint64{}
	}
	v.current[ta][strings.Clone(v.ordersKey(p))] = e.Index
	forP := ""
	if sender != p {
		forP = p
	}
	v.orders[e.Index] = ordersRec{player: sender, forP: forP, side: v.players[sender], hash: r.Hash32("commitment"), entropy: r.Bytes("entropy"), ta: ta,
		isDefault: def, messageID: r.Get("message-id"), held: r.Has("held")}.kept()
	return nil
}

// checkCloseV2: a close uses exactly one orders record per side the activation asks (the
// latest of each side, as the receipts call current), none for draws and automatic steps;
// in v4 one per player asked (several players may share a side), the latest of each.
func (v *verifier) checkCloseV2(e *Entry, ta turnAct) error {
	what := "side"
	if v.v4 {
		what = "player"
	}
	var got []string
	for _, u := range e.Record.All("use") {
		i := parseUint(u)
		o, ok := v.orders[i]
		k := v.ordersKey(cmp.Or(o.forP, o.player))
		switch {
		case !ok || i >= e.Index:
			return v.fail(e, "uses record %d, which is not an earlier orders record", i)
		case o.ta != ta:
			return v.fail(e, "uses orders record %d of turn %d activation %d", i, o.ta.t, o.ta.a)
		case o.team:
			continue // v5: counted by its side (checkTeamUses)
		case v.current[ta][k] != i:
			return v.fail(e, "uses orders record %d of %s %s, not its latest (%d)", i, what, k, v.current[ta][k])
		case slices.Contains(got, k):
			return v.fail(e, "uses two orders records of %s %s", what, k)
		}
		got = append(got, k)
	}
	var want []string
	for _, p := range v.acts[ta] {
		if k := v.ordersKey(p); !slices.Contains(want, k) {
			want = append(want, k)
		}
	}
	if len(got) != len(want) || !containsAll(got, want) {
		return v.fail(e, "uses orders of %ss %v; turn %d activation %d asked %v (one record each)", what, got, ta.t, ta.a, want)
	}
	var uses []uint64
	for _, u := range e.Record.All("use") {
		uses = append(uses, parseUint(u))
	}
	if err := v.checkTeamUses(e, ta, uses); err != nil {
		return err
	}
	if err := v.checkCloseBeacon(e, ta, uses); err != nil {
		return err
	}
	if err := v.checkCloseStanding(e, ta); err != nil {
		return err
	}
	cur := &closeRec{ta: ta, label: v.newLabels(), uses: nil}
	for _, u := range e.Record.All("use") {
		cur.uses = append(cur.uses, parseUint(u))
		v.uses[parseUint(u)] = append(v.uses[parseUint(u)], e.Index)
	}
	if e.Record.Has("inputs-hash") {
		h := e.Record.Hash32("inputs-hash")
		cur.claimedE = (*ident.Hash)(&h)
	}
	v.closes[ta], v.cur, v.closeAt = true, cur, e
	return nil
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// checkOrdersTextV2: the next text the close owes, opening its orders record's commitment.
func (v *verifier) checkOrdersTextV2(e *Entry) error {
	r := e.Record
	i := r.Uint("orders")
	c := v.cur
	if c == nil || c.done || c.texts >= len(c.uses) || c.uses[c.texts] != i {
		return v.fail(e, "text of orders record %d is not the next text its close owes", i)
	}
	if !r.Has("nonce") {
		return v.fail(e, "an orders text of %s discloses its nonce", v.f.Format)
	}
	o := v.orders[i]
	if err := v.checkTextSeal(e, o, r.Has("side"), r.Get("side")); err != nil {
		return err
	}
	text := OrdersText(r.All("line"))
	if OrdersCommitment(r.Hash32("nonce"), text) != o.hash {
		return v.fail(e, "text and nonce do not open orders record %d's commitment", i)
	}
	if o.isDefault && len(text) > 0 {
		return v.fail(e, "a default orders record has no order lines")
	}
	o.text, o.textLoaded = text, true
	v.orders[i] = o
	in := dice.Input{Player: o.inputID(), OrdersHash: OrdersHash(text), Entropy: o.entropy}
	if r.Has("side") { // secret orders enter E as zero bytes
		in.OrdersHash = ident.Hash{}
	}
	c.inputs = append(c.inputs, in)
	c.texts++
	return nil
}

func (v *verifier) textWithheld(e *Entry) error {
	c := v.cur
	if c == nil || c.done || c.texts >= len(c.uses) {
		return v.fail(e, "a sealed orders text outside the close that owes it")
	}
	o := v.orders[c.uses[c.texts]]
	if err := v.checkTextSeal(e, o, true, e.Record.Get("side")); err != nil {
		return err
	}
	c.inputs = append(c.inputs, dice.Input{Player: o.inputID(), Entropy: o.entropy}) // secret orders: zero bytes
	c.texts++
	return nil
}

// finishTexts ends the current close's texts: all owed texts read, then E checked (or, for
// secret orders, absent) and the activation's dice derivable.
func (v *verifier) finishTexts(at *Entry) error {
	c := v.cur
	if !v.v2 || c == nil || c.done {
		return nil
	}
	c.done = true
	ce := v.closeAt
	if c.texts != len(c.uses) {
		return v.fail(ce, "uses %d orders records, but %d texts follow it", len(c.uses), c.texts)
	}
	if c.claimedE == nil {
		return v.fail(ce, "no inputs-hash")
	}
	eh := dice.InputsHash(c.ta.t, c.ta.a, c.inputs)
	if eh != *c.claimedE {
		return v.fail(ce, "inputs-hash %x, recomputed E is %x", c.claimedE[:], eh[:])
	}
	r, byRound := v.b3.rounds[c.ta]
	byRound = byRound && v.b3.chain != nil
	start := v.start
	key := func(x ident.Hash) ident.Hash {
		if byRound {
			return dice.BeaconKey(x, v.game, start, c.ta.t, c.ta.a, eh, r.Number, r.Randomness())
		}
		return dice.ActivationKey(x, v.game, start, c.ta.t, c.ta.a, eh)
	}
	switch x, ok := v.seeds[c.ta.t]; {
	case ok:
		v.keyed(c, key(x))
	case v.stream != nil: // its turn's seed may be revealed further on
		v.keyedLater(c, key)
	}
	_ = at
	return nil
}

// findOrdersV2 finds an auditor's orders among the disclosed texts.
func (v *verifier) findOrdersV2(text []byte) OrdersMatch {
	m := OrdersMatch{Hash: OrdersHash(text)}
	for i := range v.count() {
		o, ok := v.orders[uint64(i)]
		if ok && o.textLoaded && bytes.Equal(o.text, text) {
			m.Records = append(m.Records, uint64(i))
			m.UsedBy = append(m.UsedBy, v.uses[uint64(i)]...)
		}
	}
	return m
}

// SentMail is one mail a player sent, as verify --sent reads it from the player's own
// mailbox: its Message-ID, the entropy it gave (an ENTROPY line, or the text after JOIN),
// and whether it was a JOIN.
type SentMail struct {
	MessageID string
	Entropy   []byte
	Join      bool
}

// Unsent is a record of the player's that none of his sent mails accounts for.
type Unsent struct {
	Index  uint64
	Reason string
}

// checkSent lists every orders and join record of the player that his sent mail does not
// account for: written by the daemon in his name, or with entropy he did not send.
func (v *verifier) checkSent() error {
	if len(v.opts.Sent) == 0 {
		return nil
	}
	if v.opts.Player == "" {
		p, err := v.sender()
		if err != nil {
			return err
		}
		v.opts.Player = p
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("your sent mail is %s's (--player to name another)", p))
	}
	if v.players[v.opts.Player] == "" {
		return &Failure{Index: -1, Reason: fmt.Sprintf("--player %q is not a player of this game", v.opts.Player)}
	}
	if side := v.players[v.opts.Player]; v.th.noted[side] {
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("this copy lacks side %s's sender records: %s's orders records in it are checked against his sent mail in his side's copy", side, v.opts.Player))
	}
	for _, e := range v.sentEntries() {
		r := e.Record
		if why := v.sentStanding(&e); why != "" {
			v.rep.Unsent = append(v.rep.Unsent, Unsent{Index: e.Index, Reason: why})
		}
		if s := e.Inner; r != nil && s != nil && s.Type == TypeSender && s.Get("player") == v.opts.Player {
			// v5: a team side's orders or standing record, whose sender record names the player
			o, ok := v.sentPrev(e.Index - 1)
			if !ok {
				return errors.New("a sender record's orders record was not kept") // the whole verifier decides
			}
			if o.Type == TypeSealed {
				if why := v.sentStandingOf(s.Get("message-id")); why != "" {
					v.rep.Unsent = append(v.rep.Unsent, Unsent{Index: e.Index - 1, Reason: why})
				}
			} else if !o.Has("default") {
				if why := v.sentOf(TypeOrders, s.Get("message-id"), o.Bytes("entropy")); why != "" {
					v.rep.Unsent = append(v.rep.Unsent, Unsent{Index: e.Index - 1, Reason: why})
				}
			}
			continue
		}
		if r == nil || r.Get("player") != v.opts.Player || r.Type != TypeOrders && r.Type != TypeJoin || r.Has("default") {
			continue
		}
		if why := v.sentFor(r); why != "" {
			v.rep.Unsent = append(v.rep.Unsent, Unsent{Index: e.Index, Reason: why})
		}
	}
	if n := len(v.rep.Unsent); n > 0 && v.stream != nil {
		return errors.New("records your sent mail does not account for") // named by the whole verifier
	} else if n > 0 {
		u := v.rep.Unsent[0]
		return &Failure{Index: int64(u.Index), Type: v.f.Entries[u.Index].Record.Type, Line: v.f.Entries[u.Index].Line,
			Reason: fmt.Sprintf("%d record(s) of %s that your sent mail does not account for; the first: %s", n, v.opts.Player, u.Reason)}
	}
	return nil
}

// sender finds the one player whose join or orders records name a mail of Sent.
func (v *verifier) sender() (string, error) {
	ids := map[string]bool{}
	for _, m := range v.opts.Sent {
		ids[normalID(m.MessageID)] = true
	}
	var found []string
	for _, e := range v.sentEntries() {
		r := e.Record
		if r != nil && r.Type == TypeSealed && e.Inner != nil && e.Inner.Type == TypeSender {
			r = e.Inner // v5: a team side's orders record's sender
		}
		if r != nil && (r.Type == TypeJoin || r.Type == TypeOrders || r.Type == TypeSender) && ids[normalID(r.Get("message-id"))] && !slices.Contains(found, r.Get("player")) {
			found = append(found, r.Get("player"))
		}
	}
	if len(found) != 1 {
		return "", &Failure{Index: -1, Reason: fmt.Sprintf("the sent mail names records of %d players %v: say whose it is with --player", len(found), found)}
	}
	return found[0], nil
}

func (v *verifier) sentFor(r *Record) string {
	return v.sentOf(r.Type, r.Get("message-id"), r.Bytes("entropy"))
}

// sentOf is sentFor of a record of type typ, with its Message-ID and entropy given.
func (v *verifier) sentOf(typ, messageID string, entropy []byte) string {
	id := normalID(messageID)
	if id == "" {
		return "it names no mail of yours (no message-id)"
	}
	for _, m := range v.opts.Sent {
		if normalID(m.MessageID) != id {
			continue
		}
		if m.Join != (typ == TypeJoin) {
			return fmt.Sprintf("your mail %s was not a %s", id, map[bool]string{true: "JOIN", false: "mail with orders"}[typ == TypeJoin])
		}
		if !bytes.Equal(m.Entropy, entropy) {
			return fmt.Sprintf("entropy %x, your mail %s gave %x", entropy, id, m.Entropy)
		}
		return ""
	}
	return fmt.Sprintf("none of your sent mails has Message-ID %s", id)
}

func normalID(s string) string {
	return strings.Trim(strings.TrimSpace(s), "<>")
}
