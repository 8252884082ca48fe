package main

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"navarch/adjudicator/duel"
	"navarch/render/duelmap"
	listed "navarch/rulesets"
)

// withRuleset runs fn with one more entry in the ruleset list, as a new rule system is added.
func withRuleset(t *testing.T, r listed.Entry, fn func()) {
	t.Helper()
	old := list
	defer useList(old)
	useList(append(slices.Clone(old), r))
	fn()
}

// TestAddARuleset shows that a ruleset is added by one list entry: a ruleset of its own
// packages (the test ruleset adjudicator/duel with its map render/duelmap and its bot), given
// one entry in the ruleset list (package rulesets) and nothing else, is played through the
// daemon by IMAP and SMTP (navarch demo) to the rules' end, with maps in its reports, and its
// log verifies and replays.
func TestAddARuleset(t *testing.T) {
	dir := t.TempDir()
	withRuleset(t, listed.Entry{Rules: duel.Ruleset, Map: duelmap.Map, Demo: "short"}, func() {
		code, out, errs := navarch("demo", "-out", dir, "-rules", "duel", "-turns", "9")
		if code != 0 {
			t.Fatalf("demo of the duel: exit %d\n%s%s", code, out, errs)
		}
		t.Log(out)
		for _, want := range []string{"Duel (a test ruleset)", "alice ← welcome", "orders with a mistake", "not understood",
			"alice → 1 orders", "bob   ← Game over", "$ navarch replay"} {
			if !strings.Contains(out, want) {
				t.Errorf("the demo's output lacks %q\n%s", want, out)
			}
		}
		if n := strings.Count(out, "\nPASS\n"); n != 2 {
			t.Errorf("verify and replay: %d PASS lines, want 2\n%s", n, out)
		}
		if code, out, errs := navarch("rules", "duel"); code != 0 || !strings.Contains(out, "scenario short") {
			t.Errorf("navarch rules duel: exit %d\n%s%s", code, out, errs)
		}
	})
	maps, _ := filepath.Glob(filepath.Join(dir, "maps", "*.png"))
	if len(maps) < 2 {
		t.Fatalf("%d maps written, want the duel's maps in its reports", len(maps))
	}
	f, err := os.Open(maps[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("%s: %v", maps[0], err)
	}
	if code, out, _ := navarch("verify", "--trust-log-key", filepath.Join(dir, "red.log")); code != 0 {
		t.Errorf("red's log does not verify:\n%s", out)
	}
}

// TestRulesetWithoutMap: a ruleset listed without a map is played just the same; its reports
// go without one (render.ErrNoMap).
func TestRulesetWithoutMap(t *testing.T) {
	dir := t.TempDir()
	withRuleset(t, listed.Entry{Rules: duel.Ruleset, Demo: "short"}, func() {
		if code, out, errs := navarch("demo", "-out", dir, "-rules", "duel", "-turns", "9"); code != 0 || !strings.Contains(out, "bob   ← Game over") {
			t.Fatalf("demo of the duel without a map: exit %d\n%s%s", code, out, errs)
		}
	})
	reports, _ := filepath.Glob(filepath.Join(dir, "mail", "*report*.eml"))
	maps, _ := filepath.Glob(filepath.Join(dir, "maps", "*.png"))
	if len(reports) == 0 || len(maps) != 0 {
		t.Errorf("%d reports with %d maps; want reports without maps", len(reports), len(maps))
	}
}
