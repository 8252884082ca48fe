package host

import (
	"encoding/hex"

	"navarch/ident"
	"navarch/store"
)

// verifierKey is the game's verifier key as its genesis record holds it, in hex: the key a
// player pins with navarch verify --key.
func verifierKey(tx *store.Tx, id ident.GameID) (string, error) {
	r, err := store.Record(tx, id, 0) // the genesis record (docs/LOG-FORMAT.md 3)
	if err != nil {
		return "", err
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
