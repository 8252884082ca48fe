package gamelog_test

import (
	"strings"
	"testing"
	"time"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
)

// mailed reads saved mails as verify --checkpoint does: their blocks, at their time.
func mailed(t *testing.T, mails []string) []gamelog.Checkpoint {
	t.Helper()
	var out []gamelog.Checkpoint
	for _, m := range mails {
		cs, err := gamelog.ParseBlocks([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		for i := range cs {
			cs[i].Mailed = gamelog.MailTime([]byte(m))
		}
		out = append(out, cs...)
	}
	return out
}

// TestBeaconGameVerifies: every step of a beacon game is keyed by its round (each roll
// recomputed), every round's signature checked under the pinned beacon key; the receipt
// mail that named a step's round, received before the round, proves that step.
func TestBeaconGameVerifies(t *testing.T) {
	g, b := forge.BeaconGame(t, ledger.View{Full: true})
	rep, err := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), BeaconKey: b.Chain.Key})
	if err != nil || !rep.OK() || rep.BeaconSteps != 9 || rep.RollsChecked != rep.Rolls || rep.BeaconProven != 0 {
		t.Fatalf("%v %v: %d beacon steps, %d proven, %d/%d rolls", err, rep.Failure, rep.BeaconSteps, rep.BeaconProven, rep.RollsChecked, rep.Rolls)
	}
	at, round := forge.FirstRound(t, g, 2, 1)
	mail := forge.ReceiptMail(forge.CheckpointAt(t, g, at+1), b.Chain.Time(round).Add(-time.Minute))
	rep, _ = verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), BeaconKey: b.Chain.Key, Checkpoints: mailed(t, []string{mail})})
	if !rep.OK() || rep.BeaconProven != 1 {
		t.Errorf("a receipt before the round: %v, %d proven", rep.Failure, rep.BeaconProven)
	}
}

// TestBeaconAttacksFail: the attacks of forge.BeaconAttacks fail where they must, and the
// local beacon's key must be pinned (verify --beacon-key): it is not quicknet's.
func TestBeaconAttacksFail(t *testing.T) {
	g, b := forge.BeaconGame(t, ledger.View{Full: true})
	for _, a := range forge.BeaconAttacks(t, g, b) {
		t.Run(a.Name, func(t *testing.T) {
			idx, why := failure(t, a.Data, gamelog.VerifyOptions{Key: g.Pub(), BeaconKey: b.Chain.Key, Checkpoints: mailed(t, a.Mails)})
			if idx != a.Index || !strings.Contains(why, a.Reason) {
				t.Errorf("failure at record %d: %s\nwant record %d, mentioning %q", idx, why, a.Index, a.Reason)
			}
		})
	}
	idx, why := failure(t, g.Data, gamelog.VerifyOptions{Key: g.Pub()})
	if idx != 0 || !strings.Contains(why, "--beacon-key") {
		t.Errorf("the local beacon's key unpinned: failure at %d: %s", idx, why)
	}
}
