package gamelog

import (
	"crypto/ed25519"
	"fmt"
	"slices"
	"strings"

	"navarch/dice"
	"navarch/ident"
)

type turnAct struct{ t, a uint32 }

type ordersRec struct {
	player     string
	hash       ident.Hash // v1: the orders hash; v2: the salted commitment
	entropy    []byte
	ta         turnAct
	isDefault  bool   // v2: the rules' default for a player who sent nothing
	forP       string // v4: the player asked whom the side's commander (player) stood in for
	side       string // v2: the player's side
	team       bool   // v5: a team side's record: player is its sender record's ("" where this view lacks it)
	held       bool   // v3: held advance orders
	replaces   uint64 // v5, a team side's: the record of the same player it replaces (0: none)
	messageID  string // as logged
	textLoaded bool
	text       []byte // v2: the disclosed canonical text, once read
}

// kept returns o with its strings copied out of the record's bytes, which the streaming
// verifier lets go once their stretch of the log is checked (stream.go).
func (o ordersRec) kept() ordersRec {
	o.player, o.forP, o.side = strings.Clone(o.player), strings.Clone(o.forP), strings.Clone(o.side)
	o.messageID = strings.Clone(o.messageID)
	return o
}

type closeRec struct {
	withheld bool // its inputs are withheld from this view
	uses     []uint64
	ta       turnAct
	deriver  *dice.Deriver // nil until the turn's seed is revealed (serial mode)
	batch    *rollBatch    // nil until the turn's seed is revealed (fast mode)
	seq      uint64
	label    map[string]bool
	behind   map[string]bool // v4: the rolls an event of the step is behind (verify_events.go)

	// v2: the orders texts follow the close, one per use in use order; E is checked once
	// they are read.
	texts    int
	claimedE *ident.Hash
	inputs   []dice.Input
	done     bool
}

type verifier struct {
	f    *File
	opts VerifyOptions
	rep  *Report

	hc         heads
	stream     *streamState // set while the verifier reads a stream (stream.go)
	game       ident.GameID
	turns      uint64
	commitment ident.Hash
	key        ed25519.PublicKey
	players    map[string]string // id → side
	sides      map[string]bool
	seeds      map[uint32]ident.Hash
	reveals    []int // the entries of reveal records, in order

	joins       map[string][]byte
	started     bool
	start       ident.Hash
	lastAct     turnAct
	activations map[turnAct]bool
	orders      map[uint64]ordersRec
	closes      map[turnAct]bool
	uses        map[uint64][]uint64 // orders record → closes using it
	cur         *closeRec
	revealed    uint32
	rollTurns   map[uint32]bool
	rollTurn    uint32 // the turn of the last roll, in rollTurns
	commits     map[uint64]commitRec
	ended       bool
	over        bool   // the file holds the end record: every view opens every seal
	goodSize    uint64 // size of the last checkpoint that matched
	stats       dieStats

	v2      bool
	v3      bool // v3's rules too (verify_v3.go)
	v4      bool // v4's rules too: sealed standing orders, several players a side
	v5      bool // v5's rules too: standing orders sealed by kind, team sides' asking kept from the other side
	b3      beaconState
	team    teamState            // v4: the sides' commanders
	th      teamHide             // v5: the team sides' asking, kept from the other side
	st      standingState        // v4: the standing records (verify_standing.go)
	acts    map[turnAct][]string // v2: who must act in each activation
	closeAt *Entry               // v2: the close of cur
	current map[turnAct]map[string]uint64

	// declared: the genesis declares secrecy (SecrecyDeclared); secret holds the
	// activations whose record said "secret yes".
	declared bool
	secret   map[turnAct]bool

	// serial derives each roll in its place; otherwise workers derive the batches of rolls
	// (verify_parallel.go), batch being the current activation's, not yet sent.
	serial  bool
	workers *rollWorkers
	batch   *rollBatch
	labels  map[string]bool // the labels of the current close (cleared for each close)
	values  []int           // an arena for the rolls' values
	derived []int           // serial mode: the values of the roll being checked, derived
	shown   rollReadings
	inner   Entry // the entry of the unsealed record being checked
}

type commitRec struct {
	side      string
	hash      ident.Hash
	disclosed bool
}

func newVerifier(f *File, opts VerifyOptions) *verifier {
	return &verifier{f: f, opts: opts, rep: &Report{},
		players: map[string]string{}, sides: map[string]bool{}, seeds: map[uint32]ident.Hash{},
		joins: map[string][]byte{}, activations: map[turnAct]bool{}, orders: map[uint64]ordersRec{},
		closes: map[turnAct]bool{}, uses: map[uint64][]uint64{}, rollTurns: map[uint32]bool{},
		commits: map[uint64]commitRec{}, stats: dieStats{},
		acts: map[turnAct][]string{}, secret: map[turnAct]bool{}, current: map[turnAct]map[string]uint64{}, labels: map[string]bool{}}
}

// newLabels returns the label set of a new close: the one map, cleared (the previous
// close's labels are never looked at again).
func (v *verifier) newLabels() map[string]bool {
	clear(v.labels)
	return v.labels
}

// keyed gives close c its activation key: a Deriver in serial mode, else a batch for the
// workers (the previous close's batch is complete and is sent).
func (v *verifier) keyed(c *closeRec, key ident.Hash) {
	if v.serial {
		c.deriver = dice.NewDeriver(key)
		return
	}
	size := 16
	if v.batch != nil {
		size = max(size, len(v.batch.jobs))
	}
	v.flushBatch()
	c.batch = &rollBatch{key: key, jobs: v.workers.jobs(size)}
	v.batch = c.batch
}

func (v *verifier) flushBatch() {
	b := v.batch
	v.batch = nil
	switch {
	case b == nil:
	case b.later != nil: // streaming: sent once its seed is revealed
		if !v.sendLater(b) {
			v.stream.deferred = append(v.stream.deferred, b)
		}
	case len(b.jobs) > 0:
		v.workers.send(b)
	}
}

// afterEnd lists the record types that may follow the end record.
var afterEnd = []string{TypeReveal, TypeCheckpoint, TypeDisclose, TypeNote}

func (v *verifier) checkEntry(e *Entry) error {
	r := e.Record
	if r == nil {
		return nil // v1: withheld from this view, only its leaf is in the chain
	}
	if v.v5 {
		if err := v.checkSenderOwed(e); err != nil {
			return err
		}
	}
	if r.Type != TypeOrdersText && (r.Type != TypeSealed || readSealed(r).what != TypeOrdersText) {
		if err := v.finishTexts(e); err != nil {
			return err
		}
	}
	if v.v2 {
		if err := v.checkV2Markers(e); err != nil {
			return err
		}
	}
	return v.checkRecord(e)
}

// checkRecord applies the rules of e's record type (an unsealed record's own type).
func (v *verifier) checkRecord(e *Entry) error {
	r := e.Record
	if e.Index > 0 && r.Type == TypeGenesis {
		return v.fail(e, "a second genesis record")
	}
	if v.ended && !slices.Contains(afterEnd, r.Type) {
		return v.fail(e, "%s record after the end of the game", r.Type)
	}
	switch r.Type {
	case TypeJoin:
		return v.checkJoin(e)
	case TypeStart:
		return v.checkStart(e)
	case TypeActivation:
		return v.checkActivation(e)
	case TypeOrders:
		return v.checkOrders(e)
	case TypeClose:
		return v.checkClose(e)
	case TypeOrdersText:
		return v.checkOrdersText(e)
	case TypeRoll:
		return v.checkRoll(e)
	case TypeEvent:
		return v.checkEvent(e)
	case TypeState:
		if s := e.Record.Get("sealed"); s != "" && s != "yes" {
			return v.fail(e, "sealed %q: want yes", s)
		}
		return v.checkPlace(e)
	case TypeReveal:
		return v.checkReveal(e)
	case TypeCheckpoint:
		return v.checkCheckpoint(e)
	case TypeCommit:
		return v.checkCommit(e)
	case TypeDisclose:
		return v.checkDisclose(e)
	case TypeSealed:
		return v.checkSealed(e)
	case TypeRound:
		return v.checkRound(e)
	case TypeBeacon:
		return v.checkBeacon(e)
	case TypeAssign:
		return v.checkAssign(e)
	case TypeTeam:
		return v.checkTeam(e)
	case TypeStanding:
		return v.checkStanding(e)
	case TypeSender:
		return v.checkSender(e)
	case TypeEnd:
		v.ended = true
	}
	return nil // genesis (checked first) and note have no further rules
}

func (v *verifier) checkJoin(e *Entry) error {
	p := e.Record.Get("player")
	switch {
	case v.started:
		return v.fail(e, "join after the start record")
	case v.players[p] == "":
		return v.fail(e, "player %q is not in the genesis record", p)
	case v.joins[p] != nil:
		return v.fail(e, "player %q joined twice", p)
	}
	v.joins[p] = append([]byte{}, e.Record.Bytes("entropy")...)
	return nil
}

func (v *verifier) checkStart(e *Entry) error {
	r := e.Record
	if v.started {
		return v.fail(e, "a second start record")
	}
	v.started = true
	var joined, missing []string
	var joins []dice.Join
	for p := range v.players {
		if ent, ok := v.joins[p]; ok {
			joined = append(joined, p)
			joins = append(joins, dice.Join{Player: p, Entropy: ent})
		} else {
			missing = append(missing, p)
			joins = append(joins, dice.Join{Player: p})
		}
	}
	slices.Sort(joined)
	slices.Sort(missing)
	if !slices.Equal(joined, r.All("joined")) || !slices.Equal(missing, r.All("missing")) {
		return v.fail(e, "joined/missing lists do not match the join records (joined %v, missing %v)", joined, missing)
	}
	if by := r.Get("by"); by != "joins" && by != "referee" || by == "joins" && len(missing) > 0 {
		return v.fail(e, "started %q with players missing %v", by, missing)
	}
	s, _ := dice.StartHash(v.game, v.commitment, joins)
	if s != r.Hash32("start-hash") {
		return v.fail(e, "start-hash %s, recomputed S is %x", r.Get("start-hash"), s[:])
	}
	v.start = s
	return nil
}

// turnAct reads and range-checks a record's turn and activation.
func (v *verifier) turnAct(e *Entry) (turnAct, error) {
	return v.rangeTurnAct(e, e.Record.Get("turn"), e.Record.Get("activation"))
}

// rangeTurnAct is turnAct of the record's turn and activation fields, given.
func (v *verifier) rangeTurnAct(e *Entry, turn, act string) (turnAct, error) {
	t, a := uintValue(turn), uintValue(act)
	if t < 1 || t > v.turns || a > 1<<32-1 {
		return turnAct{}, v.fail(e, "turn %d activation %d out of range (turns 1..%d)", t, a, v.turns)
	}
	return turnAct{uint32(t), uint32(a)}, nil
}

func (v *verifier) checkActivation(e *Entry) error {
	ta, err := v.turnAct(e)
	if err != nil {
		return err
	}
	if !v.started {
		return v.fail(e, "activation before the start record")
	}
	if v.activations[ta] || ta.t < v.lastAct.t || ta.t == v.lastAct.t && ta.a <= v.lastAct.a && len(v.activations) > 0 {
		return v.fail(e, "turn %d activation %d does not follow turn %d activation %d", ta.t, ta.a, v.lastAct.t, v.lastAct.a)
	}
	if ta.t <= v.revealed {
		return v.fail(e, "activation in turn %d, whose seed is already revealed", ta.t)
	}
	for _, p := range strings.Fields(e.Record.Get("act")) {
		if v.players[p] == "" {
			return v.fail(e, "player %q is not in the genesis record", p)
		}
	}
	v.activations[ta], v.lastAct, v.cur = true, ta, nil
	v.acts[ta] = strings.Fields(strings.Clone(e.Record.Get("act")))
	if e.Record.Has("secret") {
		if !v.declared || e.Record.Get("secret") != "yes" {
			return v.fail(e, "secret %q: an activation declares \"secret yes\", and only in a log whose genesis declares secrecy", e.Record.Get("secret"))
		}
		v.secret[ta] = true
	}
	if err := v.checkTeamAsks(e, ta); err != nil {
		return err
	}
	return v.checkActivationStanding(e, ta)
}

func (v *verifier) checkOrders(e *Entry) error {
	ta, err := v.turnAct(e)
	if err != nil {
		return err
	}
	team, err := v.checkOrdersNaming(e)
	if err != nil {
		return err
	} else if team {
		return v.checkTeamOrders(e, ta)
	}
	p := e.Record.Get("player")
	if !v.started {
		return v.fail(e, "orders before the start record")
	}
	if v.players[p] == "" {
		return v.fail(e, "player %q is not in the genesis record", p)
	}
	if side := e.Record.Get("side"); side != "" && side != v.players[p] {
		return v.fail(e, "orders of %s kept in side %s's view", p, side)
	}
	if e.Record.Has("for") && !v.v4 {
		return v.fail(e, "orders for another player belong to %s and later, not %s", FormatV4, v.f.Format)
	}
	if v.v2 {
		asked, err := v.standIn(e, p)
		if err != nil {
			return err
		}
		return v.checkOrdersV2(e, ta, p, asked)
	}
	if !e.Record.Has("orders-hash") || e.Record.Has("commitment") || e.Record.Has("default") {
		return v.fail(e, "a %s orders record carries orders-hash (and no commitment or default)", v.f.Format)
	}
	v.orders[e.Index] = ordersRec{player: p, hash: e.Record.Hash32("orders-hash"), entropy: e.Record.Bytes("entropy")}.kept()
	return nil
}

func (v *verifier) checkClose(e *Entry) error {
	ta, err := v.turnAct(e)
	if err != nil {
		return err
	}
	if !v.activations[ta] || v.closes[ta] {
		return v.fail(e, "close of turn %d activation %d without an open activation, or closed twice", ta.t, ta.a)
	}
	if ta.t <= v.revealed {
		return v.fail(e, "close in turn %d, whose seed is already revealed", ta.t)
	}
	if !v.v4 && e.Record.Has("standing") {
		return v.fail(e, "a close lists standing records only in %s and later", FormatV4)
	}
	if v.v2 {
		return v.checkCloseV2(e, ta)
	}
	if !e.Record.Has("inputs-hash") {
		return v.fail(e, "no inputs-hash")
	}
	var inputs []dice.Input
	withheld := false
	for _, u := range e.Record.All("use") {
		i := parseUint(u)
		o, ok := v.orders[i]
		switch {
		case i < e.Index && v.f.Entries[i].Record == nil:
			withheld = true // another side's secret orders: E cannot be recomputed in this view
		case !ok || i >= e.Index:
			return v.fail(e, "uses record %d, which is not an earlier orders record", i)
		}
		inputs = append(inputs, dice.Input{Player: o.player, OrdersHash: o.hash, Entropy: o.entropy})
		v.uses[i] = append(v.uses[i], e.Index)
	}
	eh := e.Record.Hash32("inputs-hash")
	if withheld {
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("turn %d activation %d uses secret orders withheld from this view: its rolls are checked in the full export only", ta.t, ta.a))
	} else if eh = dice.InputsHash(ta.t, ta.a, inputs); eh != e.Record.Hash32("inputs-hash") {
		return v.fail(e, "inputs-hash %s, recomputed E is %x", e.Record.Get("inputs-hash"), eh[:])
	}
	v.closes[ta] = true
	v.cur = &closeRec{ta: ta, label: v.newLabels(), withheld: withheld}
	for _, u := range e.Record.All("use") {
		v.cur.uses = append(v.cur.uses, parseUint(u))
	}
	if x, ok := v.seeds[ta.t]; ok && !withheld {
		v.keyed(v.cur, dice.ActivationKey(x, v.game, v.start, ta.t, ta.a, eh))
	}
	return nil
}

// checkOrdersText: the text of an orders record the current close used, hashing to its
// orders-hash, before the activation's first roll.
func (v *verifier) checkOrdersText(e *Entry) error {
	if v.v2 {
		return v.checkOrdersTextV2(e)
	}
	if e.Record.Has("nonce") {
		return v.fail(e, "an orders text of %s has no nonce", v.f.Format)
	}
	i := e.Record.Uint("orders")
	if v.cur == nil || !slices.Contains(v.cur.uses, i) || v.cur.seq > 0 {
		return v.fail(e, "text of orders record %d outside the close that used it", i)
	}
	if o := v.f.Entries[i].Record; o != nil && o.Get("side") != e.Record.Get("side") {
		return v.fail(e, "text of orders record %d has another view than the record", i)
	}
	if side := e.Record.Get("side"); side != "" && !v.sides[side] {
		return v.fail(e, "side %q is not in the genesis record", side)
	}
	if OrdersHash(OrdersText(e.Record.All("line"))) != v.orders[i].hash {
		return v.fail(e, "text does not hash to orders record %d", i)
	}
	return nil
}

func (v *verifier) checkEvent(e *Entry) error {
	if side, _ := eventSide(e.Record); side != "" && !v.sides[side] {
		return v.fail(e, "side %q is not in the genesis record", side)
	}
	if err := v.checkPlace(e); err != nil {
		return err
	}
	return v.checkEventLinks(e)
}

// checkPlace accepts turn 0 activation 0 (set-up before play) or an opened activation.
func (v *verifier) checkPlace(e *Entry) error {
	turn, act := placeOf(e.Record)
	return v.checkPlaceOf(e, turn, act)
}

// checkPlaceOf is checkPlace of the record's turn and activation fields, given.
func (v *verifier) checkPlaceOf(e *Entry, turn, act string) error {
	if uintValue(turn) == 0 && uintValue(act) == 0 {
		return nil
	}
	ta, err := v.rangeTurnAct(e, turn, act)
	if err != nil {
		return err
	}
	// The activation last opened is open; any other is looked up.
	if (ta != v.lastAct || len(v.activations) == 0) && !v.activations[ta] {
		return v.fail(e, "turn %d activation %d was never opened", ta.t, ta.a)
	}
	return nil
}

func (v *verifier) checkReveal(e *Entry) error {
	t := e.Record.Uint("turn")
	if t < 1 || t > v.turns || uint32(t) <= v.revealed {
		return v.fail(e, "reveal of turn %d out of order (last revealed %d, turns 1..%d)", t, v.revealed, v.turns)
	}
	if v.stream != nil {
		return v.streamReveal(e, uint32(t))
	}
	if x, ok := v.seeds[uint32(t)]; !ok || x != e.Record.Hash32("seed") {
		return v.fail(e, "seed of turn %d does not hash down to the commitment C", t)
	}
	v.revealed = uint32(t)
	return nil
}

func (v *verifier) checkCheckpoint(e *Entry) error {
	c := CheckpointFromRecord(v.game, e.Record)
	if c.Size < 1 || c.Size > e.Index {
		return v.fail(e, "checkpoint of size %d at record %d", c.Size, e.Index)
	}
	if !c.Valid(v.key) {
		return v.fail(e, "bad checkpoint signature")
	}
	if c.Head != v.headAt(int(c.Size)) {
		return v.fail(e, "signed head for size %d differs from the recomputed chain: a record in %d..%d was changed, inserted or removed", c.Size, v.goodSize, c.Size-1)
	}
	v.goodSize = c.Size
	v.rep.Checkpoints++
	return nil
}

func (v *verifier) checkCommit(e *Entry) error {
	if side := e.Record.Get("side"); !v.sides[side] {
		return v.fail(e, "side %q is not in the genesis record", side)
	}
	v.commits[e.Index] = commitRec{side: strings.Clone(e.Record.Get("side")), hash: e.Record.Hash32("hidden-hash")}
	return nil
}

func (v *verifier) checkDisclose(e *Entry) error {
	i := e.Record.Uint("commit")
	c, ok := v.commits[i]
	if !ok || c.disclosed {
		return v.fail(e, "disclose of record %d, which is not an undisclosed commit", i)
	}
	if HiddenHash(e.Record.Hash32("nonce"), e.Record.Bytes("data")) != c.hash {
		return v.fail(e, "disclosed data does not hash to commit record %d", i)
	}
	c.disclosed = true
	v.commits[i] = c
	return nil
}

func parseUint(s string) uint64 {
	var n uint64
	for i := 0; i < len(s); i++ {
		n = n*10 + uint64(s[i]-'0')
	}
	return n
}

// The fields of the records a long log is made of, read by their places where the schema
// fixes them (a parsed record's fields are in the schema's order), each as Get gives it:
// every reader checks the keys where it reads them, and reads by key where they are not
// where it looks.

// placeOf returns Get("turn") and Get("activation") of r.
func placeOf(r *Record) (turn, act string) {
	if t, ok := r.valueAt(0, "turn"); ok {
		if a, ok := r.valueAt(1, "activation"); ok {
			return t, a
		}
	}
	return r.Get("turn"), r.Get("activation")
}

// eventSide returns Get("side") of an event record and whether it has the field (Has): its
// schema puts side, if any, right after turn and activation, and rule and text after it
// (and no other schema has rule or text right after turn and activation, so that a record
// the parser made keeps to this even where its Type was changed).
func eventSide(r *Record) (string, bool) {
	if _, ok := r.valueAt(0, "turn"); ok {
		if _, ok := r.valueAt(1, "activation"); ok {
			if side, ok := r.valueAt(2, "side"); ok {
				return side, true
			}
			if _, ok := r.valueAt(2, "rule"); ok {
				return "", false
			}
			if _, ok := r.valueAt(2, "text"); ok {
				return "", false
			}
		}
	}
	return r.Get("side"), r.Has("side")
}

// sealedFields are the fields of a sealed record, as Get gives them.
type sealedFields struct {
	turn, act, side, what, commitment string
	kind                              string // v5: a standing record's kind, "" for the plain kind
}

// readSealed reads a sealed record, whose schema is turn, activation, an optional side,
// what, commitment and (v5, a standing record's) an optional kind.
func readSealed(r *Record) sealedFields {
	var f sealedFields
	var ok [5]bool
	f.turn, ok[0] = r.valueAt(0, "turn")
	f.act, ok[1] = r.valueAt(1, "activation")
	i := 2
	if f.side, ok[2] = r.valueAt(2, "side"); ok[2] {
		i = 3
	}
	f.what, ok[3] = r.valueAt(i, "what")
	f.commitment, ok[4] = r.valueAt(i+1, "commitment")
	if ok[0] && ok[1] && ok[3] && ok[4] && len(r.lines) == i+2 {
		return f
	}
	return sealedFields{turn: r.Get("turn"), act: r.Get("activation"), side: r.Get("side"), what: r.Get("what"), commitment: r.Get("commitment"),
		kind: r.Get("kind")}
}
