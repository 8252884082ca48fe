package host

import (
	"fmt"
	"slices"
	"strings"

	"navarch/store"
)

// resign ends a game in play at a player's request: the player's side loses. It cannot be
// undone, so it takes RESIGN CONFIRM; a bare RESIGN is answered with what it would do.
func (h *Host) resign(tx *store.Tx, a *actor) error {
	switch {
	case a.p == nil:
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Referees do not resign; ENDGAME ends a game.")
	case a.g.Status != store.StatusPlaying:
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, fmt.Sprintf("Game %s is not in play (%s); nothing was changed.", a.g.Tag, a.g.Status))
	case len(a.req.Args) != 1 || !strings.EqualFold(a.req.Args[0], "CONFIRM"):
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, fmt.Sprintf(
			"RESIGN ends game %s at once and your side, %s, loses. It cannot be undone. To resign, send RESIGN CONFIRM.", a.g.Tag, a.p.Side))
	}
	var winners []string
	for _, p := range a.g.Players {
		if p.Side != a.p.Side && !slices.Contains(winners, p.Side) {
			winners = append(winners, p.Side)
		}
	}
	result := fmt.Sprintf("%s (%s) resigned; %s wins", a.p.ID, a.p.Side, strings.Join(winners, " and "))
	return h.finish(tx, a, result)
}
