package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
)

// Dropped mail (since schema 6): an incoming mail that navarch neither applies nor answers
// (an auto-reply, a bounce, a list's mail, its own mail coming back, unauthenticated bulk
// mail, a copy of a mail handled before) is never dropped in silence: the host logs it,
// counts it by reason, and keeps a note of it for the operator (navarch dropped, navarch game
// mail).
//
//	dropped/    u64(seq) → a JSON DroppedMail: the latest MaxDropped notes, oldest first
//	dropcount/  reason → u64 mails dropped for that reason, ever (the metrics' counter)
var (
	bucketDropped   = []byte("dropped")
	bucketDropCount = []byte("dropcount")
)

// MaxDropped bounds the notes of dropped mail kept: the oldest go first, so that a flood of
// auto-replies cannot grow the store without bound. The counts are kept whole.
const MaxDropped = 2000

// DroppedMail is the note of a dropped mail: who sent it, what it was, and why it was
// dropped. The mail itself is not kept.
type DroppedMail struct {
	Seq       uint64    `json:"-"`
	At        time.Time `json:"at"` // when it was handled
	From      string    `json:"from,omitempty"`
	Subject   string    `json:"subject,omitempty"`
	MessageID string    `json:"message_id,omitempty"`
	Game      string    `json:"game,omitempty"` // the tag the mail names, if any
	Reason    string    `json:"reason"`         // the counter's label: own, auto, bulk, ...
	Why       string    `json:"why"`            // in words, for the operator
}

// AddDropped keeps the note of a dropped mail and counts it under its reason; past
// MaxDropped notes, the oldest is taken out.
func AddDropped(tx *Tx, m DroppedMail) error {
	if m.Reason == "" {
		return fmt.Errorf("dropped mail: no reason")
	}
	b := tx.tx.Bucket(bucketDropped)
	seq, err := b.NextSequence()
	if err != nil {
		return fmt.Errorf("dropped mail: %w", err)
	}
	v, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("dropped mail: %w", err)
	}
	b.FillPercent = 0.9 // keys only ever grow
	if err := tx.put(b, u64(seq), v); err != nil {
		return err
	}
	if seq > MaxDropped {
		if err := b.Delete(u64(seq - MaxDropped)); err != nil {
			return err
		}
	}
	return CountDropped(tx, m.Reason)
}

// CountDropped counts a dropped mail under its reason without keeping a note of it (a copy
// of a mail handled before: the first copy is listed already).
func CountDropped(tx *Tx, reason string) error {
	b := tx.tx.Bucket(bucketDropCount)
	n := uint64(0)
	if v := b.Get([]byte(reason)); len(v) == 8 {
		n = binary.BigEndian.Uint64(v)
	}
	return tx.put(b, []byte(reason), u64(n+1))
}

// Dropped calls fn for each kept note of dropped mail, oldest first. A note that cannot be
// read is passed with only its Seq and Why saying so.
func Dropped(tx *Tx, fn func(DroppedMail) error) error {
	c := tx.tx.Bucket(bucketDropped).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var m DroppedMail
		if err := json.Unmarshal(v, &m); err != nil {
			m = DroppedMail{Why: "(unreadable note: " + err.Error() + ")"}
		}
		m.Seq = binary.BigEndian.Uint64(k)
		if err := fn(m); err != nil {
			return err
		}
	}
	return nil
}

// DroppedCounts returns how many mails were dropped, by reason (a few keys).
func DroppedCounts(tx *Tx) map[string]int {
	out := map[string]int{}
	tx.tx.Bucket(bucketDropCount).ForEach(func(k, v []byte) error {
		if len(v) == 8 {
			out[string(bytes.Clone(k))] = int(binary.BigEndian.Uint64(v))
		}
		return nil
	})
	return out
}
