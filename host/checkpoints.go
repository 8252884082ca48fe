package host

import (
	"encoding/hex"
	"errors"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// headCheckpoint signs the log as it stands, its first n records ending in head, for the
// info block of a mail (LOG-FORMAT 5; issue 10, finding 7): every mail that names a log head
// carries it signed, so that each saved mail pins the log with the installation's key, not
// only the mails at a turn's end. It is a statement, not a record: the log is not changed.
func headCheckpoint(tx *store.Tx, id ident.GameID, n uint64, head ident.Hash) (string, error) {
	if n == 0 {
		return "", nil
	}
	key, err := store.InstallationKey(tx)
	if err != nil {
		return "", err
	}
	c := gamelog.Checkpoint{Game: id, Size: n, Head: head}
	c.Sign(key)
	return c.Block(), nil
}

// verifierKey is the game's verifier key as its genesis record holds it, in hex: the key a
// player pins with navarch verify --key.
func verifierKey(tx *store.Tx, id ident.GameID) (string, error) {
	r, err := lastOf(tx, id, gamelog.TypeGenesis)
	if err != nil {
		return "", err
	}
	if r == nil {
		return "", errors.New("the game's log has no genesis record")
	}
	return hex.EncodeToString(r.Bytes("verifier")), nil
}

// logFile is the name of the log a recipient gets by LOG (export).
func logFile(g *game, r recipient) string {
	if r.p == nil {
		return g.Tag + "-full.log"
	}
	return g.Tag + "-" + r.p.Side + ".log"
}
