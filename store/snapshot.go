package store

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"io"

	"navarch/ident"
)

// bucketGSnap keeps each game's snapshot: id → u64(index of the state record it is the state
// of) ‖ the engine's saved state, deflated at BestSpeed (a full battle's 76 KB of JSON
// become some 6 KB: a snapshot is written with a mail once the log has moved some records
// past it, play.SnapshotEvery). A snapshot is a cache of what the log proves: whoever
// restores an engine from it checks it against that state record's hash, re-runs the steps
// closed since, and replays the log when the result does not match (play.Restore).
var bucketGSnap = []byte("gsnap")

// PutSnapshot keeps data as the game's snapshot of the state its state record at index i
// holds, in place of any before it.
func PutSnapshot(tx *Tx, id ident.GameID, i uint64, data []byte) error {
	if err := exists(tx, id); err != nil {
		return err
	}
	d, err := tx.s.deflateWith(data, nil)
	if err != nil {
		return err
	}
	return tx.put(tx.tx.Bucket(bucketGSnap), id[:], append(u64(i), d...))
}

// Snapshot returns the game's snapshot and the index of the state record it is of, or false
// if it has none or it does not inflate.
func Snapshot(tx *Tx, id ident.GameID) (uint64, []byte, bool, error) {
	if err := exists(tx, id); err != nil {
		return 0, nil, false, err
	}
	v := tx.tx.Bucket(bucketGSnap).Get(id[:])
	if len(v) < 8 {
		return 0, nil, false, nil
	}
	data, err := io.ReadAll(flate.NewReader(bytes.NewReader(v[8:])))
	if err != nil {
		return 0, nil, false, nil
	}
	return binary.BigEndian.Uint64(v), data, true, nil
}

// SnapshotAt returns the index of the state record the game's snapshot is of, or false if
// it has none, without copying the snapshot.
func SnapshotAt(tx *Tx, id ident.GameID) (uint64, bool, error) {
	if err := exists(tx, id); err != nil {
		return 0, false, err
	}
	v := tx.tx.Bucket(bucketGSnap).Get(id[:])
	if len(v) < 8 {
		return 0, false, nil
	}
	return binary.BigEndian.Uint64(v), true, nil
}
