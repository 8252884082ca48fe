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

	"navarch/ledger"
	"navarch/ledger/ledgertest"
	"navarch/store"
)

var update = flag.Bool("update", false, "rewrite docs/example")

const exampleDir = "../../docs/example"

// TestExampleLog keeps the README's verify example true: the committed example export
// verifies under the committed key. -update writes a new example game.
func TestExampleLog(t *testing.T) {
	if *update {
		writeExample(t)
	}
	key, err := os.ReadFile(filepath.Join(exampleDir, "verifier.key"))
	if err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(exampleDir, "game.log")
	code, out, errs := navarch("verify", "--key", strings.TrimSpace(string(key)),
		"--checkpoint", filepath.Join(exampleDir, "report.eml"), logFile)
	if code != 0 || !strings.Contains(out, "PASS") || !strings.Contains(out, "pending      turn 3") {
		t.Errorf("example: exit %d\n%s%s", code, out, errs)
	}
}

func writeExample(t *testing.T) {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id, err := ledgertest.Game(s, ledgertest.Small)
	if err != nil {
		t.Fatal(err)
	}
	var key, mail string
	err = s.Update(func(tx *store.Tx) error {
		k, err := store.InstallationKey(tx)
		if err != nil {
			return err
		}
		key = hex.EncodeToString(k.Public().(ed25519.PublicKey))
		c, err := ledger.Checkpoint(tx, id)
		mail = fmt.Sprintf("From: navarch@example.org\nTo: alice@example.org\nSubject: [navarch] T3 report\n\n"+
			"The game's log now holds %d records; keep this checkpoint:\n\n%s", c.Size, c.Block())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// The export is taken after the mail's checkpoint, so it holds the checkpoint record too.
	data, err := ledgertest.Export(s, id, ledger.View{Side: "venice"})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(exampleDir, 0o755)
	for name, text := range map[string]string{"game.log": string(data), "verifier.key": key + "\n", "report.eml": mail} {
		if err := os.WriteFile(filepath.Join(exampleDir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
