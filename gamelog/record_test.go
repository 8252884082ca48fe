package gamelog

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"strings"

	"navarch/ident"
	"testing"
	"time"
)

func TestBuildParseRoundTrip(t *testing.T) {
	b := New(TypeRoll).AddUint("turn", 3).AddUint("activation", 0).AddUint("seq", 0).Add("label", "draw").
		Add("dice", "1d4").Add("values", "2").Add("as", "draw").Add("items", "A B C D").Add("shown", "B").
		Add("rule", "3.1").Add("result", "Group B is activated")
	rec, err := b.Build(12)
	if err != nil {
		t.Fatal(err)
	}
	want := "type roll\nindex 12\nturn 3\nactivation 0\nseq 0\nlabel draw\ndice 1d4\nvalues 2\nas draw\nitems A B C D\nshown B\nrule 3.1\nresult Group B is activated\n"
	if string(rec.Raw) != want {
		t.Errorf("built\n%s\nwant\n%s", rec.Raw, want)
	}
	again, err := Parse(rec.Raw)
	if err != nil || again.Get("shown") != "B" || again.Index != 12 || again.Uint("turn") != 3 {
		t.Errorf("Parse(Build) = %+v, %v", again, err)
	}
	empty, err := New(TypeJoin).Add("player", "bob").AddHex("entropy", nil).AddTime("received", time.Time{}).Build(0)
	if err != nil || !strings.Contains(string(empty.Raw), "\nentropy\nreceived none\n") {
		t.Errorf("empty values: %q, %v", empty.Raw, err)
	}
}

func TestParseRefuses(t *testing.T) {
	good := "type state\nindex 7\nturn 1\nactivation 2\nstate-hash " + strings.Repeat("ab", 32) + "\n"
	if _, err := Parse([]byte(good)); err != nil {
		t.Fatalf("good record refused: %v", err)
	}
	bad := map[string]string{
		"no final newline":   strings.TrimSuffix(good, "\n"),
		"CRLF":               strings.ReplaceAll(good, "\n", "\r\n"),
		"unknown type":       strings.Replace(good, "type state", "type stat", 1),
		"no index":           strings.Replace(good, "index 7\n", "", 1),
		"index leading zero": strings.Replace(good, "index 7", "index 07", 1),
		"index negative":     strings.Replace(good, "index 7", "index -7", 1),
		"index too big":      strings.Replace(good, "index 7", "index 99999999999999999999", 1),
		"field missing":      strings.Replace(good, "activation 2\n", "", 1),
		"field repeated":     strings.Replace(good, "turn 1\n", "turn 1\nturn 1\n", 1),
		"fields reordered":   strings.Replace(good, "turn 1\nactivation 2\n", "activation 2\nturn 1\n", 1),
		"unknown field":      good + "extra yes\n",
		"uppercase hex":      strings.Replace(good, strings.Repeat("ab", 32), strings.Repeat("AB", 32), 1),
		"short hex":          strings.Replace(good, strings.Repeat("ab", 32), strings.Repeat("ab", 31), 1),
		"trailing space":     strings.Replace(good, "turn 1\n", "turn 1 \n", 1),
		"double space":       strings.Replace(good, "turn 1\n", "turn  1\n", 1),
		"blank line":         strings.Replace(good, "turn 1\n", "\nturn 1\n", 1),
		"not UTF-8":          strings.Replace(good, "state-hash", "state-hash\xff", 1),
		"empty":              "",
		"too big":            good + strings.Repeat("x", MaxRecordSize),
	}
	for name, raw := range bad {
		if _, err := Parse([]byte(raw)); !errors.Is(err, ErrSyntax) {
			t.Errorf("%s: Parse = %v, want ErrSyntax", name, err)
		}
	}
	badValues := []struct{ typ, key, val string }{
		{TypeRoll, "dice", "2d"}, {TypeRoll, "dice", "0d6"}, {TypeRoll, "dice", "d6"}, {TypeRoll, "values", ""},
		{TypeEvent, "text", "tab\there"}, {TypeEvent, "text", " edge"}, {TypeJoin, "received", "2026-11-30 12:00:00"},
		{TypeJoin, "received", "2026-11-30T12:00:00+01:00"}, {TypeGenesis, "player", "alice"}, {TypeRoll, "label", "has space"},
	}
	for _, c := range badValues {
		schema := schemas[c.typ]
		var k kind
		for _, f := range schema {
			if f.key == c.key {
				k = f.kind
			}
		}
		if err := checkValue(k, c.val); err == nil {
			t.Errorf("%s %s %q accepted", c.typ, c.key, c.val)
		}
	}
}

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"  a\tb\r\nc  ": "a b c", "ok": "ok", "\x00\x01": "", "bad \xff utf8": "bad ? utf8", "a\u2028b": "a b",
		strings.Repeat("é", 1500): strings.Repeat("é", 1000),
	} {
		got := CleanText(in)
		if got != want || CheckText(got) != nil {
			t.Errorf("CleanText(%q) = %q (check %v), want %q", in, got, CheckText(got), want)
		}
	}
}

func TestCanonicalOrders(t *testing.T) {
	got := string(CanonicalOrders("Hi!\n" + OrdersBegin + "\r\n>  VEN-1   MOVE 1507 1407 \r\n\r\n> VEN-2 FIRE\n" + OrdersEnd + "\nbye"))
	if want := "VEN-1 MOVE 1507 1407\nVEN-2 FIRE\n"; got != want {
		t.Errorf("CanonicalOrders = %q, want %q", got, want)
	}
	if got := string(CanonicalOrders("A\n\n  B  C\n")); got != "A\nB C\n" {
		t.Errorf("CanonicalOrders without block = %q", got)
	}
}

func TestParseBlocksRefuses(t *testing.T) {
	c := Checkpoint{Size: 3}
	c.Sign(ed25519.NewKeyFromSeed(make([]byte, 32)))
	good := c.Block()
	if cs, err := ParseBlocks([]byte(good)); err != nil || len(cs) != 1 || cs[0].Size != 3 {
		t.Fatalf("good block: %v, %v", cs, err)
	}
	for name, text := range map[string]string{
		"no end":       strings.Replace(good, BlockEnd, "", 1),
		"missing line": strings.Replace(good, "size 3\n", "", 1),
		"bad size":     strings.Replace(good, "size 3", "size x", 1),
		"bad head":     strings.Replace(good, "head 00", "head zz", 1),
		"short sig":    strings.Replace(good, "signature ", "signature 0", 1),
	} {
		if _, err := ParseBlocks([]byte(text)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// validValueCases are values near the edges of every kind, for the test and fuzz target
// below.
var validValueCases = []string{"", "0", "00", "1", "01", "10000", "10001", "18446744073709551615",
	"18446744073709551616", "99999999999999999999", "1 2", "1  2", " 1", "1 ", "a b", "a  b", "-1", "+1",
	"1d6", "0d6", "1d0", "10000d6", "10001d6", "1d4294967295", "1d4294967296", "1d99999999999", "d6", "1d", "1d6d",
	"01d6", "1d06", "ab", "abc", "AB", "0g", strings.Repeat("ab", 32), strings.Repeat("ab", 16), strings.Repeat("x", 201),
	"é", "a\tb", "a\x7fb", "caf\xc3\xa9", "\xff", "x y z", "none", "2026-12-01T12:00:00Z", "2026-02-30T12:00:00Z"}

// TestValidValueAsCheckValue: the parser's good path (validValue) accepts exactly what
// checkValue accepts, kind by kind.
func TestValidValueAsCheckValue(t *testing.T) {
	for k := kUint; k <= kPair; k++ {
		for _, v := range validValueCases {
			if got, want := validValue(k, v), checkValue(k, v) == nil; got != want {
				t.Errorf("kind %d, %q: validValue %v, checkValue accepts: %v", k, v, got, want)
			}
		}
	}
}

// FuzzValidValue: validValue and checkValue agree on any value of any kind.
func FuzzValidValue(f *testing.F) {
	for _, v := range validValueCases {
		f.Add(uint8(0), v)
	}
	f.Fuzz(func(t *testing.T, k uint8, v string) {
		kd := kind(k % uint8(kPair+1))
		if got, want := validValue(kd, v), checkValue(kd, v) == nil; got != want {
			t.Errorf("kind %d, %q: validValue %v, checkValue accepts: %v", kd, v, got, want)
		}
	})
}

// TestReadRollAt: reading a roll's fields by their places gives what reading them by their
// keys gives, with every optional field present or not.
func TestReadRollAt(t *testing.T) {
	opt := []Field{{"as", "draw"}, {"items", "A B"}, {"shown", ""}, {"rule", "3.1"}, {"result", "drawn: B"}}
	for mask := range 1 << len(opt) {
		b := New(TypeRoll).AddUint("turn", 3).AddUint("activation", 7).AddUint("seq", 2).Add("label", "l/1").
			Add("dice", "2d6").Add("values", "1 6")
		for i, f := range opt {
			if mask&(1<<i) != 0 {
				b.Add(f.Key, f.Value)
			}
		}
		rec, err := b.Build(9)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := readRollAt(&rec), readRollKeys(&rec); got != want {
			t.Errorf("fields %b: by place %+v, by key %+v", mask, got, want)
		}
	}
}

// TestParseDiceRange: a roll's dice are 1 to 10000 dice of 1 to 2^32−1 sides
// (docs/DICE.md 4); a number past the range is refused, never read as the largest value.
func TestParseDiceRange(t *testing.T) {
	for v, ok := range map[string]bool{"1d6": true, "10000d4294967295": true, "1d4294967296": false, "1d99999999999": false,
		"10001d6": false, "99999999999d6": false, "0d6": false, "1d0": false} {
		_, _, err := ParseDice(v)
		if (err == nil) != ok || validValue(kDice, v) != ok {
			t.Errorf("%q: ParseDice error %v, validValue %t; want accepted %t", v, err, validValue(kDice, v), ok)
		}
	}
}

// TestSealHasher: the parser's SealedHash without allocations is SealedHash, record after
// record.
func TestSealHasher(t *testing.T) {
	sh := newSealHasher()
	for i, inner := range []string{"", "type note\nindex 1\nby x\ntext y\n", strings.Repeat("z", 300)} {
		var nonce ident.Hash
		nonce[i] = byte(i + 1)
		if got, want := sh.sum(&nonce, []byte(inner)), SealedHash(nonce, []byte(inner)); got != want {
			t.Errorf("inner %d: %x, SealedHash %x", i, got, want)
		}
	}
}

// TestIsHexOf: isHexOf accepts exactly the lowercase hex of the hash, so that the verifier's
// shortcut never accepts a commitment that hash32Value would not decode to the same hash.
func TestIsHexOf(t *testing.T) {
	var h [32]byte
	for i := range h {
		h[i] = byte(i*37 + 5)
	}
	v := hex.EncodeToString(h[:])
	if !isHexOf(v, h) || hash32Value(v) != h {
		t.Fatalf("%s: isHexOf %t", v, isHexOf(v, h))
	}
	other := h
	other[31] ^= 1
	for _, bad := range []string{strings.ToUpper(v), v[:63], v + "0", v[:62] + "zz", hex.EncodeToString(other[:]), ""} {
		if isHexOf(bad, h) {
			t.Errorf("isHexOf(%q) accepted", bad)
		}
	}
}
