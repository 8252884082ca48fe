// Package forge plays honest scripted games and rewrites their exports as a dishonest
// operator holding the installation key would, for the tamper and attack tests of every
// verifier (gamelog's, the browser verifier's).
package forge

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

// Game is an honest scripted game's export and the installation key that signed it.
type Game struct {
	Data []byte
	Key  ed25519.PrivateKey
	File *gamelog.File
}

// Pub is the installation's verifier key.
func (g Game) Pub() ed25519.PublicKey { return g.Key.Public().(ed25519.PublicKey) }

// NewGame plays a scripted game (ledgertest) in a real bbolt store and exports it for view v.
func NewGame(t testing.TB, sc ledgertest.Script, v ledger.View) Game {
	t.Helper()
	s, err := store.Open(t.TempDir()+"/navarch.db", slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id, err := ledgertest.Game(s, sc)
	if err != nil {
		t.Fatal(err)
	}
	data, err := ledgertest.Export(s, id, v)
	if err != nil {
		t.Fatal(err)
	}
	var key ed25519.PrivateKey
	s.View(func(tx *store.Tx) error { key, err = store.InstallationKey(tx); return err })
	if err != nil {
		t.Fatal(err)
	}
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatalf("honest export does not parse: %v", err)
	}
	return Game{Data: data, Key: key, File: f}
}

// Blocks splits an export into its header, record blocks and trailer, as text. An unseal
// block stays with the sealed record it opens ("<record>\n\nunseal …"), so that block i+1 is
// record i.
func Blocks(data []byte) []string {
	var out []string
	for _, b := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n\n") {
		if strings.HasPrefix(b, "unseal ") && len(out) > 0 {
			out[len(out)-1] += "\n\n" + b
			continue
		}
		out = append(out, b)
	}
	return out
}

// Sealless is b without its unseal blocks: every sealed record withheld, as in a copy of a
// view that may not see them.
func Sealless(b []string) []string {
	out := make([]string, len(b))
	for i, blk := range b {
		out[i], _, _ = strings.Cut(blk, "\n\nunseal ")
	}
	return out
}

// EditUnsealed is b with the first old replaced by new in the record that block i's unseal
// block opens: a record no head covers, which only its sealed record's commitment binds.
func EditUnsealed(t testing.TB, b []string, i int, old, new string) []string {
	t.Helper()
	rec, opened, ok := strings.Cut(b[i], "\n\nunseal ")
	if !ok || !strings.Contains(opened, old) {
		t.Fatalf("block %d unseals no record with %q", i, old)
	}
	c := Clone(b)
	c[i] = rec + "\n\nunseal " + strings.Replace(opened, old, new, 1)
	return c
}

// Join is the export of blocks.
func Join(b []string) []byte { return []byte(strings.Join(b, "\n\n") + "\n") }

// Find returns the block index (block i+1 is record i) of the first record of type typ whose
// text contains all of parts.
func Find(t testing.TB, b []string, typ string, parts ...string) int {
	t.Helper()
	for i, blk := range b {
		if !strings.HasPrefix(blk, "type "+typ+"\n") {
			continue
		}
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(blk, p)
		}
		if ok {
			return i
		}
	}
	t.Fatalf("no %s record with %v", typ, parts)
	return 0
}

var indexLine = regexp.MustCompile(`(?m)^index \d+$`)

// Rechain renumbers every record by position and writes a full export with a trailer signed
// by key, as an operator who edits the stored log and re-exports it would. Checkpoint
// records are left as signed.
func Rechain(t testing.TB, key ed25519.PrivateKey, b []string) []byte {
	t.Helper()
	var entries []gamelog.Entry
	for i, blk := range b[1 : len(b)-1] {
		entries = append(entries, rechained(t, i, blk))
	}
	return Write(t, key, "full", entries)
}

var unsealLine = regexp.MustCompile(`^unseal \d+ ([0-9a-f]{64})\n`)

// rechained is block blk as record i; a sealed record's unseal block, if it has one, is
// renumbered too and its commitment made again with the same nonce, as the operator (who
// keeps the nonces) can.
func rechained(t testing.TB, i int, blk string) gamelog.Entry {
	t.Helper()
	outer, unseal, sealed := strings.Cut(blk, "\n\n")
	e := gamelog.Entry{Index: uint64(i)}
	if sealed {
		m := unsealLine.FindStringSubmatch(unseal)
		if m == nil {
			t.Fatalf("rechain record %d: bad unseal block", i)
		}
		inner := parse(t, i, unseal[len(m[0]):])
		e.Inner = &inner
		hex.Decode(e.Nonce[:], []byte(m[1]))
		c := gamelog.SealedHash(e.Nonce, inner.Raw)
		outer = regexp.MustCompile(`(?m)^commitment \w+$`).ReplaceAllString(outer, "commitment "+hex.EncodeToString(c[:]))
	}
	rec := parse(t, i, outer)
	e.Record, e.Leaf = &rec, gamelog.Leaf(rec.Raw)
	return e
}

func parse(t testing.TB, i int, blk string) gamelog.Record {
	t.Helper()
	raw := indexLine.ReplaceAllString(strings.TrimSuffix(blk, "\n"), fmt.Sprintf("index %d", i)) + "\n"
	rec, err := gamelog.Parse([]byte(raw))
	if err != nil {
		t.Fatalf("rechain record %d: %v", i, err)
	}
	return rec
}

// Write writes entries as an export of view, in the format their genesis names, with a
// trailer signed by key.
func Write(t testing.TB, key ed25519.PrivateKey, view string, entries []gamelog.Entry) []byte {
	t.Helper()
	f := &gamelog.File{Format: entries[0].Record.Get("format"), View: view, Entries: entries}
	var id ident.GameID
	copy(id[:], entries[0].Record.Bytes("game"))
	f.Sign(id, key)
	var out bytes.Buffer
	if err := gamelog.WriteFile(&out, f); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Resign re-signs every checkpoint record over the rebuilt chain, and the trailer, with key.
func Resign(t testing.TB, key ed25519.PrivateKey, data []byte) []byte {
	t.Helper()
	f, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	var id ident.GameID
	copy(id[:], f.Entries[0].Record.Bytes("game"))
	var entries []gamelog.Entry
	var heads []ident.Hash
	var head ident.Hash
	for i, e := range f.Entries {
		if e.Record.Type == gamelog.TypeCheckpoint {
			c := gamelog.Checkpoint{Game: id, Size: min(e.Record.Uint("size"), uint64(i))} // records removed before it
			c.Head = heads[c.Size-1]
			c.Sign(key)
			rec, err := gamelog.Parse(fmt.Appendf(nil, "type checkpoint\nindex %d\nsize %d\nhead %x\nsignature %x\n", i, c.Size, c.Head[:], c.Signature))
			if err != nil {
				t.Fatal(err)
			}
			e = gamelog.Entry{Index: e.Index, Leaf: gamelog.Leaf(rec.Raw), Record: &rec}
		}
		head = gamelog.NextHead(e.Index, head, e.Leaf)
		heads = append(heads, head)
		entries = append(entries, e)
	}
	return Write(t, key, f.View, entries)
}

// Clone copies blocks.
func Clone(b []string) []string { return append([]string(nil), b...) }

// InsertAt returns b with blk inserted before block i.
func InsertAt(b []string, i int, blk string) []string {
	return append(append(append([]string(nil), b[:i]...), blk), b[i:]...)
}

// Commit is the hex orders commitment of text under nonce (docs/LOG-FORMAT.md).
func Commit(nonce ident.Hash, text string) string {
	c := gamelog.OrdersCommitment(nonce, []byte(text))
	return hex.EncodeToString(c[:])
}

// TextOf returns an orders-text block's order text and nonce.
func TextOf(blk string) (string, string) {
	var lines []string
	for _, l := range regexp.MustCompile(`(?m)^line (.*)$`).FindAllStringSubmatch(blk, -1) {
		lines = append(lines, l[1])
	}
	return string(gamelog.OrdersText(lines)), regexp.MustCompile(`(?m)^nonce (\w+)$`).FindStringSubmatch(blk)[1]
}

// Rewire makes the close at block ci use the orders records at uses, with the given texts
// (and nonces) and entropies, and logs the E they give: what an operator who rewrites a close
// writes. The texts follow the close.
func Rewire(t testing.TB, b []string, ci int, uses []int, texts [][2]string, entropy [][]byte) []string {
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
			b = InsertAt(b, ci+1+i, tb)
		}
	}
	return b
}
