package ledger

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"navarch/gamelog"
	"navarch/ident"
	"navarch/store"
)

// Assignment is what one player of a team game commands: the ids of the commands his
// ruleset names (adjudicator.Teams), and whether he is his side's commander, who reassigns
// commands and answers for the whole side's choices (docs/LOG-FORMAT.md 3, assign).
type Assignment struct {
	Side, Player string
	Commander    bool
	Commands     []string
}

// ErrNotCommander refuses an ASSIGN from a player who is not his side's commander.
var ErrNotCommander = errors.New("ledger: only the side's commander reassigns commands")

// metaCommands holds the assignments in force for the open step; metaNext the latest,
// which the next step opened puts in force (an ASSIGN takes effect from the next step).
const (
	metaCommands = "commands"
	metaNext     = "commands-next"
)

// checkAssignments: in a team game every side given assignments has exactly one commander,
// each assignment is of a genesis player of its side, once.
func checkAssignments(players []Player, as []Assignment) error {
	sideOf := map[string]string{}
	for _, p := range players {
		sideOf[p.ID] = p.Side
	}
	commanders, seen := map[string]int{}, map[string]bool{}
	for _, a := range as {
		switch {
		case sideOf[a.Player] == "" || sideOf[a.Player] != a.Side:
			return fmt.Errorf("commands for %q of side %q: not a player of that side", a.Player, a.Side)
		case seen[a.Player]:
			return fmt.Errorf("commands for %q given twice", a.Player)
		}
		for _, c := range a.Commands {
			if !idPattern.MatchString(strings.ToLower(c)) || strings.ContainsAny(c, " ") {
				return fmt.Errorf("command %q of %s: want letters, digits, '.', '_', '-'", c, a.Player)
			}
		}
		seen[a.Player] = true
		if a.Commander {
			commanders[a.Side]++
		}
		if _, ok := commanders[a.Side]; !ok {
			commanders[a.Side] = 0
		}
	}
	for side, n := range commanders {
		if n != 1 {
			return fmt.Errorf("side %s has %d commanders; a team side has one", side, n)
		}
	}
	return nil
}

// assignRecord is the assign record of a, written by by.
func assignRecord(t, act uint32, by string, a Assignment) *gamelog.Builder {
	b := gamelog.New(gamelog.TypeAssign).AddUint("turn", uint64(t)).AddUint("activation", uint64(act)).
		Add("side", a.Side).Add("by", by).Add("player", a.Player)
	if a.Commander {
		b.Add("commander", "yes")
	}
	for _, c := range a.Commands {
		b.Add("command", c)
	}
	return b
}

// writeAssignments seals an assign record per assignment for its side and keeps them as the
// game's current commands.
func writeAssignments(tx *store.Tx, id ident.GameID, t, act uint32, by string, as []Assignment) error {
	cur, err := NextCommands(tx, id)
	if err != nil {
		return err
	}
	for _, a := range as {
		if err := addSealed(tx, id, t, act, a.Side, gamelog.TypeAssign, assignRecord(t, act, by, a)); err != nil {
			return err
		}
		if a.Commander { // a side has one commander: whoever held it hands it over
			for j := range cur {
				if cur[j].Side == a.Side {
					cur[j].Commander = false
				}
			}
		}
		i := slices.IndexFunc(cur, func(c Assignment) bool { return c.Player == a.Player })
		if i < 0 {
			cur = append(cur, a)
			continue
		}
		cur[i] = a
	}
	if t == 0 && act == 0 && by == "referee" { // the game's first: in force from the first step
		if err := store.PutMeta(tx, id, metaCommands, encodeAssignments(cur)); err != nil {
			return err
		}
	}
	return store.PutMeta(tx, id, metaNext, encodeAssignments(cur))
}

// Commands returns the assignments in force for the open step (none: every side has one
// player, as before team games).
func Commands(tx *store.Tx, id ident.GameID) ([]Assignment, error) {
	v, err := store.Meta(tx, id, metaCommands)
	if err != nil {
		return nil, err
	}
	return decodeAssignments(v), nil
}

// NextCommands returns the latest assignments, which the next step opened puts in force.
func NextCommands(tx *store.Tx, id ident.GameID) ([]Assignment, error) {
	v, err := store.Meta(tx, id, metaNext)
	if err != nil {
		return nil, err
	}
	return decodeAssignments(v), nil
}

// promoteCommands puts the latest assignments in force, as a step opens.
func promoteCommands(tx *store.Tx, id ident.GameID) error {
	v, err := store.Meta(tx, id, metaNext)
	if err != nil || v == nil {
		return err
	}
	return store.PutMeta(tx, id, metaCommands, v)
}

// Assign writes the commander by's reassignment: each of as replaces its player's commands
// from the next step on (the open step keeps whom it asked). A side's commander may hand
// the command of the side itself to another (Commander), and then is no longer it.
func Assign(tx *store.Tx, id ident.GameID, by string, as []Assignment) error {
	in, t, act, err := teamPlace(tx, id, "assign")
	if err != nil {
		return err
	}
	cur, err := NextCommands(tx, id)
	if err != nil {
		return err
	}
	side := in.players[by]
	if CommanderOf(cur, side) != by {
		return fmt.Errorf("assign by %s: %w", by, ErrNotCommander)
	}
	for _, a := range as {
		if in.players[a.Player] != side || a.Side != side {
			return fmt.Errorf("assign to %q: %w of side %s", a.Player, ErrNotPlayer, side)
		}
	}
	return writeAssignments(tx, id, t, act, by, as)
}

// teamPlace checks that game id keeps team records (log format v4 and later) and has
// started, and returns its info and the turn and activation a team record written now
// belongs to: the open (or last opened) activation's, or 0, 0 before the first.
func teamPlace(tx *store.Tx, id ident.GameID, what string) (info, uint32, uint32, error) {
	in, err := readInfo(tx, id)
	if err != nil {
		return in, 0, 0, err
	}
	if !gamelog.AtLeast(in.format, gamelog.FormatV4) {
		return in, 0, 0, fmt.Errorf("%s: a %s game has no team records", what, in.format)
	}
	if _, err := startHash(tx, id); err != nil {
		return in, 0, 0, err
	}
	c, err := readCursor(tx, id)
	if err != nil || !c.opened {
		return in, 0, 0, err
	}
	return in, c.turn, c.act, nil
}

// CommanderOf returns side's commander among as, or "".
func CommanderOf(as []Assignment, side string) string {
	for _, a := range as {
		if a.Side == side && a.Commander {
			return a.Player
		}
	}
	return ""
}

// TeamMessage logs a TEAM message of player to his side's other players, sealed for the
// side: the other side reads it only after the game's end (docs/LOG-FORMAT.md 4).
func TeamMessage(tx *store.Tx, id ident.GameID, player string, text []string) error {
	in, t, act, err := teamPlace(tx, id, "team message")
	if err != nil {
		return err
	}
	side := in.players[player]
	if side == "" {
		return fmt.Errorf("team message of %q: %w", player, ErrNotPlayer)
	}
	b := gamelog.New(gamelog.TypeTeam).AddUint("turn", uint64(t)).AddUint("activation", uint64(act)).
		Add("side", side).Add("player", player)
	n := 0
	for _, l := range text {
		if l = gamelog.CleanText(l); l != "" {
			b.Add("text", l)
			n++
		}
	}
	if n == 0 {
		return fmt.Errorf("team message of %s: no text", player)
	}
	return addSealed(tx, id, t, act, side, gamelog.TypeTeam, b)
}

func encodeAssignments(as []Assignment) []byte {
	var b strings.Builder
	for _, a := range as {
		c := "-"
		if a.Commander {
			c = "commander"
		}
		fmt.Fprintf(&b, "%s %s %s", a.Side, a.Player, c)
		for _, x := range a.Commands {
			b.WriteString(" " + x)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func decodeAssignments(v []byte) []Assignment {
	var out []Assignment
	for _, line := range strings.Split(strings.TrimSuffix(string(v), "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		out = append(out, Assignment{Side: f[0], Player: f[1], Commander: f[2] == "commander", Commands: f[3:]})
	}
	return out
}
