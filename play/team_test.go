package play_test

import (
	"encoding/hex"
	"fmt"
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
	"navarch/store"
)

// TestTeamAsking: a team step asks the players who command the units it asks; an ASSIGN
// changes whom the next step asks; a late player's record is the default; replay
// re-derives whom each step asked in the full copy and in each side's (a v4 game, whose
// activations name them).
func TestTeamAsking(t *testing.T) {
	s, c := forge.TeamGameIn(t, 3, gamelog.FormatV4)
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
	verifyEveryView(t, s, c)
}

// TestReplayRefusesTeamAsking: a step that asks the player who handed his command over
// (the operator ignoring an ASSIGN, with alice's orders in bob's place) is refused by
// replay, though verify cannot know it (a v4 game).
func TestReplayRefusesTeamAsking(t *testing.T) {
	s, c := forge.TeamGameIn(t, 2, gamelog.FormatV4)
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

// TestTeamAskingV5: in v5 the activations count each team side's players asked
// (team-asks) and name none of them; each orders record of a team side names the side, its
// sender record the player (the default's too); replay re-derives the counts in every copy
// and the players in those that hold the sender records.
func TestTeamAskingV5(t *testing.T) {
	s, c := forge.TeamGame(t, 3)
	g := forge.TeamExport(t, s, c, ledger.View{Full: true})
	var asked, senders []string
	for _, e := range g.File.Entries {
		if r := e.Record; r.Type == gamelog.TypeActivation {
			asked = append(asked, r.Get("act")+"|"+strings.Join(r.All("team-asks"), ","))
		}
		if e.Inner != nil && e.Inner.Type == gamelog.TypeSender {
			senders = append(senders, e.Inner.Get("player"))
		}
	}
	if want := []string{"|blue 1,red 1", "|blue 1,red 1", "|blue 1,red 1"}; !slices.Equal(asked, want) {
		t.Errorf("the steps asked %q, want %q", asked, want)
	}
	if want := []string{"alice", "dave", "bob", "dave", "bob", "dave"}; !slices.Equal(senders, want) {
		t.Errorf("the sender records name %q, want %q", senders, want)
	}
	if !strings.Contains(string(g.Data), "side blue\ncommitment") || !strings.Contains(string(g.Data), "default yes") {
		t.Errorf("no default for blue")
	}
	verifyEveryView(t, s, c)
}

// TestReplayRefusesTeamAskingV5: in v5 the operator who gives alice's orders in bob's place
// (ignoring the ASSIGN) changes only the sender record: E hashes red's id, and verify cannot
// know whom the rules ask; replay refuses it where the sender records are held. A step that
// leaves out a team side the rules ask (blue's count and default dropped, E recomputed) is
// refused by replay in every copy.
func TestReplayRefusesTeamAskingV5(t *testing.T) {
	s, c := forge.TeamGame(t, 2)
	for _, v := range []ledger.View{{Full: true}, {Side: "red"}} {
		g := forge.TeamExport(t, s, c, v)
		b := forge.Blocks(g.Data)
		bob := forge.Find(t, b, "orders", "turn 2\nactivation 1\n", "side red\n")
		b[bob+1] = strings.Replace(strings.Replace(b[bob+1], "\nplayer bob\n", "\nplayer alice\n", 1), "<2@bob.example>", "<2@alice.example>", 1)
		f := replayable(t, g, b)
		if _, err := play.Replay(f, []adjudicator.Ruleset{duel.Ruleset}); err == nil || !strings.Contains(err.Error(), "the rules ask [bob]") {
			t.Errorf("%s: replay: %v; want the step refused", v.Name(), err)
		}
	}
	for _, v := range []ledger.View{{Full: true}, {Side: "red"}, {}} {
		g := forge.TeamExport(t, s, c, v)
		b := forge.Blocks(g.Data)
		act := forge.Find(t, b, "activation", "turn 2\nactivation 1\n")
		b[act] = strings.Replace(b[act], "\nteam-asks blue 1", "", 1)
		dave := forge.Find(t, b, "orders", "turn 2\nactivation 1\n", "side blue\n")
		cl := forge.Find(t, b, "close", "turn 2\nactivation 1\n")
		e := dice.InputsHash(2, 1, []dice.Input{{Player: "red", OrdersHash: gamelog.OrdersHash([]byte("FIRE\n"))}})
		b[cl] = strings.Replace(b[cl], fmt.Sprintf("use %d\n", dave-1), "", 1)
		b[cl] = regexp.MustCompile(`inputs-hash [0-9a-f]+`).ReplaceAllString(b[cl], "inputs-hash "+hex.EncodeToString(e[:]))
		text := forge.Find(t, b, "orders-text", fmt.Sprintf("orders %d\n", dave-1))
		b = append(b[:text:text], b[text+1:]...)
		b = append(b[:dave:dave], b[dave+2:]...)
		f := replayable(t, g, b)
		if _, err := play.Replay(f, []adjudicator.Ruleset{duel.Ruleset}); err == nil || !strings.Contains(err.Error(), "asks 0 players of side blue") {
			t.Errorf("%s: replay: %v; want the step refused", v.Name(), err)
		}
	}
}

// replayable is blocks b of g rechained and re-signed, which verify passes.
func replayable(t *testing.T, g forge.Game, b []string) *gamelog.File {
	t.Helper()
	f, err := gamelog.ParseFile(forge.Resign(t, g.Key, forge.Rechain(t, g.Key, b)))
	if err != nil {
		t.Fatal(err)
	}
	if rep := gamelog.Verify(f, gamelog.VerifyOptions{Key: g.Pub()}); !rep.OK() {
		t.Fatalf("verify: %v", rep.Failure)
	}
	return f
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

// TestMixedAskingV5: a v5 game of a team side against a lone player names the lone player in
// act and counts the team's; every copy verifies and replays, and the lone player's orders
// records name him as before.
func TestMixedAskingV5(t *testing.T) {
	s, c := forge.MixedGame(t, 2)
	g := forge.TeamExport(t, s, c, ledger.View{Full: true})
	var asked []string
	for _, e := range g.File.Entries {
		if r := e.Record; r.Type == gamelog.TypeActivation {
			asked = append(asked, r.Get("act")+"|"+strings.Join(r.All("team-asks"), ","))
		}
	}
	if want := []string{"carol|red 1", "carol|red 1"}; !slices.Equal(asked, want) {
		t.Errorf("the steps asked %q, want %q", asked, want)
	}
	if !strings.Contains(string(g.Data), "\nplayer carol\ncommitment") {
		t.Errorf("carol's orders record does not name her")
	}
	verifyEveryView(t, s, c)
}

// verifyEveryView: the team game's full copy, each side's and the public one verify and
// replay.
func verifyEveryView(t *testing.T, s *store.Store, c ledger.Created) {
	t.Helper()
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
