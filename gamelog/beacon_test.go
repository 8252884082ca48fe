package gamelog_test

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"navarch/beacon/beacontest"
	"navarch/gamelog"
	"navarch/gamelog/forge"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
)

// beaconGame is ledgertest.Small keyed by a local beacon (log format v3), with every seed
// revealed, and the beacon.
func beaconGame(t *testing.T, view ledger.View) (forge.Game, *beacontest.Beacon) {
	t.Helper()
	b := beacontest.New("gamelog", ledgertest.Clock.Add(-time.Hour), 3*time.Second, func() time.Time { return ledgertest.Clock })
	sc := ledgertest.Small
	sc.Reveal, sc.Beacon = -1, b
	return newGame(t, sc, view), b
}

// TestBeaconGameVerifies: every step of a beacon game is keyed by its round (each rolls
// recomputed), every round's signature checked under the pinned beacon key; a checkpoint
// mail received before a step's round proves that step.
func TestBeaconGameVerifies(t *testing.T) {
	g, b := beaconGame(t, ledger.View{Full: true})
	rep, err := verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), BeaconKey: b.Chain.Key})
	if err != nil || !rep.OK() || rep.BeaconSteps != 9 || rep.RollsChecked != rep.Rolls || rep.BeaconProven != 0 {
		t.Fatalf("%v %v: %d beacon steps, %d proven, %d/%d rolls", err, rep.Failure, rep.BeaconSteps, rep.BeaconProven, rep.RollsChecked, rep.Rolls)
	}
	named := namedRounds(t, g)
	r := named[0]
	ck := checkpointAt(t, g, r.index+1)
	ck.Mailed = b.Chain.Time(r.round).Add(-time.Minute)
	rep, _ = verifyData(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), BeaconKey: b.Chain.Key, Checkpoints: []gamelog.Checkpoint{ck}})
	if !rep.OK() || rep.BeaconProven != 1 {
		t.Errorf("a receipt before the round: %v, %d proven", rep.Failure, rep.BeaconProven)
	}
}

type named struct{ index, round uint64 }

func namedRounds(t *testing.T, g forge.Game) []named {
	t.Helper()
	var out []named
	for _, e := range g.File.Entries {
		if e.Record.Type == gamelog.TypeRound {
			out = append(out, named{e.Index, e.Record.Uint("round")})
		}
	}
	if len(out) == 0 {
		t.Fatal("no round record")
	}
	return out
}

// checkpointAt is the installation's signed checkpoint of the log's first size records.
func checkpointAt(t *testing.T, g forge.Game, size uint64) gamelog.Checkpoint {
	t.Helper()
	var leaves []gamelog.Entry
	leaves = append(leaves, g.File.Entries[:size]...)
	c := gamelog.Checkpoint{Size: size}
	copy(c.Game[:], g.File.Entries[0].Record.Bytes("game"))
	var head [32]byte
	for _, e := range leaves {
		head = gamelog.NextHead(e.Index, head, e.Leaf)
	}
	c.Head = head
	c.Sign(g.Key)
	return c
}

// TestBeaconAttacksFail: what v2's rules let through and a beacon game's refuse: a step
// keyed without its round, a round whose signature does not verify (another key's), a
// round named after it was published (its receipt received later than the round), a
// record copied with the player's Message-ID into another step; and the beacon's key not
// pinned.
func TestBeaconAttacksFail(t *testing.T) {
	g, b := beaconGame(t, ledger.View{Full: true})
	opts := gamelog.VerifyOptions{Key: g.Pub(), BeaconKey: b.Chain.Key}
	for _, a := range beaconAttacks(t, g, b) {
		t.Run(a.Name, func(t *testing.T) {
			o := opts
			o.Checkpoints = a.Mails
			idx, why := failure(t, a.Data, o)
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

type beaconAttack struct {
	Name   string
	Data   []byte
	Mails  []gamelog.Checkpoint
	Index  int64
	Reason string
}

func beaconAttacks(t *testing.T, g forge.Game, b *beacontest.Beacon) []beaconAttack {
	t.Helper()
	blocks := forge.Blocks(g.Data)
	round := forge.Find(t, blocks, "round", "turn 2\nactivation 1\n")
	bec := forge.Find(t, blocks, "beacon", "turn 2\nactivation 1\n")
	closeAt := forge.Find(t, blocks, "close", "turn 2\nactivation 1\n")
	rechain := func(c []string) []byte { return forge.Resign(t, g.Key, forge.Rechain(t, g.Key, c)) }
	var out []beaconAttack

	// The step's round and beacon records dropped: the close keyed without the beacon.
	c := append(append(forge.Clone(blocks[:round]), blocks[round+1:bec]...), blocks[bec+1:]...)
	out = append(out, beaconAttack{Name: "a step keyed without its round", Data: rechain(c), Index: int64(closeAt - 3), Reason: "without a beacon round"})

	// Another key's signature of the same round.
	other := beacontest.New("not the beacon", b.Chain.Genesis, b.Chain.Period, func() time.Time { return ledgertest.Clock })
	r := regexp.MustCompile(`(?m)^round (\d+)$`).FindStringSubmatch(blocks[bec])[1]
	var n uint64
	fmt.Sscan(r, &n)
	c = forge.Clone(blocks)
	c[bec] = regexp.MustCompile(`(?m)^signature \w+$`).ReplaceAllString(c[bec], "signature "+hex.EncodeToString(other.Round(n).Signature))
	out = append(out, beaconAttack{Name: "a round whose signature does not verify", Data: rechain(c), Index: int64(bec - 1), Reason: "does not verify"})

	// The receipt that named the round reached the player after the round was published.
	ck := checkpointAt(t, g, uint64(round))
	ck.Mailed = b.Chain.Time(n).Add(time.Second)
	out = append(out, beaconAttack{Name: "a round named after it was published", Data: g.Data, Mails: []gamelog.Checkpoint{ck}, Index: int64(round - 1), Reason: "not before the round was published"})

	// alice's real record of turn 2 activation 1 copied, with the operator's text, over her
	// record of turn 3 activation 2: her Message-ID and entropy, so verify --sent accepts it.
	src := forge.Find(t, blocks, "orders", "turn 2\nactivation 1\n")
	dst := forge.Find(t, blocks, "orders", "turn 3\nactivation 2\n")
	dstClose := forge.Find(t, blocks, "close", "turn 3\nactivation 2\n")
	nonce := [32]byte{7}
	forged := "VEN-2 MOVE 1507 1408\n"
	c = forge.Clone(blocks)
	copied := regexp.MustCompile(`(?m)^turn 2\nactivation 1$`).ReplaceAllString(c[src], "turn 3\nactivation 2")
	copied = regexp.MustCompile(`(?m)^commitment \w+$`).ReplaceAllString(copied, "commitment "+forge.Commit(nonce, forged))
	c[dst] = copied
	c = forge.Rewire(t, c, dstClose, []int{dst - 1}, [][2]string{{forged, hex.EncodeToString(nonce[:])}}, [][]byte{[]byte("t2a1")})
	out = append(out, beaconAttack{Name: "the player's Message-ID copied into another step", Data: rechain(c), Index: int64(dst - 1), Reason: "already fed orders record"})
	return out
}
