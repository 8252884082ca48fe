package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"navarch/ident"
	"time"
)

// bucketReceived is a game's incoming mail, kept raw for audit (docs/DESIGN.md 5): every mail that
// named the game, whoever sent it, stored in the transaction that handled it.
var bucketReceived = []byte("received")

// ReceivedMail is one incoming mail of a game, as it arrived.
type ReceivedMail struct {
	Seq       uint64    `json:"-"`
	At        time.Time `json:"at"` // when it was handled
	From      string    `json:"from"`
	Subject   string    `json:"subject"`
	MessageID string    `json:"message_id"`
	Raw       []byte    `json:"raw"`
}

// AddReceived keeps an incoming mail of a game; it returns the mail's number in the game.
func AddReceived(tx *Tx, id ident.GameID, m ReceivedMail) (uint64, error) {
	g := tx.tx.Bucket(bucketGames).Bucket(id[:])
	if g == nil {
		return 0, fmt.Errorf("game %x: %w", id[:], ErrNoGame)
	}
	b, err := g.CreateBucketIfNotExists(bucketReceived) // games made before it existed get it here
	if err != nil {
		return 0, fmt.Errorf("received mail: %w", err)
	}
	seq, err := b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("received mail: %w", err)
	}
	v, err := json.Marshal(m)
	if err != nil {
		return 0, fmt.Errorf("received mail: %w", err)
	}
	return seq, tx.put(b, u64(seq), v)
}

// Received calls fn for each incoming mail of a game in the order they were handled, with
// Raw left out unless raw is set. A record that cannot be read is passed with only its Seq
// and Subject saying so.
func Received(tx *Tx, id ident.GameID, raw bool, fn func(ReceivedMail) error) error {
	g := tx.tx.Bucket(bucketGames).Bucket(id[:])
	if g == nil {
		return fmt.Errorf("game %x: %w", id[:], ErrNoGame)
	}
	b := g.Bucket(bucketReceived)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		var m ReceivedMail
		if err := json.Unmarshal(v, &m); err != nil {
			m = ReceivedMail{Subject: "(unreadable record: " + err.Error() + ")"}
		}
		m.Seq = binary.BigEndian.Uint64(k)
		if !raw {
			m.Raw = nil
		}
		return fn(m)
	})
}
