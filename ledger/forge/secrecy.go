package forge

import (
	"bytes"
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
	"navarch/ledger/ledgertest"
)

// Which orders texts enter E as 32 zero bytes must not be the daemon's choice: it knows X_t,
// and sealing or not sealing k texts after seeing them would let it choose among 2^k keys
// (docs/LOG-FORMAT.md 2). These are the rewrites of an operator who tries: forged logs of
// ledgertest.Small, whose one secret step is turn 1 activation 2.

// Forged is a rewritten log and the failure every verifier must report for it: the record
// and a part of the reason.
type Forged struct {
	Name   string
	Data   []byte
	Index  int64
	Reason string
	// Mails are saved mails to verify it with (verify --checkpoint), where it needs them.
	Mails []string
}

// sealed is an honest full export of ledgertest.Small as blocks, with the inner records
// of its sealed records.
type sealed struct {
	Game
	b     []string
	inner map[uint64]*gamelog.Entry
}

func newSealed(t testing.TB) sealed {
	t.Helper()
	g := NewGame(t, ledgertest.Small, ledger.View{Full: true})
	s := sealed{Game: g, b: Blocks(g.Data), inner: map[uint64]*gamelog.Entry{}}
	for i := range g.File.Entries {
		if e := &g.File.Entries[i]; e.Inner != nil {
			s.inner[e.Index] = e
		}
	}
	return s
}

// write rechains blocks (no record inserted or removed), gives every sealed record the
// inner record it had, or the one in opened, and re-signs.
func (s sealed) write(t testing.TB, b []string, opened map[uint64]*gamelog.Entry) []byte {
	t.Helper()
	f, err := gamelog.ParseFile(Rechain(t, s.Key, b))
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.Record.Type != gamelog.TypeSealed {
			continue
		}
		src := s.inner[e.Index]
		if o := opened[e.Index]; o != nil {
			src = o
		}
		if src != nil {
			e.Inner, e.Nonce = src.Inner, src.Nonce
		}
	}
	var out bytes.Buffer
	if err := gamelog.WriteFile(&out, f); err != nil {
		t.Fatal(err)
	}
	return Resign(t, s.Key, out.Bytes())
}

// seal turns the public orders text at block i into a text sealed for side, opened by the
// operator's nonce; it returns the entry that opens it.
func seal(t testing.TB, b []string, i int, side string) *gamelog.Entry {
	t.Helper()
	inner := regexp.MustCompile(`(?m)^(orders \d+)$`).ReplaceAllString(b[i], "$1\nside "+side) + "\n"
	rec, err := gamelog.Parse([]byte(inner))
	if err != nil {
		t.Fatal(err)
	}
	nonce := sha256.Sum256([]byte("the operator's seal"))
	c := gamelog.SealedHash(nonce, rec.Raw)
	ta := regexp.MustCompile(`(?m)^turn \d+\nactivation \d+$`)
	b[i] = fmt.Sprintf("type sealed\nindex 0\n%s\nside %s\nwhat orders-text\ncommitment %x", ta.FindString(b[i-1]), side, c[:])
	return &gamelog.Entry{Index: uint64(i - 1), Inner: &rec, Nonce: nonce}
}

// publish replaces the sealed text at block i by its inner record without its side.
func (s sealed) publish(b []string, i int) {
	in := s.inner[uint64(i-1)].Inner
	b[i] = strings.Replace(strings.TrimSuffix(string(in.Raw), "\n"), "\nside venice\n", "\n", 1)
}

// setE writes into the close at block ci the E of alice's orders at block oi with hash h.
func setE(b []string, ci, oi int, h ident.Hash) {
	var turn, act uint32
	ta := regexp.MustCompile(`(?m)^turn (\d+)\nactivation (\d+)$`).FindStringSubmatch(b[ci])
	fmt.Sscan(ta[1], &turn)
	fmt.Sscan(ta[2], &act)
	ent, _ := hex.DecodeString(regexp.MustCompile(`(?m)^entropy (.*)$`).FindStringSubmatch(b[oi])[1])
	e := dice.InputsHash(turn, act, []dice.Input{{Player: "alice", OrdersHash: h, Entropy: ent}})
	b[ci] = regexp.MustCompile(`(?m)^inputs-hash .*$`).ReplaceAllString(b[ci], fmt.Sprintf("inputs-hash %x", e[:]))
}

// eventLinks are an event's v4 fields.
var eventLinks = regexp.MustCompile(`\n(roll|kind) [^\n]*`)

// unlink takes the v4 fields out of the public event records of blocks rewritten to an older
// format (the scripted game's public events name their rolls and kinds; its sealed ones none).
func unlink(b []string) {
	for j, blk := range b {
		if strings.HasPrefix(blk, "type event\n") {
			b[j] = eventLinks.ReplaceAllString(blk, "")
		}
	}
}

// undeclare makes blocks a game created before navarch declared secrecy.
func undeclare(t testing.TB, b []string) {
	t.Helper()
	b[1] = strings.Replace(b[1], "\nsecrecy declared", "", 1)
	b[1] = strings.Replace(b[1], "\nformat "+gamelog.FormatV5+"\n", "\nformat "+gamelog.FormatV2+"\n", 1) // v3 and later require the declaration
	unlink(b)
	i := Find(t, b, "activation", "turn 1\nactivation 2\n", "secret yes")
	b[i] = strings.Replace(b[i], "\nsecret yes", "", 1)
}

// SecrecyAttacks returns the forged logs of ledgertest.Small in which the operator chooses
// which texts are sealed, each with the failure a verifier must report, and the game they
// were forged from.
func SecrecyAttacks(t testing.TB) ([]Forged, Game) {
	t.Helper()
	s := newSealed(t)
	if !strings.Contains(s.b[1], "\nsecrecy declared") {
		t.Fatal("the genesis does not declare secrecy")
	}
	pubOrders := Find(t, s.b, "orders", "turn 3\nactivation 2\n")
	pubClose := Find(t, s.b, "close", "turn 3\nactivation 2\n")
	pubText := Find(t, s.b, "orders-text", fmt.Sprintf("orders %d\n", pubOrders-1))
	secAct := Find(t, s.b, "activation", "turn 1\nactivation 2\n", "secret yes")
	secOrders := Find(t, s.b, "orders", "turn 1\nactivation 2\n")
	secClose := Find(t, s.b, "close", "turn 1\nactivation 2\n")
	secText := Find(t, s.b, "sealed", "turn 1\nactivation 2\n", "what orders-text")
	attacks := []struct {
		name   string
		forge  func(b []string) map[uint64]*gamelog.Entry
		index  int
		reason string
	}{
		{"a public text sealed, E with zero bytes for it", func(b []string) map[uint64]*gamelog.Entry {
			e := seal(t, b, pubText, "venice")
			setE(b, pubClose, pubOrders, ident.Hash{})
			return map[uint64]*gamelog.Entry{e.Index: e}
		}, pubText - 1, "did not declare itself secret"},
		{"a secret step's text made public, E with its hash", func(b []string) map[uint64]*gamelog.Entry {
			s.publish(b, secText)
			text, _ := TextOf(b[secText])
			setE(b, secClose, secOrders, gamelog.OrdersHash([]byte(text)))
			return nil
		}, secText - 1, "declared itself secret"},
		{"a secret text sealed for the other side", func(b []string) map[uint64]*gamelog.Entry {
			s.publish(b, secText)
			e := seal(t, b, secText, "ottoman")
			return map[uint64]*gamelog.Entry{e.Index: e}
		}, secText - 1, "sealed for side ottoman"},
		{"an undeclared game's secret text sealed for the other side", func(b []string) map[uint64]*gamelog.Entry {
			undeclare(t, b)
			s.publish(b, secText)
			e := seal(t, b, secText, "ottoman")
			return map[uint64]*gamelog.Entry{e.Index: e}
		}, secText - 1, "sealed for side ottoman"},
		{"secret declared where the genesis declares no secrecy", func(b []string) map[uint64]*gamelog.Entry {
			b[1] = strings.Replace(b[1], "\nsecrecy declared", "", 1)
			b[1] = strings.Replace(b[1], "\nformat "+gamelog.FormatV5+"\n", "\nformat "+gamelog.FormatV2+"\n", 1)
			unlink(b)
			return nil
		}, secAct - 1, "only in a log whose genesis declares secrecy"},
		{"secret maybe", func(b []string) map[uint64]*gamelog.Entry {
			b[secAct] = strings.Replace(b[secAct], "secret yes", "secret maybe", 1)
			return nil
		}, secAct - 1, "maybe"},
		{"a genesis that declares something else", func(b []string) map[uint64]*gamelog.Entry {
			b[1] = strings.Replace(b[1], "\nsecrecy declared", "\nsecrecy none", 1)
			return nil
		}, 0, "none"},
	}
	var out []Forged
	for _, a := range attacks {
		b := Clone(s.b)
		out = append(out, Forged{Name: a.name, Data: s.write(t, b, a.forge(b)), Index: int64(a.index), Reason: a.reason})
	}
	return out, s.Game
}

// Undeclared is the honest ledgertest.Small as a game created before navarch declared
// secrecy (no secrecy in its genesis, no secret in its activations): it verifies, with a
// note; and the same with the operator's choice of a sealed public text, which only replay
// can tell from the rules' (it verifies too).
func Undeclared(t testing.TB) (honest, sealedPublic []byte, g Game) {
	t.Helper()
	s := newSealed(t)
	b := Clone(s.b)
	undeclare(t, b)
	honest = s.write(t, b, nil)
	pubOrders := Find(t, b, "orders", "turn 3\nactivation 2\n")
	pubClose := Find(t, b, "close", "turn 3\nactivation 2\n")
	pubText := Find(t, b, "orders-text", fmt.Sprintf("orders %d\n", pubOrders-1))
	e := seal(t, b, pubText, "venice")
	setE(b, pubClose, pubOrders, ident.Hash{})
	return honest, s.write(t, b, map[uint64]*gamelog.Entry{e.Index: e}), s.Game
}
