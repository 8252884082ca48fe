package gamelog_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
	"navarch/test/racesplit"
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

// TestParseFileAsBefore: the parallel parser (one string for every field) gives
// what the old one gave, to the error message, for the exports of every view and for
// thousands of damaged copies: cut at every line, lines dropped, doubled or joined, bytes
// changed.
func TestParseFileAsBefore(t *testing.T) {
	racesplit.Long(t) // on one goroutine (a file under 256 KB parses on one): the detector finds nothing
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
// to the error message, as it parses a file of its size and cut into stretches for every
// core (as it parses a long file).
func FuzzParseFileAsBefore(f *testing.F) {
	g := newGame(f, ledgertest.Script{Seed: "fuzz", Turns: 1, Activations: 1, Rolls: 2, Reveal: 1}, ledger.View{Full: true})
	f.Add(g.Data)
	f.Add([]byte("navarch/v1 log full\n\nredacted 0 " + fmt.Sprintf("%064x", 7) + "\n\nend-of-log 1 " + fmt.Sprintf("%064x", 1) + "\n"))
	f.Add([]byte("navarch/v2 log full\n\n\ntype\n\nend-of-log\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameParse(t, "input", data)
		defer gamelog.SetParallelMin(64)()
		sameParse(t, "input in stretches", data)
	})
}

// sealedLog is a synthetic v2 export of n records, about a third of them sealed and each of
// those followed by its unseal block, for the parse of unseal blocks across the stretches
// the good way gives each core (its hashes are not a chain: only the parse is compared).
func sealedLog(n int, rnd *rand.Rand) []byte {
	var b strings.Builder
	b.WriteString("navarch/v2 log full\n")
	for i := range n {
		if rnd.IntN(3) == 0 {
			fmt.Fprintf(&b, "\ntype sealed\nindex %d\nturn 1\nactivation 0\nwhat orders\ncommitment %064x\n", i, i)
			fmt.Fprintf(&b, "\nunseal %d %064x\ntype note\nindex %d\nby x\ntext %s\n", i, i+7, i, strings.Repeat("y", rnd.IntN(200)+1))
		} else {
			fmt.Fprintf(&b, "\ntype note\nindex %d\nby x\ntext %s\n", i, strings.Repeat("w", rnd.IntN(200)+1))
		}
	}
	fmt.Fprintf(&b, "\nend-of-log %d %064x %0128x\n", n, 1, 2)
	return []byte(b.String())
}

// TestUnsealAcrossStretchesAsBefore: an export with unseal blocks, cut into stretches for 3
// and 8 cores, parses as the old parser parses it, as written and with a newline, a CR, an
// empty line, a stray byte or a bogus unseal line put or a byte taken out near every
// stretch's edge, and with blocks swapped, dropped or doubled (an unseal block then meets
// the wrong record, or none), and with the index of the first record after every stretch's
// start or the trailer's count changed (from which the workers know the entries they fill).
func TestUnsealAcrossStretchesAsBefore(t *testing.T) {
	racesplit.Long(t) // thousands of parses: the parse in stretches is raced by TestParseFileLongAsBefore, FuzzParseFileAsBefore's seeds and TestVerifyAsSerial
	rnd := rand.New(rand.NewPCG(1, 2))
	data := sealedLog(400, rnd)
	defer gamelog.SetParallelMin(1 << 10)() // 80 KB: cut into stretches all the same
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range []int{3, 8} {
		runtime.GOMAXPROCS(p)
		if !gamelog.GoodPath(data) {
			t.Fatal("the synthetic export is not parsed the good way")
		}
		sameParse(t, fmt.Sprintf("%d cores", p), data)
		header := strings.Index(string(data), "\n\n")
		per := (len(data)-header)/p + 1
		for w := 1; w < p; w++ {
			for q := header + w*per - 12; q <= header+w*per+12; q++ {
				for _, ins := range []string{"\n", "\r", "\n\n", "x", "\nunseal 0 00\n"} {
					sameParse(t, fmt.Sprintf("%d cores, %q put at %d", p, ins, q), slices.Concat(data[:q], []byte(ins), data[q:]))
				}
				sameParse(t, fmt.Sprintf("%d cores, byte %d taken out", p, q), slices.Concat(data[:q], data[q+1:]))
			}
		}
		for w := 1; w < p; w++ { // the first record a worker takes, read ahead to know its entries
			q := header + w*per
			for _, at := range []int{strings.Index(string(data[q:]), "\n\ntype "), strings.Index(string(data[q:]), "\nunseal ")} {
				ix := q + at + strings.Index(string(data[q+at:]), "\nindex ") + len("\nindex ")
				n := ix + strings.IndexByte(string(data[ix:]), '\n')
				for _, idx := range []string{"0", "1", "400", "401", "99999999999999", "x", "0" + string(data[ix:n]), string(data[ix:n]) + "0"} {
					sameParse(t, fmt.Sprintf("%d cores, index %s at %d", p, idx, ix), slices.Concat(data[:ix], []byte(idx), data[n:]))
				}
			}
		}
		trailer := strings.LastIndex(string(data), "end-of-log 400 ") + len("end-of-log ")
		for _, count := range []string{"0", "1", "399", "401", "4000", "40000000", "99999999999999999999", "0400", "x", ""} {
			sameParse(t, fmt.Sprintf("%d cores, trailer count %q", p, count), slices.Concat(data[:trailer], []byte(count), data[trailer+3:]))
		}
		blocks := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n\n")
		for k := range 60 {
			c := slices.Clone(blocks)
			i, j := 1+rnd.IntN(len(c)-3), 1+rnd.IntN(len(c)-3)
			switch k % 3 {
			case 0:
				c[i], c[j] = c[j], c[i]
			case 1:
				c = slices.Delete(c, i, i+1)
			case 2:
				c = slices.Insert(c, i, c[i])
			}
			sameParse(t, fmt.Sprintf("%d cores, blocks moved (%d)", p, k), []byte(strings.Join(c, "\n\n")+"\n"))
		}
	}
}

// fieldValues are values to put in every kind of field line: good and bad values at the
// edges of each kind's syntax (checkValue), for the scan that checks a line's value in the
// pass that finds its end.
var fieldValues = []string{"", " ", "0", "00", "01", "7", "18446744073709551615", "18446744073709551616",
	"99999999999999999999", "123456789012345678901", "1 2", "1 2 3", "1  2", "1 ", " 1", "1 02", "1 x", "1\t2",
	"a", "A", "x y", "x  y", "x ", " x", "a\tb", "é", "x é", "x\x7f", "x\x01y", "\xff", "x\xc3", "x\u2028y", "\u00a0",
	strings.Repeat("t", 200), strings.Repeat("t", 201), strings.Repeat("w ", 150) + "w", "w " + strings.Repeat("t", 201),
	strings.Repeat("a", 2000), strings.Repeat("a", 2001), strings.Repeat("é", 1000), strings.Repeat("é", 1000) + "a",
	strings.Repeat("0a", 32), strings.Repeat("0A", 32), strings.Repeat("a", 63), strings.Repeat("a", 65), strings.Repeat("b", 66),
	strings.Repeat("ab", 16), strings.Repeat("ab", 64), strings.Repeat("ab", 32) + " ", strings.Repeat("ab", 31) + "g0",
	"1d6", "0d6", "1d0", "10000d6", "10001d6", "1d4294967295", "1d4294967296", "d6", "1d", "1d6 ", "01d6",
	"none", "None", "2026-11-30T12:00:00Z", "2026-11-30T12:00:00+01:00", "2026-02-30T12:00:00Z"}

// TestFieldValuesAsBefore: the parallel parser checks a field line's value in the pass
// that finds the line's end (lineEnd); it gives what the old parser gave, to the error
// message, with every value of fieldValues, the key alone and the key and a space on the
// first line of every key of every record type in an export (sealed records' own and their
// unsealed records' lines too).
func TestFieldValuesAsBefore(t *testing.T) {
	racesplit.Long(t) // on one goroutine (a file under 256 KB parses on one): the detector finds nothing
	sc := ledgertest.Small
	sc.End = true
	data := newGame(t, sc, ledger.View{Full: true}).Data
	lines := strings.SplitAfter(string(data), "\n")
	seen := map[string]bool{}
	typ := ""
	tried := 0
	for i, line := range lines {
		if s, ok := strings.CutPrefix(line, "type "); ok {
			typ = strings.TrimSpace(s)
			continue
		}
		key, _, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if typ == "" || key == "" || key == "index" || key == "unseal" || seen[typ+" "+key] {
			continue
		}
		seen[typ+" "+key] = true
		for _, v := range append([]string{"\x00alone", "\x00space"}, fieldValues...) {
			repl := key + " " + v + "\n"
			switch v {
			case "\x00alone":
				repl = key + "\n"
			case "\x00space":
				repl = key + " \n"
			}
			c := slices.Concat(lines[:i:i], []string{repl}, lines[i+1:])
			sameParse(t, fmt.Sprintf("line %d (%s record) as %q", i+1, typ, repl), []byte(strings.Join(c, "")))
			tried++
		}
	}
	if len(seen) < 40 {
		t.Errorf("only %d keys of record types tried: %v", len(seen), seen)
	}
	t.Logf("%d keys, %d files", len(seen), tried)
}
