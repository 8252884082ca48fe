package ledger

import (
	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// What the genesis and start records fix never changes, so a transaction reads each once
// however many steps and records it writes (store.Memo): a mail that resolves several steps
// opens the game's ledger once, not at every step.
type (
	infoKey  ident.GameID
	startKey ident.GameID
)

// readInfo is what the game's genesis record fixes.
func readInfo(tx *store.Tx, id ident.GameID) (info, error) {
	return store.Memo(tx, infoKey(id), func() (info, error) { return parseInfo(tx, id) })
}

// startHash is the start record's S, or ErrNotStarted (not kept: the start may follow).
func startHash(tx *store.Tx, id ident.GameID) (ident.Hash, error) {
	return store.Memo(tx, startKey(id), func() (ident.Hash, error) { return readStartHash(tx, id) })
}

// stateHashOf is the state hash that r, a state record or a sealed one, holds, or nil.
func stateHashOf(tx *store.Tx, id ident.GameID, r *gamelog.Record) []byte {
	switch {
	case r.Type == gamelog.TypeState:
		return r.Bytes("state-hash")
	case r.Type == gamelog.TypeSealed && r.Get("what") == gamelog.TypeState:
		inner, _, err := unseal(tx, id, r.Index)
		if err != nil {
			return nil
		}
		return inner.Bytes("state-hash")
	}
	return nil
}

// lastStateBefore walks the log's first size records back to the last state record.
func lastStateBefore(tx *store.Tx, id ident.GameID, size uint64) []byte {
	for i := size; i > 0; i-- {
		r, err := store.Record(tx, id, i-1)
		if err != nil {
			return nil
		}
		if h := stateHashOf(tx, id, &r); h != nil {
			return h
		}
	}
	return nil
}
