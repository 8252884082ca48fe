package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"navarch/ident"
	"time"
)

// bucketReceived was a game's incoming mail in the nested layout (greceived/ since schema
// 5), kept raw for audit (docs/DESIGN.md 5): every mail that named the game, whoever sent
// it, stored in the transaction that handled it.
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

// AddReceived keeps an incoming mail of a game; it returns the mail's number in the game
// (1 for the first: numbers are never given again, as no mail is ever taken out).
func AddReceived(tx *Tx, id ident.GameID, m ReceivedMail) (uint64, error) {
	if err := exists(tx, id); err != nil {
		return 0, err
	}
	b := tx.tx.Bucket(bucketGRecv)
	seq := uint64(1)
	if k := lastKey(b, id[:]); k != nil {
		seq = binary.BigEndian.Uint64(k[len(id):]) + 1
	}
	v, err := json.Marshal(m)
	if err != nil {
		return 0, fmt.Errorf("received mail: %w", err)
	}
	return seq, tx.put(b, gkey(id, u64(seq)), v)
}

// Received calls fn for each incoming mail of a game in the order they were handled, with
// Raw left out unless raw is set. A record that cannot be read is passed with only its Seq
// and Subject saying so.
func Received(tx *Tx, id ident.GameID, raw bool, fn func(ReceivedMail) error) error {
	if err := exists(tx, id); err != nil {
		return err
	}
	c := tx.tx.Bucket(bucketGRecv).Cursor()
	for k, v := c.Seek(id[:]); k != nil && bytes.HasPrefix(k, id[:]); k, v = c.Next() {
		if len(k) != len(id)+8 {
			continue
		}
		var m ReceivedMail
		if err := json.Unmarshal(v, &m); err != nil {
			m = ReceivedMail{Subject: "(unreadable record: " + err.Error() + ")"}
		}
		m.Seq = binary.BigEndian.Uint64(k[len(id):])
		if !raw {
			m.Raw = nil
		}
		if err := fn(m); err != nil {
			return err
		}
	}
	return nil
}
