package ledger

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"navarch/beacon"
	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// info is what the genesis record fixes.
type info struct {
	game       ident.GameID
	turns      uint32
	commitment ident.Hash
	players    map[string]string // id → side
	format     string            // gamelog.FormatV1 or FormatV2: the game keeps its genesis format
	// declared: the genesis record's secrecy is gamelog.SecrecyDeclared, so each activation
	// record says whether it is secret (a game created before that does not).
	declared bool
	beacon   *beacon.Chain // the genesis's beacon, or nil (gamelog.BeaconOf)
}

func parseInfo(tx *store.Tx, id ident.GameID) (info, error) {
	g, err := store.Record(tx, id, 0)
	if err != nil {
		return info{}, err
	}
	in := info{game: id, turns: uint32(g.Uint("turns")), commitment: g.Hash32("commitment"), players: map[string]string{}, format: g.Get("format"),
		declared: g.Get("secrecy") == gamelog.SecrecyDeclared, beacon: gamelog.BeaconOf(&g)}
	for _, p := range g.All("player") {
		pid, side, _ := strings.Cut(p, " ")
		in.players[pid] = side
	}
	return in, nil
}

// Progress meta keys: where the game's sequence stands, so that the ledger refuses to write
// a log the verifier would reject.
const (
	metaStart    = "ledger-start"    // u64 index of the start record
	metaCursor   = "ledger-cursor"   // u32 turn ‖ u32 activation ‖ byte closed
	metaRevealed = "ledger-revealed" // u32 last revealed turn
	// metaActivation is the u64 index of the open activation's record.
	metaActivation = "ledger-activation"
)

type cursor struct {
	turn, act uint32
	closed    bool
	opened    bool
}

func readCursor(tx *store.Tx, id ident.GameID) (cursor, error) {
	v, err := store.Meta(tx, id, metaCursor)
	if err != nil || len(v) != 9 {
		return cursor{}, err
	}
	return cursor{binary.BigEndian.Uint32(v), binary.BigEndian.Uint32(v[4:]), v[8] == 1, true}, nil
}

func writeCursor(tx *store.Tx, id ident.GameID, c cursor) error {
	v := binary.BigEndian.AppendUint32(nil, c.turn)
	v = binary.BigEndian.AppendUint32(v, c.act)
	closed := byte(0)
	if c.closed {
		closed = 1
	}
	return store.PutMeta(tx, id, metaCursor, append(v, closed))
}

func revealed(tx *store.Tx, id ident.GameID) (uint32, error) {
	v, err := store.Meta(tx, id, metaRevealed)
	if err != nil || len(v) != 4 {
		return 0, err
	}
	return binary.BigEndian.Uint32(v), nil
}

func readStartHash(tx *store.Tx, id ident.GameID) (ident.Hash, error) {
	v, err := store.Meta(tx, id, metaStart)
	if err != nil {
		return ident.Hash{}, err
	}
	if len(v) != 8 {
		return ident.Hash{}, ErrNotStarted
	}
	r, err := store.Record(tx, id, binary.BigEndian.Uint64(v))
	if err != nil {
		return ident.Hash{}, err
	}
	return r.Hash32("start-hash"), nil
}

// Join records a player's JOIN with their optional entropy (docs/DICE.md 2) and the Message-ID
// of the mail, by which the player can check the record against his sent mail.
func Join(tx *store.Tx, id ident.GameID, player string, entropy []byte, received time.Time, messageID string) error {
	in, err := readInfo(tx, id)
	if err != nil {
		return err
	}
	if _, err := startHash(tx, id); err == nil {
		return ErrStarted
	}
	if in.players[player] == "" {
		return fmt.Errorf("join %q: %w", player, ErrNotPlayer)
	}
	joins, err := readJoins(tx, id)
	if err != nil {
		return err
	}
	if _, ok := joins[player]; ok {
		return fmt.Errorf("join %q: %w", player, ErrJoined)
	}
	b := gamelog.New(gamelog.TypeJoin).Add("player", player).AddHex("entropy", entropy).AddTime("received", received)
	if mid := gamelog.CleanText(messageID); mid != "" && in.v2() {
		b.Add("message-id", mid)
	}
	_, err = add(tx, id, b)
	return err
}

func readJoins(tx *store.Tx, id ident.GameID) (map[string][]byte, error) {
	joins := map[string][]byte{}
	err := store.Records(tx, id, func(_ uint64, raw []byte, _ ident.Hash) error {
		if !strings.HasPrefix(string(raw), "type join\n") {
			return nil
		}
		r, err := gamelog.Parse(raw)
		if err != nil {
			return err
		}
		joins[r.Get("player")] = r.Bytes("entropy")
		return nil
	})
	return joins, err
}

// Joined lists the players who have joined, sorted.
func Joined(tx *store.Tx, id ident.GameID) ([]string, error) {
	joins, err := readJoins(tx, id)
	var out []string
	for p := range joins {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, err
}

// Start writes the start record with S over the joins. Unless the referee starts the game,
// every player must have joined; a referee's start gives missing players empty entropy and
// the record names them.
func Start(tx *store.Tx, id ident.GameID, byReferee bool) (ident.Hash, error) {
	in, err := readInfo(tx, id)
	if err != nil {
		return ident.Hash{}, err
	}
	if _, err := startHash(tx, id); err == nil {
		return ident.Hash{}, ErrStarted
	}
	joins, err := readJoins(tx, id)
	if err != nil {
		return ident.Hash{}, err
	}
	var ids []string
	for p := range in.players {
		ids = append(ids, p)
	}
	slices.Sort(ids)
	by := "joins"
	if byReferee {
		by = "referee"
	}
	b := gamelog.New(gamelog.TypeStart).Add("by", by)
	var js []dice.Join
	var missing []string
	for _, p := range ids {
		e, ok := joins[p]
		js = append(js, dice.Join{Player: p, Entropy: e})
		if ok {
			b.Add("joined", p)
		} else {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 && !byReferee {
		return ident.Hash{}, fmt.Errorf("start: %w: %s", ErrMissingJoins, strings.Join(missing, ", "))
	}
	for _, p := range missing {
		b.Add("missing", p)
	}
	s, err := dice.StartHash(id, in.commitment, js)
	if err != nil {
		return s, err
	}
	rec, err := add(tx, id, b.AddHex("start-hash", s[:]))
	if err != nil {
		return s, err
	}
	return s, store.PutMeta(tx, id, metaStart, binary.BigEndian.AppendUint64(nil, rec.Index))
}

// Players returns the game's players of record and their sides, sorted by id.
func Players(tx *store.Tx, id ident.GameID) ([]Player, error) {
	in, err := readInfo(tx, id)
	var out []Player
	for p, side := range in.players {
		out = append(out, Player{ID: p, Side: side})
	}
	slices.SortFunc(out, func(a, b Player) int { return strings.Compare(a.ID, b.ID) })
	return out, err
}
