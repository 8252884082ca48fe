package gamelog

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"strings"

	"navarch/dice"
	"navarch/ident"
)

// VerifyOptions are what an auditor brings besides the log.
type VerifyOptions struct {
	// Key is the installation's verifier key, pinned from the genesis mail. Without it the
	// key in the genesis record is used and the report says so.
	Key ed25519.PublicKey
	// Checkpoints are signed checkpoints kept from mail; each must agree with the log.
	Checkpoints []Checkpoint
	// Orders are canonical order texts whose orders records the auditor wants found.
	Orders [][]byte
	// TrustLogKey accepts the verifier key in the log's own genesis record when Key is nil.
	// Without Key or TrustLogKey, verification fails: a log re-signed with a new key would
	// otherwise pass.
	TrustLogKey bool
	// Sent is a player's own sent mail (verify --sent): every orders and join record of
	// Player must come from one of them, with the entropy the mail gave.
	Sent   []SentMail
	Player string
	// AllowV1 accepts a log of format v1 (verify --allow-v1). Without it a v1 log fails: a
	// daemon patched to create new games in v1 would bring back every grinding of the dice
	// that v2 closed (docs/LOG-FORMAT.md 9).
	AllowV1 bool
	// AllowUndeclared accepts a v2 log whose genesis does not declare its secrecy (verify
	// --allow-undeclared): a game created before navarch declared it, whose daemon could
	// choose which orders texts enter E as zero bytes (docs/LOG-FORMAT.md 2).
	AllowUndeclared bool
	// BeaconKey is the beacon's public key the auditor pins (verify --beacon-key); without it
	// a beacon game's genesis must name drand quicknet's key (beacon.Quicknet).
	BeaconKey []byte
	// Format, if set, is the log format the genesis mail states (verify --format): a log of
	// another format fails, so that a game recreated in an older format is caught.
	Format string
}

// Failure names the first record (or file position) that does not verify.
type Failure struct {
	Index  int64 // record index, or -1 when the failure is not one record's
	Type   string
	Line   int
	Reason string
}

func (f *Failure) Error() string {
	if f.Index < 0 {
		return f.Reason
	}
	return fmt.Sprintf("record %d (%s, line %d): %s", f.Index, f.Type, f.Line, f.Reason)
}

// OrdersMatch says where an auditor's orders were found.
type OrdersMatch struct {
	Hash    ident.Hash
	Records []uint64 // orders records with that hash
	UsedBy  []uint64 // close records that used one of them
}

// Report is the outcome of Verify.
type Report struct {
	Failure      *Failure // nil when everything checks
	Game         ident.GameID
	Records      int
	Redacted     int
	Rolls        int
	RollsChecked int
	Draws        int      // rolls that draw from a cup or deck, left out of Dice
	Checkpoints  int      // in-log checkpoint records checked
	External     int      // checkpoints from mail checked
	Pending      []uint32 // turns with rolls whose seed is not revealed yet
	Dice         []DieStats
	Notes        []string
	Orders       []OrdersMatch
	// Unsent lists the records of VerifyOptions.Player that no mail of VerifyOptions.Sent
	// accounts for (verify --sent); any is a failure.
	Unsent []Unsent
	// Withheld counts sealed records whose content this view does not hold.
	Withheld int
	// Beacon (a v3 beacon game): the steps keyed by a round and its BLS signature, and those
	// that a checkpoint mail received before the round's time proves were fixed before it
	// (verify --checkpoint).
	BeaconSteps, BeaconProven int
}

// OK reports whether the log verified.
func (r *Report) OK() bool { return r.Failure == nil }

// Verify checks an export: the chain and its trailer, every record's place in the game's
// structure, every checkpoint, every reveal against the commitment, the start and input
// hashes, and every roll whose turn seed is revealed. It stops at the first failure.
func Verify(f *File, opts VerifyOptions) *Report {
	if rep, ok := verify(f, opts, false); ok {
		return rep
	}
	rep, _ := verify(f, opts, true)
	return rep
}

// verify runs one verification; serial derives every roll in its place. The fast mode
// (serial false) derives the rolls on other goroutines and reports false when a roll did
// not match: its report is then not the one to give (verify_parallel.go).
func verify(f *File, opts VerifyOptions, serial bool) (*Report, bool) {
	v := newVerifier(f, opts)
	v.serial = serial
	if !serial {
		v.workers = startRollWorkers()
	}
	rep := v.rep
	err := v.run()
	rollsOK := true
	if v.workers != nil {
		v.flushBatch()
		rollsOK = v.workers.finish()
	}
	if v.hc != nil {
		v.hc.finish()
	}
	if err != nil {
		var fl *Failure
		if !errors.As(err, &fl) {
			fl = &Failure{Index: -1, Reason: err.Error()}
		}
		rep.Failure = fl
	}
	rep.Pending = v.pendingTurns()
	rep.Dice = v.stats.sorted()
	return rep, rollsOK
}

// run checks record by record first, so that a changed record is named by its own check;
// the trailer and the checkpoints from mail come last.
func (v *verifier) run() error {
	v.computeHeads()
	if len(v.f.Entries) == 0 {
		return &Failure{Index: -1, Reason: "the log has no records"}
	}
	if err := v.readGenesis(&v.f.Entries[0]); err != nil {
		return err
	}
	v.collectSeeds()
	for i := range v.f.Entries {
		if err := v.checkEntry(&v.f.Entries[i]); err != nil {
			return err
		}
	}
	return v.finish()
}

// finish checks what only the whole log can show, once every record has checked: a team
// side's record still owed its sender record, the trailer, the private blocks, the
// checkpoints from mail and the beacon rounds' mail times, the auditor's orders and his
// sent mail.
func (v *verifier) finish() error {
	if o := v.th.owed; o != nil {
		return v.fail(o, "orders record of team side %s without its sender record right after it", o.Record.Get("side"))
	}
	if s := v.th.owedSt; s != nil {
		return v.fail(s, "standing record of team side %s without its sender record right after it", v.st.side[s.Index])
	}
	if err := v.checkTrailer(); err != nil {
		return err
	}
	if err := v.checkPrivate(); err != nil {
		return err
	}
	if err := v.checkExternal(); err != nil {
		return err
	}
	if err := v.checkBeaconMail(); err != nil {
		return err
	}
	v.findOrders()
	return v.checkSent()
}

// count is the number of entries in the log: those read so far while streaming.
func (v *verifier) count() int {
	if v.stream != nil {
		return v.stream.n
	}
	return len(v.f.Entries)
}

// sentEntries are the entries checkSent and sender read: all of the log's, or those a
// stream kept as they passed (keepSent).
func (v *verifier) sentEntries() []Entry {
	if v.stream != nil {
		return v.stream.sent
	}
	return v.f.Entries
}

// sentPrev is the record of entry i, the one before an entry with a sender record; ok is
// false where a stream did not keep it.
func (v *verifier) sentPrev(i uint64) (r *Record, ok bool) {
	if v.stream != nil {
		r, ok = v.stream.sentPrev[i]
		return r, ok
	}
	return v.f.Entries[i].Record, true
}

// entry returns entry i for a failure's message (streaming, where the entry is no longer
// held, one of its index alone: the whole log is verified again to name the failure).
func (v *verifier) entry(i uint64) *Entry {
	if v.stream != nil {
		return &Entry{Index: i}
	}
	return &v.f.Entries[i]
}

// computeHeads counts the entries and starts the chain of their heads, which keeps the
// heads a check may ask for: the whole chain's (the trailer), and that of the size of every
// checkpoint record and every checkpoint from mail. It notes where the reveals are, for
// collectSeeds.
func (v *verifier) computeHeads() {
	n := len(v.f.Entries)
	sizes := []int{n}
	size := func(s uint64) {
		if s >= 1 && s <= uint64(n) {
			sizes = append(sizes, int(s))
		}
	}
	for i := range v.f.Entries {
		e := &v.f.Entries[i]
		switch {
		case e.Record == nil:
			v.rep.Redacted++
		case e.Record.Type == TypeCheckpoint:
			size(e.Record.Uint("size"))
		case e.Record.Type == TypeReveal:
			v.reveals = append(v.reveals, i)
		case e.Record.Type == TypeEnd:
			v.over = true
		case e.Inner != nil && e.Inner.Type == TypeCheckpoint:
			size(e.Inner.Uint("size"))
		}
	}
	for _, c := range v.opts.Checkpoints {
		size(c.Size)
	}
	v.rep.Records = n
	v.hc = startHeads(v.f.Entries, sizes)
}

// headAt returns head_{n−1} of the file's entries (1 ≤ n ≤ the entries).
func (v *verifier) headAt(n int) ident.Hash { return v.hc.headAt(n) }

// checkTrailer compares the end-of-log line with the recomputed chain.
func (v *verifier) checkTrailer() error {
	if err := v.finishTexts(nil); err != nil {
		return err
	}
	if v.f.Format != FormatV1 {
		c := Checkpoint{Game: v.game, Size: v.f.Size, Head: v.f.Head, Signature: v.f.Signature}
		if !c.ValidExport(v.key) {
			return &Failure{Index: -1, Reason: "the end-of-log signature does not verify under the pinned key (the file was cut or edited after export)"}
		}
	}
	if v.f.Size != uint64(v.count()) {
		return &Failure{Index: -1, Reason: fmt.Sprintf("end-of-log says %d records, the file has %d (records removed or inserted)", v.f.Size, v.count())}
	}
	if n := v.count(); n == 0 || v.f.Head != v.headAt(n) {
		return &Failure{Index: -1, Reason: "end-of-log head does not match the recomputed chain (the file was edited after export)"}
	}
	return nil
}

func (v *verifier) fail(e *Entry, format string, args ...any) error {
	typ := "redacted"
	if e.Record != nil {
		typ = e.Record.Type
	}
	return &Failure{Index: int64(e.Index), Type: typ, Line: e.Line, Reason: fmt.Sprintf(format, args...)}
}

// readGenesis checks record 0, e, and pins the key.
func (v *verifier) readGenesis(e *Entry) error {
	g := e.Record
	if g == nil || g.Type != TypeGenesis {
		return v.fail(e, "record 0 must be the genesis record")
	}
	if g.Get("format") != v.f.Format {
		return v.fail(e, "format %q in a %q file (this verifier knows %v)", g.Get("format"), v.f.Format, Formats)
	}
	if v.opts.Format != "" && v.f.Format != v.opts.Format {
		return v.fail(e, "a log of format %s; the genesis mail states %s (--format)", v.f.Format, v.opts.Format)
	}
	v.v2 = v.f.Format != FormatV1
	v.v3 = AtLeast(v.f.Format, FormatV3)
	v.v4 = AtLeast(v.f.Format, FormatV4)
	v.v5 = AtLeast(v.f.Format, FormatV5)
	if !v.v2 && !v.opts.AllowV1 {
		return v.fail(e, "a log of format %s, whose daemon could choose the dice's inputs (docs/LOG-FORMAT.md 9): refused unless --allow-v1 (every game navarch creates now is %s or later)", FormatV1, FormatV2)
	}
	if !v.v2 {
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("a log of format %s, accepted with --allow-v1: its daemon could choose which orders a close used and their entropy", FormatV1))
	}
	if err := v.readSecrecy(e); err != nil {
		return err
	}
	copy(v.game[:], g.Bytes("game"))
	v.rep.Game = v.game
	v.turns = g.Uint("turns")
	if v.turns < 1 || v.turns > MaxTurns {
		return v.fail(e, "turns %d out of range", v.turns)
	}
	v.commitment = g.Hash32("commitment")
	if err := v.readBeacon(e); err != nil {
		return err
	}
	if err := v.readPlayers(e); err != nil {
		return err
	}
	return v.pinKey(e, ed25519.PublicKey(g.Bytes("verifier")))
}

func (v *verifier) readPlayers(e *Entry) error {
	prev := ""
	for _, p := range e.Record.All("player") {
		id, side, _ := strings.Cut(p, " ")
		if id <= prev {
			return v.fail(e, "players not sorted by id or repeated at %q", id)
		}
		prev = id
		v.players[id] = side
		v.sides[side] = true
		if v.th.size == nil {
			v.th.size = map[string]int{}
		}
		v.th.size[side]++
	}
	return nil
}

func (v *verifier) pinKey(e *Entry, logged ed25519.PublicKey) error {
	if v.opts.Key == nil && !v.opts.TrustLogKey {
		return v.fail(e, "no verifier key pinned: give the key from the genesis mail (--key), or trust the log's own key %x (--trust-log-key), which a rewritten log would replace", []byte(logged))
	}
	if v.opts.Key == nil {
		v.key = logged
		v.rep.Notes = append(v.rep.Notes, "verifier key taken from the log itself (--trust-log-key); pin it with --key from the genesis mail to rule out a rewritten log")
		return nil
	}
	if !v.opts.Key.Equal(logged) {
		return v.fail(e, "the genesis record's verifier key %x is not the pinned key %x", []byte(logged), []byte(v.opts.Key))
	}
	v.key = v.opts.Key
	return nil
}

// collectSeeds reads the reveals in log order, each checked against the one before it (the
// first against C), so that rolls can be checked in log order at a total cost of one hash per
// turn. It stops at the first reveal that does not fit; checkReveal fails that record.
func (v *verifier) collectSeeds() {
	prevT, prevX := uint32(0), v.commitment
	for _, i := range v.reveals {
		r := v.f.Entries[i].Record
		t := r.Uint("turn")
		if t <= uint64(prevT) || t > v.turns {
			break
		}
		x := r.Hash32("seed")
		if down, _ := dice.ChainSeed(v.game, uint32(t), x, prevT); down != prevX {
			break
		}
		prevT, prevX = uint32(t), x
	}
	for t := prevT; t >= 1; t-- {
		v.seeds[t] = prevX
		prevX = dice.ChainStep(v.game, t, prevX)
	}
}

func (v *verifier) pendingTurns() []uint32 {
	var out []uint32
	for t := range v.rollTurns {
		if _, ok := v.seeds[t]; !ok {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}
