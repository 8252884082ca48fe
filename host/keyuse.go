package host

import (
	"fmt"

	"navarch/store"
)

// warnKeyOwners tells every other player of the game whose key (or tokenized reply address)
// a player's refused mail used: the opponent holding a player's key is as much a danger as a
// stranger holding it.
func (h *Host) warnKeyOwners(tx *store.Tx, a *actor) error {
	for i := range a.g.Players {
		q := &a.g.Players[i]
		if q == a.p {
			continue
		}
		k, err := keyOf(tx, a.id, q.ID)
		if err != nil {
			return err
		}
		if k == "" || k != a.req.Key && !h.tokenUsed(a.msg, a.id, k) {
			continue
		}
		if err := h.notice(tx, a.g, recipient{p: q}, "", fmt.Sprintf(
			"A mail from %s (%s, playing %s) used your key (or your reply address) for game %s and was refused. Only mail from your address counts; if the key is known to others, ask the referee for a new one.",
			a.msg.From, a.p.ID, a.p.Side, a.g.Tag)); err != nil {
			return err
		}
	}
	return nil
}
