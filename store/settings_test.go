package store

import (
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"navarch/ident"
)

// schema9 writes a database as schema 9 left it: each game's settings in version 0, as given.
func schema9(t *testing.T, path string, games map[ident.GameID]string) {
	t.Helper()
	s := open(t, path)
	tcheck(t, s.Update(func(tx *Tx) error {
		for id, settings := range games {
			if err := CreateGame(tx, id); err != nil {
				return err
			}
			if err := PutSettings(tx, id, "", []byte(settings)); err != nil {
				return err
			}
		}
		return tx.tx.Bucket(bucketMeta).Put([]byte("schema"), u64(9))
	}), "write a schema 9 database")
	s.Close()
}

// TestUpgradeSettingsV1: Open brings a schema 9 file's settings (version 0) to version 1: a
// deadline or reminder in hours becomes the same time in minutes, minutes a game had stay
// its times, and everything else reads back as stored.
func TestUpgradeSettingsV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	hours, both, none := ident.GameID{1}, ident.GameID{2}, ident.GameID{3}
	schema9(t, path, map[ident.GameID]string{
		hours: `{"id":"01","tag":"lep-01","status":"playing","deadline_hours":24,"reminder_hours":6,"no_orders":"referee",` +
			`"players":[{"id":"alice","side":"venice","address":"alice@x.org","zone":"Europe/Rome","joined":true}],"seq":7}`,
		both: `{"id":"02","tag":"lep-02","status":"over","deadline_hours":24,"deadline_minutes":90,"reminder_hours":2,"no_reminder":true}`,
		none: `{"id":"03","tag":"med-03","status":"joining"}`,
	})
	s := open(t, path)
	s.View(func(tx *Tx) error {
		if v := schemaOf(tx.tx); v != SchemaVersion {
			t.Errorf("schema %d after the upgrade, want %d", v, SchemaVersion)
		}
		for _, c := range []struct {
			id                 ident.GameID
			status             Status
			deadline, reminder int
			noReminder         bool
		}{{hours, StatusPlaying, 24 * 60, 6 * 60, false}, {both, StatusOver, 90, 2 * 60, true}, {none, StatusJoining, 0, 0, false}} {
			g, err := LoadGame(tx, c.id)
			if err != nil {
				t.Fatalf("game %x: %v", c.id, err)
			}
			if g.Version != SettingsVersion || g.Status != c.status || g.DeadlineMinutes != c.deadline ||
				g.ReminderMinutes != c.reminder || g.NoReminder != c.noReminder {
				t.Errorf("game %x upgraded to %+v", c.id, g)
			}
			raw, _ := Settings(tx, c.id)
			if strings.Contains(string(raw), "_hours") {
				t.Errorf("game %x keeps its hours: %s", c.id, raw)
			}
		}
		g, _ := LoadGame(tx, hours)
		want := Player{ID: "alice", Side: "venice", Address: "alice@x.org", Zone: "Europe/Rome", Joined: true}
		if len(g.Players) != 1 || g.Players[0] != want || g.Seq != 7 || g.NoOrders != NoOrdersReferee || g.Tag != "lep-01" {
			t.Errorf("the upgrade lost settings: %+v", g)
		}
		return nil
	})
	// The upgraded game saves and loads as any other.
	tcheck(t, s.Update(func(tx *Tx) error {
		g, err := LoadGame(tx, hours)
		if err != nil {
			return err
		}
		g.Status = StatusOver
		return SaveGame(tx, hours, g)
	}), "save the upgraded game")
	s.View(func(tx *Tx) error {
		if g, err := LoadGame(tx, hours); err != nil || g.Status != StatusOver || g.DeadlineMinutes != 24*60 {
			t.Errorf("after a save: %+v, %v", g, err)
		}
		return nil
	})
}

// TestUpgradeRefusesUnreadableSettings: a game whose settings do not read fails each
// upgrade that reads settings (the tag index of schema 3, the known addresses of schema 4,
// the players index of schema 5, settings version 1): Open names the game, and the file
// stays at its schema, nothing of the upgrade written.
func TestUpgradeRefusesUnreadableSettings(t *testing.T) {
	bad := ident.GameID{9}
	for _, c := range []struct {
		name   string
		schema uint64
		write  func(tx *bolt.Tx) error
	}{
		{"schema 2", 2, func(tx *bolt.Tx) error {
			if err := tx.DeleteBucket(bucketRates); err != nil {
				return err
			}
			if err := deleteSchema5(tx); err != nil {
				return err
			}
			return nestedGame(tx, bad, `{broken`)
		}},
		{"schema 3", 3, func(tx *bolt.Tx) error {
			if err := deleteSchema5(tx); err != nil {
				return err
			}
			return nestedGame(tx, bad, `{"tag":"x","players":"alice"}`)
		}},
		{"schema 4", 4, func(tx *bolt.Tx) error {
			if err := deleteSchema5(tx); err != nil {
				return err
			}
			return nestedGame(tx, bad, `[1,2]`)
		}},
		{"schema 9", 9, func(tx *bolt.Tx) error {
			if err := tx.Bucket(bucketGameIDs).Put(bad[:], []byte{1}); err != nil {
				return err
			}
			return tx.Bucket(bucketGMetaAll).Put(gkey(bad, []byte(metaSettings)), []byte(`{"deadline_hours":"a day"}`))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "navarch.db")
			s := open(t, path)
			tcheck(t, s.Update(func(tx *Tx) error {
				if err := c.write(tx.tx); err != nil {
					return err
				}
				return tx.tx.Bucket(bucketMeta).Put([]byte("schema"), u64(c.schema))
			}), "write the old file")
			s.Close()
			_, err := Open(path, slog.New(slog.DiscardHandler), Options{Timeout: 100 * time.Millisecond})
			if !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), "090000") {
				t.Fatalf("Open = %v, want the settings error naming game 09…", err)
			}
			db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
			tcheck(t, err, "open the file")
			defer db.Close()
			db.View(func(tx *bolt.Tx) error {
				if v := schemaOf(tx); v != c.schema {
					t.Errorf("the file is at schema %d after the failed upgrade, want %d", v, c.schema)
				}
				return nil
			})
		})
	}
}

// TestLoadGameRefuses: settings that are not the current form are an error wrapping
// ErrSettings, never a game read in part.
func TestLoadGameRefuses(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	for _, settings := range []string{
		`{broken`,
		`{"tag":"x","status":"playing"}`, // version 0
		`{"version":2,"tag":"x","status":"playing"}`, // a newer navarch's
		`{"version":1,"tag":"x","status":"paused"}`,  // no such status
		`{"version":1,"tag":"x"}`,                    // no status
		`{"version":1,"tag":"x","status":"playing","players":{}}`,
	} {
		tcheck(t, s.Update(func(tx *Tx) error {
			if err := CreateGame(tx, testGame); err != nil && !errors.Is(err, ErrGameExists) {
				return err
			}
			return PutSettings(tx, testGame, "x", []byte(settings))
		}), "store settings")
		s.View(func(tx *Tx) error {
			if g, err := LoadGame(tx, testGame); !errors.Is(err, ErrSettings) {
				t.Errorf("LoadGame of %s = %+v, %v; want ErrSettings", settings, g, err)
			}
			return nil
		})
	}
	s.View(func(tx *Tx) error {
		if g, err := LoadGame(tx, ident.GameID{7}); g != nil || !errors.Is(err, ErrNoGame) {
			t.Errorf("LoadGame of no game = %+v, %v", g, err)
		}
		return nil
	})
}

// TestStatusText: each status is its word in the settings and in String; no status and an
// unknown word are errors.
func TestStatusText(t *testing.T) {
	for s, word := range map[Status]string{StatusJoining: "joining", StatusPlaying: "playing", StatusOver: "over"} {
		b, err := json.Marshal(s)
		var back Status
		if err != nil || string(b) != `"`+word+`"` || json.Unmarshal(b, &back) != nil || back != s || s.String() != word {
			t.Errorf("status %d: %s %v, back %d, String %q", s, b, err, back, s.String())
		}
	}
	if _, err := json.Marshal(Status(0)); err == nil {
		t.Error("no status was written")
	}
	var s Status
	if json.Unmarshal([]byte(`"Over"`), &s) == nil {
		t.Error("an unknown status word was read")
	}
}
