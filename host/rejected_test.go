package host

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"navarch/adjudicator/lepanto"
)

// Every mail refused by authentication or the rate limit is counted once by its reason
// (the metrics' navarch_mails_rejected_total), answered or not: a wrong key, a stranger, a
// referee's address without the referee's key, a NEWGAME from someone who is no game master
// or without the game master's key, and mail over the rate limit (counted as rate only).
func TestRejectedByReason(t *testing.T) {
	f := newFixture(t)
	rec := &observer{}
	var logs bytes.Buffer
	f.h.cfg.Metrics, f.h.cfg.RateLimit = rec, 2
	f.h.cfg.GameMasters = map[string]string{"gm@example.net": "gm-secret-key"}
	f.h.log = slog.New(slog.NewTextHandler(&logs, nil))
	f.outbox()
	f.send("alice@example.org", "JOIN\nKEY wrong-key")
	f.send("mallory@example.com", "JOIN")
	f.send("ref@example.net", "PAUSE")
	f.send("mallory@example.com", "JOIN") // the second from her address within the hour: a stranger is answered once
	f.send("mallory@example.com", "JOIN") // over the limit: not answered
	f.send("gm@example.net", "NEWGAME lions-at-sea\nPLAYER a christian a@example.org\nPLAYER b ottoman b@example.org")
	f.send("eve@example.org", "NEWGAME lions-at-sea\nKEY gm-secret-key")
	if got, want := rec.rejections(), "key stranger forged stranger rate forged stranger"; got != want {
		t.Errorf("rejections %q, want %q", got, want)
	}
	if n := len(f.outbox()); n != 5 {
		t.Errorf("%d answers, want 5 (a stranger answered once, the mail over the limit not at all)", n)
	}
	for _, want := range []string{`msg="NEWGAME refused: a game master's address without the game master's key (forged, or the key mistyped)"`,
		`msg="NEWGAME refused: not a game master"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no log line %s:\n%s", want, &logs)
		}
	}
}

// A request is one log line, also when its mail adjudicates a step and the engine had to be
// rebuilt outside the write lock first (its first transaction rolled back: engines.go), as
// for a mail without the game's tag from a player of only that game.
func TestOneRequestLine(t *testing.T) {
	f, keys := joinedFixture(t, lepanto.Ruleset, "")
	var logs bytes.Buffer
	f.h.log = slog.New(slog.NewTextHandler(&logs, nil))
	f.h.engines.max = 0 // no engine kept between mails: every mail that needs one rebuilds it
	f.outbox()
	for i, who := range []string{"alice@example.org", "bob@example.com"} {
		// The set-up's no-orders default, bob's resolving the step; no tag in the subject:
		// each plays only this game.
		raw := fmt.Sprintf("From: %s\r\nSubject: my orders\r\nMessage-ID: <one%d@example.org>\r\n\r\nNONE\r\nKEY %s\r\n", who, i, keys[who])
		if err := f.h.Handle([]byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	if m := find(f.outbox(), "alice@example.org", "report"); m == nil {
		t.Fatal("no report: the step was not adjudicated")
	}
	if n := strings.Count(logs.String(), `msg=request `); n != 2 {
		t.Errorf("%d request lines for two mails, want 2:\n%s", n, &logs)
	}
	if n := strings.Count(logs.String(), `from=bob@example.com command=`); n != 1 {
		t.Errorf("%d request lines for bob's orders (which adjudicated the step), want 1:\n%s", n, &logs)
	}
}
