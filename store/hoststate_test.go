package store

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"navarch/ident"
)

// TestCountHour: counts per key and hour, and the counters of hours before the previous one
// are deleted as later hours are counted.
func TestCountHour(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	t0 := time.Date(2026, 11, 30, 10, 5, 0, 0, time.UTC)
	count := func(key string, at time.Time) int {
		t.Helper()
		var n int
		tcheck(t, s.Update(func(tx *Tx) (err error) { n, err = CountHour(tx, key, at); return err }), "count")
		return n
	}
	counters := func() (n int) {
		s.View(func(tx *Tx) error { n = HourCounters(tx); return nil })
		return n
	}
	for i, c := range []struct {
		key  string
		at   time.Time
		want int
	}{
		{"a@x", t0, 1}, {"a@x", t0.Add(50 * time.Minute), 2}, {"b@x", t0, 1},
		{"a@x", t0.Add(time.Hour), 1}, // 11:05: a new hour
		{"a@x", t0.Add(65 * time.Minute), 2},
	} {
		if got := count(c.key, c.at); got != c.want {
			t.Errorf("count %d (%s at %s) = %d, want %d", i, c.key, c.at.Format("15:04"), got, c.want)
		}
	}
	if n := counters(); n != 3 {
		t.Errorf("%d counters after two hours, want 3", n)
	}
	count("c@x", t0.Add(2*time.Hour)) // 12:05: the 10:00 counters go
	if n := counters(); n != 2 {
		t.Errorf("%d counters at 12:05, want 2 (11:00 a@x, 12:00 c@x)", n)
	}
	count("c@x", t0.Add(30*time.Hour))
	if n := counters(); n != 1 {
		t.Errorf("%d counters a day later, want 1", n)
	}
}

// TestTagIndex: settings index the game's tag; a game's settings read back.
func TestTagIndex(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := CreateGame(tx, testGame); err != nil {
			return err
		}
		return PutSettings(tx, testGame, "lep-1", []byte(`{"tag":"lep-1"}`))
	}), "put")
	s.View(func(tx *Tx) error {
		if id, ok := GameByTag(tx, "lep-1"); !ok || id != testGame {
			t.Errorf("GameByTag = %x, %t", id, ok)
		}
		if _, ok := GameByTag(tx, "lep-2"); ok {
			t.Error("an unknown tag is found")
		}
		if v, err := Settings(tx, testGame); err != nil || string(v) != `{"tag":"lep-1"}` {
			t.Errorf("settings %q, %v", v, err)
		}
		return nil
	})
}

// TestUpgradeHostState: a schema 2 database (tags indexed only in part, rate counters as
// meta keys that were never deleted) is brought to the store's layout by Open.
func TestUpgradeHostState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	other := ident.GameID{9}
	tcheck(t, s.Update(func(tx *Tx) error {
		if err := nestedGame(tx.tx, testGame, `{"id":"01","tag":"old-1"}`); err != nil {
			return err
		}
		if err := nestedGame(tx.tx, other, `{"id":"09"}`); err != nil { // no tag: not indexed
			return err
		}
		meta := tx.tx.Bucket(bucketMeta)
		for k, v := range map[string][]byte{
			"state:tag-index":               {1},
			"state:rate:a@x.org:2026113010": binary.BigEndian.AppendUint32(nil, 7),
			"state:rate:b@x.org:2025010100": binary.BigEndian.AppendUint32(nil, 2),
			"state:rate:garbled":            {1},
			"state:imap:INBOX":              make([]byte, 8),
			"schema":                        u64(2),
		} {
			if err := meta.Put([]byte(k), v); err != nil {
				return err
			}
		}
		if err := tx.tx.DeleteBucket(bucketRates); err != nil {
			return err
		}
		return deleteSchema5(tx.tx)
	}), "write a schema 2 database")
	s.Close()
	s = open(t, path)
	s.View(func(tx *Tx) error {
		if v := schemaOf(tx.tx); v != SchemaVersion {
			t.Errorf("schema %d after the upgrade", v)
		}
		if id, ok := GameByTag(tx, "old-1"); !ok || id != testGame {
			t.Errorf("the old game's tag is not indexed: %x %t", id, ok)
		}
		meta := tx.tx.Bucket(bucketMeta)
		for _, k := range []string{"state:tag-index", "state:rate:a@x.org:2026113010", "state:rate:garbled"} {
			if meta.Get([]byte(k)) != nil {
				t.Errorf("%s is still in meta/", k)
			}
		}
		if meta.Get([]byte("state:imap:INBOX")) == nil {
			t.Error("the IMAP cursor was lost")
		}
		if n := HourCounters(tx); n != 2 {
			t.Errorf("%d rate counters moved, want 2", n)
		}
		return nil
	})
	tcheck(t, s.Update(func(tx *Tx) error {
		n, err := CountHour(tx, "a@x.org", time.Date(2026, 11, 30, 10, 30, 0, 0, time.UTC))
		if n != 8 {
			t.Errorf("a@x.org's count this hour after the upgrade: %d, want 8", n)
		}
		if HourCounters(tx) != 1 {
			t.Errorf("the 2025 counter did not expire")
		}
		return err
	}), "count")
}

// nestedGame writes a game as the layout before schema 5 kept it (games/<id>/ with log/,
// chain/, secret/ and meta/ holding the settings), for the upgrades' tests.
func nestedGame(tx *bolt.Tx, id ident.GameID, settings string) error {
	games, err := tx.CreateBucketIfNotExists(bucketGames)
	if err != nil {
		return err
	}
	g, err := games.CreateBucket(id[:])
	if err != nil {
		return err
	}
	for _, name := range [][]byte{bucketLog, bucketChain, bucketSecret, bucketGMeta} {
		if _, err := g.CreateBucket(name); err != nil {
			return err
		}
	}
	return g.Bucket(bucketGMeta).Put([]byte(metaSettings), []byte(settings))
}

// deleteSchema5 takes out the buckets schema 5 made, for a test writing an older file.
func deleteSchema5(tx *bolt.Tx) error {
	for _, b := range [][]byte{bucketGameIDs, bucketGLog, bucketGChain, bucketGSecret, bucketGMetaAll, bucketGRecv,
		bucketDue, bucketDueOf, bucketPlayers, bucketOutDict, bucketOutDictUse, bucketOutDictClass, bucketOutboxNow,
		bucketGCount} {
		if err := tx.DeleteBucket(b); err != nil {
			return fmt.Errorf("delete %s: %w", b, err)
		}
	}
	return nil
}
