package gamelog_test

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// game is an honest scripted game's export and its installation key (ledger/forge).
type game = forge.Game

// newGame plays and exports a scripted game (forge.NewGame); an operator who rewrites a log
// re-signs it with the newest game's key (tamperKey).
func newGame(t testing.TB, sc ledgertest.Script, v ledger.View) game {
	t.Helper()
	g := forge.NewGame(t, sc, v)
	tamperKey = g.Key
	return g
}

// verifyData verifies data as ParseFile and Verify do, and checks that the streaming
// verifier agrees (sameAsStream).
func verifyData(t *testing.T, data []byte, opts gamelog.VerifyOptions) (*gamelog.Report, error) {
	t.Helper()
	f, err := gamelog.ParseFile(data)
	var rep *gamelog.Report
	if err == nil {
		rep = gamelog.Verify(f, opts)
	}
	sameAsStream(t, data, opts, rep, err)
	return rep, err
}

// sameAsStream checks the streaming verifier against the whole one's report (rep, or the
// parse error err) of data: VerifyStream gives the same; read in stretches of a few hundred
// bytes and of a few KB, the stream passes exactly the logs the whole verifier passes, with
// the same report, where it decides (a failure is always left to the whole verifier).
func sameAsStream(t *testing.T, data []byte, opts gamelog.VerifyOptions, rep *gamelog.Report, err error) {
	t.Helper()
	_, srep, serr := gamelog.VerifyStream(bytes.NewReader(data), opts)
	if fmt.Sprint(serr) != fmt.Sprint(err) || !reflect.DeepEqual(srep, rep) {
		t.Fatalf("VerifyStream gives %+v, %v; Verify %+v, %v", srep, serr, rep, err)
	}
	for _, size := range []int{300, 5000} {
		got, why := gamelog.StreamOnly(data, opts, size)
		switch ok := err == nil && rep.OK(); {
		case why == "" && !ok:
			t.Fatalf("stretches of %d bytes: the stream passes a log Verify fails (%v %v)", size, err, rep.Failure)
		case why == "" && !reflect.DeepEqual(got, rep):
			t.Fatalf("stretches of %d bytes: the stream reports\n%+v\nVerify\n%+v", size, got, rep)
		case why == "failed" && ok:
			t.Fatalf("stretches of %d bytes: the stream fails a log Verify passes", size)
		}
	}
}

func TestHonestLogsVerify(t *testing.T) {
	full := ledgertest.Small
	full.End = true
	cases := []struct {
		name     string
		sc       ledgertest.Script
		view     ledger.View
		pending  int
		redacted bool
	}{
		{"full view, game over", full, ledger.View{Full: true}, 0, false},
		{"public view, game over", full, ledger.View{}, 0, false}, // the end discloses every sealed record
		{"public view, turn 3 pending", ledgertest.Small, ledger.View{}, 1, true},
		{"side view, turn 3 pending", ledgertest.Small, ledger.View{Side: "venice"}, 1, true},
		{"other side view, turn 3 pending", ledgertest.Small, ledger.View{Side: "ottoman"}, 1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, c.sc, c.view)
			rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub()})
			if !rep.OK() {
				t.Fatalf("honest log fails: %v", rep.Failure)
			}
			if len(rep.Pending) != c.pending {
				t.Errorf("pending turns %v, want %d", rep.Pending, c.pending)
			}
			if (rep.Withheld > 0) != c.redacted || rep.Redacted > 0 {
				t.Errorf("%d records withheld from view %s, %d redacted", rep.Withheld, c.view.Name(), rep.Redacted)
			}
			if rep.Rolls == 0 || rep.Checkpoints == 0 {
				t.Errorf("checked %d rolls and %d checkpoints", rep.Rolls, rep.Checkpoints)
			}
			// Every view checks every roll of a revealed turn: a step with secret orders rolls
			// no dice (v2), so no view lacks the inputs of a roll.
			if c.pending == 0 && rep.RollsChecked != rep.Rolls {
				t.Errorf("%d of %d rolls checked with every seed revealed", rep.RollsChecked, rep.Rolls)
			}
		})
	}
}

func TestSideViewKeepsOwnHiddenSetup(t *testing.T) {
	own := newGame(t, ledgertest.Small, ledger.View{Side: "venice"})
	if len(own.File.Private) != 1 {
		t.Fatalf("venice's copy holds %d private blocks, want its hidden set-up", len(own.File.Private))
	}
	for _, view := range []ledger.View{{Side: "ottoman"}, {}, {Full: true}} {
		other := newGame(t, ledgertest.Small, view)
		if len(other.File.Private) != 0 || bytes.Contains(other.Data, []byte("private")) {
			t.Errorf("view %s carries venice's hidden set-up", view.Name())
		}
	}
	// A private block that does not match its commit fails.
	p := own.File.Private[0]
	line := fmt.Sprintf("private 4 %x %x", p.Nonce[:], p.Data)
	bad := bytes.Replace(own.Data, []byte(line), []byte(fmt.Sprintf("private 4 %x %x", p.Nonce[:], append(p.Data, 'X'))), 1)
	rep, err := verifyData(t, bad, gamelog.VerifyOptions{TrustLogKey: true})
	if err != nil || rep.OK() || !strings.Contains(rep.Failure.Reason, "hidden set-up") {
		t.Errorf("forged private block: %v, %v", err, rep.Failure)
	}
}

func TestWrongKeyFailsAtGenesis(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{})
	other, _, _ := ed25519.GenerateKey(ledgertest.Rand("other"))
	rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{Key: other})
	if rep.OK() || rep.Failure.Index != 0 {
		t.Errorf("a log under another key: %v", rep.Failure)
	}
	// Without a pinned key the log's own key is not trusted unless the auditor says so: a
	// log re-signed with a new key would pass otherwise.
	rep, _ = verifyData(t, g.Data, gamelog.VerifyOptions{})
	if rep.OK() || rep.Failure.Index != 0 || !strings.Contains(rep.Failure.Reason, "--key") {
		t.Errorf("unpinned key: %v", rep.Failure)
	}
	rep, _ = verifyData(t, g.Data, gamelog.VerifyOptions{TrustLogKey: true})
	if !rep.OK() || len(rep.Notes) == 0 {
		t.Errorf("trusted log key: %v, notes %v", rep.Failure, rep.Notes)
	}
}

func TestOrdersSelfCheck(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{})
	mine := gamelog.CanonicalOrders("> VEN-2   MOVE 1507 1407\r\n>\r\n> VEN-2 FIRE OTT-1\r\n")
	receipt := []byte("Thanks.\n" + gamelog.OrdersBlock(gamelog.CanonicalOrders("VEN-1 MOVE 1507 1407\nVEN-1 FIRE OTT-1")) + "-- \nnavarch\n")
	rep, _ := verifyData(t, g.Data, gamelog.VerifyOptions{TrustLogKey: true, Orders: [][]byte{mine, gamelog.CanonicalOrders(string(receipt))}})
	if !rep.OK() {
		t.Fatalf("own orders not found: %v", rep.Failure)
	}
	// VEN-1's orders are public in all three turns; VEN-2's are secret in turn 1 (ledgertest).
	for i, want := range []int{2, 3} {
		if m := rep.Orders[i]; len(m.Records) != want || len(m.UsedBy) != want {
			t.Errorf("orders %x found in %v, used by %v; want %d of each", m.Hash[:4], m.Records, m.UsedBy, want)
		}
	}
	rep, _ = verifyData(t, g.Data, gamelog.VerifyOptions{TrustLogKey: true, Orders: [][]byte{gamelog.CanonicalOrders("VEN-2 RETREAT")}})
	if rep.OK() {
		t.Error("orders never sent were found")
	}
}
