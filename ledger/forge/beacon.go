package forge

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"testing"
	"time"

	"navarch/beacon/beacontest"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
)

// BeaconGame is ledgertest.Small keyed by a local beacon (log format v3), every seed
// revealed, exported for view v; and its beacon.
func BeaconGame(t testing.TB, v ledger.View) (Game, *beacontest.Beacon) {
	t.Helper()
	b := beacontest.New("forge", ledgertest.Clock.Add(-time.Hour), 3*time.Second, func() time.Time { return ledgertest.Clock })
	sc := ledgertest.Small
	sc.Reveal, sc.Beacon = -1, b
	return NewGame(t, sc, v), b
}

// CheckpointAt is the installation's signed checkpoint of g's first size records.
func CheckpointAt(t testing.TB, g Game, size uint64) gamelog.Checkpoint {
	t.Helper()
	c := gamelog.Checkpoint{Size: size}
	copy(c.Game[:], g.File.Entries[0].Record.Bytes("game"))
	var head ident.Hash
	for _, e := range g.File.Entries[:size] {
		head = gamelog.NextHead(e.Index, head, e.Leaf)
	}
	c.Head = head
	c.Sign(g.Key)
	return c
}

// ReceiptMail is a mail carrying checkpoint c as the player's mailbox keeps it: his server's
// Received header (at when) on top of the sender's.
func ReceiptMail(c gamelog.Checkpoint, at time.Time) string {
	return "Received: from mx.example.org by imap.example.net;\r\n\t" + at.UTC().Format(time.RFC1123Z) + "\r\n" +
		"Received: from navarch.example.org by mx.example.org; " + at.Add(-time.Minute).UTC().Format(time.RFC1123Z) + "\r\n" +
		"Date: " + at.Add(-2*time.Minute).UTC().Format(time.RFC1123Z) + "\r\nSubject: [navarch] orders accepted\r\n\r\nYour orders are accepted.\r\n\r\n" +
		c.Block() + "\r\n"
}

// FirstRound is the index and round of g's first round record.
func FirstRound(t testing.TB, g Game, turn, act int) (uint64, uint64) {
	t.Helper()
	for _, e := range g.File.Entries {
		if e.Record.Type == gamelog.TypeRound && e.Record.Uint("turn") == uint64(turn) && e.Record.Uint("activation") == uint64(act) {
			return e.Index, e.Record.Uint("round")
		}
	}
	t.Fatalf("no round record of turn %d activation %d", turn, act)
	return 0, 0
}

// BeaconAttacks are what v2's rules let through and a beacon game's refuse, forged from
// BeaconGame's full view, each with the failure a verifier must report (with the beacon's
// key pinned): a step keyed without its round, a round whose signature does not verify
// (another key's), a round named after it was published (its receipt reached the player
// later than the round), and the player's real orders record copied, with his Message-ID and
// entropy and the operator's text, into another step.
func BeaconAttacks(t testing.TB, g Game, b *beacontest.Beacon) []Forged {
	t.Helper()
	blocks := Blocks(g.Data)
	round := Find(t, blocks, "round", "turn 2\nactivation 1\n")
	bec := Find(t, blocks, "beacon", "turn 2\nactivation 1\n")
	closeAt := Find(t, blocks, "close", "turn 2\nactivation 1\n")
	rechain := func(c []string) []byte { return Resign(t, g.Key, Rechain(t, g.Key, c)) }
	var out []Forged

	c := append(append(Clone(blocks[:round]), blocks[round+1:bec]...), blocks[bec+1:]...)
	out = append(out, Forged{Name: "a step keyed without its round", Data: rechain(c), Index: int64(closeAt - 3), Reason: "without a beacon round"})

	other := beacontest.New("not the beacon", b.Chain.Genesis, b.Chain.Period, func() time.Time { return ledgertest.Clock })
	var n uint64
	fmt.Sscan(regexp.MustCompile(`(?m)^round (\d+)$`).FindStringSubmatch(blocks[bec])[1], &n)
	c = Clone(blocks)
	c[bec] = regexp.MustCompile(`(?m)^signature \w+$`).ReplaceAllString(c[bec], "signature "+hex.EncodeToString(other.Round(n).Signature))
	out = append(out, Forged{Name: "a round whose signature does not verify", Data: rechain(c), Index: int64(bec - 1), Reason: "does not verify"})

	late := ReceiptMail(CheckpointAt(t, g, uint64(round)), b.Chain.Time(n).Add(time.Second))
	out = append(out, Forged{Name: "a round named after it was published", Data: g.Data, Mails: []string{late}, Index: int64(round - 1), Reason: "not before the round was published"})

	src := Find(t, blocks, "orders", "turn 2\nactivation 1\n")
	dst := Find(t, blocks, "orders", "turn 3\nactivation 2\n")
	dstClose := Find(t, blocks, "close", "turn 3\nactivation 2\n")
	nonce := ident.Hash{7}
	forged := "VEN-2 MOVE 1507 1408\n"
	c = Clone(blocks)
	copied := regexp.MustCompile(`(?m)^turn 2\nactivation 1$`).ReplaceAllString(c[src], "turn 3\nactivation 2")
	c[dst] = regexp.MustCompile(`(?m)^commitment \w+$`).ReplaceAllString(copied, "commitment "+Commit(nonce, forged))
	c = Rewire(t, c, dstClose, []int{dst - 1}, [][2]string{{forged, hex.EncodeToString(nonce[:])}}, [][]byte{[]byte("t2a1")})
	out = append(out, Forged{Name: "the player's Message-ID copied into another step", Data: rechain(c), Index: int64(dst - 1), Reason: "already fed orders record"})
	return out
}
