package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"navarch/ident"
)

// Indexes that spare the daemon a read of every game (10,000 games on one small
// machine): when each game next needs the deadline pass, and which games each address plays.
//
//	due/      u64(unix ns) ‖ game id → empty: the moment the deadline pass must next look at
//	          the game (a game with nothing to wait for has no entry)
//	dueof/    game id → u64(unix ns): the game's entry in due/, so that it can be moved
//	players/  address ‖ 0x00 ‖ game id → 1: the games an address plays or played
//
// The moments are the host's to compute (what a deadline, a reminder or a pause means); the
// store keeps them, and keeps with them (meta/ state:due-stamp) a stamp the host chooses for
// the way it computed them, so that it can tell an index built another way.
var (
	bucketDue     = []byte("due")
	bucketDueOf   = []byte("dueof")
	bucketPlayers = []byte("players")
)

const stateDueStamp = "state:due-stamp"

// dueKey is the key of a moment: unix nanoseconds, big-endian, so that keys sort by time
// (moments before 1970, such as the zero time, sort first as 0).
func dueKey(at time.Time, id ident.GameID) []byte {
	n := uint64(0)
	if at.After(time.Unix(0, 0)) {
		n = uint64(at.UnixNano())
	}
	return append(u64(n), id[:]...)
}

// PutDue sets the moment at which the deadline pass must next look at a game, replacing
// the game's previous one; with ok false the game leaves the index (nothing to wait for).
func PutDue(tx *Tx, id ident.GameID, at time.Time, ok bool) error {
	due, of := tx.tx.Bucket(bucketDue), tx.tx.Bucket(bucketDueOf)
	old := of.Get(id[:])
	var key []byte
	if ok {
		key = dueKey(at, id)
		if old != nil && bytes.Equal(old, key[:8]) {
			return nil
		}
	}
	if old != nil {
		if err := due.Delete(append(bytes.Clone(old), id[:]...)); err != nil {
			return fmt.Errorf("due index of game %x: %w", id[:], err)
		}
		if !ok {
			if err := of.Delete(id[:]); err != nil {
				return fmt.Errorf("due index of game %x: %w", id[:], err)
			}
		}
	}
	if !ok {
		return nil
	}
	if err := tx.put(due, key, nil); err != nil {
		return fmt.Errorf("due index of game %x: %w", id[:], err)
	}
	if err := tx.put(of, id[:], key[:8]); err != nil {
		return fmt.Errorf("due index of game %x: %w", id[:], err)
	}
	return nil
}

// Due lists the games whose moment is at or before now, earliest first: the pass reads the
// index's due entries and nothing else.
func Due(tx *Tx, now time.Time) []ident.GameID {
	var out []ident.GameID
	limit := dueKey(now, ident.GameID{})[:8]
	c := tx.tx.Bucket(bucketDue).Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:8], limit) <= 0; k, _ = c.Next() {
		if len(k) == 8+len(ident.GameID{}) {
			out = append(out, ident.GameID(k[8:]))
		}
	}
	return out
}

// DueIndex returns every indexed game's moment (for checks and tests; it reads the index
// whole).
func DueIndex(tx *Tx) map[ident.GameID]time.Time {
	out := map[ident.GameID]time.Time{}
	tx.tx.Bucket(bucketDue).ForEach(func(k, _ []byte) error {
		if len(k) == 8+len(ident.GameID{}) {
			out[ident.GameID(k[8:])] = time.Unix(0, int64(binary.BigEndian.Uint64(k))).UTC()
		}
		return nil
	})
	return out
}

// DueStamp returns the stamp stored with the due index ("" for an index the host has not
// built, such as the one an upgrade made).
func DueStamp(tx *Tx) string { return string(tx.tx.Bucket(bucketMeta).Get([]byte(stateDueStamp))) }

// PutDueStamp stores the stamp of the due index.
func PutDueStamp(tx *Tx, stamp string) error {
	return tx.put(tx.tx.Bucket(bucketMeta), []byte(stateDueStamp), []byte(stamp))
}

// AddPlayerGame indexes a game under an address that plays it. Entries are never taken
// out (an address replaced or a game over stays listed): PlayerGames is a lookup aid, and
// its caller reads each game it names. An empty address, or one with a NUL, is not indexed
// (and no error: a game's save must not fail for it).
func AddPlayerGame(tx *Tx, address string, id ident.GameID) error {
	if address == "" || bytes.IndexByte([]byte(address), 0) >= 0 {
		return nil
	}
	b := tx.tx.Bucket(bucketPlayers)
	k := append(append([]byte(address), 0), id[:]...)
	if b.Get(k) != nil {
		return nil
	}
	return tx.put(b, k, []byte{1})
}

// PlayerGames returns the games indexed under an address, in id order.
func PlayerGames(tx *Tx, address string) []ident.GameID {
	var out []ident.GameID
	prefix := append([]byte(address), 0)
	c := tx.tx.Bucket(bucketPlayers).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) == len(prefix)+len(ident.GameID{}) {
			out = append(out, ident.GameID(k[len(prefix):]))
		}
	}
	return out
}

// upgradeIndexes (part of schema 4 → 5, after flattenGames) makes the due and players
// indexes, and the outbox's dictionaries (mail.go). Every game enters the
// due index at the earliest moment, to be looked at by the first deadline pass (the store
// cannot tell a game's deadlines; the host then sets each game's true moment, and rebuilds
// the index whole when the stamp is not its own). The players index is built from every
// game's settings; a game whose settings cannot be read fails the upgrade.
func upgradeIndexes(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketDue, bucketDueOf, bucketPlayers, bucketOutDict, bucketOutDictUse, bucketOutDictClass, bucketOutboxNow} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	if err := tx.Bucket(bucketOutbox).ForEach(func(k, _ []byte) error { // all queued before: in order
		return tx.Bucket(bucketOutboxNow).Put(k, nil)
	}); err != nil {
		return err
	}
	due, of, players := tx.Bucket(bucketDue), tx.Bucket(bucketDueOf), tx.Bucket(bucketPlayers)
	meta := tx.Bucket(bucketGMetaAll)
	return tx.Bucket(bucketGameIDs).ForEach(func(k, _ []byte) error {
		if len(k) != len(ident.GameID{}) {
			return nil
		}
		id := ident.GameID(k)
		if err := due.Put(dueKey(time.Time{}, id), nil); err != nil {
			return err
		}
		if err := of.Put(id[:], u64(0)); err != nil {
			return err
		}
		settings, err := readSettingsV0(meta.Get(gkey(id, []byte(metaSettings))))
		if err != nil {
			return fmt.Errorf("game %x: %w", id[:], err)
		}
		for _, p := range settings.Players {
			if p.Address != "" && bytes.IndexByte([]byte(p.Address), 0) < 0 {
				if err := players.Put(append(append([]byte(p.Address), 0), id[:]...), []byte{1}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// Used is the size of the file's pages up to the highest in use, free pages among them
// included (the file may be larger: bbolt grows it ahead, and never shrinks it); for
// benchmarks and the operator.
func Used(tx *Tx) int64 { return tx.tx.Size() }
