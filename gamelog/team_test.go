package gamelog_test

import (
	"strconv"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// TestTeamGameVerifies: a v4 game of two players a side verifies in every view; each side's
// copy holds its own assignments and TEAM messages and only the other side's commitments.
func TestTeamGameVerifies(t *testing.T) {
	s, c := forge.TeamGame(t, 2)
	for _, v := range []ledger.View{{Full: true}, {}, {Side: "red"}, {Side: "blue"}} {
		g := forge.TeamExport(t, s, c, v)
		if rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub()}); !rep.OK() {
			t.Fatalf("%s: %v", v.Name(), rep.Failure)
		}
		red := strings.Contains(string(g.Data), "Aye, I have the ship.")
		if red != (v.Full || v.Side == "red") {
			t.Errorf("%s: holds red's TEAM text %v", v.Name(), red)
		}
		if strings.Contains(string(g.Data), "type assign\n") != (v.Full || v.Side != "") {
			t.Errorf("%s: holds assignments %v", v.Name(), !(v.Full || v.Side != ""))
		}
		if v.Side == "blue" && strings.Contains(string(g.Data), "player alice\ncommander yes") {
			t.Errorf("blue's copy shows red's commands")
		}
	}
}

// TestTeamAttacksFail: the operator's rewrites of a team game that v4's rules refuse
// (forge.TeamAttacks), each at its record and for its reason.
func TestTeamAttacksFail(t *testing.T) {
	attacks, g := forge.TeamAttacks(t)
	for _, a := range attacks {
		t.Run(a.Name, func(t *testing.T) {
			idx, why := failure(t, a.Data, gamelog.VerifyOptions{Key: g.Pub()})
			if idx != a.Index || !strings.Contains(why, a.Reason) {
				t.Errorf("failure at record %d: %s\nwant record %d, mentioning %q", idx, why, a.Index, a.Reason)
			}
		})
	}
}

// TestTeamSentPerPlayer: verify --sent checks each team player's records against his own
// sent mail: bob's one mail accounts for his one record, and without it his record fails;
// alice's mails do not account for bob's.
func TestTeamSentPerPlayer(t *testing.T) {
	s, c := forge.TeamGame(t, 2)
	g := forge.TeamExport(t, s, c, ledger.View{Full: true})
	bob := []gamelog.SentMail{{MessageID: "<2@bob.example>"}}
	if rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), Sent: bob, Player: "bob"}); !rep.OK() || len(rep.Unsent) != 0 {
		t.Errorf("bob with his mail: %v %v", rep.Failure, rep.Unsent)
	}
	alice := []gamelog.SentMail{{MessageID: "<1@alice.example>"}, {MessageID: "<2@alice.example>"}}
	if rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), Sent: alice, Player: "bob"}); rep.OK() || len(rep.Unsent) != 1 {
		t.Errorf("bob with alice's mail: %v %v; want his record unaccounted", rep.Failure, rep.Unsent)
	}
	if rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), Sent: alice[:1], Player: "alice"}); !rep.OK() {
		t.Errorf("alice with her mail: %v %v", rep.Failure, rep.Unsent)
	}
}

// TestTeamHideAttacksFail: the operator's rewrites of a v5 team game that v5's rules refuse
// (forge.TeamHideAttacks, forge.TeamV4Attacks, forge.OnePlayerHidden, forge.TeamStandingAttacks, forge.StandingUsedAttack), each at its record and
// for its reason.
func TestTeamHideAttacksFail(t *testing.T) {
	attacks, games := forge.TeamHideAttacks(t)
	v4, g4 := forge.TeamV4Attacks(t)
	small := forge.NewGame(t, ledgertest.Small, ledger.View{Full: true})
	key := map[string]forge.Game{}
	for _, a := range attacks {
		key[a.Name] = games["full"]
	}
	for _, a := range v4 {
		key[a.Name] = g4
	}
	one := forge.OnePlayerHidden(t, small)
	key[one.Name] = small
	st, stGames := forge.TeamStandingAttacks(t)
	for _, a := range st {
		key[a.Name] = stGames["full"]
		if strings.HasPrefix(a.Name, "standing: ") {
			key[a.Name] = stGames["standing"]
		}
	}
	used, usedGame := forge.StandingUsedAttack(t)
	key[used.Name] = usedGame
	for _, a := range append(append(append(attacks, v4...), one, used), st...) {
		t.Run(a.Name, func(t *testing.T) {
			idx, why := failure(t, a.Data, gamelog.VerifyOptions{Key: key[a.Name].Pub()})
			if idx != a.Index || !strings.Contains(why, a.Reason) {
				t.Errorf("failure at record %d: %s\nwant record %d, mentioning %q", idx, why, a.Index, a.Reason)
			}
		})
	}
}

// TestTeamHideOtherSideCopy: in v5 the other side's copy of a team game names no player of
// the team after the start record (the genesis lists the players, the joins and the start
// who joined): no activation, orders record or mail id says which of them a step asked; it
// verifies, and says what it cannot check before the end. The side's own copy names them.
func TestTeamHideOtherSideCopy(t *testing.T) {
	s, c := forge.TeamGame(t, 2)
	for _, v := range []ledger.View{{Side: "blue"}, {}, {Side: "red"}} {
		g := forge.TeamExport(t, s, c, v)
		rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub()})
		if !rep.OK() {
			t.Fatalf("%s: %v", v.Name(), rep.Failure)
		}
		start := strings.Index(string(g.Data), "type start\n")
		after := string(g.Data)[start:]
		after = after[strings.Index(after, "\n\n"):]
		named := strings.Contains(after, "alice") || strings.Contains(after, "bob")
		if named != (v.Side == "red") {
			t.Errorf("%s: names a red player after the start: %v", v.Name(), named)
		}
		noted := strings.Contains(strings.Join(rep.Notes, "\n"), "no sender records of team side red")
		if noted != (v.Side != "red") {
			t.Errorf("%s: notes the missing sender records of red %v: %q", v.Name(), noted, rep.Notes)
		}
	}
}

// TestTeamStandingSender: in v5 a team side's standing records name its side only, and the
// sender record sealed after each names the player: the other side's copy and the public one
// name no red player after the start; verify --sent accounts bob's standing records to his
// mails through their sender records where the copy holds them (red's, the full one), and
// a copy without them does not count them against him.
func TestTeamStandingSender(t *testing.T) {
	s, c := forge.TeamStandingGame(t)
	all := []gamelog.SentMail{{MessageID: "<2@bob.example>"}, {MessageID: "<s1@bob.example>"}, {MessageID: "<s2@bob.example>"}}
	for _, v := range []ledger.View{{Full: true}, {}, {Side: "red"}, {Side: "blue"}} {
		g := forge.TeamExport(t, s, c, v)
		holds := v.Full || v.Side == "red"
		if rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub()}); !rep.OK() {
			t.Fatalf("%s: %v", v.Name(), rep.Failure)
		}
		after := string(g.Data)[strings.Index(string(g.Data), "type start\n"):]
		after = after[strings.Index(after, "\n\n"):]
		if named := strings.Contains(after, "bob") || strings.Contains(after, "alice"); named != holds {
			t.Errorf("%s: names a red player after the start: %v", v.Name(), named)
		}
		if rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), Sent: all, Player: "bob"}); !rep.OK() || len(rep.Unsent) != 0 {
			t.Errorf("%s: bob with his mails: %v %v", v.Name(), rep.Failure, rep.Unsent)
		}
		rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), Sent: all[:1], Player: "bob"})
		if want := map[bool]int{true: 2}[holds]; len(rep.Unsent) != want || rep.OK() != (want == 0) {
			t.Errorf("%s: bob without his standing mails: %v %v; want %d records unaccounted", v.Name(), rep.Failure, rep.Unsent, want)
		}
		for _, u := range rep.Unsent {
			if !strings.Contains(u.Reason, "standing orders") {
				t.Errorf("%s: record %d: %s", v.Name(), u.Index, u.Reason)
			}
		}
	}
}

// TestTeamReplacesHonest: in v5 a team player's later records of a step name the ones they
// replace (his commander's for him, then his own first), publicly, and the close uses his
// last: every copy verifies, and the other side's copy, which cannot tell whose the records
// are, still knows which is current; that copy, with the close pointed at a replaced record,
// fails.
func TestTeamReplacesHonest(t *testing.T) {
	s, c := forge.TeamResendGame(t)
	for _, v := range []ledger.View{{Full: true}, {}, {Side: "red"}, {Side: "blue"}} {
		g := forge.TeamExport(t, s, c, v)
		if rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub()}); !rep.OK() {
			t.Fatalf("%s: %v", v.Name(), rep.Failure)
		}
		b := forge.Blocks(g.Data)
		first := forge.Find(t, b, "orders", "turn 3\nactivation 1\n", "side red\n")
		second := forge.Find(t, b, "orders", "turn 3\nactivation 1\n", "side red\n", "\nreplaces "+itoa(first-1))
		last := forge.Find(t, b, "orders", "turn 3\nactivation 1\n", "side red\n", "\nreplaces "+itoa(second-1))
		cl := forge.Find(t, b, "close", "turn 3\nactivation 1\n")
		if !strings.Contains(b[cl], "\nuse "+itoa(last-1)+"\n") {
			t.Errorf("%s: the close does not use bob's last record %d:\n%s", v.Name(), last-1, b[cl])
		}
		if v.Side != "blue" {
			continue
		}
		x := forge.Clone(b)
		x[cl] = strings.Replace(x[cl], "\nuse "+itoa(last-1)+"\n", "\nuse "+itoa(second-1)+"\n", 1)
		forged := forge.Resign(t, g.Key, forge.Rechain(t, g.Key, x))
		if idx, why := failure(t, forged, gamelog.VerifyOptions{Key: g.Pub()}); idx != int64(cl-1) || !strings.Contains(why, "which a later record replaces") {
			t.Errorf("blue's copy, the close on bob's replaced record: failure at %d: %s", idx, why)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
