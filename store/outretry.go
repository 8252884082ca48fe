package store

import (
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bucketOutRetry holds the retry state of each queued mail that has failed to go:
//
//	outretry/ u64(seq) → u64(next attempt, Unix nanoseconds) u32(failures)
//
// A queued mail without an entry is due at once and has not failed. The entry leaves with
// the mail (OutboxDone). Schema 7 (upgradeOutRetry).
var bucketOutRetry = []byte("outretry")

// upgradeOutRetry (schema 6 → 7) makes the bucket of the outbox's retry state: every mail
// queued before it is due at once, with no failures.
func upgradeOutRetry(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketOutRetry)
	return err
}

// Retry is a queued mail's retry state: when it may be tried again and how many times it
// has failed to go (the server's temporary refusals of this mail, not outages of the
// server itself).
type Retry struct {
	Next     time.Time // zero: due at once
	Failures int
}

// Due reports whether the mail may be tried at now.
func (r Retry) Due(now time.Time) bool { return r.Next.IsZero() || !now.Before(r.Next) }

// OutboxRetryOf returns a queued mail's retry state, reading no mail.
func OutboxRetryOf(tx *Tx, seq uint64) Retry {
	v := tx.tx.Bucket(bucketOutRetry).Get(u64(seq))
	if len(v) != 12 {
		return Retry{}
	}
	r := Retry{Failures: int(binary.BigEndian.Uint32(v[8:]))}
	if n := int64(binary.BigEndian.Uint64(v)); n != 0 {
		r.Next = time.Unix(0, n).UTC()
	}
	return r
}

// OutboxSetRetry stores a queued mail's retry state; a mail that is no longer queued is
// left alone (it was sent or taken out meanwhile).
func OutboxSetRetry(tx *Tx, seq uint64, r Retry) error {
	if tx.tx.Bucket(bucketOutbox).Get(u64(seq)) == nil {
		return nil
	}
	v := binary.BigEndian.AppendUint64(nil, 0)
	if !r.Next.IsZero() {
		v = binary.BigEndian.AppendUint64(nil, uint64(r.Next.UnixNano()))
	}
	v = binary.BigEndian.AppendUint32(v, uint32(max(0, r.Failures)))
	if err := tx.put(tx.tx.Bucket(bucketOutRetry), u64(seq), v); err != nil {
		return fmt.Errorf("outbox retry %d: %w", seq, err)
	}
	return nil
}

// OutboxQueued reports whether a mail is still queued.
func OutboxQueued(tx *Tx, seq uint64) bool { return tx.tx.Bucket(bucketOutbox).Get(u64(seq)) != nil }

// OutboxMail returns a queued mail by its seq, and whether it is queued.
func OutboxMail(tx *Tx, seq uint64) (OutboxEntry, bool) {
	v := tx.tx.Bucket(bucketOutbox).Get(u64(seq))
	if v == nil {
		return OutboxEntry{}, false
	}
	return OutboxEntry{Seq: seq, Mail: outboxMail(tx, v), Retry: OutboxRetryOf(tx, seq)}, true
}

// OutboxFirst returns the first queued seq, and whether any mail is queued.
func OutboxFirst(tx *Tx) (uint64, bool) {
	k, _ := tx.tx.Bucket(bucketOutbox).Cursor().First()
	if k == nil {
		return 0, false
	}
	return binary.BigEndian.Uint64(k), true
}

// OutboxDeferred is how many queued mails wait for a next attempt after now.
func OutboxDeferred(tx *Tx, now time.Time) int {
	n := 0
	tx.tx.Bucket(bucketOutRetry).ForEach(func(k, v []byte) error {
		if len(v) == 12 && int64(binary.BigEndian.Uint64(v)) > now.UnixNano() {
			n++
		}
		return nil
	})
	return n
}
