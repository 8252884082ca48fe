package store

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A queued mail keeps its retry state until it leaves the outbox; a mail no longer queued
// gets none.
func TestOutboxRetryState(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "navarch.db"))
	defer s.Close()
	var a, b uint64
	tcheck(t, s.Update(func(tx *Tx) error {
		var err error
		if a, err = OutboxAdd(tx, []byte(`{"Text":"a"}`)); err != nil {
			return err
		}
		b, err = OutboxAdd(tx, []byte(`{"Text":"b"}`))
		return err
	}), "queue")
	next := time.Date(2026, 3, 1, 12, 0, 0, 5, time.UTC)
	tcheck(t, s.Update(func(tx *Tx) error { return OutboxSetRetry(tx, a, Retry{Next: next, Failures: 3}) }), "retry")
	s.View(func(tx *Tx) error {
		e, ok := OutboxNext(tx, 0)
		if !ok || e.Seq != a || !e.Retry.Next.Equal(next) || e.Retry.Failures != 3 {
			t.Errorf("first entry %d %+v, want %d with its retry state", e.Seq, e.Retry, a)
		}
		if e.Retry.Due(next.Add(-time.Nanosecond)) || !e.Retry.Due(next) {
			t.Errorf("due before %v or not at it", next)
		}
		if r := OutboxRetryOf(tx, b); r != (Retry{}) || !r.Due(time.Time{}) {
			t.Errorf("a mail that never failed has %+v", r)
		}
		return nil
	})
	tcheck(t, s.Update(func(tx *Tx) error { return OutboxDone(tx, a) }), "done")
	tcheck(t, s.Update(func(tx *Tx) error { return OutboxSetRetry(tx, a, Retry{Failures: 1}) }), "retry of a sent mail")
	s.View(func(tx *Tx) error {
		if n := tx.tx.Bucket(bucketOutRetry).Stats().KeyN; n != 0 {
			t.Errorf("%d retry entries left after the mail left", n)
		}
		if OutboxQueued(tx, a) || !OutboxQueued(tx, b) {
			t.Error("OutboxQueued wrong")
		}
		return nil
	})
}

// A file of schema 6 (before the outbox's retry state), mails queued in it, opens upgraded:
// its mails are due at once with no failures, and can be given a retry state.
func TestUpgradeToSchema7(t *testing.T) {
	path := filepath.Join(t.TempDir(), "navarch.db")
	s := open(t, path)
	var seq uint64
	tcheck(t, s.Update(func(tx *Tx) error {
		var err error
		seq, err = OutboxAdd(tx, []byte(`{"Text":"queued before the upgrade"}`))
		return err
	}), "queue")
	tcheck(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketOutRetry); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put([]byte("schema"), u64(6))
	}), "downgrade")
	s.Close()
	s, err := Open(path, slog.New(slog.DiscardHandler), Options{})
	tcheck(t, err, "reopen")
	defer s.Close()
	s.View(func(tx *Tx) error {
		if v := schemaOf(tx.tx); v != SchemaVersion || v < 7 {
			t.Errorf("schema %d after upgrade , want %d", v, SchemaVersion)
		}
		e, ok := OutboxNext(tx, 0)
		if !ok || e.Seq != seq || e.Retry != (Retry{}) {
			t.Errorf("the queued mail after the upgrade: %v %+v", ok, e)
		}
		return nil
	})
	tcheck(t, s.Update(func(tx *Tx) error { return OutboxSetRetry(tx, seq, Retry{Failures: 1}) }), "retry after upgrade")
}
