package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoOiNavarcoiToTheEnd plays Oi Navarcoi!'s largest scenario, Knidos, through the
// daemon (IMAP and SMTP, maps, the bots' order mails) until the rules end it: the referee's
// ENDGAME is never sent, both players get the game-over mail, and the exported logs verify
// and replay to the same result.
func TestDemoOiNavarcoiToTheEnd(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := navarch("demo", "-out", dir, "-rules", "oinavarcoi", "-scenario", "knidos", "-turns", "99")
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	if strings.Contains(out, "ENDGAME") {
		t.Error("the referee ended the game: it did not reach the rules' end")
	}
	for _, want := range []string{"alice ← Game over: ", "bob   ← Game over: ", "$ navarch replay", "result       "} {
		if !strings.Contains(out, want) {
			t.Errorf("the demo's output lacks %q", want)
		}
	}
	if n := strings.Count(out, "\nPASS\n"); n != 2 {
		t.Errorf("verify and replay: %d PASS lines, want 2", n)
	}
	for _, log := range []string{"game.log", "persia.log", "sparta.log"} {
		log = filepath.Join(dir, log)
		if code, out, _ := navarch("verify", "--trust-log-key", log); code != 0 {
			t.Errorf("%s does not verify:\n%s", log, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "maps")); err != nil {
		t.Error(err)
	}
}
