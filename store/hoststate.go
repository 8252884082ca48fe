package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"navarch/ident"
)

// The keys the host keeps its own state under. The store owns them: callers use the typed
// functions below, and migrations (schema.go) know every layout they ever had.
const (
	stateTag  = "state:tag:"  // meta/: state:tag:<tag> → game id (the tag index)
	stateIMAP = "state:imap:" // meta/: state:imap:<mailbox> → u32 UIDVALIDITY ‖ u32 last UID
	// metaSettings is a game's settings in its meta bucket, a JSON object whose "tag" field
	// is the game's tag (the tag index is rebuilt from it by a migration).
	metaSettings = "host"
	secretKey    = "key/" // a game's secret/: key/<player> → the player's order key
)

var bucketRates = []byte("rates") // u32(unix hour) ‖ key → u32 count

// PutSettings stores a game's settings as given and indexes its tag, so that GameByTag finds
// the game without reading every game. SaveGame writes through it; tests call it to store
// settings that do not read.
func PutSettings(tx *Tx, id ident.GameID, tag string, settings []byte) error {
	if err := PutMeta(tx, id, metaSettings, settings); err != nil {
		return fmt.Errorf("game %x settings: %w", id[:], err)
	}
	meta := tx.tx.Bucket(bucketMeta)
	if k := []byte(stateTag + tag); !bytes.Equal(meta.Get(k), id[:]) {
		if err := tx.put(meta, k, id[:]); err != nil {
			return fmt.Errorf("index tag %s: %w", tag, err)
		}
	}
	return nil
}

// Settings returns a copy of a game's settings as stored, or nil if none were (for tests and
// tools that compare bytes; LoadGame reads them).
func Settings(tx *Tx, id ident.GameID) ([]byte, error) {
	return Meta(tx, id, metaSettings)
}

// GameByTag returns the game the tag index names for tag, if any. The index is a lookup aid:
// the caller checks the game's settings carry the tag.
func GameByTag(tx *Tx, tag string) (ident.GameID, bool) {
	v := tx.tx.Bucket(bucketMeta).Get([]byte(stateTag + tag))
	if len(v) != len(ident.GameID{}) {
		return ident.GameID{}, false
	}
	return ident.GameID(v), true
}

// PutPlayerKey stores a player's secret order key (never exported).
func PutPlayerKey(tx *Tx, id ident.GameID, player, key string) error {
	return PutSecret(tx, id, secretKey+player, []byte(key))
}

// PlayerKey returns a player's secret order key, or "" if the player has none.
func PlayerKey(tx *Tx, id ident.GameID, player string) (string, error) {
	v, err := Secret(tx, id, secretKey+player)
	return string(v), err
}

// IMAPCursor is where the intake left off in a mailbox (RFC 3501 UIDVALIDITY and the last
// UID handled).
type IMAPCursor struct{ UIDValidity, LastUID uint32 }

// PutCursor stores the intake's cursor for a mailbox.
func PutCursor(tx *Tx, mailbox string, c IMAPCursor) error {
	v := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, c.UIDValidity), c.LastUID)
	return tx.put(tx.tx.Bucket(bucketMeta), []byte(stateIMAP+mailbox), v)
}

// Cursor returns the intake's cursor for a mailbox; the zero cursor if none was stored.
func Cursor(tx *Tx, mailbox string) IMAPCursor {
	v := tx.tx.Bucket(bucketMeta).Get([]byte(stateIMAP + mailbox))
	if len(v) != 8 {
		return IMAPCursor{}
	}
	return IMAPCursor{binary.BigEndian.Uint32(v), binary.BigEndian.Uint32(v[4:])}
}

// CountHour adds one to key's counter for the UTC hour holding at, and returns the count in
// that hour so far. Counters of hours before the previous one are deleted as it goes, so the
// counters never outgrow two hours of senders.
func CountHour(tx *Tx, key string, at time.Time) (int, error) {
	b := tx.tx.Bucket(bucketRates)
	hour := unixHour(at)
	if err := expireHours(b, hour-1); err != nil {
		return 0, fmt.Errorf("expire rate counters: %w", err)
	}
	k := append(binary.BigEndian.AppendUint32(nil, hour), key...)
	n := uint32(0)
	if v := b.Get(k); len(v) == 4 {
		n = binary.BigEndian.Uint32(v)
	}
	n++
	if err := tx.put(b, k, binary.BigEndian.AppendUint32(nil, n)); err != nil {
		return 0, fmt.Errorf("count %s: %w", key, err)
	}
	return int(n), nil
}

// HourCounters returns how many counters are kept (for tests and the operator).
func HourCounters(tx *Tx) int {
	n := 0
	c := tx.tx.Bucket(bucketRates).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	return n
}

func unixHour(t time.Time) uint32 { return uint32(t.Unix() / 3600) }

// expireHours deletes the counters of hours before keep.
func expireHours(b *bolt.Bucket, keep uint32) error {
	var old [][]byte
	c := b.Cursor()
	for k, _ := c.First(); k != nil && binary.BigEndian.Uint32(k) < keep; k, _ = c.Next() {
		old = append(old, bytes.Clone(k))
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
