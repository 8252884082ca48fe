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
		!strings.Contains(lines[0], `version "`+lepanto.Ruleset.Version()+`" of the lepanto1571 engine`) || !strings.Contains(lines[0], "9.9.9-fixed") {
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

// TestRefereeEndsAStrandedGame: a game that an upgraded navarch cannot continue can still be
// ended by its referee (or the operator): the end record reveals the seeds and everyone gets
// the game-over mail with the whole log to verify, only without the map and summary, which
// need the engine that began it.
func TestRefereeEndsAStrandedGame(t *testing.T) {
	f := newFixture(t)
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.outbox()
	f.h = New(f.s, []adjudicator.Ruleset{bumped{lepanto.Ruleset}}, f.h.cfg, slog.New(slog.DiscardHandler))
	f.ref("ENDGAME the rules were mended")
	mails := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com", "ref@example.net"} {
		m := find(mails, who, "game over")
		if m == nil {
			t.Fatalf("no game-over mail to %s: %v", who, subjects(mails))
		}
		var log bool
		for _, a := range m.Attachments {
			log = log || strings.HasSuffix(a.Name, ".log") && strings.Contains(string(a.Data), "\ntype end\n")
		}
		if !log || !strings.Contains(m.Subject, "ended by the referee") || !strings.Contains(flat(m.Text), "the rules were mended") {
			t.Errorf("%s: %q, the log attached %v", who, m.Subject, log)
		}
	}
	if lines, err := f.h.Stranded(); err != nil || len(lines) != 0 {
		t.Errorf("still stranded after the end: %q %v", lines, err)
	}
}
