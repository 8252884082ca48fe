package gamelog_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// The attacks of a dishonest operator on the dice. Each forged log is
// consistent in every hash and signature, since the operator holds the installation key:
// verify must reject it by the log's structure, or by the player's own sent mail (--sent).
// The turn attacked is not revealed yet, as when the operator grinds: its rolls are checked
// later, against the inputs he chose.

// alicesMail is what alice sent in the scripted games: her JOIN and an order mail for each
// activation, with the entropy she gave (ledgertest).
func alicesMail(sc ledgertest.Script) []gamelog.SentMail {
	out := []gamelog.SentMail{{MessageID: "alice-join@example.org", Entropy: []byte("alice's own noise"), Join: true}}
	for t := 1; t <= sc.Turns; t++ {
		for a := 1; a <= sc.Activations; a++ {
			out = append(out, gamelog.SentMail{MessageID: fmt.Sprintf("<%d.%d@alice.example>", t, a), Entropy: []byte(fmt.Sprintf("t%da%d", t, a))})
		}
	}
	return out
}

func TestOperatorGrindingFails(t *testing.T) {
	sc := ledgertest.Small
	g := newGame(t, sc, ledger.View{Full: true})
	b := forge.Blocks(g.Data)
	orders := forge.Find(t, b, "orders", "turn 3\nactivation 2\n")
	closeAt := forge.Find(t, b, "close", "turn 3\nactivation 2\n")
	text := forge.Find(t, b, "orders-text", fmt.Sprintf("orders %d\n", orders-1))
	forgedText := "VEN-2 MOVE 1507 1408\n"
	nonce := sha256.Sum256([]byte("the operator's nonce"))

	type attack struct {
		name   string
		blocks []string
		sent   bool   // caught only with the player's sent mail
		index  int    // the record the failure must name
		reason string // in the failure
	}
	var attacks []attack

	// A second orders record for alice with the operator's entropy, used by the close.
	c := forge.Clone(b)
	extra := fmt.Sprintf("type orders\nindex %d\nturn 3\nactivation 2\nplayer alice\ncommitment %s\nentropy %x\nreceived none", orders,
		forge.Commit(nonce, forgedText), "ground 4711")
	c = forge.InsertAt(c, orders+1, extra) // right after the real one: it is the latest
	c = forge.Rewire(t, c, closeAt+1, []int{orders}, [][2]string{{forgedText, hex.EncodeToString(nonce[:])}}, [][]byte{[]byte("ground 4711")})
	attacks = append(attacks, attack{"extra orders record with the operator's entropy", c, true, orders, "no mail"})

	// alice's own orders with the operator's entropy.
	c = forge.Clone(b)
	c[orders] = regexp.MustCompile(`(?m)^entropy .*$`).ReplaceAllString(c[orders], "entropy "+hex.EncodeToString([]byte("ground 99")))
	lines, n := forge.TextOf(c[text])
	c = forge.Rewire(t, c, closeAt, []int{orders - 1}, [][2]string{{lines, n}}, [][]byte{[]byte("ground 99")})
	attacks = append(attacks, attack{"the player's orders with the operator's entropy", c, true, orders - 1, "entropy"})

	// The close uses an older record of alice's although a newer one exists.
	c = forge.Clone(b)
	newer := strings.Replace(c[orders], fmt.Sprintf("index %d\n", orders-1), fmt.Sprintf("index %d\n", orders), 1)
	newer = strings.Replace(newer, "@alice.example>", ".again@alice.example>", 1) // another mail of hers
	c = forge.InsertAt(c, orders+1, newer)
	c = forge.Rewire(t, c, closeAt+1, []int{orders - 1}, [][2]string{{lines, n}}, [][]byte{[]byte("t3a2")})
	attacks = append(attacks, attack{"a close that skips the latest orders", c, false, closeAt, "not its latest"})

	// A default orders record that carries entropy.
	c = forge.Clone(b)
	c[orders] = strings.Replace(c[orders], "\nreceived ", "\ndefault yes\nreceived ", 1)
	attacks = append(attacks, attack{"a default with entropy", c, false, orders - 1, "default"})

	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			data := forge.Resign(t, g.Key, forge.Rechain(t, tamperKey, a.blocks))
			opts := gamelog.VerifyOptions{Key: g.Pub()}
			if rep, err := verifyData(t, data, opts); a.sent && (err != nil || !rep.OK()) {
				t.Fatalf("the forgery should pass without the player's mail (it is consistent): %v %v", err, rep.Failure)
			}
			opts.Sent, opts.Player = alicesMail(sc), "alice"
			idx, why := failure(t, data, opts)
			if idx != int64(a.index) || !strings.Contains(why, a.reason) {
				t.Errorf("failure at record %d: %s\nwant record %d, mentioning %q", idx, why, a.index, a.reason)
			}
		})
	}
}

// TestOrdersInADrawFail: an orders record slipped into an automatic step (a draw asks
// nobody), used by its close, fails verify at the orders record.
func TestOrdersInADrawFail(t *testing.T) {
	sc := ledgertest.Script{Seed: "draws", Turns: 2, Activations: 0, Rolls: 1, Reveal: 1}
	g := newGame(t, sc, ledger.View{Full: true})
	b := forge.Blocks(g.Data)
	closeAt := forge.Find(t, b, "close", "turn 2\nactivation 0\n")
	nonce := sha256.Sum256([]byte("n"))
	forged := fmt.Sprintf("type orders\nindex %d\nturn 2\nactivation 0\nplayer alice\ncommitment %s\nentropy 01\nreceived none", closeAt-1, forge.Commit(nonce, ""))
	c := forge.InsertAt(forge.Clone(b), closeAt, forged)
	c = forge.Rewire(t, c, closeAt+1, []int{closeAt - 1}, [][2]string{{"", hex.EncodeToString(nonce[:])}}, [][]byte{{1}})
	idx, why := failure(t, forge.Resign(t, g.Key, forge.Rechain(t, tamperKey, c)), gamelog.VerifyOptions{Key: g.Pub()})
	if idx != int64(closeAt-1) || !strings.Contains(why, "does not ask") {
		t.Errorf("failure at record %d: %s; want the orders record %d", idx, why, closeAt-1)
	}
}

// TestChosenJoinEntropyFails: the operator writes join entropy of his choosing for bob (and
// with it S, and every roll of the game); bob's sent JOIN gives it away.
func TestChosenJoinEntropyFails(t *testing.T) {
	sc := ledgertest.Script{Seed: "join", Turns: 2, Activations: 1, Rolls: 1, Reveal: 0}
	g := newGame(t, sc, ledger.View{Full: true})
	b := forge.Blocks(g.Data)
	join := forge.Find(t, b, "join", "player bob")
	start := forge.Find(t, b, "start")
	c := forge.Clone(b)
	c[join] = regexp.MustCompile(`(?m)^entropy.*$`).ReplaceAllString(c[join], "entropy "+hex.EncodeToString([]byte("chosen")))
	var game ident.GameID
	copy(game[:], g.File.Entries[0].Record.Bytes("game"))
	s, _ := dice.StartHash(game, g.File.Entries[0].Record.Hash32("commitment"), []dice.Join{
		{Player: "alice", Entropy: []byte("alice's own noise")}, {Player: "bob", Entropy: []byte("chosen")}})
	c[start] = regexp.MustCompile(`(?m)^start-hash .*$`).ReplaceAllString(c[start], "start-hash "+hex.EncodeToString(s[:]))
	data := forge.Resign(t, g.Key, forge.Rechain(t, tamperKey, c))
	if rep, err := verifyData(t, data, gamelog.VerifyOptions{Key: g.Pub()}); err != nil || !rep.OK() {
		t.Fatalf("the forgery is consistent and passes alone: %v %v", err, rep.Failure)
	}
	bobs := []gamelog.SentMail{{MessageID: "<bob-join@example.com>", Join: true}}
	idx, why := failure(t, data, gamelog.VerifyOptions{Key: g.Pub(), Sent: bobs, Player: "bob"})
	if idx != int64(join-1) || !strings.Contains(why, "entropy") {
		t.Errorf("failure at record %d: %s; want the join record %d", idx, why, join-1)
	}
}

// TestCutAfterCheckpointFails: a copy cut right after a checkpoint, given that checkpoint's
// own signature as its trailer, fails: the trailer's signature has its
// own domain, and only the installation key makes one.
func TestCutAfterCheckpointFails(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{Side: "venice"})
	b := forge.Blocks(g.Data)
	ck := forge.Find(t, b, "checkpoint", "")
	size := regexp.MustCompile(`(?m)^size (\d+)$`).FindStringSubmatch(b[ck])[1]
	head := regexp.MustCompile(`(?m)^head (\w+)$`).FindStringSubmatch(b[ck])[1]
	sig := regexp.MustCompile(`(?m)^signature (\w+)$`).FindStringSubmatch(b[ck])[1]
	var n int
	fmt.Sscan(size, &n)
	cut := append(forge.Clone(b[:n+1]), fmt.Sprintf("end-of-log %s %s %s", size, head, sig))
	idx, why := failure(t, forge.Join(cut), gamelog.VerifyOptions{Key: g.Pub()})
	if idx != -1 || !strings.Contains(why, "end-of-log signature") {
		t.Errorf("cut copy: record %d: %s", idx, why)
	}
}

// TestSealedTextOutOfPlaceFails: a sealed orders text says which close it belongs to (its
// turn and activation are the close's); one that claims another fails, even where the view
// cannot open it.
func TestSealedTextOutOfPlaceFails(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{Side: "ottoman"})
	b := forge.Blocks(g.Data)
	i := forge.Find(t, b, "sealed", "turn 1\nactivation 2\n", "what orders-text")
	c := forge.Clone(b)
	c[i] = strings.Replace(c[i], "turn 1\nactivation 2\n", "turn 1\nactivation 1\n", 1)
	idx, why := failure(t, forge.Resign(t, g.Key, forge.Rechain(t, tamperKey, c)), gamelog.VerifyOptions{Key: g.Pub()})
	if idx != int64(i-1) || !strings.Contains(why, "outside that activation's close") {
		t.Errorf("failure at record %d: %s; want the sealed text %d", idx, why, i-1)
	}
}
