package store

import (
	"bytes"
	"crypto/rand"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The Message-ID key (meta/ msgid-key, 32 bytes, since schema 6) is the installation's
// secret for the Message-IDs it writes: the host puts a MAC under it in each one, so that it
// knows its own mail by the Message-ID alone, and no one else's, whatever domain they share.
const metaMsgIDKey = "msgid-key"

// MessageIDKey returns the installation's Message-ID key (made when the file was opened
// for writing by schema 6).
func MessageIDKey(tx *Tx) ([]byte, error) {
	k := tx.tx.Bucket(bucketMeta).Get([]byte(metaMsgIDKey))
	if len(k) != msgIDKeySize {
		return nil, fmt.Errorf("store: no Message-ID key")
	}
	return bytes.Clone(k), nil
}

// PutMessageIDKey sets the Message-ID key, for restoring an installation onto a new
// database (its mail in flight is then still its own) and for tests that need the same key
// twice.
func PutMessageIDKey(tx *Tx, key []byte) error {
	if len(key) != msgIDKeySize {
		return fmt.Errorf("store: a Message-ID key has %d bytes", msgIDKeySize)
	}
	return tx.put(tx.tx.Bucket(bucketMeta), []byte(metaMsgIDKey), key)
}

const msgIDKeySize = 32

// makeMessageIDKey (part of schema 5 → 6) makes the key where there is none.
func makeMessageIDKey(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if len(meta.Get([]byte(metaMsgIDKey))) == msgIDKeySize {
		return nil
	}
	k := make([]byte, msgIDKeySize)
	if _, err := rand.Read(k); err != nil {
		return fmt.Errorf("make the Message-ID key: %w", err)
	}
	return meta.Put([]byte(metaMsgIDKey), k)
}
