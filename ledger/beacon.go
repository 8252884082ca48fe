package ledger

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"navarch/beacon"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// A beacon game (log format v3, docs/DICE.md 3) keys each step with a round R of its beacon
// as well: R is named, in a round record, in the transaction that fixes the step's inputs
// (the last orders, or the opening of an automatic step), at least a delay after it, so that
// the mail that receipts those orders is sent before anybody knows R; once R is published,
// its beacon record and then the close follow.

// ErrNoRound is returned by Close in a beacon game whose step has no beacon round yet: the
// step waits for it, and never falls back to a key without it.
var ErrNoRound = errors.New("the step's beacon round is not in the log yet")

const (
	metaRound  = "ledger-round"  // u64 round ‖ u64 index of the open step's latest round record
	metaBeacon = "ledger-beacon" // u64 round ‖ its signature: the open step's beacon record
	metaUses   = "ledger-uses"   // u64 indexes: the orders records the open step's round fixed
)

// Beacon is the beacon a game's genesis names, or nil.
func Beacon(tx *store.Tx, id ident.GameID) (*beacon.Chain, error) {
	in, err := readInfo(tx, id)
	if err != nil || in.beacon == nil {
		return nil, err
	}
	c := *in.beacon // the caller's own, read once a transaction with the rest of the genesis
	return &c, nil
}

// Complete fixes the inputs of the open step of a beacon game: it writes the default orders
// of every side asked that has none among uses (as Close would), then a round record naming
// the first round published at least delay after at. It returns the uses and the round. In
// a game without a beacon it only returns uses (Close writes the defaults).
func Complete(tx *store.Tx, id ident.GameID, t, a uint32, uses []uint64, at time.Time, delay time.Duration) ([]uint64, uint64, error) {
	c, err := Beacon(tx, id)
	if err != nil || c == nil {
		return uses, 0, err
	}
	cur, err := readCursor(tx, id)
	if err != nil {
		return nil, 0, err
	}
	if !cur.opened || cur.closed || cur.turn != t || cur.act != a {
		return nil, 0, fmt.Errorf("complete turn %d activation %d: %w: not the open activation", t, a, ErrSequence)
	}
	in, err := readInfo(tx, id)
	if err != nil {
		return nil, 0, err
	}
	if uses, err = withDefaults(tx, id, in, t, a, uses); err != nil {
		return nil, 0, err
	}
	r := c.RoundAfter(at.Add(delay))
	rec, err := add(tx, id, gamelog.New(gamelog.TypeRound).AddUint("turn", uint64(t)).AddUint("activation", uint64(a)).AddUint("round", r))
	if err != nil {
		return nil, 0, err
	}
	if err := store.PutMeta(tx, id, metaRound, binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, r), rec.Index)); err != nil {
		return nil, 0, err
	}
	var list []byte
	for _, u := range uses {
		list = binary.BigEndian.AppendUint64(list, u)
	}
	if err := store.PutMeta(tx, id, metaUses, list); err != nil {
		return nil, 0, err
	}
	return uses, r, store.PutMeta(tx, id, metaBeacon, nil)
}

// Named is the open step's latest round record: its round and index (0, 0 if none), and
// the orders records it fixed (the defaults Complete wrote among them).
func Named(tx *store.Tx, id ident.GameID) (round, index uint64, uses []uint64, err error) {
	v, err := store.Meta(tx, id, metaRound)
	if err != nil || len(v) != 16 {
		return 0, 0, nil, err
	}
	list, err := store.Meta(tx, id, metaUses)
	if err != nil {
		return 0, 0, nil, err
	}
	for i := 0; i+8 <= len(list); i += 8 {
		uses = append(uses, binary.BigEndian.Uint64(list[i:]))
	}
	return binary.BigEndian.Uint64(v), binary.BigEndian.Uint64(v[8:]), uses, nil
}

// OpenStep reports the activation that is open and not yet closed, if any: in a beacon game
// an automatic step stays open while it waits for its round.
func OpenStep(tx *store.Tx, id ident.GameID) (turn, act uint32, open bool, err error) {
	cur, err := readCursor(tx, id)
	if err != nil {
		return 0, 0, false, err
	}
	return cur.turn, cur.act, cur.opened && !cur.closed, nil
}

// NamedRound is the round named for the open step of a beacon game (0 if none), and whether
// its beacon record is written.
func NamedRound(tx *store.Tx, id ident.GameID) (round uint64, have bool, err error) {
	v, err := store.Meta(tx, id, metaRound)
	if err != nil || len(v) != 16 {
		return 0, false, err
	}
	b, err := store.Meta(tx, id, metaBeacon)
	if err != nil {
		return 0, false, err
	}
	r := binary.BigEndian.Uint64(v)
	return r, len(b) > 8 && binary.BigEndian.Uint64(b) == r, nil
}

// PutRound writes the beacon record of the open step: round r as the beacon published it,
// verified under the genesis's beacon key; it must be the round the step named.
func PutRound(tx *store.Tx, id ident.GameID, t, a uint32, r beacon.Round) error {
	c, err := Beacon(tx, id)
	if err != nil {
		return err
	}
	if c == nil {
		return fmt.Errorf("beacon round %d: the game has no beacon", r.Number)
	}
	named, have, err := NamedRound(tx, id)
	if err != nil {
		return err
	}
	cur, err := readCursor(tx, id)
	if err != nil {
		return err
	}
	switch {
	case !cur.opened || cur.closed || cur.turn != t || cur.act != a:
		return fmt.Errorf("beacon round for turn %d activation %d: %w: not the open activation", t, a, ErrSequence)
	case named != r.Number || have:
		return fmt.Errorf("beacon round %d: %w: the step named round %d (written: %v)", r.Number, ErrSequence, named, have)
	}
	if err := c.Verify(r); err != nil {
		return err
	}
	if _, err := add(tx, id, gamelog.New(gamelog.TypeBeacon).AddUint("turn", uint64(t)).AddUint("activation", uint64(a)).
		AddUint("round", r.Number).AddHex("signature", r.Signature)); err != nil {
		return err
	}
	return store.PutMeta(tx, id, metaBeacon, append(binary.BigEndian.AppendUint64(nil, r.Number), r.Signature...))
}

// stepRound is the open step's beacon round, for its key: ErrNoRound until PutRound wrote it.
func stepRound(tx *store.Tx, id ident.GameID) (beacon.Round, error) {
	named, have, err := NamedRound(tx, id)
	if err != nil {
		return beacon.Round{}, err
	}
	if !have {
		return beacon.Round{}, fmt.Errorf("round %d: %w", named, ErrNoRound)
	}
	b, err := store.Meta(tx, id, metaBeacon)
	if err != nil {
		return beacon.Round{}, err
	}
	return beacon.Round{Number: named, Signature: append([]byte(nil), b[8:]...)}, nil
}
