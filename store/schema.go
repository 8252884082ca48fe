package store

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Top-level buckets.
var (
	bucketMeta      = []byte("meta")
	bucketGames     = []byte("games")
	bucketProcessed = []byte("processed")
	bucketOutbox    = []byte("outbox")
	bucketParked    = []byte("parked")
)

// upgrades[i] brings a database from schema version i to i+1. Append only; never edit a
// step that has shipped.
var upgrades = []func(*bolt.Tx) error{
	func(tx *bolt.Tx) error { // 0 → 1: the initial layout
		for _, b := range [][]byte{bucketMeta, bucketGames, bucketProcessed, bucketOutbox} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	},
	func(tx *bolt.Tx) error { // 1 → 2: mails set aside after our own failures
		_, err := tx.CreateBucketIfNotExists(bucketParked)
		return err
	},
}

// SchemaVersion is the layout this build writes.
var SchemaVersion = uint64(len(upgrades))

func schemaOf(tx *bolt.Tx) uint64 {
	b := tx.Bucket(bucketMeta)
	if b == nil {
		return 0
	}
	v := b.Get([]byte("schema"))
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func checkVersion(tx *Tx) error {
	if v := schemaOf(tx.tx); v != SchemaVersion {
		return fmt.Errorf("store schema version %d, this navarch reads version %d", v, SchemaVersion)
	}
	return nil
}

func upgrade(tx *Tx) error {
	v := schemaOf(tx.tx)
	if v > SchemaVersion {
		return fmt.Errorf("store schema version %d is newer than this navarch (%d): upgrade navarch", v, SchemaVersion)
	}
	for ; v < SchemaVersion; v++ {
		if err := upgrades[v](tx.tx); err != nil {
			return fmt.Errorf("upgrade schema %d to %d: %w", v, v+1, err)
		}
		if err := tx.tx.Bucket(bucketMeta).Put([]byte("schema"), u64(v+1)); err != nil {
			return err
		}
	}
	return nil
}

func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }
