package forge

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/duel"
	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

// TeamPlayers are the team duel's: two players a side, alice and carol their sides'
// commanders.
var TeamPlayers = []ledger.Player{{ID: "alice", Side: "red"}, {ID: "bob", Side: "red"},
	{ID: "carol", Side: "blue"}, {ID: "dave", Side: "blue"}}

// TeamCommands gives red's ship to alice and blue's to dave; carol commands blue.
var TeamCommands = []ledger.Assignment{
	{Side: "red", Player: "alice", Commander: true, Commands: []string{"SHIP"}},
	{Side: "red", Player: "bob"},
	{Side: "blue", Player: "carol", Commander: true},
	{Side: "blue", Player: "dave", Commands: []string{"SHIP"}},
}

// TeamGame is a short duel of two players a side (log format v5, new games'), played
// through play: turn 1 asks alice and dave; alice then hands the ship to bob (ASSIGN) and
// bob writes to his team (TEAM), so that turn 2 asks bob and dave; dave sends nothing in
// turn 2 and gets the default. It returns the store (closed by the test's cleanup) and the
// game.
func TeamGame(t testing.TB, turns int) (*store.Store, ledger.Created) {
	t.Helper()
	return TeamGameIn(t, turns, "")
}

// TeamGameIn is TeamGame in log format format ("" for new games', gamelog.FormatV4 for a
// game of v4's rules).
func TeamGameIn(t testing.TB, turns int, format string) (*store.Store, ledger.Created) {
	t.Helper()
	return teamGame(t, turns, format, TeamPlayers, TeamCommands, teamOpts{})
}

// TeamResendGame is TeamGame (v5) played three turns, in the third of which red's
// commander alice first answers for bob, then bob sends his own orders twice: each record
// replaces the one before it, and the close uses bob's last (docs/LOG-FORMAT.md 3, "v5's
// team sides").
func TeamResendGame(t testing.TB) (*store.Store, ledger.Created) {
	t.Helper()
	return teamGame(t, 3, "", TeamPlayers, TeamCommands, teamOpts{resend: true})
}

// TeamStandingGame is TeamGame (v5, two turns) in which bob sends two mails of standing
// orders in turn 1 (Message-IDs <s1@bob.example> and <s2@bob.example>, the plain kind): a
// team side's standing records, each with its sender record after it. The duel's steps
// apply no standing orders: they stay pending, held by red's copy and the full one.
func TeamStandingGame(t testing.TB) (*store.Store, ledger.Created) {
	t.Helper()
	return teamGame(t, 2, "", TeamPlayers, TeamCommands, teamOpts{standing: true})
}

// teamOpts are what a team game adds to TeamGame's turns: resend (TeamResendGame), standing
// (TeamStandingGame).
type teamOpts struct{ resend, standing bool }

// MixedPlayers are a team side (red: alice, bob) against one player (blue: carol).
var MixedPlayers = []ledger.Player{{ID: "alice", Side: "red"}, {ID: "bob", Side: "red"}, {ID: "carol", Side: "blue"}}

// MixedGame is TeamGame (v5) with blue played by carol alone: its steps name carol and
// count red's players asked.
func MixedGame(t testing.TB, turns int) (*store.Store, ledger.Created) {
	t.Helper()
	return teamGame(t, turns, "", MixedPlayers, []ledger.Assignment{TeamCommands[0], TeamCommands[1],
		{Side: "blue", Player: "carol", Commander: true, Commands: []string{"SHIP"}}}, teamOpts{})
}

func teamGame(t testing.TB, turns int, format string, players []ledger.Player, commands []ledger.Assignment, opts teamOpts) (*store.Store, ledger.Created) {
	t.Helper()
	s, err := store.Open(t.TempDir()+"/navarch.db", slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cfg := adjudicator.Config{Scenario: "short"}
	g, _ := duel.Ruleset.New(cfg)
	var c ledger.Created
	err = s.Update(func(tx *store.Tx) error {
		if format == "" {
			c, err = play.CreateTeams(tx, duel.Ruleset, cfg, players, commands, ledgertest.Clock, ledgertest.Rand("team"), nil)
		} else {
			c, err = ledger.Create(tx, ledger.Spec{Ruleset: duel.Ruleset.ID(), Scenario: cfg.Scenario, Engine: duel.Ruleset.Version(),
				Players: players, MaxTurns: duel.Ruleset.Scenarios()[0].MaxTurns, Created: ledgertest.Clock, Commands: commands,
				Format: format}, ledgertest.Rand("team"))
		}
		if err != nil {
			return err
		}
		_, err := ledger.Start(tx, c.Game, true)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= turns && g.Next().Kind != adjudicator.Over; turn++ {
		err := s.Update(func(tx *store.Tx) error {
			st := g.Next()
			asked, err := play.AskedIn(tx, c.Game, g, st)
			if err != nil {
				return err
			}
			if _, err := play.Open(tx, c.Game, g, asked, ledgertest.Clock); err != nil {
				return err
			}
			var orders []play.SideOrders
			var uses []uint64
			for _, p := range asked {
				if p == "dave" && turn == 2 {
					continue // late: the default
				}
				side := map[string]string{"alice": "red", "bob": "red", "carol": "blue", "dave": "blue"}[p]
				o, _ := g.Parse(side, "FIRE")
				so := play.SideOrders{Player: p, Side: side, Orders: o, Received: ledgertest.Clock,
					MessageID: fmt.Sprintf("<%d@%s.example>", turn, p)}
				var sent []play.SideOrders
				if opts.resend && turn == 3 && p == "bob" { // the commander for him, then his own, twice
					first, again := so, so
					first.Player, first.For, first.MessageID = "alice", "bob", "<3@alice.example>"
					again.MessageID = "<3b@bob.example>"
					sent = append(sent, first, so)
					so = again
				}
				for _, x := range sent {
					if _, _, err := play.Record(tx, c.Game, st, x); err != nil {
						return err
					}
				}
				i, _, err := play.Record(tx, c.Game, st, so)
				if err != nil {
					return err
				}
				orders, uses = append(orders, so), append(uses, i)
			}
			for i := 1; opts.standing && turn == 1 && i <= 2; i++ {
				if _, err := ledger.RecordStanding(tx, c.Game, ledger.StandingOrders{Player: "bob", Lines: []string{"FIRE"}, Received: ledgertest.Clock,
					MessageID: fmt.Sprintf("<s%d@bob.example>", i)}); err != nil {
					return err
				}
			}
			if turn == 1 {
				if err := ledger.Assign(tx, c.Game, "alice", []ledger.Assignment{{Side: "red", Player: "bob", Commands: []string{"SHIP"}},
					{Side: "red", Player: "alice", Commander: true}}); err != nil {
					return err
				}
				if err := ledger.TeamMessage(tx, c.Game, "bob", []string{"Aye, I have the ship."}); err != nil {
					return err
				}
			}
			_, err = play.Resolve(tx, c.Game, g, orders, uses)
			return err
		})
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
	}
	return s, c
}

// TeamExport is TeamGame's export for view v.
func TeamExport(t testing.TB, s *store.Store, c ledger.Created, v ledger.View) Game {
	t.Helper()
	data, err := ledgertest.Export(s, c.Game, v)
	if err != nil {
		t.Fatal(err)
	}
	var g Game
	if err := s.View(func(tx *store.Tx) error { g.Key, err = store.InstallationKey(tx); return err }); err != nil {
		t.Fatal(err)
	}
	g.Data = data
	if g.File, err = gamelog.ParseFile(data); err != nil {
		t.Fatalf("honest export does not parse: %v", err)
	}
	return g
}

// TeamAttacks are the operator's rewrites of the team duel's full export (two turns played,
// log format v4) that verify must refuse by v4's rules: a close using an orders record of a
// player its step did not ask, two records of one player, a player's record missing without
// a default, an ASSIGN by a player who is not his side's commander, and orders "for" a
// player from one who is not his side's commander, or of the other side.
func TeamAttacks(t testing.TB) ([]Forged, Game) {
	t.Helper()
	s, c := TeamGameIn(t, 2, gamelog.FormatV4)
	g := TeamExport(t, s, c, ledger.View{Full: true})
	b := Blocks(g.Data)
	close2 := Find(t, b, "close", "turn 2\nactivation 1\n")
	bob2 := Find(t, b, "orders", "turn 2\nactivation 1\n", "player bob\n")
	dave2 := Find(t, b, "orders", "turn 2\nactivation 1\n", "player dave\n", "default yes")
	assign := Find(t, b, "sealed", "what assign", "by alice\n")
	alice1 := Find(t, b, "orders", "turn 1\nactivation 1\n", "player alice\n")
	var out []Forged
	add := func(name string, blocks []string, index int, reason string) {
		out = append(out, Forged{Name: name, Data: Resign(t, g.Key, Rechain(t, g.Key, blocks)), Index: int64(index), Reason: reason})
	}
	{
		x := Clone(b)
		orders := strings.Replace(x[bob2], "player bob", "player alice", 1)
		x[bob2] = strings.Replace(orders, "<2@bob.example>", "<2@alice.example>", 1)
		add("a step using an orders record of a player it did not ask", x, bob2-1, "does not ask")
	}
	{
		x := Clone(b)
		x[dave2] = strings.Replace(x[dave2], "player dave", "player bob", 1)
		add("two orders records of one player", x, close2-1, "of player bob, not its latest")
	}
	{
		x := Clone(b)
		x = append(x[:dave2:dave2], x[dave2+1:]...)
		ci := close2 - 1
		x[ci] = strings.Replace(x[ci], fmt.Sprintf("use %d\n", dave2-1), "", 1)
		add("a player's record missing without a default", x, ci-1, "one record each")
	}
	{
		x := Clone(b)
		x[assign] = strings.ReplaceAll(x[assign], "by alice\n", "by bob\n")
		add("an ASSIGN by a player who is not the side's commander", x, assign-1, "not its commander")
	}
	{
		x := Clone(b)
		x[alice1] = strings.Replace(strings.Replace(x[alice1], "player alice", "player bob", 1), "<1@alice.example>", "<1@bob.example>", 1) + "\nfor alice"
		add("orders for another player from one who is not the side's commander", x, alice1-1, "only the side's commander")
	}
	{
		x := Clone(b)
		x[alice1] = strings.Replace(strings.Replace(x[alice1], "player alice", "player carol", 1), "<1@alice.example>", "<1@carol.example>", 1) + "\nfor alice"
		add("orders for a player of the other side", x, alice1-1, "not another player of his side")
	}
	return out, g
}
