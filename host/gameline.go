package host

import (
	"fmt"
	"slices"
	"strings"

	"navarch/mail"
	"navarch/store"
)

// noSuchGame answers a mail whose GAME line names a game that does not exist here: it is
// applied to no game (not even the sender's only one: he named another), and the sender is
// told which games are his.
func (h *Host) noSuchGame(tx *store.Tx, in *mail.Incoming, named string) error {
	return h.stranger(tx, in.From, in.MessageID, fmt.Sprintf("Your mail names game %q on its GAME line, and there is no such game here; nothing was applied.", named),
		h.gamesOf(tx, in.From))
}

// gamesOf says in a line which games not over an address plays here, for an answer to that
// address (the players' index: no game is read but his; one that cannot be read is left
// out, as in onlyGame).
func (h *Host) gamesOf(tx *store.Tx, address string) string {
	var tags []string
	for _, id := range store.PlayerGames(tx, address) {
		g, err := loadGame(tx, id)
		if err == nil && g != nil && g.Status != store.StatusOver && g.player(address) != nil {
			tags = append(tags, g.Tag)
		}
	}
	if len(tags) == 0 {
		return "You play no game here now. A game's tag is in the subject of its welcome mail, like [navarch lep-7f3a]."
	}
	slices.Sort(tags)
	return fmt.Sprintf("Your games here: %s. Put the game's tag on the GAME line, or in the subject like [navarch %s].", strings.Join(tags, ", "), tags[0])
}
