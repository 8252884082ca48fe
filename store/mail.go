package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// MarkProcessed records that the message with this Message-ID has been handled, with a
// caller's value (say, the log index of its orders record). It returns false, and writes
// nothing, when the message was handled before: call it in the transaction that applies the
// message's effects, so that a message is applied exactly once.
func MarkProcessed(tx *Tx, messageID string, v []byte) (bool, error) {
	if messageID == "" {
		return false, errors.New("store: empty Message-ID")
	}
	b := tx.tx.Bucket(bucketProcessed)
	if b.Get([]byte(messageID)) != nil {
		return false, nil
	}
	if err := tx.put(b, []byte(messageID), append([]byte{0}, v...)); err != nil {
		return false, fmt.Errorf("mark %s processed: %w", messageID, err)
	}
	return true, nil
}

// Processed returns the value stored for a handled message, and whether it was handled.
func Processed(tx *Tx, messageID string) ([]byte, bool) {
	v := tx.tx.Bucket(bucketProcessed).Get([]byte(messageID))
	if v == nil {
		return nil, false
	}
	return bytes.Clone(v[1:]), true
}

// OutboxAdd queues an outgoing mail; it is sent after the transaction commits.
func OutboxAdd(tx *Tx, mail []byte) (uint64, error) {
	b := tx.tx.Bucket(bucketOutbox)
	seq, err := b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("outbox: %w", err)
	}
	return seq, tx.put(b, u64(seq), mail)
}

// OutboxEntry is a queued mail.
type OutboxEntry struct {
	Seq  uint64
	Mail []byte
}

// Outbox returns the queued mails in the order they were queued.
func Outbox(tx *Tx) []OutboxEntry {
	var out []OutboxEntry
	tx.tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
		out = append(out, OutboxEntry{binary.BigEndian.Uint64(k), bytes.Clone(v)})
		return nil
	})
	return out
}

// OutboxNext returns the first queued mail after seq (0: the first of all), and whether
// there is one: the outbox is read one mail at a time, never loaded whole.
func OutboxNext(tx *Tx, after uint64) (OutboxEntry, bool) {
	k, v := tx.tx.Bucket(bucketOutbox).Cursor().Seek(u64(after + 1))
	if k == nil || after == ^uint64(0) {
		return OutboxEntry{}, false
	}
	return OutboxEntry{binary.BigEndian.Uint64(k), bytes.Clone(v)}, true
}

// OutboxLen is how many mails are queued.
func OutboxLen(tx *Tx) int { return tx.tx.Bucket(bucketOutbox).Stats().KeyN }

// OutboxDone removes a mail that was sent.
func OutboxDone(tx *Tx, seq uint64) error {
	return tx.tx.Bucket(bucketOutbox).Delete(u64(seq))
}

// PutState keeps a value of the installation's own (the IMAP cursor, say) in the meta bucket.
func PutState(tx *Tx, key string, v []byte) error {
	return tx.put(tx.tx.Bucket(bucketMeta), []byte("state:"+key), v)
}

// State returns a copy of a value kept by PutState, or nil.
func State(tx *Tx, key string) []byte {
	return bytes.Clone(tx.tx.Bucket(bucketMeta).Get([]byte("state:" + key)))
}

// DeleteState removes a value kept by PutState.
func DeleteState(tx *Tx, key string) error {
	return tx.tx.Bucket(bucketMeta).Delete([]byte("state:" + key))
}
