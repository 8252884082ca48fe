package gamelog_test

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"navarch/gamelog"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// tamperKey is the installation key of the newest scripted game (newGame): an operator who
// rewrites a log re-signs its trailer with it.
var tamperKey ed25519.PrivateKey

// failure verifies data and returns the failure: the record index it names (-1 for none)
// and its text. A parse error names its record in its text.
func failure(t *testing.T, data []byte, opts gamelog.VerifyOptions) (int64, string) {
	t.Helper()
	rep, err := verifyData(t, data, opts)
	if err != nil {
		if !errors.Is(err, gamelog.ErrSyntax) {
			t.Errorf("parse error without ErrSyntax: %v", err)
		}
		var n int64 = -1
		fmt.Sscanf(err.Error(), "record %d", &n)
		return n, err.Error()
	}
	if rep.OK() {
		t.Fatal("tampered log verifies")
	}
	return rep.Failure.Index, rep.Failure.Error()
}

func TestTamperedLogsFail(t *testing.T) {
	sc := ledgertest.Small
	sc.End = true
	g := newGame(t, sc, ledger.View{Full: true})
	opts := gamelog.VerifyOptions{Key: g.Pub()}
	b := forge.Blocks(g.Data)
	roll := forge.Find(t, b, "roll", "turn 2\nactivation 1\nseq 1\n")  // an average die
	pair := forge.Find(t, b, "roll", "turn 2\nactivation 1\nseq 0\n")  // the roll before it
	reveal := forge.Find(t, b, "reveal", "turn 2")                     // turn 2's seed
	ckpt := forge.Find(t, b, "checkpoint", "size "+fmt.Sprint(reveal)) // signed right after it
	event := forge.Find(t, b, "event", "turn 1")
	text := forge.Find(t, b, "orders-text", "line VEN-1 MOVE")
	sealed := forge.Find(t, b, "sealed", "what event", "\n\nunseal ") // with the record it seals

	edit := func(i int, old, new string) []string {
		c := append([]string(nil), b...)
		if !strings.Contains(c[i], old) {
			t.Fatalf("record %d has no %q", i-1, old)
		}
		c[i] = strings.Replace(c[i], old, new, 1)
		return c
	}
	values := regexp.MustCompile(`values (\d)`).FindStringSubmatch(b[roll])[1]
	other := map[string]string{"1": "2", "2": "3", "3": "4", "4": "5", "5": "6", "6": "1"}[values]
	shownFix := func(c []string) []string { // keep the average-die reading consistent
		c[roll] = regexp.MustCompile(`(?m)^shown \d$`).ReplaceAllString(c[roll], "shown "+map[string]string{"1": "2", "2": "3", "3": "3", "4": "4", "5": "4", "6": "5"}[other])
		return c
	}
	remove := func(i int) []string { return append(append([]string(nil), b[:i]...), b[i+1:]...) }
	insert := func(i int, blk string) []string {
		return append(append(append([]string(nil), b[:i]...), blk), b[i:]...)
	}
	swap := func(i, j int) []string {
		c := append([]string(nil), b...)
		c[i], c[j] = c[j], c[i]
		return c
	}
	labelOf := func(blk string) string { return regexp.MustCompile(`(?m)^label (\S+)$`).FindStringSubmatch(blk)[1] }
	sig := regexp.MustCompile(`signature ([0-9a-f])`).FindStringSubmatch(b[ckpt])[1]
	flipped := map[bool]string{true: "1", false: "0"}[sig == "0"]

	cases := []struct {
		name  string
		data  []byte
		index int64 // the record the failure must name
		why   string
	}{
		{"roll value changed", forge.Join(shownFix(edit(roll, "values "+values, "values "+other))), int64(roll - 1), "changed"},
		{"roll value changed, chain rebuilt", forge.Rechain(t, tamperKey, shownFix(edit(roll, "values "+values, "values "+other))), int64(roll - 1), "changed"},
		{"roll label changed", forge.Join(edit(roll, "label fire/", "label fyre/")), int64(roll - 1), "changed"},
		{"record inserted", forge.Join(insert(event, b[event])), int64(event), "out of sequence"},
		{"roll inserted, chain rebuilt", forge.Rechain(t, tamperKey, insert(roll, b[roll])), int64(roll), "seq"}, // the copy reads as the original
		{"event inserted, chain rebuilt", forge.Rechain(t, tamperKey, insert(event, b[event])), -2, ""},
		{"record removed", forge.Join(remove(event)), int64(event - 1), "out of sequence"},
		{"roll removed, chain rebuilt", forge.Rechain(t, tamperKey, remove(pair)), int64(pair - 1), "did not roll before it"}, // its event names it (v4)
		{"records swapped", forge.Join(swap(pair, roll)), int64(pair - 1), "out of sequence"},
		{"rolls swapped, chain rebuilt", forge.Rechain(t, tamperKey, swap(pair, roll)), int64(pair - 1), "seq"},
		{"reveal does not hash to the commitment", nil, 0, ""}, // set below
		{"bad checkpoint signature", forge.Join(edit(ckpt, "signature "+sig, "signature "+flipped)), int64(ckpt - 1), "signature"},
		{"orders text changed", forge.Join(edit(text, "MOVE 1507 1407", "MOVE 1507 1408")), int64(text - 1), "do not open"},
		{"an unsealed record changed", forge.Join(forge.EditUnsealed(t, b, sealed, "\ntext ", "\ntext Not ")), int64(sealed - 1), "does not open the commitment"},
		{"garbled line", forge.Join(edit(event, "\ntext ", "\ntxet ")), int64(event - 1), "syntax"},
		{"non-canonical number", forge.Join(edit(roll, "\nturn 2\n", "\nturn 02\n")), int64(roll - 1), "canonical"},
		{"trailer count wrong", []byte(strings.Replace(string(g.Data), "end-of-log ", "end-of-log 1", 1)), -1, "end-of-log"},
		// Two rolls of one activation under one label (docs/DICE.md: a label names one roll).
		{"roll label repeated, chain rebuilt", forge.Rechain(t, tamperKey, edit(roll, "label "+labelOf(b[roll]), "label "+labelOf(b[pair]))), int64(roll - 1), "used twice"},
	}
	// A reveal with a wrong seed: change its last hex digit.
	rv := append([]string(nil), b...)
	rv[reveal] = regexp.MustCompile(`(?m)^(seed [0-9a-f]{63})([0-9a-f])$`).ReplaceAllStringFunc(rv[reveal], func(s string) string {
		if strings.HasSuffix(s, "0") {
			return s[:len(s)-1] + "1"
		}
		return s[:len(s)-1] + "0"
	})
	cases[10].data, cases[10].index, cases[10].why = forge.Join(rv), int64(reveal-1), "commitment"

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			idx, why := failure(t, c.data, opts)
			if c.index == -2 { // a record after the insertion, whose references no longer hold
				if idx < int64(event) {
					t.Errorf("failure at record %d: %s; want one after %d", idx, why, event)
				}
				return
			}
			if idx != c.index || !strings.Contains(why, c.why) {
				t.Errorf("failure at record %d: %s\nwant record %d, mentioning %q", idx, why, c.index, c.why)
			}
		})
	}
}

func TestTruncatedFileFails(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{Full: true})
	for cut := 0; cut < len(g.Data); cut += 7 {
		if _, err := gamelog.ParseFile(g.Data[:cut]); err == nil {
			t.Fatalf("file cut at byte %d of %d parses", cut, len(g.Data))
		}
	}
	// Cut at a record boundary and given a fresh trailer, the log is shorter than the
	// checkpoints the players hold from mail.
	b := forge.Blocks(g.Data)
	var game [16]byte
	copy(game[:], g.File.Entries[0].Record.Bytes("game"))
	var last gamelog.Checkpoint
	for _, e := range g.File.Entries {
		if e.Record != nil && e.Record.Type == gamelog.TypeCheckpoint {
			last = gamelog.CheckpointFromRecord(game, e.Record)
		}
	}
	cut := int(last.Size) // keep records before the last signed size's final record
	short := forge.Rechain(t, tamperKey, append(b[:cut:cut], b[len(b)-1]))
	idx, why := failure(t, short, gamelog.VerifyOptions{Key: g.Pub(), Checkpoints: []gamelog.Checkpoint{last}})
	if idx != -1 || !strings.Contains(why, "removed") {
		t.Errorf("shortened log: record %d: %s", idx, why)
	}
}

// TestEquivocation: the operator rewrites history and re-signs every checkpoint; the
// checkpoints the players kept from mail expose it.
func TestEquivocation(t *testing.T) {
	g := newGame(t, ledgertest.Small, ledger.View{Full: true})
	var game [16]byte
	copy(game[:], g.File.Entries[0].Record.Bytes("game"))
	var kept []gamelog.Checkpoint
	for _, e := range g.File.Entries {
		if e.Record != nil && e.Record.Type == gamelog.TypeCheckpoint {
			kept = append(kept, gamelog.CheckpointFromRecord(game, e.Record))
		}
	}
	b := forge.Blocks(g.Data)
	event := forge.Find(t, b, "event", "turn 1")
	b[event] = strings.Replace(b[event], "\ntext ", "\ntext rewritten: ", 1)
	forged := forge.Resign(t, g.Key, forge.Rechain(t, tamperKey, b))

	rep, err := verifyData(t, forged, gamelog.VerifyOptions{Key: g.Pub()})
	if err != nil || !rep.OK() {
		t.Fatalf("the re-signed forgery should pass alone (that is why players keep checkpoints): %v %v", err, rep.Failure)
	}
	mail := []byte("Subject: T2\n\n> " + strings.ReplaceAll(kept[len(kept)-1].Block(), "\n", "\n> "))
	fromMail, err := gamelog.ParseBlocks(mail)
	if err != nil || len(fromMail) != 1 {
		t.Fatalf("checkpoint block from a quoted mail: %v, %d", err, len(fromMail))
	}
	idx, why := failure(t, forged, gamelog.VerifyOptions{Key: g.Pub(), Checkpoints: fromMail})
	if !strings.Contains(why, "EQUIVOCATION") || idx < int64(event-1) {
		t.Errorf("forgery against kept checkpoint: record %d: %s", idx, why)
	}
	// Two validly signed checkpoints for one size with different heads are proof by themselves.
	f, _ := gamelog.ParseFile(forged)
	var other gamelog.Checkpoint
	for _, e := range f.Entries {
		if e.Record != nil && e.Record.Type == gamelog.TypeCheckpoint && e.Record.Uint("size") == kept[len(kept)-1].Size {
			other = gamelog.CheckpointFromRecord(game, e.Record)
		}
	}
	_, why = failure(t, g.Data, gamelog.VerifyOptions{Key: g.Pub(), Checkpoints: []gamelog.Checkpoint{kept[len(kept)-1], other}})
	if !strings.Contains(why, "EQUIVOCATION: two validly signed") {
		t.Errorf("two signed heads for one size: %s", why)
	}
	// In the log itself: a second checkpoint record for a size, with another head.
	c := kept[1]
	c.Head[0] ^= 1
	c.Sign(g.Key)
	blk := fmt.Sprintf("type checkpoint\nindex 0\nsize %d\nhead %x\nsignature %x", c.Size, c.Head[:], c.Signature)
	b = forge.Blocks(g.Data)
	b = append(b[:len(b)-1:len(b)-1], blk, b[len(b)-1])
	idx, why = failure(t, forge.Rechain(t, tamperKey, b), gamelog.VerifyOptions{Key: g.Pub()})
	if idx != int64(len(b)-3) || !strings.Contains(why, "differs") {
		t.Errorf("second in-log checkpoint for size %d: record %d: %s", c.Size, idx, why)
	}
}
