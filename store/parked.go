package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
)

// ParkedMail is an incoming mail set aside because handling it failed on our side (a bug, a
// broken game), so that it no longer holds up the mail behind it. It is kept whole, to be
// handled again once the fault is mended.
type ParkedMail struct {
	Seq      uint64    `json:"-"`
	Key      string    `json:"key"` // the Message-ID key the processed index uses
	From     string    `json:"from,omitempty"`
	Subject  string    `json:"subject,omitempty"`
	Cause    string    `json:"cause"`    // the last failure
	At       time.Time `json:"at"`       // when it was parked
	Attempts int       `json:"attempts"` // handlings since it was parked, the one that parked it first
	Raw      []byte    `json:"raw"`
}

// Park keeps m unless a mail with its key is already parked; it returns whether m is new.
func Park(tx *Tx, m ParkedMail) (bool, error) {
	if m.Key == "" {
		return false, fmt.Errorf("park: empty key")
	}
	for _, p := range Parked(tx) {
		if p.Key == m.Key {
			return false, nil
		}
	}
	b := tx.tx.Bucket(bucketParked)
	seq, err := b.NextSequence()
	if err != nil {
		return false, fmt.Errorf("park: %w", err)
	}
	return true, putParked(tx, seq, m)
}

// UpdateParked rewrites a parked mail (its attempts and last cause).
func UpdateParked(tx *Tx, m ParkedMail) error {
	if tx.tx.Bucket(bucketParked).Get(u64(m.Seq)) == nil {
		return fmt.Errorf("park: no parked mail %d", m.Seq)
	}
	return putParked(tx, m.Seq, m)
}

func putParked(tx *Tx, seq uint64, m ParkedMail) error {
	v, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("park: %w", err)
	}
	return tx.put(tx.tx.Bucket(bucketParked), u64(seq), v)
}

// Parked returns the parked mails in the order they were parked. A value that cannot be
// read is returned with its Cause saying so and no Raw, so that it can still be dropped.
func Parked(tx *Tx) []ParkedMail {
	var out []ParkedMail
	tx.tx.Bucket(bucketParked).ForEach(func(k, v []byte) error {
		var m ParkedMail
		if err := json.Unmarshal(v, &m); err != nil {
			m = ParkedMail{Cause: "unreadable parked record: " + err.Error()}
		}
		m.Seq = binary.BigEndian.Uint64(k)
		out = append(out, m)
		return nil
	})
	return out
}

// ParkedCount is how many mails are parked, without reading them.
func ParkedCount(tx *Tx) int { return tx.tx.Bucket(bucketParked).Stats().KeyN }

// Unpark removes a parked mail (handled at last, or dropped by the operator).
func Unpark(tx *Tx, seq uint64) error {
	b := tx.tx.Bucket(bucketParked)
	if b.Get(u64(seq)) == nil {
		return fmt.Errorf("park: no parked mail %d", seq)
	}
	return b.Delete(u64(seq))
}
