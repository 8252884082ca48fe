package gamelog_test

import (
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
)

// TestTeamGameVerifies: a v4 game of two players a side verifies in every view; each side's
// copy holds its own assignments and TEAM messages and only the other side's commitments.
func TestTeamGameVerifies(t *testing.T) {
	s, c := forge.TeamGame(t, 2)
	for _, v := range []ledger.View{{Full: true}, {}, {Side: "red"}, {Side: "blue"}} {
		g := forge.TeamExport(t, s, c, v)
		if rep := gamelog.Verify(g.File, gamelog.VerifyOptions{Key: g.Pub()}); !rep.OK() {
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
	if rep := gamelog.Verify(g.File, gamelog.VerifyOptions{Key: g.Pub(), Sent: bob, Player: "bob"}); !rep.OK() || len(rep.Unsent) != 0 {
		t.Errorf("bob with his mail: %v %v", rep.Failure, rep.Unsent)
	}
	alice := []gamelog.SentMail{{MessageID: "<1@alice.example>"}, {MessageID: "<2@alice.example>"}}
	if rep := gamelog.Verify(g.File, gamelog.VerifyOptions{Key: g.Pub(), Sent: alice, Player: "bob"}); rep.OK() || len(rep.Unsent) != 1 {
		t.Errorf("bob with alice's mail: %v %v; want his record unaccounted", rep.Failure, rep.Unsent)
	}
	if rep := gamelog.Verify(g.File, gamelog.VerifyOptions{Key: g.Pub(), Sent: alice[:1], Player: "alice"}); !rep.OK() {
		t.Errorf("alice with her mail: %v %v", rep.Failure, rep.Unsent)
	}
}
