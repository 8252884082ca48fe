package host

import (
	"crypto/subtle"
	"slices"

	"navarch/ident"
	"navarch/store"
)

// A referee authenticates like a player: a From address can be forged,
// so a referee's mail counts only with the referee's own secret key, given in the referee's
// welcome at the game's creation, on a KEY line or (with Config.ReplyTokens) by replying to
// the tokenized address navarch's mails to the referee carry.

// refereeSecret names a referee's key among the game's secrets.
func refereeSecret(address string) string { return "referee/" + address }

// refereeKey is a referee's key for a game, or "" if the referee has none (a game made
// before referees had keys: REKEY from the operator's command line gives one).
func refereeKey(tx *store.Tx, id ident.GameID, address string) (string, error) {
	v, err := store.Secret(tx, id, refereeSecret(address))
	return string(v), err
}

// newRefereeKey gives a referee a new key; the old one no longer counts.
func (h *Host) newRefereeKey(tx *store.Tx, id ident.GameID, address string) (string, error) {
	key, err := newKey(h.cfg.Rand)
	if err != nil {
		return "", err
	}
	return key, store.PutSecret(tx, id, refereeSecret(address), []byte(key))
}

// keyMatches compares a key given in a mail with the one of record in constant time; an
// empty key of record matches nothing.
func keyMatches(given, key string) bool {
	return key != "" && subtle.ConstantTimeCompare([]byte(given), []byte(key)) == 1
}

// gameMaster says whether a NEWGAME mail comes from a game master of the configuration with
// the game master's key (a KEY line).
func (h *Host) gameMaster(from, key string) bool {
	want, ok := h.cfg.GameMasters[from]
	return ok && keyMatches(key, want)
}

// isReferee says whether an address is one of the game's referees.
func (g *game) isReferee(address string) bool { return slices.Contains(g.Referees, address) }
