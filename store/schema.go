package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"navarch/ident"
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
	upgradeHostState,      // 2 → 3
	upgradeKnownAddresses, // 3 → 4
	upgradeSchema5,        // 4 → 5
	upgradeSchema6,        // 5 → 6
	upgradeOutRetry,       // 6 → 7: each queued mail's retry state (outretry.go)
	upgradeLastState,      // 7 → 8: the index of each game's last state record, snapshots (laststate.go)
	upgradeRounds,         // 8 → 9: the beacon's rounds, fetched and verified (rounds.go)
	upgradeSettingsV1,     // 9 → 10: every game's settings in version 1 (settings.go)
}

// upgradeRounds (schema 8 → 9) makes the bucket of the beacon's rounds.
func upgradeRounds(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketRounds)
	return err
}

// upgradeSchema6 (schema 5 → 6) is the layout that drops no mail in silence: the processed
// index keyed by sender and Message-ID (processed.go), the notes and counts of dropped mail
// (dropped.go), and the key of the Message-IDs navarch writes (msgidkey.go).
func upgradeSchema6(tx *bolt.Tx) error {
	if err := upgradeProcessedKeys(tx); err != nil {
		return fmt.Errorf("key processed mail by sender: %w", err)
	}
	for _, b := range [][]byte{bucketDropped, bucketDropCount} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return makeMessageIDKey(tx)
}

// upgradeSchema5 (schema 4 → 5) moves every game's data to the buckets all games
// share and makes the indexes that spare reading every game.
func upgradeSchema5(tx *bolt.Tx) error {
	if err := flattenGames(tx); err != nil {
		return fmt.Errorf("move games to shared buckets: %w", err)
	}
	return upgradeIndexes(tx)
}

// flattenGames moves each game of the nested layout (games/<id>/log/, chain/, secret/,
// meta/, received/) to the shared buckets, each key prefixed by the game's id, and takes
// the nested buckets out (games/ stays, empty, for the upgrades before this one). A
// sub-bucket a game lacks is no error: received/ came after the first games.
func flattenGames(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketGameIDs, bucketGLog, bucketGChain, bucketGSecret, bucketGMetaAll, bucketGRecv} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	games := tx.Bucket(bucketGames)
	if games == nil {
		return nil
	}
	var ids [][]byte
	err := games.ForEachBucket(func(k []byte) error {
		if len(k) != len(ident.GameID{}) {
			return nil
		}
		ids = append(ids, bytes.Clone(k))
		if err := tx.Bucket(bucketGameIDs).Put(k, []byte{1}); err != nil {
			return err
		}
		g := games.Bucket(k)
		for _, move := range []struct{ from, to []byte }{{bucketLog, bucketGLog}, {bucketChain, bucketGChain},
			{bucketSecret, bucketGSecret}, {bucketGMeta, bucketGMetaAll}, {bucketReceived, bucketGRecv}} {
			sub := g.Bucket(move.from)
			if sub == nil {
				continue
			}
			to := tx.Bucket(move.to)
			if err := sub.ForEach(func(sk, v []byte) error {
				if v == nil {
					return nil // a bucket: the layout had none here
				}
				return to.Put(gkey(ident.GameID(k), sk), bytes.Clone(v))
			}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range ids {
		if err := games.DeleteBucket(k); err != nil {
			return err
		}
	}
	return nil
}

// upgradeHostState (schema 2 → 3) gives the host's state the store's layout: the tag index
// holds every game's tag (games made before the index, and an index left half built, are
// indexed from their settings; a game whose settings cannot be read fails the upgrade), and
// the hourly rate counters, once "state:rate:<sender>:<YYYYMMDDHH>" keys in meta/ that were
// never deleted, move to the rates bucket, which CountHour expires.
func upgradeHostState(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	games := tx.Bucket(bucketGames)
	err := games.ForEachBucket(func(id []byte) error {
		gm := games.Bucket(id).Bucket(bucketGMeta)
		if gm == nil {
			return nil
		}
		settings, err := readSettingsV0(gm.Get([]byte(metaSettings)))
		if err != nil {
			return fmt.Errorf("game %x: %w", id, err)
		}
		if settings.Tag == "" {
			return nil
		}
		return meta.Put([]byte(stateTag+settings.Tag), bytes.Clone(id))
	})
	if err != nil {
		return fmt.Errorf("tag index: %w", err)
	}
	rates, err := tx.CreateBucketIfNotExists(bucketRates)
	if err != nil {
		return err
	}
	var old [][]byte
	c := meta.Cursor()
	prefix := []byte("state:rate:")
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		old = append(old, bytes.Clone(k))
		rest := string(k[len(prefix):])
		i := strings.LastIndexByte(rest, ':')
		hour, perr := time.Parse("2006010215", rest[i+1:])
		if i < 0 || perr != nil || len(v) != 4 {
			continue
		}
		if err := rates.Put(append(binary.BigEndian.AppendUint32(nil, unixHour(hour)), rest[:i]...), bytes.Clone(v)); err != nil {
			return err
		}
	}
	for _, k := range append(old, []byte("state:tag-index")) {
		if err := meta.Delete(k); err != nil {
			return err
		}
	}
	return nil
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
	if v := schemaOf(tx.tx); v < SchemaVersion {
		return fmt.Errorf("store schema version %d, this navarch reads version %d: run navarch serve, or a command that writes, once to upgrade the file", v, SchemaVersion)
	} else if v != SchemaVersion {
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
	return ensureCountBucket(tx.tx) // added to schema 5 before it shipped (figures.go)
}

func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }
