package gamelog_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"navarch/adjudicator/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
)

// The attacks of a dishonest operator on the dice (issue 10, finding 1). Each forged log is
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
	b := blocks(g.data)
	orders := find(t, b, "orders", "turn 3\nactivation 2\n")
	closeAt := find(t, b, "close", "turn 3\nactivation 2\n")
	text := find(t, b, "orders-text", fmt.Sprintf("orders %d\n", orders-1))
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
	c := clone(b)
	extra := fmt.Sprintf("type orders\nindex %d\nturn 3\nactivation 2\nplayer alice\ncommitment %s\nentropy %x\nreceived none", orders,
		commit(nonce, forgedText), "ground 4711")
	c = insertAt(c, orders+1, extra) // right after the real one: it is the latest
	c = rewire(t, c, closeAt+1, []int{orders}, [][2]string{{forgedText, hex.EncodeToString(nonce[:])}}, [][]byte{[]byte("ground 4711")})
	attacks = append(attacks, attack{"extra orders record with the operator's entropy", c, true, orders, "no mail"})

	// alice's own orders with the operator's entropy.
	c = clone(b)
	c[orders] = regexp.MustCompile(`(?m)^entropy .*$`).ReplaceAllString(c[orders], "entropy "+hex.EncodeToString([]byte("ground 99")))
	lines, n := textOf(c[text])
	c = rewire(t, c, closeAt, []int{orders - 1}, [][2]string{{lines, n}}, [][]byte{[]byte("ground 99")})
	attacks = append(attacks, attack{"the player's orders with the operator's entropy", c, true, orders - 1, "entropy"})

	// The close uses an older record of alice's although a newer one exists.
	c = clone(b)
	newer := strings.Replace(c[orders], fmt.Sprintf("index %d\n", orders-1), fmt.Sprintf("index %d\n", orders), 1)
	c = insertAt(c, orders+1, newer)
	c = rewire(t, c, closeAt+1, []int{orders - 1}, [][2]string{{lines, n}}, [][]byte{[]byte("t3a2")})
	attacks = append(attacks, attack{"a close that skips the latest orders", c, false, closeAt, "not its latest"})

	// A default orders record that carries entropy.
	c = clone(b)
	c[orders] = strings.Replace(c[orders], "\nreceived ", "\ndefault yes\nreceived ", 1)
	attacks = append(attacks, attack{"a default with entropy", c, false, orders - 1, "default"})

	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			data := resign(t, g, rechain(t, a.blocks))
			opts := gamelog.VerifyOptions{Key: g.pub()}
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
	b := blocks(g.data)
	closeAt := find(t, b, "close", "turn 2\nactivation 0\n")
	nonce := sha256.Sum256([]byte("n"))
	forged := fmt.Sprintf("type orders\nindex %d\nturn 2\nactivation 0\nplayer alice\ncommitment %s\nentropy 01\nreceived none", closeAt-1, commit(nonce, ""))
	c := insertAt(clone(b), closeAt, forged)
	c = rewire(t, c, closeAt+1, []int{closeAt - 1}, [][2]string{{"", hex.EncodeToString(nonce[:])}}, [][]byte{{1}})
	idx, why := failure(t, resign(t, g, rechain(t, c)), gamelog.VerifyOptions{Key: g.pub()})
	if idx != int64(closeAt-1) || !strings.Contains(why, "does not ask") {
		t.Errorf("failure at record %d: %s; want the orders record %d", idx, why, closeAt-1)
	}
}

// TestChosenJoinEntropyFails: the operator writes join entropy of his choosing for bob (and
// with it S, and every roll of the game); bob's sent JOIN gives it away.
func TestChosenJoinEntropyFails(t *testing.T) {
	sc := ledgertest.Script{Seed: "join", Turns: 2, Activations: 1, Rolls: 1, Reveal: 0}
	g := newGame(t, sc, ledger.View{Full: true})
	b := blocks(g.data)
	join := find(t, b, "join", "player bob")
	start := find(t, b, "start")
	c := clone(b)
	c[join] = regexp.MustCompile(`(?m)^entropy.*$`).ReplaceAllString(c[join], "entropy "+hex.EncodeToString([]byte("chosen")))
	var game ident.GameID
	copy(game[:], g.file.Entries[0].Record.Bytes("game"))
	s, _ := dice.StartHash(game, g.file.Entries[0].Record.Hash32("commitment"), []dice.Join{
		{Player: "alice", Entropy: []byte("alice's own noise")}, {Player: "bob", Entropy: []byte("chosen")}})
	c[start] = regexp.MustCompile(`(?m)^start-hash .*$`).ReplaceAllString(c[start], "start-hash "+hex.EncodeToString(s[:]))
	data := resign(t, g, rechain(t, c))
	if rep, err := verifyData(t, data, gamelog.VerifyOptions{Key: g.pub()}); err != nil || !rep.OK() {
		t.Fatalf("the forgery is consistent and passes alone: %v %v", err, rep.Failure)
	}
	bobs := []gamelog.SentMail{{MessageID: "<bob-join@example.com>", Join: true}}
	idx, why := failure(t, data, gamelog.VerifyOptions{Key: g.pub(), Sent: bobs, Player: "bob"})
	if idx != int64(join-1) || !strings.Contains(why, "entropy") {
		t.Errorf("failure at record %d: %s; want the join record %d", idx, why, join-1)
	}
}

// TestCutAfterCheckpointFails: a copy cut right after a checkpoint, given that checkpoint's
// own signature as its trailer, fails (issue 10, finding 7): the trailer's signature has its
// own domain, and only the installation key makes one.
func TestCutAfterCheckpointFails(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{Side: "venice"})
	b := blocks(g.data)
	ck := find(t, b, "checkpoint", "")
	size := regexp.MustCompile(`(?m)^size (\d+)$`).FindStringSubmatch(b[ck])[1]
	head := regexp.MustCompile(`(?m)^head (\w+)$`).FindStringSubmatch(b[ck])[1]
	sig := regexp.MustCompile(`(?m)^signature (\w+)$`).FindStringSubmatch(b[ck])[1]
	var n int
	fmt.Sscan(size, &n)
	cut := append(clone(b[:n+1]), fmt.Sprintf("end-of-log %s %s %s", size, head, sig))
	idx, why := failure(t, join(cut), gamelog.VerifyOptions{Key: g.pub()})
	if idx != -1 || !strings.Contains(why, "end-of-log signature") {
		t.Errorf("cut copy: record %d: %s", idx, why)
	}
}

func commit(nonce ident.Hash, text string) string {
	c := gamelog.OrdersCommitment(nonce, []byte(text))
	return hex.EncodeToString(c[:])
}

func clone(b []string) []string { return append([]string(nil), b...) }

func insertAt(b []string, i int, blk string) []string {
	return append(append(append([]string(nil), b[:i]...), blk), b[i:]...)
}

// textOf returns an orders-text block's order text and nonce.
func textOf(blk string) (string, string) {
	var lines []string
	for _, l := range regexp.MustCompile(`(?m)^line (.*)$`).FindAllStringSubmatch(blk, -1) {
		lines = append(lines, l[1])
	}
	return string(gamelog.OrdersText(lines)), regexp.MustCompile(`(?m)^nonce (\w+)$`).FindStringSubmatch(blk)[1]
}

// rewire makes the close at block ci use the orders records at the given indexes, with the
// given texts (and nonces) and entropies, and logs the E they give: what an operator who
// rewrites a close writes. The texts follow the close.
func rewire(t *testing.T, b []string, ci int, uses []int, texts [][2]string, entropy [][]byte) []string {
	t.Helper()
	ta := regexp.MustCompile(`(?m)^turn (\d+)\nactivation (\d+)$`).FindStringSubmatch(b[ci])
	var turn, act uint32
	fmt.Sscan(ta[1], &turn)
	fmt.Sscan(ta[2], &act)
	var inputs []dice.Input
	blk := fmt.Sprintf("type close\nindex 0\nturn %d\nactivation %d", turn, act)
	for i, u := range uses {
		blk += fmt.Sprintf("\nuse %d", u)
		inputs = append(inputs, dice.Input{Player: "alice", OrdersHash: gamelog.OrdersHash([]byte(texts[i][0])), Entropy: entropy[i]})
	}
	e := dice.InputsHash(turn, act, inputs)
	b[ci] = blk + "\ninputs-hash " + hex.EncodeToString(e[:])
	for i, u := range uses {
		tb := fmt.Sprintf("type orders-text\nindex 0\norders %d\nnonce %s", u, texts[i][1])
		for _, l := range strings.Split(strings.TrimSuffix(texts[i][0], "\n"), "\n") {
			if l != "" {
				tb += "\nline " + l
			}
		}
		if strings.HasPrefix(b[ci+1+i], "type orders-text\n") {
			b[ci+1+i] = tb
		} else {
			b = insertAt(b, ci+1+i, tb)
		}
	}
	return b
}

// TestSealedTextOutOfPlaceFails: a sealed orders text says which close it belongs to (its
// turn and activation are the close's); one that claims another fails, even where the view
// cannot open it.
func TestSealedTextOutOfPlaceFails(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{Side: "ottoman"})
	b := blocks(g.data)
	i := find(t, b, "sealed", "turn 1\nactivation 2\n", "what orders-text")
	c := clone(b)
	c[i] = strings.Replace(c[i], "turn 1\nactivation 2\n", "turn 1\nactivation 1\n", 1)
	idx, why := failure(t, resign(t, g, rechain(t, c)), gamelog.VerifyOptions{Key: g.pub()})
	if idx != int64(i-1) || !strings.Contains(why, "outside that activation's close") {
		t.Errorf("failure at record %d: %s; want the sealed text %d", idx, why, i-1)
	}
}
