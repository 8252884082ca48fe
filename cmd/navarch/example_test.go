package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ident"
	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/play"
	"navarch/store"
)

var update = flag.Bool("update", false, "rewrite docs/example")

const exampleDir = "../../docs/example"

// TestExampleLog keeps the README's examples true: alice's copy of a real game of Lions at
// Sea verifies under the committed key with the checkpoint of her last mail and with her own
// sent mail, and replays as far as her copy holds the orders (not past the ottoman's secret
// set-up: PARTIAL), and verify says that her sent mail accounts for her records; the
// referee's copy replays whole. -update plays a new example game.
func TestExampleLog(t *testing.T) {
	if *update {
		writeExample(t)
	}
	key := readKey(t, exampleDir)
	file := func(n string) string { return filepath.Join(exampleDir, n) }
	code, out, errs := navarch("verify", "--key", key, "--checkpoint", file("report.eml"),
		"--sent", file("alice-sent.mbox"), file("game.log"))
	if code != 0 || !strings.Contains(out, "PASS") || !strings.Contains(out, "pending      turn 3") || !strings.Contains(out, "alice's") ||
		!strings.Contains(out, "sent         14 of your mails account for every orders and join record of yours\nPASS") {
		t.Errorf("example: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := navarch("replay", file("referee.log")); code != 0 || !strings.HasSuffix(out, "PASS\n") {
		t.Errorf("replay of the example's referee.log: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := navarch("replay", file("game.log")); code != 3 || !strings.Contains(out, "PARTIAL") || strings.Contains(out, "PASS") {
		t.Errorf("replay of alice's copy, which lacks the ottoman's secret set-up: exit %d\n%s", code, out)
	}
}

// TestExampleV1Log: a log of format navarch/v1 (made before v2) keeps verifying under its
// version's rules with --allow-v1, and fails without it (docs/LOG-FORMAT.md 9).
func TestExampleV1Log(t *testing.T) {
	dir := filepath.Join(exampleDir, "v1")
	code, out, errs := navarch("verify", "--allow-v1", "--key", readKey(t, dir), "--checkpoint", filepath.Join(dir, "report.eml"), filepath.Join(dir, "game.log"))
	if code != 0 || !strings.Contains(out, "PASS") || !strings.Contains(out, "format       navarch/v1") {
		t.Errorf("v1 example: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = navarch("verify", "--key", readKey(t, dir), filepath.Join(dir, "game.log"))
	if code != 1 || !strings.Contains(out, "--allow-v1") {
		t.Errorf("v1 example without --allow-v1: exit %d\n%s", code, out)
	}
}

// TestExampleV2Log: a log of format navarch/v2 (made before v3: docs/example/v2) keeps
// verifying under its version's rules, alice's sent mail included.
func TestExampleV2Log(t *testing.T) {
	dir := filepath.Join(exampleDir, "v2")
	file := func(n string) string { return filepath.Join(dir, n) }
	code, out, errs := navarch("verify", "--key", readKey(t, dir), "--format", "navarch/v2", "--checkpoint", file("report.eml"), "--sent", file("alice-sent.mbox"), file("game.log"))
	if code != 0 || !strings.Contains(out, "PASS") || !strings.Contains(out, "format       navarch/v2") {
		t.Errorf("v2 example: exit %d\n%s%s", code, out, errs)
	}
	// Its Lepanto engine (0.2.0) is not this navarch's: replay says so rather than re-run the
	// game by other rules (docs/deploy/README.md, Upgrading).
	if code, out, errs := navarch("replay", file("referee.log")); code != 1 || !strings.Contains(out, `version "0.2.0" of the lepanto1571 engine`) {
		t.Errorf("replay of the v2 example's referee.log: exit %d, want 1 naming its engine's version\n%s%s", code, out, errs)
	}
}

// TestExampleOldLogs: the logs of earlier formats (docs/example/v3, made before v4, and
// docs/example/v4, made before v5) keep verifying under their version's rules, alice's sent
// mail and her checkpoint included, and fail when pinned to the next format.
func TestExampleOldLogs(t *testing.T) {
	for _, c := range []struct{ dir, format, next string }{{"v3", "navarch/v3", "navarch/v4"}, {"v4", "navarch/v4", "navarch/v5"}} {
		t.Run(c.dir, func(t *testing.T) {
			dir := filepath.Join(exampleDir, c.dir)
			file := func(n string) string { return filepath.Join(dir, n) }
			code, out, errs := navarch("verify", "--key", readKey(t, dir), "--format", c.format, "--checkpoint", file("report.eml"), "--sent", file("alice-sent.mbox"), file("game.log"))
			if code != 0 || !strings.Contains(out, "PASS") || !strings.Contains(out, "format       "+c.format) || !strings.Contains(out, "account for every orders and join record of yours") {
				t.Errorf("%s example: exit %d\n%s%s", c.dir, code, out, errs)
			}
			if code, out, _ := navarch("verify", "--key", readKey(t, dir), "--format", c.next, file("game.log")); code != 1 || !strings.Contains(out, c.next) {
				t.Errorf("the %s example pinned to %s: exit %d, want a failure naming the format\n%s", c.dir, c.next, code, out)
			}
		})
	}
}

func readKey(t *testing.T, dir string) string {
	t.Helper()
	key, err := os.ReadFile(filepath.Join(dir, "verifier.key"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(key))
}

// writeExample plays Lions at Sea with the bots into turn 3, alice's leaders hidden, each
// order mail of alice's with its Message-ID and an ENTROPY line, and writes alice's copy of
// the log, the referee's, the verifier key, alice's last report mail (its checkpoint) and
// alice's sent mail.
func writeExample(t *testing.T) {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cfg := adjudicator.Config{Scenario: "lions-at-sea"}
	players := []ledger.Player{{ID: "alice", Side: "christian"}, {ID: "bob", Side: "ottoman"}}
	var c ledger.Created
	sent := []string{exampleMail("alice-join", "JOIN a line of my own noise", 0)}
	err = s.Update(func(tx *store.Tx) error {
		if c, err = play.Create(tx, lepanto.Ruleset, cfg, players, ledgertest.Clock, ledgertest.Rand("example")); err != nil {
			return err
		}
		if err := ledger.Join(tx, c.Game, "alice", []byte("a line of my own noise"), ledgertest.Clock, "alice-join@example.org"); err != nil {
			return err
		}
		if err := ledger.Join(tx, c.Game, "bob", nil, ledgertest.Clock, "bob-join@example.com"); err != nil {
			return err
		}
		_, err = ledger.Start(tx, c.Game, false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := lepanto.Ruleset.New(cfg)
	for n := 0; g.Next().Turn < 3 || g.Next().Act < 3; n++ {
		st := g.Next()
		var orders []play.SideOrders
		for _, side := range st.Sides {
			text := g.(*lepanto.Game).BotOrders(side)
			if n == 0 && side == "christian" {
				text = "BARBARIGO ON BAR-LANT HIDDEN\nQUERINI ON QUE-ELB HIDDEN"
			}
			o, _ := g.Parse(side, text)
			so := play.SideOrders{Player: map[string]string{"christian": "alice", "ottoman": "bob"}[side], Side: side, Orders: o, Received: ledgertest.Clock}
			if side == "christian" {
				so.MessageID, so.Entropy = fmt.Sprintf("t%d.a%d.alice@example.org", st.Turn, st.Act), []byte(fmt.Sprintf("alice %d", n))
				sent = append(sent, exampleMail(strings.TrimSuffix(so.MessageID, "@example.org"), fmt.Sprintf("ENTROPY alice %d\n%s", n, adjudicator.Canonical(o)), n+1))
			}
			orders = append(orders, so)
		}
		if err := s.Update(func(tx *store.Tx) error { _, err := play.Step(tx, c.Game, g, orders, ledgertest.Clock); return err }); err != nil {
			t.Fatal(err)
		}
	}
	writeExampleFiles(t, s, c.Game, sent)
}

func writeExampleFiles(t *testing.T, s *store.Store, id ident.GameID, sent []string) {
	t.Helper()
	var key, mail string
	err := s.View(func(tx *store.Tx) error {
		k, err := store.InstallationKey(tx)
		if err != nil {
			return err
		}
		key = hex.EncodeToString(k.Public().(ed25519.PublicKey))
		c, err := ledger.SignedHead(tx, id)
		mail = fmt.Sprintf("From: navarch@example.org\nTo: alice@example.org\nSubject: [navarch lep-example] T3 report\n\n"+
			"The game's log now holds %d records; keep this checkpoint:\n\n%s", c.Size, c.Block())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	alice, err := ledgertest.Export(s, id, ledger.View{Side: "christian"})
	if err != nil {
		t.Fatal(err)
	}
	referee, err := ledgertest.Export(s, id, ledger.View{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"game.log": string(alice), "referee.log": string(referee), "verifier.key": key + "\n",
		"report.eml": mail, "alice-sent.mbox": strings.Join(sent, "")}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(exampleDir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// exampleMail is one of alice's sent mails, as an mbox entry.
func exampleMail(id, body string, n int) string {
	date := ledgertest.Clock.Add(time.Duration(n) * time.Hour).Format(time.RFC1123Z)
	return fmt.Sprintf("From alice@example.org %s\nFrom: alice@example.org\nTo: navarch@example.org\nSubject: Re: [navarch lep-example]\n"+
		"Date: %s\nMessage-ID: <%s@example.org>\n\n%s\n\n", ledgertest.Clock.Format(time.ANSIC), date, id, body)
}
