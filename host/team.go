package host

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"navarch/adjudicator"
	"navarch/ident"
	"navarch/ledger"
	"navarch/mail"
	"navarch/play"
	"navarch/store"
)

// Team games (docs/DESIGN.md 3.8): several players share a side, each commanding what the
// ruleset's commands give him (adjudicator.Teams), one of them the side's commander. A step
// asks the players who command what acts (play.Asked) and keeps their orders by player; a
// game of one player a side keeps them by side, as before.

// keys lists what the step's orders are kept by: its sides, or in a team game the players
// it asks.
func keys(s *step) []string {
	if len(s.Players) > 0 {
		return s.Players
	}
	return s.Sides
}

// orderKey is what p's orders are kept by in the step.
func orderKey(s *step, p *player) string {
	if len(s.Players) > 0 {
		return p.ID
	}
	return p.Side
}

// asks reports whether the step waits for p's orders.
func asks(s *step, p *player) bool {
	if len(s.Players) > 0 {
		return slices.Contains(s.Players, p.ID)
	}
	return slices.Contains(s.Sides, p.Side)
}

// complete reports whether every side (team game: every player) asked has orders.
func complete(s *step) bool {
	for _, k := range keys(s) {
		if _, ok := s.Orders[k]; !ok {
			return false
		}
	}
	return true
}

// sideOfKey is the side whose orders the key keeps.
func (g *game) sideOfKey(k string) string {
	if g.Step != nil && len(g.Step.Players) > 0 {
		if p := g.playerByID(k); p != nil {
			return p.Side
		}
	}
	return k
}

func (g *game) playerByID(id string) *player {
	for i := range g.Players {
		if g.Players[i].ID == id {
			return &g.Players[i]
		}
	}
	return nil
}

// team reports whether the game shares a side among players with commands.
func team(tx *store.Tx, id ident.GameID) ([]ledger.Assignment, bool, error) {
	as, err := ledger.Commands(tx, id)
	return as, len(as) > 0, err
}

// askedPlayers are the players step st asks: nil in a game without teams (the step keeps
// orders by side).
func askedPlayers(tx *store.Tx, id ident.GameID, eng adjudicator.Game, st adjudicator.Step) ([]string, error) {
	if _, ok, err := team(tx, id); err != nil || !ok {
		return nil, err
	}
	return play.AskedIn(tx, id, eng, st)
}

// teamCommands turns a spec's commands into the game's first assignments: each side of
// more than one player is a team, its commander the player named, else the first listed;
// none where no player was given commands.
func teamCommands(spec GameSpec) []ledger.Assignment {
	if len(spec.Commands) == 0 {
		return nil
	}
	count := map[string]int{}
	for _, p := range spec.Players {
		count[p.Side]++
	}
	var out []ledger.Assignment
	for _, p := range spec.Players {
		if count[p.Side] < 2 {
			continue
		}
		c := spec.Commanders[p.Side]
		if c == "" {
			i := slices.IndexFunc(spec.Players, func(q PlayerSpec) bool { return q.Side == p.Side })
			c = spec.Players[i].ID
		}
		out = append(out, ledger.Assignment{Side: p.Side, Player: p.ID, Commander: c == p.ID, Commands: spec.Commands[p.ID]})
	}
	return out
}

// assign is a commander's ASSIGN COMMAND PLAYER (docs/DESIGN.md 3.8): the command goes to the
// player from the next step on, away from whoever of the side held it; ASSIGN COMMANDER
// PLAYER hands over the side's command.
func (h *Host) assign(tx *store.Tx, a *actor) error {
	if a.p == nil {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Only a side's commander reassigns commands.")
	}
	as, err := ledger.NextCommands(tx, a.id)
	if err != nil {
		return err
	}
	if ledger.CommanderOf(as, a.p.Side) == "" {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Your side is not shared among players: there is nothing to assign; nothing was changed.")
	}
	if ledger.CommanderOf(as, a.p.Side) != a.p.ID {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Only your side's commander reassigns commands; nothing was changed.")
	}
	if len(a.req.Args) != 2 {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Write ASSIGN COMMAND PLAYER (ASSIGN BAR carol), or ASSIGN COMMANDER PLAYER; nothing was changed.")
	}
	what, to := strings.ToUpper(a.req.Args[0]), strings.ToLower(a.req.Args[1])
	q := a.g.playerByID(to)
	if q == nil || q.Side != a.p.Side {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, fmt.Sprintf("%s is not a player of your side; nothing was changed.", a.req.Args[1]))
	}
	eng, err := h.engine(tx, a.id)
	if err != nil {
		return err
	}
	changed, err := reassign(eng, as, a.p.Side, what, to)
	if err != nil {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, err.Error()+"; nothing was changed.")
	}
	if err := ledger.Assign(tx, a.id, a.p.ID, changed); err != nil {
		return err
	}
	text := fmt.Sprintf("%s gives %s to %s, from the next step on.", a.p.ID, what, to)
	if what == "COMMANDER" {
		text = fmt.Sprintf("%s hands the command of the side to %s, from now on.", a.p.ID, to)
	}
	return h.toTeam(tx, a, "", text)
}

// reassign returns the assignments that change when command what of side goes to player to.
func reassign(eng adjudicator.Game, as []ledger.Assignment, side, what, to string) ([]ledger.Assignment, error) {
	var out []ledger.Assignment
	if what == "COMMANDER" {
		for _, x := range as {
			if x.Side == side && x.Player == to {
				x.Commander = true
				out = append(out, x)
			}
		}
		return out, nil
	}
	t, ok := eng.(adjudicator.Teams)
	if !ok || !slices.ContainsFunc(t.Commands(side), func(c adjudicator.Command) bool { return c.ID == what }) {
		return nil, fmt.Errorf("your side has no command %s", what)
	}
	for _, x := range as {
		if x.Side != side {
			continue
		}
		had := slices.Contains(x.Commands, what)
		switch {
		case x.Player == to && !had:
			x.Commands = append(slices.Clone(x.Commands), what)
		case x.Player != to && had:
			x.Commands = slices.DeleteFunc(slices.Clone(x.Commands), func(c string) bool { return c == what })
		default:
			continue
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s commands %s already", to, what)
	}
	return out, nil
}

// teamMessage relays a TEAM mail to the sender's side's other players and logs it sealed for
// the side (the other side reads it after the game's end).
func (h *Host) teamMessage(tx *store.Tx, a *actor) error {
	if a.p == nil {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "TEAM mail is for a side's players.")
	}
	if a.g.Status != store.StatusPlaying && a.g.Status != store.StatusOver {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "TEAM mail is relayed once the game has started; nothing was sent.")
	}
	var text []string
	if len(a.req.Args) > 0 {
		text = append(text, strings.Join(a.req.Args, " "))
	}
	for _, l := range a.req.Orders {
		text = append(text, l.Text)
	}
	if len(text) == 0 {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Write TEAM followed by your message; nothing was sent.")
	}
	if len(a.g.sidePlayers(a.p.Side)) < 2 {
		return h.notice(tx, a.g, a.to(), a.msg.MessageID, "Nobody else plays your side; nothing was sent.")
	}
	if err := ledger.TeamMessage(tx, a.id, a.p.ID, text); err != nil {
		return err
	}
	return h.toTeam(tx, a, a.msg.MessageID, append([]string{a.p.ID + " writes to the team:"}, text...)...)
}

// toTeam mails lines to every player of a's side, a's own copy in reply to inReplyTo.
func (h *Host) toTeam(tx *store.Tx, a *actor, inReplyTo string, lines ...string) error {
	for _, p := range a.g.sidePlayers(a.p.Side) {
		reply := ""
		if p.ID == a.p.ID {
			reply = inReplyTo
		}
		if err := h.notice(tx, a.g, recipient{p: p}, reply, lines...); err != nil {
			return err
		}
	}
	return nil
}

// foreign refuses, by line, orders of a team player for units he does not command.
func foreign(tx *store.Tx, id ident.GameID, eng adjudicator.Game, p *player, orders []adjudicator.Order) ([]adjudicator.LineError, error) {
	as, ok, err := team(tx, id)
	if err != nil || !ok {
		return nil, err
	}
	return play.Foreign(eng, p.Side, p.ID, orders, as), nil
}

// checkCommands refuses commands of a player not listed, of a command his side does not
// have, or a commander not of his side, before anything is written.
func checkCommands(eng adjudicator.Game, spec GameSpec) error {
	if len(spec.Commands) == 0 && len(spec.Commanders) == 0 {
		return nil
	}
	t, ok := eng.(adjudicator.Teams)
	if !ok {
		return fmt.Errorf("this ruleset does not share a side among players (no commands)")
	}
	side := map[string]string{}
	for _, p := range spec.Players {
		side[p.ID] = p.Side
	}
	for _, id := range slices.Sorted(maps.Keys(spec.Commands)) {
		if side[id] == "" {
			return fmt.Errorf("commands for %s, who is not a player of the game", id)
		}
		for _, c := range spec.Commands[id] {
			if !slices.ContainsFunc(t.Commands(side[id]), func(x adjudicator.Command) bool { return x.ID == c }) {
				return fmt.Errorf("side %s has no command %q (its commands: %s)", side[id], c, commandIDs(t.Commands(side[id])))
			}
		}
	}
	for _, s := range slices.Sorted(maps.Keys(spec.Commanders)) {
		if side[spec.Commanders[s]] != s {
			return fmt.Errorf("commander %s is not a player of side %s", spec.Commanders[s], s)
		}
	}
	return nil
}

func commandIDs(cs []adjudicator.Command) string {
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return strings.Join(ids, ", ")
}

// withCommanders is missing and, in a team game, the commander of each late player's side,
// who answers for the side (a late player's reminder goes to him too).
func withCommanders(tx *store.Tx, id ident.GameID, g *game, missing []*player) ([]*player, error) {
	if g.Step == nil || len(g.Step.Players) == 0 {
		return missing, nil
	}
	as, err := ledger.Commands(tx, id)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(missing)
	for _, p := range missing {
		if c := g.playerByID(ledger.CommanderOf(as, p.Side)); c != nil && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// standInFor reads a team commander's FOR PLAYER (the first order line, or NONE FOR
// PLAYER): the player of his side whom the step asked and who has sent nothing, for whose
// units he answers; it removes the line. Without one it returns the sender; a FOR that
// cannot be is refused with the reason.
func (h *Host) standInFor(tx *store.Tx, a *actor) (*player, string, error) {
	var id string
	switch {
	case a.req.Command == mail.CmdNone && len(a.req.Args) == 2 && strings.EqualFold(a.req.Args[0], "FOR"):
		id = a.req.Args[1]
	case len(a.req.Orders) > 0:
		f := strings.Fields(a.req.Orders[0].Text)
		if len(f) != 2 || !strings.EqualFold(f[0], "FOR") {
			return a.p, "", nil
		}
		id = f[1]
		a.req.Orders = a.req.Orders[1:]
	default:
		return a.p, "", nil
	}
	q := a.g.playerByID(strings.ToLower(id))
	as, err := ledger.Commands(tx, a.id)
	if err != nil {
		return nil, "", err
	}
	switch {
	case ledger.CommanderOf(as, a.p.Side) != a.p.ID:
		return nil, "Only your side's commander answers for another player (FOR)", nil
	case q == nil || q.Side != a.p.Side || q == a.p:
		return nil, fmt.Sprintf("FOR %s: not another player of your side", id), nil
	case !asks(a.g.Step, q):
		return nil, fmt.Sprintf("FOR %s: this step does not ask %s", id, q.ID), nil
	}
	if _, ok := a.g.Step.Orders[q.ID]; ok {
		return nil, fmt.Sprintf("FOR %s: %s has sent orders for this step; they stand", id, q.ID), nil
	}
	return q, "", nil
}
