package host

import (
	"crypto/ed25519"
	"encoding/hex"
	"regexp"
	"strings"
	"testing"

	"navarch/dice"
	"navarch/gamelog"
	"navarch/ident"
	"navarch/ledger"
	"navarch/mail"
	"navarch/store"
)

var (
	seedRE       = regexp.MustCompile(`game turn (\d+) is over[\s\S]*seed X_(\d+)  ([0-9a-f]{64})`)
	commitmentRE = regexp.MustCompile(`commitment C  ([0-9a-f]{64})`)
	verifierRE   = regexp.MustCompile(`verifier key  ([0-9a-f]{64})`)
)

// TestSignedMails: the start notice lists every join entropy and S,
// which recomputes from them; receipts quote the entropy and the whole orders hash; and
// every mail that names a log head carries a signed checkpoint that verify accepts against
// the log with the pinned key.
func TestSignedMails(t *testing.T) {
	f := newFixture(t)
	welcome := f.outbox()
	keys := map[string]string{}
	for _, m := range welcome {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil {
			keys[m.To[0]] = k[1]
		}
	}
	c := mustHex(t, commitmentRE.FindStringSubmatch(welcome[0].Text)[1])
	verifier := verifierRE.FindStringSubmatch(welcome[0].Text)[1]
	f.send("alice@example.org", "JOIN fortune favours the bold\nKEY "+keys["alice@example.org"])
	f.send("bob@example.com", "JOIN\nKEY "+keys["bob@example.com"])
	all := f.outbox()
	id := f.gameID()
	s, err := dice.StartHash(id, c, []dice.Join{{Player: "alice", Entropy: []byte("fortune favours the bold")}, {Player: "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"alice@example.org", "bob@example.com", "ref@example.net"} {
		var m *mail.Outgoing
		for i := range all {
			if all[i].To[0] == who && strings.Contains(all[i].Text, "play begins") && strings.Contains(all[i].Text, "  S  ") {
				m = &all[i]
			}
		}
		if m == nil || !strings.Contains(m.Text, "  S  "+hex.EncodeToString(s[:])) || !strings.Contains(m.Text, `alice (christian): "fortune favours the bold"`) ||
			!strings.Contains(m.Text, "bob (ottoman): no entropy") {
			t.Errorf("%s: no start notice with S and every entropy: %+v", who, m)
		}
	}
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nENTROPY sea spray\nNONE")
	r := find(f.outbox(), "alice@example.org", "orders accepted")
	if r == nil || !regexp.MustCompile(`orders hash\n  [0-9a-f]{64}\n`).MatchString(r.Text) || !strings.Contains(r.Text, `your entropy "sea spray"`) {
		t.Fatalf("the receipt does not quote the whole hash and the entropy: %+v", r)
	}
	all = append(all, *r)
	f.send("bob@example.com", "NONE\nKEY "+keys["bob@example.com"])
	all = append(all, f.outbox()...)
	var data []byte
	f.s.View(func(tx *store.Tx) error { data, err = exportData(tx, id); return err })
	file, err := gamelog.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	var cps []gamelog.Checkpoint
	for _, o := range all {
		if !strings.Contains(o.Text, "log-head") {
			continue
		}
		blocks, err := gamelog.ParseBlocks([]byte(o.Text))
		if err != nil || len(blocks) == 0 {
			t.Fatalf("a mail with a log head and no signed checkpoint (%v): %s\n%s", err, o.Subject, o.Text)
		}
		cps = append(cps, blocks...)
	}
	if rep := gamelog.Verify(file, gamelog.VerifyOptions{Key: ed25519.PublicKey(mustHex32(t, verifier)), Checkpoints: cps}); !rep.OK() {
		t.Errorf("the mails' checkpoints against the log: %v", rep.Failure)
	}
	// Bob's own mails against bob's own copy of the log (alice's set-up withheld from it).
	var side mail.Attachment
	f.s.View(func(tx *store.Tx) error {
		g, _ := loadGame(tx, id)
		side, err = export(tx, g, id, "ottoman", false)
		return err
	})
	file, err = gamelog.ParseFile(side.Data)
	if err != nil {
		t.Fatal(err)
	}
	cps = nil
	for _, o := range all {
		if o.To[0] == "bob@example.com" && strings.Contains(o.Text, "log-head") {
			blocks, _ := gamelog.ParseBlocks([]byte(o.Text))
			cps = append(cps, blocks...)
		}
	}
	if rep := gamelog.Verify(file, gamelog.VerifyOptions{Key: ed25519.PublicKey(mustHex32(t, verifier)), Checkpoints: cps}); len(cps) == 0 || !rep.OK() {
		t.Errorf("bob's mails' checkpoints against bob's copy of the log (%d): %v", len(cps), rep.Failure)
	}
}

func (f *fixture) gameID() ident.GameID {
	f.t.Helper()
	var id ident.GameID
	f.s.View(func(tx *store.Tx) error {
		var err error
		id, _, err = findGame(tx, f.tag)
		return err
	})
	return id
}

func mustHex(t *testing.T, s string) ident.Hash {
	t.Helper()
	return ident.Hash(mustHex32(t, s))
}

func mustHex32(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("%q is not 32 bytes of hex", s)
	}
	return b
}

// TestTurnOverSeed: the turn-over mail sent while turn 2 is under way
// names the seed it reveals as X_1, and X_1 hashes down to the commitment C of the welcome;
// the mail gives the whole verify command.
func TestTurnOverSeed(t *testing.T) {
	f, _ := started(t)
	var c ident.Hash
	var verifier string
	id := f.gameID()
	err := f.s.Update(func(tx *store.Tx) error {
		r, err := lastOf(tx, id, gamelog.TypeGenesis)
		if err != nil {
			return err
		}
		c, verifier = ident.Hash(r.Bytes("commitment")), hex.EncodeToString(r.Bytes("verifier"))
		g, err := loadGame(tx, id)
		if err != nil {
			return err
		}
		cp, err := ledger.EndTurn(tx, id, 1) // as play does when turn 1's last step is resolved
		if err != nil {
			return err
		}
		g.Step.Turn = 2 // the next turn under way when the mails go out
		if err := f.h.turnEnd(tx, id, g, recipient{p: &g.Players[0]}, &cp); err != nil {
			return err
		}
		return f.h.saveGame(tx, id, g)
	})
	if err != nil {
		t.Fatal(err)
	}
	mails := f.outbox()
	if len(mails) != 1 {
		t.Fatalf("turn-over mails: %v", subjects(mails))
	}
	m := seedRE.FindStringSubmatch(mails[0].Text)
	if m == nil || m[1] != "1" || m[2] != "1" {
		t.Fatalf("the turn-over mail does not name turn 1's seed:\n%s", mails[0].Text)
	}
	if got, err := dice.ChainSeed(id, 1, mustHex(t, m[3]), 0); err != nil || got != c {
		t.Errorf("X_1 from the turn-over mail hashes down to %x, not to C %x", got, c)
	}
	if !strings.Contains(mails[0].Text, "navarch verify --key "+verifier+" --checkpoint turn-1.eml "+f.tag+"-christian.log") {
		t.Errorf("the turn-over mail lacks the whole verify command:\n%s", mails[0].Text)
	}
}
