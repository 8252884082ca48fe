package store

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
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

// OutboxAdd queues an outgoing mail; it is sent after the transaction commits. A mail of
// more than compressAbove bytes is kept deflated (issue 14: queued welcome mails, text and
// HTML of much the same words, were most of a store with many games).
func OutboxAdd(tx *Tx, mail []byte) (uint64, error) {
	b := tx.tx.Bucket(bucketOutbox)
	seq, err := b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("outbox: %w", err)
	}
	v := mail
	if len(mail) > compressAbove {
		if v, err = deflate(mail); err != nil {
			return 0, fmt.Errorf("outbox: %w", err)
		}
	}
	return seq, tx.put(b, u64(seq), v)
}

// Outbox values: the mail as given, or deflatedMark and the mail deflated (RFC 1951). No
// mail starts with the mark: the host's are JSON.
const (
	compressAbove = 1 << 10
	deflatedMark  = 0x01
)

// deflaters are reused: a new flate writer allocates and clears about a megabyte.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(io.Discard, flate.DefaultCompression)
	return w
}}

func deflate(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte(deflatedMark)
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// outboxMail returns a queued mail as it was given to OutboxAdd. A value that does not
// inflate is returned as it is stored (its reader then finds it unreadable).
func outboxMail(v []byte) []byte {
	if len(v) == 0 || v[0] != deflatedMark {
		return bytes.Clone(v)
	}
	out, err := io.ReadAll(flate.NewReader(bytes.NewReader(v[1:])))
	if err != nil {
		return bytes.Clone(v)
	}
	return out
}

// OutboxEntry is a queued mail.
type OutboxEntry struct {
	Seq  uint64
	Mail []byte
}

// Outbox returns the queued mails in the order they were queued. It loads them all: the
// daemon reads one at a time (OutboxNext).
func Outbox(tx *Tx) []OutboxEntry {
	var out []OutboxEntry
	tx.tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
		out = append(out, OutboxEntry{binary.BigEndian.Uint64(k), outboxMail(v)})
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
	return OutboxEntry{binary.BigEndian.Uint64(k), outboxMail(v)}, true
}

// OutboxLen is how many mails are queued.
func OutboxLen(tx *Tx) int { return tx.tx.Bucket(bucketOutbox).Stats().KeyN }

// OutboxDone removes a mail that was sent.
func OutboxDone(tx *Tx, seq uint64) error {
	return tx.tx.Bucket(bucketOutbox).Delete(u64(seq))
}
