package play

import (
	"fmt"
	"slices"

	"navarch/adjudicator"
	"navarch/ledger"
)

// Team games (docs/LOG-FORMAT.md 3, assign): a side may be shared by several players, each
// holding commands of the ruleset (adjudicator.Teams), one of them the side's commander.

// Team is who commands what of one side.
type Team struct {
	Side      string
	Commander string
	held      map[string]string // command id → the player holding it
}

// TeamOf returns side's team among the assignments, and false where the side has none (one
// player, or players who share the whole side, as before team games).
func TeamOf(as []ledger.Assignment, side string) (Team, bool) {
	tm := Team{Side: side, held: map[string]string{}}
	for _, a := range as {
		if a.Side != side {
			continue
		}
		if a.Commander {
			tm.Commander = a.Player
		}
		for _, c := range a.Commands {
			tm.held[c] = a.Player
		}
	}
	return tm, tm.Commander != ""
}

// Owner returns the player who commands unit: the holder of the innermost command holding
// it that someone holds, else the side's commander.
func (tm Team) Owner(t adjudicator.Teams, unit string) string {
	cmds := t.Commands(tm.Side)
	depth := func(c adjudicator.Command) int {
		n := 0
		for w := c.Within; w != "" && n < len(cmds); n++ {
			i := slices.IndexFunc(cmds, func(x adjudicator.Command) bool { return x.ID == w })
			if i < 0 {
				break
			}
			w = cmds[i].Within
		}
		return n
	}
	owner, best := tm.Commander, -1
	for _, c := range cmds {
		p, ok := tm.held[c.ID]
		if ok && slices.Contains(c.Units, unit) && depth(c) > best {
			owner, best = p, depth(c)
		}
	}
	return owner
}

// Asked returns the players a step asks (sorted by id, as the activation record lists
// them): for a side with a team, the owners of the units the step asks (Teams.Acting), and
// its commander where the step asks a choice of the whole side (Teams.Chooses) or asks no
// unit; for any other side, all its players.
func Asked(g adjudicator.Game, st adjudicator.Step, players []ledger.Player, as []ledger.Assignment) []string {
	if st.Kind != adjudicator.NeedOrders {
		return nil
	}
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	t, teams := g.(adjudicator.Teams)
	for _, side := range st.Sides {
		tm, ok := TeamOf(as, side)
		if !ok || !teams {
			for _, p := range players {
				if p.Side == side {
					add(p.ID)
				}
			}
			continue
		}
		units := t.Acting(side)
		if len(units) == 0 || t.Chooses(side) { // a choice of the whole side is the commander's
			add(tm.Commander)
		}
		for _, u := range units {
			add(tm.Owner(t, u))
		}
	}
	slices.Sort(out)
	return out
}

// Foreign returns the orders of player that give orders to units he does not command (or
// make a choice for the whole side, which is the commander's), one error a line; none for a
// side without a team.
func Foreign(g adjudicator.Game, side, player string, orders []adjudicator.Order, as []ledger.Assignment) []adjudicator.LineError {
	t, teams := g.(adjudicator.Teams)
	tm, ok := TeamOf(as, side)
	if !teams || !ok {
		return nil
	}
	var errs []adjudicator.LineError
	for _, o := range orders {
		units := t.OrderUnits(side, o)
		if len(units) == 0 && player != tm.Commander {
			errs = append(errs, adjudicator.LineError{Line: o.Line(), Text: o.String(),
				Err: fmt.Errorf("%w: a choice for the whole side is the side's commander's", adjudicator.ErrIllegal)})
			continue
		}
		for _, u := range units {
			if tm.Owner(t, u) != player {
				errs = append(errs, adjudicator.LineError{Line: o.Line(), Text: o.String(),
					Err: fmt.Errorf("%w: %s is not under your command", adjudicator.ErrIllegal, u)})
				break
			}
		}
	}
	return errs
}
