package webverify

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gm "github.com/wneessen/go-mail"

	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/forge"
	"navarch/ledger/ledgertest"
)

// logCase is one log given to both verifiers with the same options. The block edits below
// are those of gamelog/tamper_test.go and gamelog/attack_test.go (copied: test helpers of
// another package cannot be imported), so that every tamper case there is checked here.
type logCase struct {
	Name string `json:"name"`
	Log  []byte `json:"log"`
	// LogURL is where the page fetches a long Log as bytes (runPage serves it and sends
	// no Log in the JSON).
	LogURL string `json:"logURL"`
	Key    string `json:"key"` // hex, or empty
	Trust  bool   `json:"trust"`
	// AllowV1 and AllowUndeclared are verify --allow-v1 and --allow-undeclared.
	AllowV1         bool     `json:"allowV1"`
	AllowUndeclared bool     `json:"allowUndeclared"`
	Format          string   `json:"format"`    // verify --format
	BeaconKey       string   `json:"beaconKey"` // verify --beacon-key, hex
	Mails           []string `json:"mails"`     // texts holding checkpoint blocks (verify --checkpoint)
	// KeyMail is a genesis mail the page reads the key from (it stands for Key there);
	// GoMails are the mails' text as navarch verify decodes them, when Mails are MIME.
	KeyMail string `json:"keyMail"`
	// Orders are the auditor's orders or receipts (verify --orders).
	Orders []string `json:"orders"`
	// Sent is a player's own sent mail (verify --sent: .eml texts or an mbox), Player his id.
	Sent   []string `json:"sent"`
	Player string   `json:"player"`
	// JSEd makes the page check signatures with its own Ed25519, not WebCrypto's.
	JSEd    bool     `json:"jsEd"`
	GoMails []string `json:"-"`
	// MustFail is set for tamper cases: navarch verify itself must fail them, or the case
	// was built wrong.
	MustFail bool `json:"-"`
}

// game is an honest scripted game's export and its installation key (ledger/forge, which
// also forges the tampered logs below, as the Go verifier's tests do).
type game = forge.Game

func pubHex(g game) string { return hex.EncodeToString(g.Pub()) }

// checkpoints returns the checkpoint records of a parsed log.
func checkpoints(g game) []gamelog.Checkpoint {
	var id ident.GameID
	copy(id[:], g.File.Entries[0].Record.Bytes("game"))
	var out []gamelog.Checkpoint
	for _, e := range g.File.Entries {
		if e.Record != nil && e.Record.Type == gamelog.TypeCheckpoint {
			out = append(out, gamelog.CheckpointFromRecord(id, e.Record))
		}
	}
	return out
}

// quoted is a checkpoint block as a reply quotes it, with CRLF line ends.
func quoted(c gamelog.Checkpoint) string {
	return "Subject: T2\r\n\r\n> " + strings.ReplaceAll(strings.TrimSuffix(c.Block(), "\n"), "\n", "\r\n> ") + "\r\n"
}

// honestCases: every view of the scripted games, with and without the game's end, and the
// ways to give (or not give) the key.
func honestCases(t *testing.T) []logCase {
	full := ledgertest.Small
	full.End = true
	var out []logCase
	for _, c := range []struct {
		name string
		sc   ledgertest.Script
		view ledger.View
	}{
		{"honest full view, game over", full, ledger.View{Full: true}},
		{"honest public view, game over", full, ledger.View{}},
		{"honest venice view, game over", full, ledger.View{Side: "venice"}},
		{"honest ottoman view, game over", full, ledger.View{Side: "ottoman"}},
		{"honest full view, turn 3 pending", ledgertest.Small, ledger.View{Full: true}},
		{"honest public view, turn 3 pending", ledgertest.Small, ledger.View{}},
		{"honest venice view, turn 3 pending", ledgertest.Small, ledger.View{Side: "venice"}},
		{"honest ottoman view, turn 3 pending", ledgertest.Small, ledger.View{Side: "ottoman"}},
		{"honest draws only", ledgertest.Script{Seed: "draws", Turns: 2, Activations: 0, Rolls: 1, Reveal: 1}, ledger.View{Full: true}},
		{"honest many rolls, all revealed", ledgertest.Script{Seed: "many", Turns: 4, Activations: 3, Rolls: 8, Reveal: -1, End: true}, ledger.View{}},
		{"honest advance orders held from an earlier mail", ledgertest.Script{Seed: "held", Turns: 3, Activations: 2, Rolls: 2, Reveal: -1, End: true, Held: true}, ledger.View{Full: true}},
	} {
		g := forge.NewGame(t, c.sc, c.view)
		cks := checkpoints(g)
		out = append(out, logCase{Name: c.name, Log: g.Data, Key: pubHex(g), Mails: []string{quoted(cks[len(cks)-1])}})
	}
	g := forge.NewGame(t, ledgertest.Small, ledger.View{})
	// The auditor's own orders (TestOrdersSelfCheck): VEN-1's are public in every turn,
	// VEN-2's secret in turn 1; found in the public view, or not at all.
	mine := "> VEN-2   MOVE 1507 1407\r\n>\r\n> VEN-2 FIRE OTT-1\r\n"
	receipt := "Thanks.\n" + gamelog.OrdersBlock(gamelog.CanonicalOrders("VEN-1 MOVE 1507 1407\nVEN-1 FIRE OTT-1")) + "-- \nnavarch\n"
	for _, view := range []ledger.View{{}, {Side: "venice"}, {Full: true}} {
		gv := forge.NewGame(t, full, view)
		out = append(out, logCase{Name: "own orders found, view " + view.Name(), Log: gv.Data, Key: pubHex(gv), Orders: []string{mine, receipt}})
	}
	out = append(out,
		logCase{Name: "own orders found, v1 example", Log: exampleLog(t), Trust: true, AllowV1: true, Orders: []string{receipt}},
		logCase{Name: "v1 example without --allow-v1", Log: exampleLog(t), Trust: true, MustFail: true},
		logCase{Name: "v1 example, --format navarch/v2", Log: exampleLog(t), Trust: true, AllowV1: true, Format: gamelog.FormatV2, MustFail: true},
		logCase{Name: "--format navarch/v2", Log: g.Data, Key: pubHex(g), Format: gamelog.FormatV2},
		logCase{Name: "orders never sent", Log: g.Data, Key: pubHex(g), Orders: []string{receipt, "VEN-2 RETREAT"}, MustFail: true})
	other, _, _ := ed25519.GenerateKey(ledgertest.Rand("other"))
	out = append(out,
		logCase{Name: "no key pinned", Log: g.Data, MustFail: true},
		logCase{Name: "log's own key trusted", Log: g.Data, Trust: true},
		logCase{Name: "another key pinned", Log: g.Data, Key: hex.EncodeToString(other), MustFail: true},
	)
	return out
}

// exampleCases: the README's example logs (docs/example, and the v1 one where it has its own
// directory) with their key and checkpoint mail.
func exampleCases(t *testing.T) []logCase {
	var out []logCase
	for _, dir := range []string{"docs/example", "docs/example/v2", "docs/example/v1"} {
		out = append(out, exampleDir(t, dir)...)
	}
	if len(out) == 0 {
		t.Fatal("no example log in docs/example")
	}
	return out
}

// exampleDir: the example log of a directory (game.log, verifier.key, report.eml, and where
// they are there referee.log and alice-sent.mbox), as the README has it verified.
func exampleDir(t *testing.T, dir string) []logCase {
	read := func(name string) []byte {
		b, err := os.ReadFile("../" + dir + "/" + name)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return b
	}
	log, key, mail := read("game.log"), strings.TrimSpace(string(read("verifier.key"))), string(read("report.eml"))
	if log == nil {
		return nil
	}
	// An edit anywhere: a letter of the first event's text changed.
	edited := bytes.Clone(log)
	at := bytes.Index(edited, []byte("\ntext ")) + len("\ntext ")
	edited[at] ^= 0x20
	cks, err := gamelog.ParseBlocks([]byte(mail))
	if err != nil || len(cks) != 1 {
		t.Fatalf("%s: example checkpoint: %v", dir, err)
	}
	// A genesis mail as the daemon sends it (go-mail: multipart/alternative, quoted-printable,
	// which folds the long signature line): the page takes the key and checkpoint from it.
	text := "Welcome.\n\n  verifier key  " + key + "\n\nKeep this checkpoint:\n\n" + cks[0].Block() + "\n-- \nnavarch\n"
	genesis := composed(t, text)
	if !strings.Contains(genesis, "=\r\n") {
		t.Fatal("the composed mail has no soft line break: it tests nothing")
	}
	name := dir + "/game.log"
	v1 := bytes.HasPrefix(log, []byte(gamelog.FormatV1+" "))
	out := []logCase{
		{Name: name + " with key and checkpoint", Log: log, Key: key, Mails: []string{mail}, AllowV1: v1},
		{Name: name + " with a MIME genesis mail", Log: log, Key: key, KeyMail: genesis, Mails: []string{genesis}, GoMails: []string{text}, AllowV1: v1},
		{Name: name + ", log's key trusted", Log: log, Trust: true, AllowV1: v1},
		{Name: name + " edited", Log: edited, Key: key, Mails: []string{mail}, MustFail: true, AllowV1: v1},
		{Name: name + " followed by an empty line", Log: append(bytes.Clone(log), '\n'), Key: key, MustFail: true, AllowV1: v1},
	}
	if ref := read("referee.log"); ref != nil {
		out = append(out, logCase{Name: dir + "/referee.log with key and checkpoint", Log: ref, Key: key, Mails: []string{mail}})
	}
	if sent := read("alice-sent.mbox"); sent != nil {
		out = append(out, logCase{Name: name + " with alice's sent mail", Log: log, Key: key, Mails: []string{mail}, Sent: []string{string(sent)}, Player: "alice"})
	}
	return out
}

// tamperCases are the cases of gamelog/tamper_test.go.
// eventLinkForgeries are the v4 event links an operator could forge, each a log both
// verifiers must refuse at the event (gamelog's TestEventLinks names the reasons): a roll of
// another step, a roll made after the event, a roll behind two events, a kind not in the
// list, and the fields in a v3 log.
func eventLinkForgeries(t *testing.T, b []string, edit func(int, string, string) []string) map[string][]string {
	first := forge.Find(t, b, "event", "turn 2\nactivation 1\n", "roll fire/VEN-1>OTT-1/0\n")
	second := forge.Find(t, b, "event", "turn 2\nactivation 1\n", "roll fire/VEN-1>OTT-1/2\n")
	v3 := edit(1, "\nformat "+gamelog.FormatV5+"\n", "\nformat "+gamelog.FormatV3+"\n")
	return map[string][]string{
		"event behind a roll of another step":  edit(first, "roll fire/VEN-1>OTT-1/0", "roll fire/VEN-2>OTT-1/0"),
		"event behind a roll made after it":    edit(first, "roll fire/VEN-1>OTT-1/0", "roll fire/VEN-1>OTT-1/1"),
		"a roll behind two events":             edit(second, "roll fire/VEN-1>OTT-1/2", "roll fire/VEN-1>OTT-1/0"),
		"an event of a kind not in the list":   edit(first, "kind hit", "kind victory"),
		"an event's roll and kind in a v3 log": v3,
	}
}

func tamperCases(t *testing.T) []logCase {
	sc := ledgertest.Small
	sc.End = true
	g := forge.NewGame(t, sc, ledger.View{Full: true})
	b := forge.Blocks(g.Data)
	roll := forge.Find(t, b, "roll", "turn 2\nactivation 1\nseq 1\n")
	pair := forge.Find(t, b, "roll", "turn 2\nactivation 1\nseq 0\n")
	reveal := forge.Find(t, b, "reveal", "turn 2")
	ckpt := forge.Find(t, b, "checkpoint", "size "+fmt.Sprint(reveal))
	event := forge.Find(t, b, "event", "turn 1")
	text := forge.Find(t, b, "orders-text", "line VEN-1 MOVE")
	edit := func(i int, old, new string) []string {
		c := forge.Clone(b)
		if !strings.Contains(c[i], old) {
			t.Fatalf("record %d has no %q", i-1, old)
		}
		c[i] = strings.Replace(c[i], old, new, 1)
		return c
	}
	sealed := forge.Find(t, b, "sealed", "what event", "\n\nunseal ")
	values := regexp.MustCompile(`values (\d)`).FindStringSubmatch(b[roll])[1]
	other := map[string]string{"1": "2", "2": "3", "3": "4", "4": "5", "5": "6", "6": "1"}[values]
	shownFix := func(c []string) []string {
		c[roll] = regexp.MustCompile(`(?m)^shown \d$`).ReplaceAllString(c[roll], "shown "+map[string]string{"1": "2", "2": "3", "3": "3", "4": "4", "5": "4", "6": "5"}[other])
		return c
	}
	remove := func(i int) []string { return append(forge.Clone(b[:i]), b[i+1:]...) }
	swap := func(i, j int) []string {
		c := forge.Clone(b)
		c[i], c[j] = c[j], c[i]
		return c
	}
	sig := regexp.MustCompile(`signature ([0-9a-f])`).FindStringSubmatch(b[ckpt])[1]
	flipped := map[bool]string{true: "1", false: "0"}[sig == "0"]
	rv := forge.Clone(b)
	rv[reveal] = regexp.MustCompile(`(?m)^(seed [0-9a-f]{63})([0-9a-f])$`).ReplaceAllStringFunc(rv[reveal], func(s string) string {
		if strings.HasSuffix(s, "0") {
			return s[:len(s)-1] + "1"
		}
		return s[:len(s)-1] + "0"
	})
	data := map[string][]byte{
		"roll value changed":                     forge.Join(shownFix(edit(roll, "values "+values, "values "+other))),
		"roll value changed, chain rebuilt":      forge.Rechain(t, g.Key, shownFix(edit(roll, "values "+values, "values "+other))),
		"roll label changed":                     forge.Join(edit(roll, "label fire/", "label fyre/")),
		"record inserted":                        forge.Join(forge.InsertAt(b, event, b[event])),
		"roll inserted, chain rebuilt":           forge.Rechain(t, g.Key, forge.InsertAt(b, roll, b[roll])),
		"event inserted, chain rebuilt":          forge.Rechain(t, g.Key, forge.InsertAt(b, event, b[event])),
		"record removed":                         forge.Join(remove(event)),
		"roll removed, chain rebuilt":            forge.Rechain(t, g.Key, remove(pair)),
		"records swapped":                        forge.Join(swap(pair, roll)),
		"rolls swapped, chain rebuilt":           forge.Rechain(t, g.Key, swap(pair, roll)),
		"reveal does not hash to the commitment": forge.Join(rv),
		"bad checkpoint signature":               forge.Join(edit(ckpt, "signature "+sig, "signature "+flipped)),
		"orders text changed":                    forge.Join(edit(text, "MOVE 1507 1407", "MOVE 1507 1408")),
		"an unsealed record changed":             forge.Join(forge.EditUnsealed(t, b, sealed, "\ntext ", "\ntext Not ")),
		"garbled line":                           forge.Join(edit(event, "\ntext ", "\ntxet ")),
		"a type named as a script's built-in":    forge.Join(edit(event, "type event\n", "type constructor\n")),
		"non-canonical number":                   forge.Join(edit(roll, "\nturn 2\n", "\nturn 02\n")),
		"trailer count wrong":                    []byte(strings.Replace(string(g.Data), "end-of-log ", "end-of-log 1", 1)),
		"unseal blocks dropped after the end":    forge.Join(forge.Sealless(b)),
		"an empty line after the trailer":        append(bytes.Clone(g.Data), '\n'),
	}
	for name, c := range eventLinkForgeries(t, b, edit) {
		data[name] = forge.Resign(t, g.Key, forge.Rechain(t, g.Key, c))
	}
	var out []logCase
	for name, d := range data {
		out = append(out, logCase{Name: "tamper: " + name, Log: d, Key: pubHex(g), MustFail: true})
	}
	pending := forge.NewGame(t, ledgertest.Small, ledger.View{Full: true})
	out = append(out, logCase{Name: "unseal blocks dropped before the end (sealed withheld)", Log: forge.Join(forge.Sealless(forge.Blocks(pending.Data))), Key: pubHex(pending)})
	// Truncation: cut anywhere, the file does not parse.
	for _, cut := range []int{0, 1, 20, len(g.Data) / 3, len(g.Data) / 2, len(g.Data) - 2, len(g.Data) - 1} {
		out = append(out, logCase{Name: fmt.Sprintf("tamper: file cut at byte %d", cut), Log: g.Data[:cut], Key: pubHex(g), MustFail: true})
	}
	out = append(out, truncatedCase(t), privateCase(t))
	return append(out, equivocationCases(t)...)
}

// truncatedCase: cut at a record boundary, given a fresh trailer, the log is shorter than
// the checkpoint kept from mail.
func truncatedCase(t *testing.T) logCase {
	g := forge.NewGame(t, ledgertest.Small, ledger.View{Full: true})
	b := forge.Blocks(g.Data)
	cks := checkpoints(g)
	last := cks[len(cks)-1]
	cut := int(last.Size)
	return logCase{Name: "tamper: cut and re-signed, checkpoint from mail", Log: forge.Rechain(t, g.Key, append(b[:cut:cut], b[len(b)-1])),
		Key: pubHex(g), Mails: []string{last.Block()}, MustFail: true}
}

// privateCase: a side's private block that does not open its commit.
func privateCase(t *testing.T) logCase {
	own := forge.NewGame(t, ledgertest.Small, ledger.View{Side: "venice"})
	p := own.File.Private[0]
	line := fmt.Sprintf("private %d %x %x", p.Commit, p.Nonce[:], p.Data)
	bad := bytes.Replace(own.Data, []byte(line), fmt.Appendf(nil, "private %d %x %x", p.Commit, p.Nonce[:], append(p.Data, 'X')), 1)
	return logCase{Name: "tamper: forged private block", Log: bad, Trust: true, MustFail: true}
}

// equivocationCases are those of TestEquivocation: a rewritten, re-signed log passes alone
// and fails against a kept checkpoint; two signed heads for one size; a second in-log
// checkpoint for a size.
func equivocationCases(t *testing.T) []logCase {
	g := forge.NewGame(t, ledgertest.Small, ledger.View{Full: true})
	kept := checkpoints(g)
	b := forge.Blocks(g.Data)
	event := forge.Find(t, b, "event", "turn 1")
	b[event] = strings.Replace(b[event], "\ntext ", "\ntext rewritten: ", 1)
	forged := forge.Resign(t, g.Key, forge.Rechain(t, g.Key, b))
	ff, err := gamelog.ParseFile(forged)
	if err != nil {
		t.Fatal(err)
	}
	var id ident.GameID
	copy(id[:], ff.Entries[0].Record.Bytes("game"))
	var other gamelog.Checkpoint
	for _, e := range ff.Entries {
		if e.Record.Type == gamelog.TypeCheckpoint && e.Record.Uint("size") == kept[len(kept)-1].Size {
			other = gamelog.CheckpointFromRecord(id, e.Record)
		}
	}
	badSig := kept[0]
	badSig.Signature = append([]byte(nil), badSig.Signature...)
	badSig.Signature[5] ^= 1
	another := forge.NewGame(t, ledgertest.Script{Seed: "another", Turns: 1, Activations: 1, Rolls: 1, Reveal: 1}, ledger.View{Full: true})
	c := kept[1]
	c.Head[0] ^= 1
	c.Sign(g.Key)
	b2 := forge.Blocks(g.Data)
	blk := fmt.Sprintf("type checkpoint\nindex 0\nsize %d\nhead %x\nsignature %x", c.Size, c.Head[:], c.Signature)
	b2 = append(b2[:len(b2)-1:len(b2)-1], blk, b2[len(b2)-1])
	return []logCase{
		{Name: "forgery re-signed, alone", Log: forged, Key: pubHex(g)},
		{Name: "tamper: forgery against a kept checkpoint", Log: forged, Key: pubHex(g), Mails: []string{quoted(kept[len(kept)-1])}, MustFail: true},
		{Name: "tamper: two signed heads for one size", Log: g.Data, Key: pubHex(g), Mails: []string{kept[len(kept)-1].Block(), other.Block()}, MustFail: true},
		{Name: "tamper: second in-log checkpoint for a size", Log: forge.Rechain(t, g.Key, b2), Key: pubHex(g), MustFail: true},
		{Name: "tamper: two signed heads for one size, the forged one first", Log: g.Data, Key: pubHex(g), Mails: []string{other.Block(), kept[len(kept)-1].Block()}, MustFail: true},
		{Name: "tamper: a kept checkpoint with a bad signature", Log: g.Data, Key: pubHex(g), Mails: []string{badSig.Block()}, MustFail: true},
		{Name: "tamper: a checkpoint of another game", Log: g.Data, Key: pubHex(g), Mails: []string{checkpoints(another)[0].Block()}, MustFail: true},
		{Name: "every kept checkpoint, in the log's order", Log: g.Data, Key: pubHex(g), Mails: blocksOf(kept)},
	}
}

// teamCases are a team game (two players a side) in every view, in v4 and v5, and the
// operator's rewrites of it that their rules refuse (forge.TeamAttacks, TeamHideAttacks,
// TeamV4Attacks, OnePlayerHidden, TeamStandingAttacks, StandingUsedAttack: gamelog's TestTeamAttacksFail and
// TestTeamHideAttacksFail), bob's sent mail against his v5 records (his standing records
// too, TeamStandingGame); and the full and red
// copies, for the mutations.
func teamCases(t *testing.T) ([]logCase, []game) {
	var out []logCase
	var sources []game
	for _, format := range []string{gamelog.FormatV4, gamelog.FormatV5} {
		s, c := forge.TeamGameIn(t, 2, format)
		for _, v := range []ledger.View{{Full: true}, {}, {Side: "red"}, {Side: "blue"}} {
			g := forge.TeamExport(t, s, c, v)
			out = append(out, logCase{Name: "team " + format + ": honest, " + v.Name(), Log: g.Data, Key: pubHex(g)})
			if v.Full || v.Side == "red" {
				sources = append(sources, g)
			}
			if format == gamelog.FormatV5 && (v.Full || v.Side != "") {
				bob := []string{sentMail(t, "bob@example.org", "2@bob.example", "FIRE")}
				alice := []string{sentMail(t, "alice@example.org", "1@alice.example", "FIRE")}
				out = append(out, logCase{Name: "team v5: bob's sent mail, " + v.Name(), Log: g.Data, Key: pubHex(g), Sent: bob, Player: "bob"},
					logCase{Name: "team v5: alice's sent mail for bob, " + v.Name(), Log: g.Data, Key: pubHex(g), Sent: alice, Player: "bob", MustFail: v.Full || v.Side == "red"})
			}
		}
	}
	rs, rc := forge.TeamResendGame(t)
	for _, v := range []ledger.View{{Full: true}, {}, {Side: "red"}, {Side: "blue"}} {
		g := forge.TeamExport(t, rs, rc, v)
		out = append(out, logCase{Name: "team v5, bob's records replacing each other: honest, " + v.Name(), Log: g.Data, Key: pubHex(g)})
		if v.Side == "blue" { // the close on one of bob's replaced records
			x := forge.Blocks(g.Data)
			cl := forge.Find(t, x, "close", "turn 3\nactivation 1\n")
			first := forge.Find(t, x, "orders", "turn 3\nactivation 1\n", "side red\n")
			x[cl] = regexp.MustCompile(`\nuse (\d+)\n`).ReplaceAllStringFunc(x[cl], func(u string) string {
				if strings.Contains(x[parseIndex(t, u)+1], "side red\n") {
					return fmt.Sprintf("\nuse %d\n", first-1)
				}
				return u
			})
			out = append(out, logCase{Name: "team v5: blue's copy, a close on a replaced record of red's", Log: forge.Resign(t, g.Key, forge.Rechain(t, g.Key, x)), Key: pubHex(g), MustFail: true})
		}
	}
	ms, mc := forge.MixedGame(t, 2)
	for _, v := range []ledger.View{{Full: true}, {}, {Side: "red"}, {Side: "blue"}} {
		g := forge.TeamExport(t, ms, mc, v)
		out = append(out, logCase{Name: "team v5, red a team, blue alone: honest, " + v.Name(), Log: g.Data, Key: pubHex(g)})
	}
	attacks, g := forge.TeamAttacks(t)
	for _, a := range attacks {
		out = append(out, logCase{Name: "team: " + a.Name, Log: a.Data, Key: pubHex(g), MustFail: true})
	}
	hide, games := forge.TeamHideAttacks(t)
	for _, a := range hide {
		out = append(out, logCase{Name: "team v5: " + a.Name, Log: a.Data, Key: pubHex(games["full"]), MustFail: true})
	}
	v4, g4 := forge.TeamV4Attacks(t)
	for _, a := range v4 {
		out = append(out, logCase{Name: "team: " + a.Name, Log: a.Data, Key: pubHex(g4), MustFail: true})
	}
	ss, sc := forge.TeamStandingGame(t)
	for _, v := range []ledger.View{{Full: true}, {}, {Side: "red"}, {Side: "blue"}} {
		g := forge.TeamExport(t, ss, sc, v)
		holds := v.Full || v.Side == "red"
		bob := []string{sentMail(t, "bob@example.org", "2@bob.example", "FIRE")}
		all := append(slices.Clone(bob), sentMail(t, "bob@example.org", "s1@bob.example", "FIRE"), sentMail(t, "bob@example.org", "s2@bob.example", "FIRE"))
		out = append(out, logCase{Name: "team v5 standing: honest, " + v.Name(), Log: g.Data, Key: pubHex(g)},
			logCase{Name: "team v5 standing: bob's sent mails, " + v.Name(), Log: g.Data, Key: pubHex(g), Sent: all, Player: "bob"},
			logCase{Name: "team v5 standing: bob's sent mail without his standing mails, " + v.Name(), Log: g.Data, Key: pubHex(g), Sent: bob, Player: "bob", MustFail: holds})
	}
	us, uc := forge.StandingUsedGame(t)
	for _, v := range []ledger.View{{Full: true}, {}, {Side: "venice"}, {Side: "ottoman"}} {
		g := forge.TeamExport(t, us, uc, v)
		out = append(out, logCase{Name: "team v5 standing used: honest, " + v.Name(), Log: g.Data, Key: pubHex(g)})
	}
	used, ug := forge.StandingUsedAttack(t)
	out = append(out, logCase{Name: "team v5 standing used: " + used.Name, Log: used.Data, Key: pubHex(ug), MustFail: true})
	st, stGames := forge.TeamStandingAttacks(t)
	for _, a := range st {
		k := stGames["full"]
		if strings.HasPrefix(a.Name, "standing: ") {
			k = stGames["standing"]
		}
		out = append(out, logCase{Name: "team v5 standing: " + a.Name, Log: a.Data, Key: pubHex(k), MustFail: true})
	}
	small := forge.NewGame(t, ledgertest.Small, ledger.View{Full: true})
	one := forge.OnePlayerHidden(t, small)
	out = append(out, logCase{Name: "team v5: " + one.Name, Log: one.Data, Key: pubHex(small), MustFail: true})
	return out, sources
}

// secrecyCases are the operator's choices of which orders texts are sealed
// (forge.SecrecyAttacks), and a game created before navarch declared secrecy, honest and
// with a public text sealed (both pass, with a note: replay tells that one from the rules).
func secrecyCases(t *testing.T) []logCase {
	attacks, g := forge.SecrecyAttacks(t)
	var out []logCase
	for _, a := range attacks {
		out = append(out, logCase{Name: "secrecy: " + a.Name, Log: a.Data, Key: pubHex(g), AllowUndeclared: true, MustFail: true})
	}
	honest, sealedPublic, u := forge.Undeclared(t)
	return append(out, logCase{Name: "secrecy: undeclared, honest, --allow-undeclared", Log: honest, Key: pubHex(u), AllowUndeclared: true},
		logCase{Name: "secrecy: undeclared, a public text sealed, --allow-undeclared", Log: sealedPublic, Key: pubHex(u), AllowUndeclared: true},
		logCase{Name: "secrecy: undeclared, honest", Log: honest, Key: pubHex(u), MustFail: true},
		logCase{Name: "secrecy: undeclared, a public text sealed", Log: sealedPublic, Key: pubHex(u), MustFail: true})
}

// attackCases are those of gamelog/attack_test.go. The browser page takes no sent mail
// (verify --sent), so the attacks that only a player's own mail exposes are checked to pass
// in both verifiers, as the attack tests require of navarch verify without --sent.
func attackCases(t *testing.T) []logCase {
	sc := ledgertest.Small
	g := forge.NewGame(t, sc, ledger.View{Full: true})
	b := forge.Blocks(g.Data)
	orders := forge.Find(t, b, "orders", "turn 3\nactivation 2\n")
	closeAt := forge.Find(t, b, "close", "turn 3\nactivation 2\n")
	text := forge.Find(t, b, "orders-text", fmt.Sprintf("orders %d\n", orders-1))
	forgedText := "VEN-2 MOVE 1507 1408\n"
	nonce := sha256.Sum256([]byte("the operator's nonce"))
	var out []logCase
	sent := alicesMail(t, sc)
	add := func(name string, blocks []string, mustFail bool) {
		data := forge.Resign(t, g.Key, forge.Rechain(t, g.Key, blocks))
		out = append(out, logCase{Name: "attack: " + name, Log: data, Key: pubHex(g), MustFail: mustFail},
			logCase{Name: "attack with alice's sent mail: " + name, Log: data, Key: pubHex(g), Sent: sent, Player: "alice", MustFail: true})
	}
	out = append(out,
		logCase{Name: "honest, with alice's sent mail", Log: g.Data, Key: pubHex(g), Sent: sent, Player: "alice"},
		logCase{Name: "honest, with alice's sent mail as an mbox", Log: g.Data, Key: pubHex(g), Sent: []string{mbox(sent)}, Player: "alice"},
		logCase{Name: "honest, with alice's sent mail but one", Log: g.Data, Key: pubHex(g), Sent: sent[:len(sent)-1], Player: "alice", MustFail: true},
		logCase{Name: "sent mail of a player not in the game", Log: g.Data, Key: pubHex(g), Sent: sent, Player: "carol", MustFail: true})
	// Since verify finds whose sent mail it is without --player, the page must too; a verify
	// from before that ignores sent mail without --player, and these cases are left out.
	bobsJoin := sentMail(t, "bob@example.com", "bob-join@example.com", "JOIN")
	unnamed := logCase{Name: "honest, with alice's sent mail and no player named", Log: g.Data, Key: pubHex(g), Sent: sent}
	if rep, _, _ := goVerdict(t, unnamed); rep != nil && slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "your sent mail is") }) {
		out = append(out, unnamed,
			logCase{Name: "sent mail of two players and no player named", Log: g.Data, Key: pubHex(g), Sent: append(slices.Clone(sent), bobsJoin), MustFail: true})
	}

	c := forge.Clone(b)
	extra := fmt.Sprintf("type orders\nindex %d\nturn 3\nactivation 2\nplayer alice\ncommitment %s\nentropy %x\nreceived none", orders,
		forge.Commit(nonce, forgedText), "ground 4711")
	c = forge.InsertAt(c, orders+1, extra)
	c = forge.Rewire(t, c, closeAt+1, []int{orders}, [][2]string{{forgedText, hex.EncodeToString(nonce[:])}}, [][]byte{[]byte("ground 4711")})
	add("extra orders record with the operator's entropy (needs --sent)", c, false)

	c = forge.Clone(b)
	c[orders] = regexp.MustCompile(`(?m)^entropy .*$`).ReplaceAllString(c[orders], "entropy "+hex.EncodeToString([]byte("ground 99")))
	lines, n := forge.TextOf(c[text])
	c = forge.Rewire(t, c, closeAt, []int{orders - 1}, [][2]string{{lines, n}}, [][]byte{[]byte("ground 99")})
	add("the player's orders with the operator's entropy (needs --sent)", c, false)

	c = forge.Clone(b)
	newer := strings.Replace(c[orders], fmt.Sprintf("index %d\n", orders-1), fmt.Sprintf("index %d\n", orders), 1)
	c = forge.InsertAt(c, orders+1, newer)
	c = forge.Rewire(t, c, closeAt+1, []int{orders - 1}, [][2]string{{lines, n}}, [][]byte{[]byte("t3a2")})
	add("a close that skips the latest orders", c, true)

	c = forge.Clone(b)
	c[orders] = strings.Replace(c[orders], "\nreceived ", "\ndefault yes\nreceived ", 1)
	add("a default with entropy", c, true)

	// Orders slipped into a draw.
	gd := forge.NewGame(t, ledgertest.Script{Seed: "draws", Turns: 2, Activations: 0, Rolls: 1, Reveal: 1}, ledger.View{Full: true})
	bd := forge.Blocks(gd.Data)
	cd := forge.Find(t, bd, "close", "turn 2\nactivation 0\n")
	dn := sha256.Sum256([]byte("n"))
	forged := fmt.Sprintf("type orders\nindex %d\nturn 2\nactivation 0\nplayer alice\ncommitment %s\nentropy 01\nreceived none", cd-1, forge.Commit(dn, ""))
	c = forge.InsertAt(forge.Clone(bd), cd, forged)
	c = forge.Rewire(t, c, cd+1, []int{cd - 1}, [][2]string{{"", hex.EncodeToString(dn[:])}}, [][]byte{{1}})
	out = append(out, logCase{Name: "attack: orders in a draw", Log: forge.Resign(t, gd.Key, forge.Rechain(t, gd.Key, c)), Key: pubHex(gd), MustFail: true})

	// Chosen join entropy: consistent, passes without bob's sent JOIN.
	gj := forge.NewGame(t, ledgertest.Script{Seed: "join", Turns: 2, Activations: 1, Rolls: 1, Reveal: 0}, ledger.View{Full: true})
	bj := forge.Blocks(gj.Data)
	jn, st := forge.Find(t, bj, "join", "player bob"), forge.Find(t, bj, "start")
	c = forge.Clone(bj)
	c[jn] = regexp.MustCompile(`(?m)^entropy.*$`).ReplaceAllString(c[jn], "entropy "+hex.EncodeToString([]byte("chosen")))
	var id ident.GameID
	copy(id[:], gj.File.Entries[0].Record.Bytes("game"))
	s, _ := dice.StartHash(id, gj.File.Entries[0].Record.Hash32("commitment"), []dice.Join{
		{Player: "alice", Entropy: []byte("alice's own noise")}, {Player: "bob", Entropy: []byte("chosen")}})
	c[st] = regexp.MustCompile(`(?m)^start-hash .*$`).ReplaceAllString(c[st], "start-hash "+hex.EncodeToString(s[:]))
	chosen := forge.Resign(t, gj.Key, forge.Rechain(t, gj.Key, c))
	bobs := []string{sentMail(t, "bob@example.com", "bob-join@example.com", "join")}
	out = append(out, logCase{Name: "attack: chosen join entropy (needs --sent)", Log: chosen, Key: pubHex(gj)},
		logCase{Name: "attack with bob's sent mail: chosen join entropy", Log: chosen, Key: pubHex(gj), Sent: bobs, Player: "bob", MustFail: true},
		logCase{Name: "honest, with bob's sent mail", Log: gj.Data, Key: pubHex(gj), Sent: bobs, Player: "bob"})
	c[st] = regexp.MustCompile(`(?m)^start-hash .*$`).ReplaceAllString(bj[st], "start-hash "+strings.Repeat("ab", 32))
	out = append(out, logCase{Name: "attack: start hash that does not recompute", Log: forge.Resign(t, gj.Key, forge.Rechain(t, gj.Key, c)), Key: pubHex(gj), MustFail: true})

	// A copy cut right after a checkpoint, with that checkpoint's signature as its trailer.
	gv := forge.NewGame(t, ledgertest.Small, ledger.View{Side: "venice"})
	bv := forge.Blocks(gv.Data)
	ck := forge.Find(t, bv, "checkpoint", "")
	size := regexp.MustCompile(`(?m)^size (\d+)$`).FindStringSubmatch(bv[ck])[1]
	head := regexp.MustCompile(`(?m)^head (\w+)$`).FindStringSubmatch(bv[ck])[1]
	sig := regexp.MustCompile(`(?m)^signature (\w+)$`).FindStringSubmatch(bv[ck])[1]
	var k int
	fmt.Sscan(size, &k)
	cut := append(forge.Clone(bv[:k+1]), fmt.Sprintf("end-of-log %s %s %s", size, head, sig))
	out = append(out, logCase{Name: "attack: cut after a checkpoint", Log: forge.Join(cut), Key: pubHex(gv), MustFail: true})
	return out
}

// composed is a mail as the daemon composes it (mail.SMTP.compose uses go-mail): text and an
// HTML alternative, quoted-printable.
func composed(t *testing.T, text string) string {
	m := gm.NewMsg(gm.WithNoDefaultUserAgent())
	if err := m.From("navarch@example.org"); err != nil {
		t.Fatal(err)
	}
	if err := m.To("alice@example.org"); err != nil {
		t.Fatal(err)
	}
	m.Subject("[navarch] welcome")
	m.SetBodyString(gm.TypeTextPlain, text)
	m.AddAlternativeString(gm.TypeTextHTML, "<p>"+strings.ReplaceAll(text, "\n", "<br>")+"</p>")
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func blocksOf(cs []gamelog.Checkpoint) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Block())
	}
	return out
}

// exampleLog is the v1 example log (docs/example/v1, or docs/example before it moved there).
func exampleLog(t *testing.T) []byte {
	for _, name := range []string{"../docs/example/v1/game.log", "../docs/example/game.log"} {
		if b, err := os.ReadFile(name); err == nil && bytes.HasPrefix(b, []byte("navarch/v1 ")) {
			return b
		}
	}
	t.Fatal("no v1 example log")
	return nil
}

// sentMail is a mail a player sent, as his mail program would write it (go-mail: text and
// HTML, quoted-printable).
func sentMail(t *testing.T, from, id, text string) string {
	m := gm.NewMsg(gm.WithNoDefaultUserAgent())
	if err := m.From(from); err != nil {
		t.Fatal(err)
	}
	if err := m.To("navarch@example.org"); err != nil {
		t.Fatal(err)
	}
	m.Subject("[navarch small] orders")
	m.SetMessageIDWithValue(id)
	m.SetBodyString(gm.TypeTextPlain, text)
	m.AddAlternativeString(gm.TypeTextHTML, "<p>"+strings.ReplaceAll(text, "\n", "<br>")+"</p>")
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(b.String(), "\r\n", "\n")
}

// alicesMail is what alice sent in the scripted games (ledgertest): her JOIN and one order
// mail per activation with its ENTROPY line, quoting the daemon's prompt below her orders.
func alicesMail(t *testing.T, sc ledgertest.Script) []string {
	out := []string{sentMail(t, "alice@example.org", "alice-join@example.org", "JOIN alice's own noise\n-- \nAlice")}
	for tn := 1; tn <= sc.Turns; tn++ {
		for a := 1; a <= sc.Activations; a++ {
			out = append(out, sentMail(t, "alice@example.org", fmt.Sprintf("%d.%d@alice.example", tn, a),
				fmt.Sprintf("ENTROPY t%da%d\nVEN-%d MOVE 1507 1407\nVEN-%d FIRE OTT-1\n\nOn Monday navarch wrote:\n> Your orders, please.\n", tn, a, a, a)))
		}
	}
	return out
}

// mbox packs mails into one mbox file, as a mail program exports a folder.
func mbox(mails []string) string {
	var b strings.Builder
	for _, m := range mails {
		b.WriteString("From alice@example.org Mon Nov 30 12:00:00 2026\n")
		b.WriteString(strings.ReplaceAll(m, "\nFrom ", "\n>From "))
		b.WriteString("\n")
	}
	return b.String()
}

// beaconCases are a beacon game (log format v3) in each view with its beacon's key pinned,
// unpinned, with the receipt that proves a step, and the attacks of forge.BeaconAttacks
// (gamelog's TestBeaconAttacksFail).
func beaconCases(t *testing.T) []logCase {
	var out []logCase
	for _, view := range []ledger.View{{Full: true}, {}, {Side: "venice"}} {
		g, b := forge.BeaconGame(t, view)
		key := hex.EncodeToString(b.Chain.Key)
		out = append(out, logCase{Name: "beacon: honest, view " + view.Name(), Log: g.Data, Key: pubHex(g), BeaconKey: key},
			logCase{Name: "beacon: the beacon's key not pinned, view " + view.Name(), Log: g.Data, Key: pubHex(g), MustFail: true})
	}
	g, b := forge.BeaconGame(t, ledger.View{Full: true})
	key := hex.EncodeToString(b.Chain.Key)
	at, round := forge.FirstRound(t, g, 2, 1)
	early := forge.ReceiptMail(forge.CheckpointAt(t, g, at+1), b.Chain.Time(round).Add(-time.Minute))
	other := forge.ReceiptMail(forge.CheckpointAt(t, g, at+2), b.Chain.Time(round).Add(time.Hour))
	out = append(out, logCase{Name: "beacon: a receipt before the round proves the step", Log: g.Data, Key: pubHex(g), BeaconKey: key, Mails: []string{early, other}},
		logCase{Name: "beacon: another key pinned", Log: g.Data, Key: pubHex(g), BeaconKey: hex.EncodeToString(b.Round(3).Signature) + strings.Repeat("00", 48), MustFail: true})
	for _, a := range forge.BeaconAttacks(t, g, b) {
		out = append(out, logCase{Name: "beacon attack: " + a.Name, Log: a.Data, Key: pubHex(g), BeaconKey: key, Mails: a.Mails, MustFail: true})
	}
	rng := rand.New(rand.NewPCG(99, 16)) // random edits of a beacon log (mutate_test.go)
	for i := 0; i < 40; i++ {
		data, what := mutate(t, g, rng)
		out = append(out, logCase{Name: fmt.Sprintf("beacon mutation %d: %s", i, what), Log: data, Key: pubHex(g), BeaconKey: key, Mails: []string{early}})
	}
	return out
}

// standingCases are log format v4's standing orders (ledger/forge's standing games): honest
// copies of every view, with and without a beacon and after the game's end, the forged
// standing logs navarch verify rejects (gamelog's TestStandingTampered), and random edits of
// a standing log.
func standingCases(t *testing.T) []logCase {
	var out []logCase
	sc, b := forge.StandingBeacon()
	ended := forge.StandingScript()
	ended.End = true
	for _, view := range []ledger.View{{Full: true}, {}, {Side: "venice"}, {Side: "ottoman"}} {
		g := forge.NewGame(t, forge.StandingScript(), view)
		e := forge.NewGame(t, ended, view)
		bg := forge.NewGame(t, sc, view)
		out = append(out, logCase{Name: "standing: honest, view " + view.Name(), Log: g.Data, Key: pubHex(g)},
			logCase{Name: "standing: honest, game over, view " + view.Name(), Log: e.Data, Key: pubHex(e)},
			logCase{Name: "standing: honest beacon game, view " + view.Name(), Log: bg.Data, Key: pubHex(bg), BeaconKey: hex.EncodeToString(b.Chain.Key)})
	}
	for _, c := range forge.StandingCases(t) {
		lc := logCase{Name: "standing tamper: " + c.Name, Log: c.Data, Key: hex.EncodeToString(c.Opts.Key), MustFail: true}
		if c.Opts.BeaconKey != nil {
			lc.BeaconKey = hex.EncodeToString(c.Opts.BeaconKey)
		}
		out = append(out, lc)
	}
	g := forge.NewGame(t, forge.StandingScript(), ledger.View{Side: "ottoman"})
	// verify --sent: bob's standing mails account for his standing records (gamelog's
	// TestStandingSent).
	bobs := []string{sentMail(t, "bob@example.com", "bob-join@example.com", "join")}
	for _, id := range []string{"1.1.standing@bob.example", "2.1.standing@bob.example", "3.1.standing@bob.example"} {
		bobs = append(bobs, sentMail(t, "bob@example.com", id, "HOLD FIRE OTT-1 MOVE"))
	}
	out = append(out, logCase{Name: "standing: honest, with bob's sent mail", Log: g.Data, Key: pubHex(g), Sent: bobs, Player: "bob"},
		logCase{Name: "standing: bob's sent mail but one standing mail", Log: g.Data, Key: pubHex(g), Sent: append(bobs[:2:2], bobs[3]), Player: "bob", MustFail: true})
	rng := rand.New(rand.NewPCG(4, 4)) // random edits of a standing log (mutate_test.go)
	for i := 0; i < 40; i++ {
		data, what := mutate(t, g, rng)
		out = append(out, logCase{Name: fmt.Sprintf("standing mutation %d: %s", i, what), Log: data, Key: pubHex(g)})
	}
	return out
}

// parseIndex reads the record index of a close's "\nuse N\n" line.
func parseIndex(t *testing.T, use string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(use), "use")))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
