package gamelog

import "strings"

// The rules of log format v4 for team games (docs/LOG-FORMAT.md 3): several players may
// share a side, each holding the commands an assign record gave him; a close uses one orders
// record per player asked; assignments and TEAM messages are sealed for their side.

// teamState is what verify knows of a view's team games: each side's commander, from the
// assign records this view holds.
type teamState struct {
	commander map[string]string // side → its commander
}

// ordersKey is the key a close's "one record each" counts by: the player in v4 (several
// players may share a side), the player's side before.
func (v *verifier) ordersKey(p string) string {
	if v.v4 {
		return p
	}
	return v.players[p]
}

// checkAssign: an assign record (always sealed for its side) gives a player of that side his
// commands. Before the start the referee writes the game's first assignments (turn 0
// activation 0); after it only the side's commander may reassign, and his record belongs
// to the activation open when his mail came.
func (v *verifier) checkAssign(e *Entry) error {
	r := e.Record
	side, p, by := r.Get("side"), r.Get("player"), r.Get("by")
	switch {
	case !v.v4:
		return v.fail(e, "assign records belong to %s and later, not %s", FormatV4, v.f.Format)
	case v.players[p] != side:
		return v.fail(e, "assigns commands of side %s to %s, a player of side %q", side, p, v.players[p])
	case r.Has("commander") && r.Get("commander") != "yes":
		return v.fail(e, "commander %q: want yes", r.Get("commander"))
	case !v.started && by != "referee":
		return v.fail(e, "an assignment before the start is the referee's (by referee), not %s's", by)
	case !v.started && (r.Uint("turn") != 0 || r.Uint("activation") != 0):
		return v.fail(e, "an assignment before the start is of turn 0 activation 0")
	case v.started && by == "referee":
		return v.fail(e, "after the start only the side's commander reassigns commands (ASSIGN)")
	case v.started && v.players[by] != side:
		return v.fail(e, "an assignment of side %s by %s, who is not its player", side, by)
	case v.started && v.team.commander[side] != by:
		return v.fail(e, "an assignment of side %s by %s, who is not its commander (%s)", side, by, v.team.commander[side])
	}
	if err := v.checkPlace(e); err != nil {
		return err
	}
	if v.team.commander == nil {
		v.team.commander = map[string]string{}
	}
	if r.Has("commander") {
		v.team.commander[strings.Clone(side)] = strings.Clone(p)
	}
	return nil
}

// checkTeam: a TEAM message (always sealed for its side) is from a player of that side,
// after the start.
func (v *verifier) checkTeam(e *Entry) error {
	r := e.Record
	switch {
	case !v.v4:
		return v.fail(e, "team records belong to %s and later, not %s", FormatV4, v.f.Format)
	case !v.started:
		return v.fail(e, "a team message before the start")
	case v.players[r.Get("player")] != r.Get("side"):
		return v.fail(e, "a team message of side %s from %s, who is not its player", r.Get("side"), r.Get("player"))
	}
	return v.checkPlace(e)
}

// teamTypeMarker refuses an assign or team record outside a seal: it is for its side's eyes.
func (v *verifier) teamTypeMarker(e *Entry) error {
	if t := e.Record.Type; t == TypeAssign || t == TypeTeam {
		return v.fail(e, "a %s record is for its side's eyes and must be sealed", t)
	}
	return nil
}

// standIn reads an orders record's "for" (v4): the side's commander answering for a player
// of his side whom the step asked (a late one); it returns the player the record counts
// for in the close (the sender where it has none). A view that holds the side's
// assignments checks that the sender is its commander.
func (v *verifier) standIn(e *Entry, sender string) (string, error) {
	r := e.Record
	if !r.Has("for") {
		return sender, nil
	}
	p := r.Get("for")
	switch side := v.players[sender]; {
	case !v.v4:
		return "", v.fail(e, "orders for another player belong to %s and later, not %s", FormatV4, v.f.Format)
	case p == sender || v.players[p] != side:
		return "", v.fail(e, "orders of %s for %s, who is not another player of his side", sender, p)
	case r.Has("default"):
		return "", v.fail(e, "a default is no one's orders for another")
	case v.team.commander[side] != "" && v.team.commander[side] != sender:
		return "", v.fail(e, "orders of %s for %s: only the side's commander (%s) answers for another player", sender, p, v.team.commander[side])
	}
	return p, nil
}
