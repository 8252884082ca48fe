package store

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestParkKeepsOrderAndDedupes(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	at := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	tcheck(t, s.Update(func(tx *Tx) error {
		for _, k := range []string{"<b@x>", "<a@x>", "<b@x>"} {
			fresh, err := Park(tx, ParkedMail{Key: k, Cause: "boom", At: at, Attempts: 5, Raw: []byte("mail " + k)})
			if err != nil {
				return err
			}
			if want := k == "<a@x>" || len(Parked(tx)) == 1; fresh != want {
				t.Errorf("Park(%s) fresh = %v, want %v", k, fresh, want)
			}
		}
		_, err := Park(tx, ParkedMail{})
		if err == nil {
			t.Error("a mail without a key was parked")
		}
		return nil
	}), "park")
	var got []ParkedMail
	s.View(func(tx *Tx) error { got = Parked(tx); return nil })
	if len(got) != 2 || got[0].Key != "<b@x>" || got[1].Key != "<a@x>" || string(got[1].Raw) != "mail <a@x>" || !got[0].At.Equal(at) {
		t.Fatalf("parked = %+v", got)
	}
	tcheck(t, s.Update(func(tx *Tx) error {
		got[1].Attempts, got[1].Cause = 6, "still broken"
		if err := UpdateParked(tx, got[1]); err != nil {
			return err
		}
		return Unpark(tx, got[0].Seq)
	}), "update and unpark")
	s.View(func(tx *Tx) error {
		p := Parked(tx)
		if n := ParkedCount(tx); n != 1 {
			t.Errorf("ParkedCount = %d, want 1", n)
		}
		if len(p) != 1 || p[0].Attempts != 6 || p[0].Cause != "still broken" {
			t.Errorf("after update and unpark: %+v", p)
		}
		if err := Unpark(tx, got[0].Seq); err == nil {
			t.Error("unparking twice succeeded")
		}
		return nil
	})
}

func TestUnreadableParkedRecordCanBeDropped(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	tcheck(t, s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketParked).Put(u64(7), []byte("{not json")) }), "put")
	var p []ParkedMail
	s.View(func(tx *Tx) error { p = Parked(tx); return nil })
	if len(p) != 1 || p[0].Seq != 7 || p[0].Raw != nil || p[0].Cause == "" {
		t.Fatalf("parked = %+v", p)
	}
	tcheck(t, s.Update(func(tx *Tx) error { return Unpark(tx, 7) }), "drop")
}

// A file of schema 1 (before parking) is upgraded in place when opened.
func TestUpgradeFromSchema1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	tcheck(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketParked); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put([]byte("schema"), u64(1))
	}), "downgrade")
	s.Close()
	s, err := Open(path, slog.New(slog.DiscardHandler), Options{})
	tcheck(t, err, "reopen")
	defer s.Close()
	tcheck(t, s.Update(func(tx *Tx) error {
		if v := schemaOf(tx.tx); v != SchemaVersion {
			t.Errorf("schema %d after upgrade, want %d", v, SchemaVersion)
		}
		_, err := Park(tx, ParkedMail{Key: "<k@x>"})
		return err
	}), "park after upgrade")
}
