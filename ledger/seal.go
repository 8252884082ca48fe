package ledger

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// secretSalt keys the nonces of a v2 game's salted commitments (orders commitments and
// sealed records): nonce_i = HMAC(salt, "navarch nonce" ‖ u64(i)). Drawn at creation and
// never exported, it makes every nonce unpredictable to the players, and the same after a
// crash and a retry. Nonces never feed a dice key, so the daemon gains nothing by its
// choice of salt.
const secretSalt = "salt"

func nonce(tx *store.Tx, id ident.GameID, i uint64) (ident.Hash, error) {
	salt, err := store.Secret(tx, id, secretSalt)
	if err != nil {
		return ident.Hash{}, err
	}
	if len(salt) != 32 {
		return ident.Hash{}, fmt.Errorf("game %x has no salt for its commitments", id[:])
	}
	m := hmac.New(sha256.New, salt)
	m.Write([]byte("navarch nonce"))
	m.Write(binary.BigEndian.AppendUint64(nil, i))
	var out ident.Hash
	m.Sum(out[:0])
	return out, nil
}

func sealedKey(i uint64) string { return fmt.Sprintf("sealed/%020d", i) }

// addSealed writes b as a v2 sealed record at the next index: the log holds the salted
// commitment H(tag "sealed" ‖ nonce ‖ record), the store keeps the record and its nonce for
// the views that may see it (side; "" for the referee's only). side is also the record's own
// view mark (its "side" field, or "sealed yes" for a state), which b already carries.
func addSealed(tx *store.Tx, id ident.GameID, t, a uint32, side, what string, b *gamelog.Builder) error {
	return addSealedKind(tx, id, t, a, side, what, "", b)
}

// addSealedKind is addSealed whose seal carries kind too (v5: a standing record's kind,
// shown publicly so that every view can recompute a close's list; "" for none).
func addSealedKind(tx *store.Tx, id ident.GameID, t, a uint32, side, what, kind string, b *gamelog.Builder) error {
	i, err := store.Len(tx, id)
	if err != nil {
		return err
	}
	inner, err := b.Build(i)
	if err != nil {
		return fmt.Errorf("seal record %d: %w", i, err)
	}
	n, err := nonce(tx, id, i)
	if err != nil {
		return err
	}
	c := gamelog.SealedHash(n, inner.Raw)
	w := gamelog.New(gamelog.TypeSealed).AddUint("turn", uint64(t)).AddUint("activation", uint64(a))
	if side != "" {
		w.Add("side", side)
	}
	w.Add("what", what).AddHex("commitment", c[:])
	if kind != "" {
		w.Add("kind", kind)
	}
	if _, err := add(tx, id, w); err != nil {
		return err
	}
	return store.PutSecret(tx, id, sealedKey(i), append(n[:], inner.Raw...))
}

// unseal returns the record a sealed record withholds and its nonce.
func unseal(tx *store.Tx, id ident.GameID, i uint64) (*gamelog.Record, ident.Hash, error) {
	v, err := store.Secret(tx, id, sealedKey(i))
	if err != nil {
		return nil, ident.Hash{}, err
	}
	if len(v) < 32 {
		return nil, ident.Hash{}, fmt.Errorf("sealed record %d: nothing kept to open it", i)
	}
	r, err := gamelog.Parse(v[32:])
	if err != nil {
		return nil, ident.Hash{}, fmt.Errorf("sealed record %d: %w", i, err)
	}
	return &r, ident.Hash(v[:32]), nil
}

func (in info) v2() bool { return in.format != gamelog.FormatV1 }
