package ledger

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// Standing orders in a v4 game (docs/LOG-FORMAT.md 3, "v4's standing orders"): each mail's
// standing orders are a standing record of their own, sealed for the player's side, which
// never enters E or a dice key. A close uses every pending standing record of the sides its
// activation declared (Activation.Standing) written before its cut, in log order; from that
// close on every view holds them.

// StandingOrders are a player's standing orders, as a mail brought them.
type StandingOrders struct {
	Player    string
	Side      string   // the player's side (StandingUsed fills it; RecordStanding looks it up)
	Kind      string   // v5: the orders' kind (adjudicator.StandingOrders.StandingKind), "" the plain kind
	Lines     []string // canonical order lines, one order each
	Received  time.Time
	MessageID string
	Index     uint64 // the standing record (StandingUsed fills it)
}

const (
	metaStandingPending = "ledger-standing-pending" // u64 indexes of unused standing records, in log order
	metaStandingUsed    = "ledger-standing-used"    // u64 indexes of the standing records the last close used
)

func standingUsedKey(i uint64) string { return fmt.Sprintf("standing-used/%020d", i) }

// RecordStanding writes a player's standing orders as a standing record, sealed for his
// side, at the activation open (or last opened) when they came; it returns the record's
// index. Only a v4 game has standing records; only a v5 game has kinds (the record and its
// seal carry the kind: one record a kind of a mail). In v5 a team side's record names its
// side only, and a sender record sealed for the side right after it names the player, his
// mail and when it came (docs/LOG-FORMAT.md 3, "v5's team sides"): the record is unsealed
// for the other side once a close uses it, the sender record only at the game's end.
func RecordStanding(tx *store.Tx, id ident.GameID, s StandingOrders) (uint64, error) {
	in, err := readInfo(tx, id)
	if err != nil {
		return 0, err
	}
	if !gamelog.AtLeast(in.format, gamelog.FormatV4) {
		return 0, fmt.Errorf("standing orders of %s: %w: a %s game has no standing records", s.Player, ErrSequence, in.format)
	}
	if s.Kind != "" && !gamelog.AtLeast(in.format, gamelog.FormatV5) {
		return 0, fmt.Errorf("standing orders of %s: %w: a %s game has no kinds of standing orders", s.Player, ErrSequence, in.format)
	}
	side := in.players[s.Player]
	if side == "" {
		return 0, fmt.Errorf("standing orders of %q: %w", s.Player, ErrNotPlayer)
	}
	cur, err := readCursor(tx, id)
	if err != nil {
		return 0, err
	}
	if !cur.opened {
		return 0, fmt.Errorf("standing orders of %s: %w: no activation opened yet", s.Player, ErrSequence)
	}
	team := in.hidesAsking() && in.teamSide(side) // v5: the sender record after it names the player
	b := gamelog.New(gamelog.TypeStanding).AddUint("turn", uint64(cur.turn)).AddUint("activation", uint64(cur.act))
	if team {
		b.Add("side", side)
	} else {
		b.Add("player", s.Player).Add("side", side).AddTime("received", s.Received)
		if mid := gamelog.CleanText(s.MessageID); mid != "" {
			b.Add("message-id", mid)
		}
	}
	if s.Kind != "" {
		b.Add("kind", s.Kind)
	}
	for _, l := range s.Lines {
		if l = gamelog.CleanText(l); l != "" {
			b.Add("line", l)
		}
	}
	i, err := store.Len(tx, id)
	if err != nil {
		return 0, err
	}
	if err := addSealedKind(tx, id, cur.turn, cur.act, side, gamelog.TypeStanding, s.Kind, b); err != nil {
		return 0, err
	}
	if team {
		o := Orders{Turn: cur.turn, Act: cur.act, Player: s.Player, Received: s.Received, MessageID: s.MessageID}
		if err := addSealed(tx, id, cur.turn, cur.act, side, gamelog.TypeSender, senderRecord(i, side, o)); err != nil {
			return 0, err
		}
	}
	pending, err := store.Meta(tx, id, metaStandingPending)
	if err != nil {
		return 0, err
	}
	return i, store.PutMeta(tx, id, metaStandingPending, binary.BigEndian.AppendUint64(slices.Clone(pending), i))
}

// closeStanding picks the standing records the close of the open activation uses: every
// pending one of the sides act declared (v5: of the side and kind an entry names), written
// before cut, in log order. It marks them
// used and keeps them as the last close's (StandingUsed).
func closeStanding(tx *store.Tx, id ident.GameID, in info, act *gamelog.Record, cut uint64) ([]uint64, error) {
	if !gamelog.AtLeast(in.format, gamelog.FormatV4) {
		return nil, nil
	}
	entries := strings.Fields(act.Get("standing"))
	v, err := store.Meta(tx, id, metaStandingPending)
	if err != nil {
		return nil, err
	}
	var used []uint64
	var keep, usedB []byte
	for j := 0; j+8 <= len(v); j += 8 {
		i := binary.BigEndian.Uint64(v[j:])
		r, _, err := unseal(tx, id, i)
		if err != nil {
			return nil, err
		}
		if i < cut && gamelog.StandingApplies(entries, r.Get("side"), r.Get("kind")) {
			used = append(used, i)
			usedB = binary.BigEndian.AppendUint64(usedB, i)
			if err := store.PutSecret(tx, id, standingUsedKey(i), []byte{1}); err != nil {
				return nil, err
			}
			continue
		}
		keep = binary.BigEndian.AppendUint64(keep, i)
	}
	if err := store.PutMeta(tx, id, metaStandingPending, keep); err != nil {
		return nil, err
	}
	return used, store.PutMeta(tx, id, metaStandingUsed, usedB)
}

// StandingUsed returns the standing orders the last close used, in log order (none before
// v4).
func StandingUsed(tx *store.Tx, id ident.GameID) ([]StandingOrders, error) {
	v, err := store.Meta(tx, id, metaStandingUsed)
	if err != nil {
		return nil, err
	}
	var out []StandingOrders
	for j := 0; j+8 <= len(v); j += 8 {
		i := binary.BigEndian.Uint64(v[j:])
		r, _, err := unseal(tx, id, i)
		if err != nil {
			return nil, err
		}
		src, err := standingSender(tx, id, r, i)
		if err != nil {
			return nil, err
		}
		at, _ := time.Parse(gamelog.TimeLayout, src.Get("received"))
		out = append(out, StandingOrders{Player: src.Get("player"), Side: r.Get("side"), Kind: r.Get("kind"), Lines: r.All("line"),
			Received: at, MessageID: src.Get("message-id"), Index: i})
	}
	return out, nil
}

// standingUsed reports whether a close has used the sealed standing record i: from then on
// every view holds it.
func standingUsed(tx *store.Tx, id ident.GameID, rec *gamelog.Record, i uint64) (bool, error) {
	if rec.Type != gamelog.TypeSealed || rec.Get("what") != gamelog.TypeStanding {
		return false, nil
	}
	v, err := store.Secret(tx, id, standingUsedKey(i))
	return len(v) > 0, err
}

// standingSender returns the record that names standing record i's player, time and mail:
// the record r itself, or in v5 for a team side's record the sender record sealed right
// after it.
func standingSender(tx *store.Tx, id ident.GameID, r *gamelog.Record, i uint64) (*gamelog.Record, error) {
	if r.Has("player") {
		return r, nil
	}
	s, _, err := unseal(tx, id, i+1)
	if err != nil {
		return nil, fmt.Errorf("standing record %d: its sender: %w", i, err)
	}
	if s.Type != gamelog.TypeSender || s.Uint("orders") != i {
		return nil, fmt.Errorf("standing record %d: no sender record follows it", i)
	}
	return s, nil
}
