package gamelog_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"navarch/gamelog"
	"navarch/gamelog/forge"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
)

// sameParse fails unless ParseFile and the parser it replaced give the same file, or the
// same error, for data.
func sameParse(t *testing.T, what string, data []byte) {
	t.Helper()
	got, gerr := gamelog.ParseFile(data)
	want, werr := gamelog.OldParseFile(data)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%s: error %v, the old parser: %v\n%q", what, gerr, werr, data)
	}
	if gerr != nil {
		return
	}
	if got.Format != want.Format || got.View != want.View || got.Size != want.Size || got.Head != want.Head ||
		!bytes.Equal(got.Signature, want.Signature) || len(got.Entries) != len(want.Entries) ||
		fmt.Sprint(got.Private) != fmt.Sprint(want.Private) {
		t.Fatalf("%s: files differ", what)
	}
	for i := range got.Entries {
		g, w := got.Entries[i], want.Entries[i]
		if g.Index != w.Index || g.Leaf != w.Leaf || g.Nonce != w.Nonce || g.Line != w.Line ||
			!sameRecord(g.Record, w.Record) || !sameRecord(g.Inner, w.Inner) {
			t.Fatalf("%s: entry %d differs: %+v, the old parser %+v", what, i, g, w)
		}
	}
}

func sameRecord(a, b *gamelog.Record) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Index == b.Index && a.Type == b.Type && bytes.Equal(a.Raw, b.Raw) && slices.Equal(a.Fields(), b.Fields())
}

// TestParseFileAsBefore: the parser of issue 14 (parallel, one string for every field) gives
// what the old one gave, to the error message, for the exports of every view and for
// thousands of damaged copies: cut at every line, lines dropped, doubled or joined, bytes
// changed.
func TestParseFileAsBefore(t *testing.T) {
	sc := ledgertest.Small
	sc.End = true
	var inputs [][]byte
	for _, v := range []ledger.View{{Full: true}, {Side: "venice"}, {}} {
		inputs = append(inputs, newGame(t, sc, v).Data)
	}
	inputs = append(inputs, []byte("navarch/v1 log full\n\nredacted 0 "+fmt.Sprintf("%064x", 7)+"\n\nend-of-log 1 "+fmt.Sprintf("%064x", 1)+"\n"))
	rnd := rand.New(rand.NewPCG(14, 14))
	for n, data := range inputs {
		sameParse(t, fmt.Sprintf("input %d", n), data)
		if good := gamelog.GoodPath(data); good != (n < 3) {
			t.Errorf("input %d taken the good way: %v", n, good)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		for i := 0; i < len(lines); i += 1 + min(n, 1)*4 { // every line of the full view, every fifth of the others
			sameParse(t, fmt.Sprintf("input %d cut at line %d", n, i), bytes.Join(lines[:i], nil))
			sameParse(t, fmt.Sprintf("input %d without line %d", n, i), slices.Concat(bytes.Join(lines[:i], nil), bytes.Join(lines[i+1:], nil)))
			sameParse(t, fmt.Sprintf("input %d line %d twice", n, i), slices.Concat(bytes.Join(lines[:i+1], nil), bytes.Join(lines[i:], nil)))
			joined := slices.Clone(data)
			if p := len(bytes.Join(lines[:i+1], nil)) - 1; p < len(data)-1 {
				joined[p] = ' '
				sameParse(t, fmt.Sprintf("input %d line %d joined", n, i), joined)
			}
		}
		for i := 0; i < 500; i++ {
			c := slices.Clone(data)
			for k := 0; k < 1+rnd.IntN(3); k++ {
				c[rnd.IntN(len(c))] = " \n\nxa0-9\x00\xff\xc3zt"[rnd.IntN(12)]
			}
			sameParse(t, fmt.Sprintf("input %d edit %d", n, i), c)
		}
		sameParse(t, fmt.Sprintf("input %d with an empty line after it", n), append(slices.Clone(data), '\n'))
		sameParse(t, fmt.Sprintf("input %d with text after it", n), append(slices.Clone(data), "\nx\n"...))
	}
	for _, s := range []string{"", "\n", "\n\n", "navarch/v2 log full\n", "navarch/v2 log full\n\n", "navarch/v2 log full\n\n\n",
		"navarch/v2 log full\n\ntype\n\nend-of-log 0 00\n", "navarch/v2 log full\n\nunseal\n", "navarch/v2 log full\n\nend-of-log\n\n",
		"navarch/v2 log\r full\n\nend-of-log\n", "navarch/v2 log full\n\n\n\r\n", "navarch/v2 log full\r\n"} {
		sameParse(t, fmt.Sprintf("%q", s), []byte(s))
	}
}

// TestParseFileLongAsBefore compares the parsers on a long log, which ParseFile parses on
// several cores.
func TestParseFileLongAsBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("a long game")
	}
	g := newGame(t, ledgertest.Script{Seed: "long", Turns: 2, Activations: 30, Rolls: 40, Reveal: -1, End: true}, ledger.View{Full: true})
	if len(g.Data) < 300<<10 {
		t.Fatalf("the long game has %d bytes, too few to be parsed in parallel", len(g.Data))
	}
	sameParse(t, "long game", g.Data)
	if !gamelog.GoodPath(g.Data) {
		t.Error("the long game is not taken the good way")
	}
	b := forge.Blocks(g.Data)
	for _, i := range []int{len(b) / 3, len(b) / 2, len(b) - 5} {
		for _, bad := range []string{"\nbad line", "\n", "\n\n", "\n\nx", "\r", "\n\n\r"} {
			c := slices.Clone(b)
			c[i] += bad
			sameParse(t, fmt.Sprintf("long game, record %d followed by %q", i, bad), forge.Join(c))
		}
	}
}

// FuzzParseFileAsBefore: for any input, ParseFile gives what the parser it replaced gave,
// to the error message.
func FuzzParseFileAsBefore(f *testing.F) {
	g := newGame(f, ledgertest.Script{Seed: "fuzz", Turns: 1, Activations: 1, Rolls: 2, Reveal: 1}, ledger.View{Full: true})
	f.Add(g.Data)
	f.Add([]byte("navarch/v1 log full\n\nredacted 0 " + fmt.Sprintf("%064x", 7) + "\n\nend-of-log 1 " + fmt.Sprintf("%064x", 1) + "\n"))
	f.Add([]byte("navarch/v2 log full\n\n\ntype\n\nend-of-log\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameParse(t, "input", data)
	})
}
