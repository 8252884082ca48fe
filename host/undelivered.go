package host

import (
	"fmt"
	"slices"
	"strings"

	"navarch/ledger"
	"navarch/mail"
	"navarch/store"
)

// undelivered records a mail that the mail server refused for good: a note in its game's log
// (the players' copies show why someone was not asked), and, when it was a player's, a
// notice to the game's referees. A referee's mail that is refused is only noted, so that
// notices about refused mail cannot beget one another.
func (h *Host) undelivered(tx *store.Tx, o mail.Outgoing, cause error) error {
	tag := mail.GameTag(o.Subject)
	if tag == "" {
		return nil
	}
	id, g, err := findGame(tx, tag)
	if err != nil || g == nil {
		return err
	}
	to := strings.Join(o.To, ", ")
	what := fmt.Sprintf("The mail server refused our mail %q to %s for good; it was not delivered.", o.Subject, to)
	if err := ledger.Note(tx, id, "navarch", what); err != nil {
		return err
	}
	var player *player
	for i := range g.Players {
		if slices.Contains(o.To, g.Players[i].Address) {
			player = &g.Players[i]
		}
	}
	if player == nil {
		return h.saveGame(tx, id, g)
	}
	text := []string{what, fmt.Sprintf("%s (%s) has not had it. The server said: %v", player.ID, player.Side, cause),
		"Check the address with the player (REPLACE gives the side to a new address), or EXTEND the deadline."}
	for _, r := range g.Referees {
		if err := h.notice(tx, g, recipient{address: r}, "", text...); err != nil {
			return err
		}
	}
	return h.saveGame(tx, id, g)
}
