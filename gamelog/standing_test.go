package gamelog_test

import (
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// TestStandingHonest: the honest standing games verify in every view, each close listing
// the standing records it uses (docs/LOG-FORMAT.md 3, v4's standing orders).
func TestStandingHonest(t *testing.T) {
	sc, b := forge.StandingBeacon()
	for _, c := range []struct {
		name string
		sc   ledgertest.Script
		key  []byte
	}{{"plain", forge.StandingScript(), nil}, {"beacon", sc, b.Chain.Key}} {
		for _, v := range []ledger.View{{Full: true}, {Side: "ottoman"}, {Side: "venice"}, {}} {
			g := newGame(t, c.sc, v)
			rep, err := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), BeaconKey: c.key})
			if err != nil || !rep.OK() {
				t.Fatalf("%s %s: %v %v", c.name, v.Name(), err, rep.Failure)
			}
			if n := strings.Count(string(g.Data), "\nstanding "); n < 6 {
				t.Errorf("%s %s: %d standing fields, want the closes to list the standing records", c.name, v.Name(), n)
			}
		}
	}
}

// TestStandingTampered: an operator's changes to the standing orders' place in the log fail
// verify (the same cases run through the browser verifier in webverify).
func TestStandingTampered(t *testing.T) {
	for _, c := range forge.StandingCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			idx, why := failure(t, c.Data, c.Opts)
			if idx != c.Index || !strings.Contains(why, c.Why) {
				t.Errorf("failure at record %d: %s\nwant record %d, mentioning %q", idx, why, c.Index, c.Why)
			}
		})
	}
}

// TestStandingSent: verify --sent ties each standing record of the player that his copy
// holds to one of his mails; one that no mail of his accounts for fails, named.
func TestStandingSent(t *testing.T) {
	g := newGame(t, forge.StandingScript(), ledger.View{Side: "ottoman"})
	sent := []gamelog.SentMail{{MessageID: "<bob-join@example.com>", Join: true}}
	for _, id := range []string{"<1.1.standing@bob.example>", "<2.1.standing@bob.example>", "<3.1.standing@bob.example>"} {
		sent = append(sent, gamelog.SentMail{MessageID: id})
	}
	if rep, err := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), Sent: sent, Player: "bob"}); err != nil || !rep.OK() {
		t.Fatalf("bob's copy with all his mail: %v %v", err, rep.Failure)
	}
	b := forge.Blocks(g.Data)
	second := forge.Find(t, b, "sealed", "turn 2\nactivation 1\nside ottoman\nwhat standing")
	idx, why := failure(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), Sent: append(sent[:2:2], sent[3]), Player: "bob"})
	if idx != int64(second-1) || !strings.Contains(why, "standing orders: none of your sent mails") {
		t.Errorf("without bob's second standing mail: record %d: %s; want record %d", idx, why, second-1)
	}
}
