package play

import (
	"bytes"
	"encoding/json"
	"strings"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/store"
)

// A game's snapshot is its engine's exported state (JSON), saved by the host once a mail's
// steps are resolved, with the state record it is the state of (one snapshot a mail,
// however many steps it resolved). It is a cache of what the log proves, never a source
// of truth: Restore uses it only when the engine it gives hashes to the log's last state
// record (adjudicator.Game's Encode holds the whole state), and the caller replays the log
// otherwise. Nothing in it reaches a dice key: the dice come from the ledger alone.

// SaveSnapshot saves g as the snapshot of the log's last state record, which g must be the
// state of (the caller has checked its state hash), unless the snapshot kept is of that
// record already. An engine whose state JSON cannot hold is not saved: the game is then
// replayed when its engine is not in memory.
func SaveSnapshot(tx *store.Tx, id ident.GameID, g adjudicator.Game) error {
	i, ok, err := store.LastState(tx, id)
	if err != nil || !ok {
		return err
	}
	if at, ok, err := store.SnapshotAt(tx, id); err != nil || ok && at == i {
		return err
	}
	data, err := json.Marshal(g)
	if err != nil {
		return nil
	}
	return store.PutSnapshot(tx, id, i, data)
}

// Restore rebuilds a game's engine from its snapshot when that is the state of the log as it
// stands: the snapshot is of the log's last state record, no close record follows that
// record, and the restored engine's state hash is the record's. It reads the genesis
// record, the records after the last state record and the snapshot, never the whole log.
// It returns nil when the snapshot cannot serve (none, or of another state, or not
// hashing to the state record): the caller then replays the log (Load).
func Restore(tx *store.Tx, id ident.GameID, rulesets []adjudicator.Ruleset) adjudicator.Game {
	i, ok, err := store.LastState(tx, id)
	if err != nil || !ok {
		return nil
	}
	at, data, ok, err := store.Snapshot(tx, id)
	if err != nil || !ok || at != i {
		return nil
	}
	size, err := store.Len(tx, id)
	if err != nil || i >= size || closedSince(tx, id, i) {
		return nil
	}
	want := ledger.LastStateHash(tx, id, size)
	genesis, err := store.Record(tx, id, 0)
	if err != nil || want == nil {
		return nil
	}
	g, err := newFromGenesis(&genesis, rulesets)
	if err != nil || json.Unmarshal(data, g) != nil {
		return nil
	}
	if got := adjudicator.StateHash(g); !bytes.Equal(got[:], want) {
		return nil
	}
	return g
}

// closedSince reports whether a close record follows record i (or the log cannot be read).
func closedSince(tx *store.Tx, id ident.GameID, i uint64) bool {
	closed := false
	err := store.RecordsFrom(tx, id, i+1, func(_ uint64, raw []byte, _ ident.Hash) error {
		closed = closed || bytes.HasPrefix(raw, []byte("type "+gamelog.TypeClose+"\n"))
		return nil
	})
	return closed || err != nil
}

// newFromGenesis sets up the game the genesis record g describes, as replay starts it.
func newFromGenesis(g *gamelog.Record, rulesets []adjudicator.Ruleset) (adjudicator.Game, error) {
	rs, err := EngineOf(g, rulesets)
	if err != nil {
		return nil, err
	}
	cfg := adjudicator.Config{Scenario: g.Get("scenario"), Options: strings.Fields(g.Get("options"))}
	if g.Has("tables") {
		cfg.Tables = map[string][]byte{rs.ID(): g.Bytes("tables")}
	}
	return rs.New(cfg)
}
