package store

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestUpgradeToSchema6 opens a database of schema 5's layout: the processed index keyed by
// Message-ID alone, no notes of dropped mail, no Message-ID key. A mail handled before the
// upgrade is still handled, from whatever sender it comes again; mail handled after it is
// told apart by sender; the key is made once and kept.
func TestUpgradeToSchema6(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	tcheck(t, s.Update(func(tx *Tx) error {
		for _, b := range [][]byte{bucketDropped, bucketDropCount} {
			if err := tx.tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		if err := tx.tx.Bucket(bucketMeta).Delete([]byte(metaMsgIDKey)); err != nil {
			return err
		}
		for _, id := range []string{"old1@x.org", "old2@x.org"} { // schema 5's keys: the Message-ID
			if err := tx.tx.Bucket(bucketProcessed).Put([]byte(id), []byte{0, 'v'}); err != nil {
				return err
			}
		}
		return tx.tx.Bucket(bucketMeta).Put([]byte("schema"), u64(5))
	}), "write a schema 5 database")
	s.Close()
	s = open(t, path)
	var key []byte
	tcheck(t, s.Update(func(tx *Tx) error {
		if v := schemaOf(tx.tx); v != 6 || v != SchemaVersion {
			t.Errorf("schema %d after the upgrade, want 6", v)
		}
		for _, from := range []string{"alice@x.org", "bob@y.org", ""} {
			if v, ok := Processed(tx, from, "old1@x.org"); !ok || string(v) != "v" {
				t.Errorf("a mail processed before the upgrade, from %q: Processed = %q, %t", from, v, ok)
			}
			if fresh, err := MarkProcessed(tx, from, "old2@x.org", nil); fresh || err != nil {
				t.Errorf("a mail processed before the upgrade marked again from %q: %t, %v", from, fresh, err)
			}
		}
		if fresh, err := MarkProcessed(tx, "alice@x.org", "new@x.org", nil); !fresh || err != nil {
			t.Fatalf("MarkProcessed = %t, %v", fresh, err)
		}
		if fresh, err := MarkProcessed(tx, "bob@y.org", "new@x.org", nil); !fresh || err != nil {
			t.Errorf("another sender's mail with a Message-ID used before: MarkProcessed = %t, %v", fresh, err)
		}
		var err error
		if key, err = MessageIDKey(tx); err != nil || len(key) != 32 || bytes.Equal(key, make([]byte, 32)) {
			t.Errorf("Message-ID key %x, %v", key, err)
		}
		if p := Check(tx); len(p) != 0 {
			t.Errorf("the upgraded file is not sound: %v", p)
		}
		return AddDropped(tx, DroppedMail{From: "auto@x.org", Reason: "auto", Why: "auto-submitted"})
	}), "use the upgraded file")
	s.Close()
	s = open(t, path)
	s.View(func(tx *Tx) error {
		if k, _ := MessageIDKey(tx); !bytes.Equal(k, key) {
			t.Errorf("the Message-ID key changed when the file was opened again")
		}
		if c := DroppedCounts(tx); c["auto"] != 1 {
			t.Errorf("drop counts %v", c)
		}
		return nil
	})
}

// TestDroppedKeepsTheLatest: the notes of dropped mail are kept in order, the oldest taken
// out past MaxDropped, and the counts by reason are kept whole.
func TestDroppedKeepsTheLatest(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tcheck(t, s.Update(func(tx *Tx) error {
		for i := range MaxDropped + 5 {
			reason := []string{"auto", "bulk"}[i%2]
			if err := AddDropped(tx, DroppedMail{At: at, From: fmt.Sprintf("m%d@x.org", i), Reason: reason, Why: reason}); err != nil {
				return err
			}
		}
		if err := CountDropped(tx, "duplicate"); err != nil {
			return err
		}
		if err := AddDropped(tx, DroppedMail{From: "x@x.org"}); err == nil {
			t.Error("a note without a reason was kept")
		}
		return nil
	}), "drop")
	s.View(func(tx *Tx) error {
		var from []string
		Dropped(tx, func(m DroppedMail) error {
			from = append(from, m.From)
			if !m.At.Equal(at) {
				t.Errorf("note %d: at %v", m.Seq, m.At)
			}
			return nil
		})
		if len(from) != MaxDropped || from[0] != "m5@x.org" || from[len(from)-1] != fmt.Sprintf("m%d@x.org", MaxDropped+4) {
			t.Errorf("%d notes kept, first %q, last %q", len(from), from[0], from[len(from)-1])
		}
		if !slices.Equal(from[:2], []string{"m5@x.org", "m6@x.org"}) {
			t.Errorf("notes out of order: %q", from[:3])
		}
		c := DroppedCounts(tx)
		if c["auto"] != MaxDropped/2+3 || c["bulk"] != MaxDropped/2+2 || c["duplicate"] != 1 {
			t.Errorf("counts %v", c)
		}
		return nil
	})
}
