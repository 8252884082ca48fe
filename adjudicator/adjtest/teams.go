package adjtest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
	"testing"

	"navarch/adjudicator"
	"navarch/dice"
	"navarch/ident"
)

// Split gives each unit of side to one of n players (0 to n-1) by the game's commands: the
// commands nothing is Within are cut into n runs in the game's order, player 0 (the side's
// commander, who gives the orders for no unit) taking the last. A unit in no such command goes to the player of the first
// command holding it.
func Split(tm adjudicator.Teams, side string, n int) map[string]int {
	cmds := tm.Commands(side)
	var leaves []adjudicator.Command
	for _, c := range cmds {
		if !slices.ContainsFunc(cmds, func(d adjudicator.Command) bool { return d.Within == c.ID }) {
			leaves = append(leaves, c)
		}
	}
	owner := map[string]int{}
	for i, c := range leaves {
		for _, u := range c.Units {
			if _, ok := owner[u]; !ok {
				owner[u] = n - 1 - i*n/len(leaves)
			}
		}
	}
	for _, c := range cmds {
		for _, u := range c.Units {
			if _, ok := owner[u]; !ok {
				owner[u] = 0
			}
		}
	}
	return owner
}

// CheckCommands fails unless every unit of every side's commands is in a command, each
// command's ID is unique within its side, and each Within names a command of the side.
func CheckCommands(t testing.TB, g adjudicator.Game, sides []string) {
	t.Helper()
	tm := g.(adjudicator.Teams)
	for _, side := range sides {
		cmds := tm.Commands(side)
		if len(cmds) == 0 {
			t.Errorf("side %s has no commands", side)
		}
		ids := map[string]bool{}
		for _, c := range cmds {
			if c.ID == "" || ids[c.ID] || len(c.Units) == 0 {
				t.Errorf("side %s: command %+v: an ID, unique, and units wanted", side, c)
			}
			ids[c.ID] = true
		}
		for _, c := range cmds {
			if c.Within != "" && !ids[c.Within] {
				t.Errorf("side %s: command %s is within %s, no command of the side", side, c.ID, c.Within)
			}
		}
	}
}

// TeamPlay plays two games made by newGame in lockstep, each side's orders by the game's bot:
// one game gets each side's orders whole, the other the same orders split among players
// players by Split, each player's part (the orders OrderUnits gives to his units; the orders for
// none to player 0) written out alone, parsed and validated as that player would send it,
// and the parts put together as order says. Every part must pass Parse and Validate,
// every ordered unit must be Acting (or, for an order of none, Chooses true), and the two
// games must resolve to the same state and events (in any order for LastPlayerFirst) at every
// step. It plays up to steps steps.
func TeamPlay(t testing.TB, newGame func() adjudicator.Game, players, steps int, seed string, order Merge) Played {
	t.Helper()
	whole, team := newGame(), newGame()
	var pl Played
	for i := 0; i < steps && whole.Next().Kind != adjudicator.Over; i++ {
		st := whole.Next()
		a, b := map[string][]adjudicator.Order{}, map[string][]adjudicator.Order{}
		if st.Kind == adjudicator.NeedOrders {
			pl.Asked++
			for _, side := range st.Sides {
				text := whole.(adjudicator.Bot).BotOrders(side)
				a[side] = parsed(t, whole, side, text, fmt.Sprintf("step %d (%s), %s whole", i, st.What, side))
				var n int
				b[side], n = teamOrders(t, team, side, text, players, order, -1, fmt.Sprintf("step %d (%s), %s", i, st.What, side))
				if n > 1 {
					pl.Shared++
				}
			}
		}
		key := ident.Hash(sha256.Sum256([]byte(fmt.Sprintf("%s/%d", seed, i))))
		ea, erra := whole.Resolve(a, dice.NewActivation(st.Turn, st.Act, key))
		eb, errb := team.Resolve(b, dice.NewActivation(st.Turn, st.Act, key))
		if erra != nil || errb != nil {
			t.Fatalf("step %d (%s): resolve: whole %v, team %v", i, st.What, erra, errb)
		}
		if !bytes.Equal(whole.Encode(), team.Encode()) || eventsText(ea, order) != eventsText(eb, order) {
			t.Fatalf("step %d (%s): %d players' orders resolve otherwise than the whole side's:\nwhole %v\nteam  %v\norders whole %v\norders team  %v",
				i, st.What, players, ea, eb, a, b)
		}
	}
	return pl
}

// LatePlay plays a game by the bots with each side split among players players as in
// TeamPlay, player drop never sending his part (a late player, or a late commander for drop
// 0): every other part must pass Parse and Validate alone at every step, and Resolve must take
// the rest, the late player's units getting the rules' no-orders default, for up to steps
// steps or to the game's end. It returns how many steps the late player missed orders at.
func LatePlay(t testing.TB, newGame func() adjudicator.Game, players, drop, steps int, seed string, order Merge) int {
	t.Helper()
	g := newGame()
	missed := 0
	for i := 0; i < steps && g.Next().Kind != adjudicator.Over; i++ {
		st := g.Next()
		orders := map[string][]adjudicator.Order{}
		if st.Kind == adjudicator.NeedOrders {
			for _, side := range st.Sides {
				text := g.(adjudicator.Bot).BotOrders(side)
				what := fmt.Sprintf("step %d (%s), %s, player %d late", i, st.What, side, drop)
				all, _ := teamOrders(t, g, side, text, players, order, -1, what)
				orders[side], _ = teamOrders(t, g, side, text, players, order, drop, what)
				if len(orders[side]) < len(all) {
					missed++
				}
			}
		}
		key := ident.Hash(sha256.Sum256([]byte(fmt.Sprintf("%s/late/%d", seed, i))))
		if _, err := g.Resolve(orders, dice.NewActivation(st.Turn, st.Act, key)); err != nil {
			t.Fatalf("step %d (%s), player %d of %d late: resolve: %v (orders %v)", i, st.What, drop, players, err, orders)
		}
	}
	return missed
}

// eventsText is the events as one text to compare: in their order, or for LastPlayerFirst
// sorted, for the players' parts may come in any order and so may the events of orders that
// do not bear on each other (two leaders' moves); the state must still be the same.
func eventsText(events []adjudicator.Event, order Merge) string {
	lines := make([]string, len(events))
	for i, e := range events {
		lines[i] = fmt.Sprint(e)
	}
	if order == LastPlayerFirst {
		slices.Sort(lines)
	}
	return fmt.Sprint(lines)
}

// Played counts a TeamPlay's steps.
type Played struct {
	Asked  int // steps that asked for orders
	Shared int // a side's orders at a step that came from two players or more
}

// parsed is text parsed and validated; a refusal fails the test.
func parsed(t testing.TB, g adjudicator.Game, side, text, what string) []adjudicator.Order {
	t.Helper()
	orders, errs := g.Parse(side, text)
	if len(errs) == 0 {
		errs = g.Validate(side, orders)
	}
	if len(errs) > 0 {
		t.Fatalf("%s: %q refused: %v", what, text, errs)
	}
	return orders
}

// teamOrders splits the bot's text among players and returns the parts put together.
func teamOrders(t testing.TB, g adjudicator.Game, side, text string, players int, order Merge, drop int, what string) (orders []adjudicator.Order, senders int) {
	t.Helper()
	tm := g.(adjudicator.Teams)
	owner := Split(tm, side, players)
	all, errs := g.Parse(side, text)
	if len(errs) > 0 {
		t.Fatalf("%s: the bot's %q: %v", what, text, errs)
	}
	acting := tm.Acting(side)
	rest := all
	if so, ok := g.(adjudicator.StandingOrders); ok {
		_, rest = so.Standing(side, all)
	}
	for _, o := range rest {
		units := tm.OrderUnits(side, o)
		if len(units) == 0 && !tm.Chooses(side) {
			t.Errorf("%s: %q gives orders to no unit, but the step asks no choice of the side", what, o)
		}
		for _, u := range units {
			if !slices.Contains(acting, u) {
				t.Errorf("%s: %q gives orders to %s, not among the units asked %v", what, o, u, acting)
			}
		}
	}
	parts := make([][]adjudicator.Order, players)
	from := make([]int, len(all)) // the player each of the whole's orders went to
	for i, o := range all {
		p := -1
		for _, u := range tm.OrderUnits(side, o) {
			if q, ok := owner[u]; !ok {
				t.Errorf("%s: %q names %s, in no command", what, o, u)
			} else if p >= 0 && q != p {
				t.Errorf("%s: %q gives orders to units of players %d and %d", what, o, p, q)
			} else {
				p = q
			}
		}
		from[i] = max(p, 0)
		parts[from[i]] = append(parts[from[i]], o)
	}
	sent := make([][]adjudicator.Order, players)
	for p := players - 1; p >= 0; p-- {
		if part := parts[p]; len(part) > 0 && p != drop {
			senders++
			sent[p] = parsed(t, g, side, adjudicator.Canonical(part), fmt.Sprintf("%s, player %d of %d", what, p, players))
			if len(sent[p]) != len(part) {
				t.Fatalf("%s, player %d: %d orders read back as %d", what, p, len(part), len(sent[p]))
			}
			if order == LastPlayerFirst {
				orders = append(orders, sent[p]...)
			}
		}
	}
	if order == AsWhole {
		next := make([]int, players)
		for _, p := range from {
			if p != drop {
				orders = append(orders, sent[p][next[p]])
				next[p]++
			}
		}
	}
	return orders, senders
}

// Merge says how TeamPlay puts the players' parts together.
type Merge int

const (
	// LastPlayerFirst: one part after the other, the last player's first (the side's
	// commander's last): the engine may not rely on the order of the players' parts.
	LastPlayerFirst Merge = iota
	// AsWhole: each order where the whole side's orders had it, for a ruleset whose engine
	// carries a side's lines out in their order (the host puts the parts together in the
	// order of the players' commands).
	AsWhole
)

// CheckTeamsExpect checks a rule case's team expectation against g before the case's step is
// resolved, and reports whether e is one: "asks SIDE UNIT..." (the units of SIDE the step asks
// orders for, Acting; none for nil) or "chooses SIDE yes|no" (Chooses).
func CheckTeamsExpect(t testing.TB, g adjudicator.Game, e []string) bool {
	t.Helper()
	if len(e) < 2 || e[0] != "asks" && e[0] != "chooses" {
		return false
	}
	tm, ok := g.(adjudicator.Teams)
	switch {
	case !ok:
		t.Errorf("expect %v: the game has no team games", e)
	case e[0] == "asks":
		if got := tm.Acting(e[1]); !slices.Equal(got, e[2:]) && len(got)+len(e[2:]) > 0 {
			t.Errorf("expect %v: the step asks %s for %v", e, e[1], got)
		}
	case len(e) != 3 || tm.Chooses(e[1]) != (e[2] == "yes"):
		t.Errorf("expect %v: Chooses(%s) is %t", e, e[1], tm.Chooses(e[1]))
	}
	return true
}

// LateEveryScenario runs LatePlay over every scenario of rs, split among 2 and 4 players, with
// the first and then the last player late (a wing's, or the side's commander's with its
// choices), for up to steps steps each; it fails when no late player ever missed a step.
func LateEveryScenario(t *testing.T, rs adjudicator.Ruleset, steps int, order Merge) {
	t.Helper()
	missed := 0
	for _, sc := range rs.Scenarios() {
		for _, n := range []int{2, 4} {
			for _, drop := range []int{0, n - 1} {
				newGame := func() adjudicator.Game {
					g, err := rs.New(adjudicator.Config{Scenario: sc.ID})
					if err != nil {
						t.Fatal(err)
					}
					return g
				}
				missed += LatePlay(t, newGame, n, drop, steps, sc.ID, order)
			}
		}
	}
	if missed == 0 {
		t.Error("no late player missed a step")
	}
}
