package host

import (
	"log/slog"
	"strings"
	"testing"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
)

// bumped is Lepanto under another engine version: a navarch upgraded with a rules fix.
type bumped struct{ adjudicator.Ruleset }

func (bumped) Version() string { return "9.9.9-fixed" }

// TestStranded: after an upgrade that changed a ruleset's engine, every game under way of
// that ruleset is named, with both versions, and so is a game of a ruleset the navarch
// lacks; the navarch that began a game strands nothing, and a game over is never stranded.
func TestStranded(t *testing.T) {
	f := newFixture(t)
	if lines, err := f.h.Stranded(); err != nil || len(lines) != 0 {
		t.Fatalf("the navarch that began the game: %v %v", lines, err)
	}
	upgraded := New(f.s, []adjudicator.Ruleset{bumped{lepanto.Ruleset}}, Config{}, slog.New(slog.DiscardHandler))
	lines, err := upgraded.Stranded()
	if err != nil || len(lines) != 1 || !strings.Contains(lines[0], f.tag) ||
		!strings.Contains(lines[0], "engine "+lepanto.Ruleset.Version()+" of lepanto1571") || !strings.Contains(lines[0], "9.9.9-fixed") {
		t.Errorf("upgraded: %q %v", lines, err)
	}
	without := New(f.s, nil, Config{}, slog.New(slog.DiscardHandler))
	if lines, err := without.Stranded(); err != nil || len(lines) != 1 || !strings.Contains(lines[0], `no ruleset "lepanto1571"`) {
		t.Errorf("without the ruleset: %q %v", lines, err)
	}
	if _, err := f.h.Operate(f.tag, "ENDGAME", []string{"agreed", "draw"}); err != nil {
		t.Fatal(err)
	}
	if lines, err := upgraded.Stranded(); err != nil || len(lines) != 0 {
		t.Errorf("a game over: %q %v", lines, err)
	}
}
