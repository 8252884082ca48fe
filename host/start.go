package host

import (
	"encoding/hex"
	"fmt"
	"strings"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// startNotice tells every player and referee that play begins, with every player's join
// entropy and the start hash S made from them (docs/DICE.md 2): each player can see
// that his own entropy went in as he wrote it, so nobody, this server included, could
// choose S.
func (h *Host) startNotice(tx *store.Tx, id ident.GameID, g *game, s ident.Hash) error {
	joins, err := joinEntropy(tx, id)
	if err != nil {
		return err
	}
	lines := []string{"Every player has joined: play begins.", "",
		"The dice of the whole game start from S, the start hash over the commitment C and every player's join entropy (docs/DICE.md 2):",
		"  S  " + hex.EncodeToString(s[:])}
	for _, p := range g.Players {
		e, ok := joins[p.ID]
		switch {
		case !ok || len(e) == 0:
			lines = append(lines, fmt.Sprintf("  %s (%s): no entropy", p.ID, p.Side))
		default:
			lines = append(lines, fmt.Sprintf("  %s (%s): %q (hex %x)", p.ID, p.Side, e, e))
		}
	}
	lines = append(lines, "Check that your own entropy is here as you wrote it after JOIN; navarch verify recomputes S from the log.")
	n, err := store.Len(tx, id)
	if err != nil {
		return err
	}
	for _, r := range h.recipients(g) {
		if err := h.notice(tx, g, r, "", lines...); err != nil {
			return err
		}
		markReported(g, r, n) // each one's reports start here: a referee's first digest tells the whole first turn
	}
	return nil
}

// joinEntropy reads each player's join entropy from the log's join records.
func joinEntropy(tx *store.Tx, id ident.GameID) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := store.Records(tx, id, func(_ uint64, raw []byte, _ ident.Hash) error {
		if !strings.HasPrefix(string(raw), "type "+gamelog.TypeJoin+"\n") {
			return nil
		}
		r, err := gamelog.Parse(raw)
		if err != nil {
			return err
		}
		out[r.Get("player")] = r.Bytes("entropy")
		return nil
	})
	return out, err
}
