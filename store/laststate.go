package store

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"navarch/gamelog"
	"navarch/ident"
)

// bucketGState indexes each game's last state record: id → u64(index). Append keeps it, so
// that finding the state a game's log stands at reads one key, not the log backwards.
var bucketGState = []byte("gstate")

// isStateRecord reports whether rec holds a state hash: a state record, or a sealed record
// withholding one.
func isStateRecord(rec *gamelog.Record) bool {
	return rec.Type == gamelog.TypeState || rec.Type == gamelog.TypeSealed && rec.Get("what") == gamelog.TypeState
}

// noteState indexes rec, just appended at index i, if it is a state record.
func noteState(tx *Tx, id ident.GameID, i uint64, rec *gamelog.Record) error {
	if !isStateRecord(rec) {
		return nil
	}
	return tx.put(tx.tx.Bucket(bucketGState), id[:], u64(i))
}

// LastState returns the index of the last state record (or sealed state record) of a game's
// log, and false if the log has none.
func LastState(tx *Tx, id ident.GameID) (uint64, bool, error) {
	if err := exists(tx, id); err != nil {
		return 0, false, err
	}
	v := tx.tx.Bucket(bucketGState).Get(id[:])
	if len(v) != 8 {
		return 0, false, nil
	}
	return binary.BigEndian.Uint64(v), true, nil
}

// RecordsFrom calls fn for each record of a game from index from on, in index order, with a
// copy of its bytes and its cached leaf: a seek to from, so that the records before it cost
// nothing. It stops at fn's first error.
func RecordsFrom(tx *Tx, id ident.GameID, from uint64, fn func(i uint64, raw []byte, leaf ident.Hash) error) error {
	if err := exists(tx, id); err != nil {
		return err
	}
	// The chain bucket holds each record's leaf under the record's key: a second cursor walks
	// it beside the log's, where a lookup a record would search the tree from its root.
	start := gkey(id, u64(from))
	chain := tx.tx.Bucket(bucketGChain).Cursor()
	ck, cv := chain.Seek(start)
	c := tx.tx.Bucket(bucketGLog).Cursor()
	for k, v := c.Seek(start); k != nil && bytes.HasPrefix(k, id[:]); k, v = c.Next() {
		if len(k) != len(id)+8 {
			continue
		}
		for ck != nil && bytes.Compare(ck, k) < 0 {
			ck, cv = chain.Next()
		}
		var leaf ident.Hash
		if bytes.Equal(ck, k) {
			copy(leaf[:], cv)
		}
		if err := fn(binary.BigEndian.Uint64(k[len(id):]), bytes.Clone(v), leaf); err != nil {
			return err
		}
	}
	return nil
}

// upgradeLastState (schema 7 → 8) indexes every game's last state record, found by reading
// its log backwards from the end to the first record that holds a state hash, and makes the
// bucket of snapshots (none yet: the first step a game resolves writes its first).
func upgradeLastState(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketGSnap); err != nil {
		return err
	}
	idx, err := tx.CreateBucketIfNotExists(bucketGState)
	if err != nil {
		return err
	}
	ids := tx.Bucket(bucketGameIDs)
	logs := tx.Bucket(bucketGLog).Cursor()
	return ids.ForEach(func(id, _ []byte) error {
		if len(id) != len(ident.GameID{}) {
			return nil
		}
		k := lastKey(tx.Bucket(bucketGLog), id)
		if k == nil {
			return nil
		}
		for k, v := logs.Seek(k); k != nil && bytes.HasPrefix(k, id); k, v = logs.Prev() {
			if len(k) != len(id)+8 {
				continue
			}
			rec, err := gamelog.Parse(bytes.Clone(v))
			if err != nil {
				return fmt.Errorf("game %x record %d: %w", id, binary.BigEndian.Uint64(k[len(id):]), err)
			}
			if isStateRecord(&rec) {
				return idx.Put(bytes.Clone(id), u64(rec.Index))
			}
		}
		return nil
	})
}

// RecordsBack calls fn for each record of a game before index before, from the last
// backwards, with a copy of its bytes, until fn returns false or an error.
func RecordsBack(tx *Tx, id ident.GameID, before uint64, fn func(i uint64, raw []byte) (bool, error)) error {
	if err := exists(tx, id); err != nil {
		return err
	}
	c := tx.tx.Bucket(bucketGLog).Cursor()
	var k, v []byte
	if k, _ = c.Seek(gkey(id, u64(before))); k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, id[:]); k, v = c.Prev() {
		if len(k) != len(id)+8 || binary.BigEndian.Uint64(k[len(id):]) >= before {
			continue
		}
		i := binary.BigEndian.Uint64(k[len(id):])
		more, err := fn(i, bytes.Clone(v))
		if err != nil || !more {
			return err
		}
	}
	return nil
}
