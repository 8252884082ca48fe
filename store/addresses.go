package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The index of known addresses and the day each stranger was last answered (docs/DESIGN.md
// 4): a mail from an address that plays or referees no game here is answered
// with fixed text at most once a day, so that navarch cannot be made to mail strangers.
const (
	stateKnown    = "state:known:"    // meta/: state:known:<address> → 1
	stateStranger = "state:stranger:" // meta/: state:stranger:<address> → the UTC day last answered
)

// MarkKnown adds an address (a player's or a referee's) to the index of known addresses.
func MarkKnown(tx *Tx, address string) error {
	meta := tx.tx.Bucket(bucketMeta)
	if k := []byte(stateKnown + address); meta.Get(k) == nil {
		return tx.put(meta, k, []byte{1})
	}
	return nil
}

// Known reports whether an address plays or referees, or did, a game here.
func Known(tx *Tx, address string) bool {
	return tx.tx.Bucket(bucketMeta).Get([]byte(stateKnown+address)) != nil
}

// AnswerStranger records that a stranger is answered on day (YYYY-MM-DD, UTC) and reports
// whether that is the first answer of the day; a second is not to be sent.
func AnswerStranger(tx *Tx, address, day string) (bool, error) {
	meta := tx.tx.Bucket(bucketMeta)
	k := []byte(stateStranger + address)
	if string(meta.Get(k)) == day {
		return false, nil
	}
	return true, tx.put(meta, k, []byte(day))
}

// upgradeKnownAddresses (schema 3 → 4) indexes the addresses of every game's players and
// referees from its settings (a game whose settings cannot be read fails the upgrade).
func upgradeKnownAddresses(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	games := tx.Bucket(bucketGames)
	return games.ForEachBucket(func(id []byte) error {
		gm := games.Bucket(id).Bucket(bucketGMeta)
		if gm == nil {
			return nil
		}
		settings, err := readSettingsV0(gm.Get([]byte(metaSettings)))
		if err != nil {
			return fmt.Errorf("game %x: %w", id, err)
		}
		addrs := settings.Referees
		for _, p := range settings.Players {
			addrs = append(addrs, p.Address)
		}
		for _, a := range addrs {
			if a != "" {
				if err := meta.Put([]byte(stateKnown+a), []byte{1}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
