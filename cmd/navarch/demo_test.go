package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo runs the README's demo command for one turn: the game is played by IMAP and SMTP,
// the mistake is answered by line, every map decodes, and the exported log passes verify
// (with a checkpoint from a saved, quoted-printable mail) and replay.
func TestDemo(t *testing.T) {
	t.Parallel() // beside TestDemoBeacon, which mostly waits
	dir := t.TempDir()
	code, out, errs := navarch("demo", "-out", dir, "-turns", "1")
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"alice ← welcome", "orders with a mistake", "not a unit of group", "referee → ENDGAME after 1 turns",
		"bob   ← Game over", "$ navarch verify --key", "$ navarch replay", "ended early",
		"alice   answers to her reply address navarch+"} { // and plays the game without a KEY line
		if !strings.Contains(out, want) {
			t.Errorf("the demo's output lacks %q", want)
		}
	}
	if n := strings.Count(out, "\nPASS\n"); n != 2 {
		t.Errorf("verify and replay: %d PASS lines, want 2", n)
	}
	maps, _ := filepath.Glob(filepath.Join(dir, "maps", "*.png"))
	mails, _ := filepath.Glob(filepath.Join(dir, "mail", "*.eml"))
	if len(maps) < 4 || len(mails) < 10 {
		t.Fatalf("%d maps and %d mails written", len(maps), len(mails))
	}
	for _, m := range mails { // named by what they are: "012-alice-your-move-t1-a3-….eml"
		if name := filepath.Base(m); strings.HasSuffix(name, "-.eml") || len(name) > 90 {
			t.Errorf("mail file %q: not named by its subject", name)
		}
	}
	for _, m := range maps {
		f, err := os.Open(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s: %v", m, err)
		}
		f.Close()
	}
	for _, log := range []string{"game.log", "christian.log", "ottoman.log"} {
		if code, out, _ := navarch("verify", "--trust-log-key", filepath.Join(dir, log)); code != 0 {
			t.Errorf("%s does not verify:\n%s", log, out)
		}
	}
	if code, _, errs := navarch("demo", "-out", dir, "-scenario", "no-such"); code != 1 || !strings.Contains(errs, "no scenario") {
		t.Errorf("a demo of an unknown scenario: exit %d %s", code, errs)
	}
	other := t.TempDir()
	keep := filepath.Join(other, "mail", "precious.txt")
	os.MkdirAll(filepath.Dir(keep), 0o755)
	os.WriteFile(keep, []byte("x"), 0o644)
	if code, _, errs := navarch("demo", "-out", other); code != 1 || !strings.Contains(errs, "not an earlier demo's directory") {
		t.Errorf("a demo into a directory it did not make: exit %d %s", code, errs)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("the demo removed a file it did not make: %v", err)
	}
}

// TestDemoMedieval runs navarch demo -rules medieval for one turn (the card deck's eighteen
// activations): the mistake is answered with the ship's own error, every map decodes and is
// under 300 KB, and the exported logs pass verify and replay.
func TestDemoMedieval(t *testing.T) {
	t.Parallel() // beside TestDemoBeacon, which mostly waits
	dir := t.TempDir()
	code, out, errs := navarch("demo", "-out", dir, "-rules", "medieval", "-turns", "1")
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"Medieval naval rules (d10), Sluys, 24 June 1340", "orders with a mistake",
		"NOSUCH-UNIT is not a ship of yours", "referee → ENDGAME after 1 turns", "bob   ← Game over", "$ navarch replay"} {
		if !strings.Contains(out, want) {
			t.Errorf("the demo's output lacks %q", want)
		}
	}
	if n := strings.Count(out, "\nPASS\n"); n != 2 {
		t.Errorf("verify and replay: %d PASS lines, want 2", n)
	}
	maps, _ := filepath.Glob(filepath.Join(dir, "maps", "*.png"))
	if len(maps) < 10 {
		t.Fatalf("%d maps written", len(maps))
	}
	for _, m := range maps {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil || len(data) > 300<<10 {
			t.Errorf("%s: %d bytes, %v", m, len(data), err)
		}
	}
	for _, log := range []string{"english.log", "french.log"} {
		if code, out, _ := navarch("verify", "--trust-log-key", filepath.Join(dir, log)); code != 0 {
			t.Errorf("%s does not verify:\n%s", log, out)
		}
	}
}

// TestDemoBeacon runs navarch demo -beacon for one turn: every step is keyed by a round of the
// local beacon (its relay on loopback), waits for it, and the log passes verify with the
// beacon's key, alice's notices proving the steps that named their rounds to her. It plays in
// real time (a second or two a step): skipped with -short. Its time is mostly waiting for
// rounds, so it runs beside the games to the end (t.Parallel), which keep the processors busy
// meanwhile. It draws no maps (demo -maps=false): under the race detector they would double
// its time, and TestDemo races the drawer with the host.
func TestDemoBeacon(t *testing.T) {
	if testing.Short() {
		t.Skip("a step waits a few seconds for its round")
	}
	t.Parallel()
	dir := t.TempDir()
	code, out, errs := navarch("demo", "-beacon", "-out", dir, "-turns", "1", "-maps=false")
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	if n := strings.Count(out, "\nPASS\n"); n != 2 || !strings.Contains(out, "--beacon-key") {
		t.Errorf("verify and replay: %d PASS lines, want 2\n%s", n, out)
	}
	var steps, proven int
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "beacon ") {
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(l, "beacon")), "%d steps keyed by a verified round, %d proven", &steps, &proven)
		}
	}
	if steps < 5 || proven < 1 || proven > steps {
		t.Errorf("%d beacon steps, %d proven:\n%s", steps, proven, out)
	}
}
