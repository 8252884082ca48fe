package play_test

import (
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/duel"
	"navarch/dice"
	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/play"
)

// TestTeamAsking: a team step asks the players who command the units it asks; an ASSIGN
// changes whom the next step asks; a late player's record is the default; replay
// re-derives whom each step asked in the full copy and in each side's.
func TestTeamAsking(t *testing.T) {
	s, c := forge.TeamGame(t, 3)
	g := forge.TeamExport(t, s, c, ledger.View{Full: true})
	var asked []string
	for _, e := range g.File.Entries {
		if e.Record != nil && e.Record.Type == gamelog.TypeActivation {
			asked = append(asked, e.Record.Get("act"))
		}
	}
	if want := []string{"alice dave", "bob dave", "bob dave"}; !slices.Equal(asked, want) {
		t.Errorf("the steps asked %q, want %q", asked, want)
	}
	if !strings.Contains(string(g.Data), "player dave\ncommitment") || !strings.Contains(string(g.Data), "default yes") {
		t.Errorf("no default for dave")
	}
	for _, v := range []ledger.View{{Full: true}, {Side: "red"}, {Side: "blue"}, {}} {
		x := forge.TeamExport(t, s, c, v)
		if rep := gamelog.Verify(x.File, gamelog.VerifyOptions{Key: x.Pub()}); !rep.OK() {
			t.Fatalf("%s: verify: %v", v.Name(), rep.Failure)
		}
		if _, err := play.Replay(x.File, []adjudicator.Ruleset{duel.Ruleset}); err != nil {
			t.Errorf("%s: replay: %v", v.Name(), err)
		}
	}
}

// TestReplayRefusesTeamAsking: a step that asks the player who handed his command over
// (the operator ignoring an ASSIGN, with alice's orders in bob's place) is refused by
// replay, though verify cannot know it.
func TestReplayRefusesTeamAsking(t *testing.T) {
	s, c := forge.TeamGame(t, 2)
	g := forge.TeamExport(t, s, c, ledger.View{Full: true})
	b := forge.Blocks(g.Data)
	act := forge.Find(t, b, "activation", "turn 2\nactivation 1\n")
	b[act] = strings.Replace(b[act], "act bob dave", "act alice dave", 1)
	bob := forge.Find(t, b, "orders", "turn 2\nactivation 1\n", "player bob\n")
	b[bob] = strings.Replace(strings.Replace(b[bob], "player bob", "player alice", 1), "<2@bob.example>", "<2@alice.example>", 1)
	cl := forge.Find(t, b, "close", "turn 2\nactivation 1\n")
	e := dice.InputsHash(2, 1, []dice.Input{{Player: "alice", OrdersHash: gamelog.OrdersHash([]byte("FIRE\n"))},
		{Player: "dave", OrdersHash: gamelog.OrdersHash(nil)}})
	b[cl] = regexp.MustCompile(`inputs-hash [0-9a-f]+`).ReplaceAllString(b[cl], "inputs-hash "+hex.EncodeToString(e[:]))
	f, err := gamelog.ParseFile(forge.Resign(t, g.Key, forge.Rechain(t, g.Key, b)))
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: g.Pub()}); !rep.OK() {
		t.Fatalf("verify: %v", rep.Failure)
	}
	if _, err := play.Replay(f, []adjudicator.Ruleset{duel.Ruleset}); err == nil || !strings.Contains(err.Error(), "the rules ask [bob dave]") {
		t.Errorf("replay: %v; want the step refused", err)
	}
}

// TestTeamForeignOrders: orders for units another player commands are refused by line, and
// a whole-side choice is the commander's.
func TestTeamForeignOrders(t *testing.T) {
	g, _ := duel.Ruleset.New(adjudicator.Config{Scenario: "short"})
	orders, _ := g.Parse("red", "FIRE")
	if errs := play.Foreign(g, "red", "bob", orders, forge.TeamCommands); len(errs) != 1 || !strings.Contains(errs[0].Err.Error(), "red is not under your command") {
		t.Errorf("bob's FIRE: %v; want it refused", errs)
	}
	if errs := play.Foreign(g, "red", "alice", orders, forge.TeamCommands); len(errs) != 0 {
		t.Errorf("alice's FIRE: %v", errs)
	}
	// carol holds no command: blue's ship is dave's, and carol's FIRE is refused.
	if errs := play.Foreign(g, "blue", "carol", orders, forge.TeamCommands); len(errs) != 1 {
		t.Errorf("carol's FIRE: %v; want it refused", errs)
	}
	if errs := play.Foreign(g, "red", "alice", orders, nil); errs != nil {
		t.Errorf("a game without teams refuses %v", errs)
	}
}
