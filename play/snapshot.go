package play

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"navarch/adjudicator"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/store"
)

// A game's snapshot is its engine's exported state (JSON), saved by the host with a mail's
// transaction once the log has moved SnapshotEvery records past the state record the
// snapshot kept is of (at most one snapshot a mail, however many steps it resolved), with
// the state record it is the state of. It is a cache of what the log proves, never a source
// of truth: Restore uses it only when the engine it gives hashes to that state record
// (adjudicator.Game's Encode holds the whole state), re-runs on it the steps the log closed
// since, as replay does, and keeps it only when it then hashes to the log's last state
// record; the caller replays the log otherwise. Nothing in it reaches a dice key: the dice
// come from the ledger alone.

// SnapshotEvery is how many records the log moves on past its snapshot's state record before
// the next mail saves a new one: a restore then re-runs at most the steps of about that many
// records (a few steps; Lions at Sea's take 5 to 30 records), and a mail pays for encoding
// and deflating the engine (a third of a step's time) once in several mails.
const SnapshotEvery = 64

// maxForward bounds the records after a snapshot's state record that Restore reads and
// re-runs: a snapshot older than that is not used (the log is replayed, and the next mail
// saves a fresh one).
const maxForward = 4 * SnapshotEvery

// SaveSnapshot saves g as the snapshot of the log's last state record, which g must be the
// state of (the caller has checked its state hash), when the game has none or the log has
// moved SnapshotEvery records past the one it has. An engine whose state JSON cannot hold is
// not saved: the game is then replayed when its engine is not in memory.
func SaveSnapshot(tx *store.Tx, id ident.GameID, g adjudicator.Game) error {
	return saveSnapshot(tx, id, g, SnapshotEvery)
}

// ReplaceSnapshot is SaveSnapshot however recent the snapshot kept is (unless it is of the
// log's last state record already): for an engine the log was replayed for, whose snapshot
// could not serve.
func ReplaceSnapshot(tx *store.Tx, id ident.GameID, g adjudicator.Game) error {
	return saveSnapshot(tx, id, g, 1)
}

func saveSnapshot(tx *store.Tx, id ident.GameID, g adjudicator.Game, every uint64) error {
	i, ok, err := store.LastState(tx, id)
	if err != nil || !ok {
		return err
	}
	if at, ok, err := store.SnapshotAt(tx, id); err != nil || ok && at <= i && i-at < every {
		return err
	}
	data, err := json.Marshal(g)
	if err != nil {
		return nil
	}
	return store.PutSnapshot(tx, id, i, data)
}

// Restore rebuilds a game's engine from its snapshot when that gives the state of the log as
// it stands: the snapshot's engine hashes to the state record it is of, the steps the log
// closed after that record re-run on it as replay re-runs them (at most maxForward records
// of them), no close record follows the log's last state record, and the engine then hashes
// to that record. It reads the genesis record, the records after the snapshot's state record
// and the snapshot, never the whole log. It returns nil when the snapshot cannot serve
// (none, or not hashing to its state record or to the last, or too old): the caller then
// replays the log (Load).
func Restore(tx *store.Tx, id ident.GameID, rulesets []adjudicator.Ruleset) adjudicator.Game {
	return restore(tx, id, rulesets, maxForward)
}

// RestoreCurrent is Restore of a snapshot of the log's last state record only: it re-runs no
// step and reads the records of the current step, not more (for a write transaction, which
// rebuilds the engine outside the lock when this cannot serve).
func RestoreCurrent(tx *store.Tx, id ident.GameID, rulesets []adjudicator.Ruleset) adjudicator.Game {
	return restore(tx, id, rulesets, 0)
}

// restore is Restore of a snapshot at most back records before the last state record.
func restore(tx *store.Tx, id ident.GameID, rulesets []adjudicator.Ruleset, back uint64) adjudicator.Game {
	i, ok, err := store.LastState(tx, id)
	if err != nil || !ok {
		return nil
	}
	at, data, ok, err := store.Snapshot(tx, id)
	if err != nil || !ok || at > i || i-at > back {
		return nil
	}
	size, err := store.Len(tx, id)
	if err != nil || i >= size || closedSince(tx, id, i) {
		return nil
	}
	genesis, err := store.Record(tx, id, 0)
	if err != nil {
		return nil
	}
	g, err := newFromGenesis(&genesis, rulesets)
	if err != nil || json.Unmarshal(data, g) != nil {
		return nil
	}
	if got, want := adjudicator.StateHash(g), ledger.StateHashAt(tx, id, at); want == nil || !bytes.Equal(got[:], want) {
		return nil
	}
	if at < i && forward(tx, id, &genesis, g, at+1) != nil {
		return nil
	}
	want := ledger.LastStateHash(tx, id, size)
	if got := adjudicator.StateHash(g); want == nil || !bytes.Equal(got[:], want) {
		return nil
	}
	return g
}

// forward re-runs on g, the engine at the state record before record from, the steps the
// log closes from there on, as Replay does (the rolls the engine asks for must be the logged
// ones, each record it writes the logged one), with the records as the referee's copy holds
// them; a standing record a step uses that lies before from is read where it lies.
func forward(tx *store.Tx, id ident.GameID, genesis *gamelog.Record, g adjudicator.Game, from uint64) error {
	f := &gamelog.File{Format: genesis.Get("format"), View: ledger.View{Full: true}.Name(),
		Entries: []gamelog.Entry{{Index: 0, Record: genesis}}}
	err := ledger.Entries(tx, id, from, func(e gamelog.Entry) error {
		f.Entries = append(f.Entries, e)
		return nil
	})
	if err != nil {
		return err
	}
	rp := &replayer{f: f, rep: &ReplayReport{}, players: map[uint64]string{}, defaults: map[uint64]bool{}, g: g, resumed: true}
	rp.setUp(genesis)
	rp.earlier = func(i uint64) *gamelog.Record {
		var in *gamelog.Record
		ledger.Entries(tx, id, i, func(e gamelog.Entry) error {
			if e.Index == i && e.Record.Type == gamelog.TypeSealed && e.Record.Get("what") == gamelog.TypeStanding {
				in = e.Inner
			}
			return errStop
		})
		return in
	}
	for rp.i = 1; rp.i < len(f.Entries); rp.i++ {
		if err := rp.entry(); err != nil {
			return err
		}
	}
	if rp.rep.Incomplete != "" {
		return errors.New(rp.rep.Incomplete)
	}
	return nil
}

// errStop ends a reading early.
var errStop = errors.New("stop")

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
