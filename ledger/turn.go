package ledger

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// EndTurn reveals X_t and signs a checkpoint (docs/DICE.md 5): from then on anyone holding the
// export can check every roll of turn t. No activation of turn t may follow.
func EndTurn(tx *store.Tx, id ident.GameID, t uint32) (gamelog.Checkpoint, error) {
	rev, err := revealed(tx, id)
	if err != nil {
		return gamelog.Checkpoint{}, err
	}
	if t <= rev {
		return gamelog.Checkpoint{}, fmt.Errorf("end turn %d: %w: revealed up to %d", t, ErrSequence, rev)
	}
	xt, err := turnSeed(tx, id, t)
	if err != nil {
		return gamelog.Checkpoint{}, err
	}
	if _, err := add(tx, id, gamelog.New(gamelog.TypeReveal).AddUint("turn", uint64(t)).AddHex("seed", xt[:])); err != nil {
		return gamelog.Checkpoint{}, err
	}
	if err := store.PutMeta(tx, id, metaRevealed, binary.BigEndian.AppendUint32(nil, t)); err != nil {
		return gamelog.Checkpoint{}, err
	}
	return Checkpoint(tx, id)
}

// CommitHidden commits a side's hidden set-up: the log holds H(tag ‖ nonce ‖ data), the
// store keeps nonce and data secret until Disclose. rnd supplies the nonce (crypto/rand).
func CommitHidden(tx *store.Tx, id ident.GameID, side, what string, data []byte, rnd io.Reader) (uint64, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	var nonce ident.Hash
	if _, err := io.ReadFull(rnd, nonce[:]); err != nil {
		return 0, fmt.Errorf("hidden set-up nonce: %w", err)
	}
	h := gamelog.HiddenHash(nonce, data)
	rec, err := add(tx, id, gamelog.New(gamelog.TypeCommit).Add("side", side).Add("what", what).AddHex("hidden-hash", h[:]))
	if err != nil {
		return 0, err
	}
	return rec.Index, store.PutSecret(tx, id, hiddenKey(rec.Index), append(nonce[:], data...))
}

func hiddenKey(commit uint64) string { return fmt.Sprintf("hidden/%020d", commit) }

// Disclose reveals a commit's nonce and data, when the rules reveal it.
func Disclose(tx *store.Tx, id ident.GameID, commit uint64) error {
	v, err := store.Secret(tx, id, hiddenKey(commit))
	if err != nil {
		return err
	}
	if len(v) < 32 {
		return fmt.Errorf("disclose %d: %w: no hidden set-up committed there", commit, ErrSequence)
	}
	_, err = add(tx, id, gamelog.New(gamelog.TypeDisclose).AddUint("commit", commit).
		AddHex("nonce", v[:32]).AddHex("data", v[32:]))
	if err != nil {
		return err
	}
	return store.PutSecret(tx, id, hiddenKey(commit)+"/disclosed", []byte{1})
}

// Note writes a referee's or the system's action (pause, extend, replace player).
func Note(tx *store.Tx, id ident.GameID, by string, text ...string) error {
	b := gamelog.New(gamelog.TypeNote).Add("by", by)
	for _, t := range text {
		b.Add("text", gamelog.CleanText(t))
	}
	_, err := add(tx, id, b)
	return err
}

// End writes the end record and reveals the seed of the last turn played.
func End(tx *store.Tx, id ident.GameID, turn uint32, result string) (gamelog.Checkpoint, error) {
	if _, err := add(tx, id, gamelog.New(gamelog.TypeEnd).AddUint("turn", uint64(turn)).Add("result", gamelog.CleanText(result))); err != nil {
		return gamelog.Checkpoint{}, err
	}
	for _, k := range []string{metaRound, metaBeacon, metaUses} { // a step waiting for its round waits no more
		if err := store.PutMeta(tx, id, k, nil); err != nil {
			return gamelog.Checkpoint{}, err
		}
	}
	rev, err := revealed(tx, id)
	if err != nil {
		return gamelog.Checkpoint{}, err
	}
	if turn > rev {
		return EndTurn(tx, id, turn)
	}
	return Checkpoint(tx, id)
}
