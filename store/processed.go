package store

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The processed index (processed/) holds every incoming mail handled, keyed by its sender
// and Message-ID: sender ‖ 0x00 ‖ Message-ID, the sender lower-cased. A Message-ID is the
// sender's to choose, so two senders may use the same one (a careless client, or a forger
// guessing ours): each sender's mail is told apart from the others'. Keys written before
// schema 6, of a sender not recorded, are 0x00 ‖ Message-ID (an empty sender) and match that
// Message-ID from any sender, so that no mail handled before the upgrade is handled again.

func processedKey(sender, messageID string) []byte {
	return append(append([]byte(strings.ToLower(sender)), 0), messageID...)
}

// processedGet finds a mail's entry: its own, or one written before senders were recorded.
func processedGet(b *bolt.Bucket, sender, messageID string) []byte {
	if v := b.Get(processedKey(sender, messageID)); v != nil {
		return v
	}
	return b.Get(processedKey("", messageID))
}

// MarkProcessed records that the message with this sender and Message-ID has been handled,
// with a caller's value (say, the log index of its orders record). It returns false, and
// writes nothing, when the message was handled before: call it in the transaction that
// applies the message's effects, so that a message is applied exactly once.
func MarkProcessed(tx *Tx, sender, messageID string, v []byte) (bool, error) {
	if messageID == "" {
		return false, errors.New("store: empty Message-ID")
	}
	b := tx.tx.Bucket(bucketProcessed)
	if processedGet(b, sender, messageID) != nil {
		return false, nil
	}
	if err := tx.put(b, processedKey(sender, messageID), append([]byte{0}, v...)); err != nil {
		return false, fmt.Errorf("mark %s from %s processed: %w", messageID, sender, err)
	}
	return true, nil
}

// Processed returns the value stored for a handled message, and whether it was handled.
func Processed(tx *Tx, sender, messageID string) ([]byte, bool) {
	v := processedGet(tx.tx.Bucket(bucketProcessed), sender, messageID)
	if v == nil {
		return nil, false
	}
	return bytes.Clone(v[1:]), true
}

// upgradeProcessedKeys (part of schema 5 → 6) gives every key of the processed index the
// sender-less form 0x00 ‖ Message-ID: the sender was not recorded.
func upgradeProcessedKeys(tx *bolt.Tx) error {
	b := tx.Bucket(bucketProcessed)
	type kv struct{ k, v []byte }
	var old []kv
	if err := b.ForEach(func(k, v []byte) error {
		old = append(old, kv{bytes.Clone(k), bytes.Clone(v)})
		return nil
	}); err != nil {
		return err
	}
	for _, e := range old { // not inside ForEach: bbolt's cursor does not survive a Put
		if err := b.Delete(e.k); err != nil {
			return err
		}
		if err := b.Put(processedKey("", string(e.k)), e.v); err != nil {
			return err
		}
	}
	return nil
}
