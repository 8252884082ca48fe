package host

import (
	"strings"
	"testing"

	"navarch/mail"
)

// A game master creates a game by mail (DESIGN 3.1); anyone else, or a mistake, gets an
// answer and no game; the same mail delivered twice makes one game.
func TestNewGameByMail(t *testing.T) {
	f := newFixture(t)
	f.outbox()
	f.h.cfg.GameMasters = []string{"gm@example.net"}
	newgame := func(from, msgID, body string) []string {
		t.Helper()
		raw := "From: " + from + "\r\nSubject: a new game\r\nMessage-ID: <" + msgID + ">\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
		if err := f.h.Handle([]byte(raw)); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range f.outbox() {
			out = append(out, m.To[0]+": "+m.Subject+": "+flat(m.Text))
		}
		return out
	}
	good := "NEWGAME lions-at-sea\nPLAYER carol christian carol@example.org Europe/Paris\nPLAYER dave ottoman dave@example.com\n" +
		"REFEREE second@example.net\nDEADLINE 48\nNOORDERS referee"
	if got := newgame("eve@example.org", "eve@x", good); len(got) != 1 || !strings.Contains(got[0], "Only this server's game masters") {
		t.Errorf("a stranger's NEWGAME: %q", got)
	}
	for body, want := range map[string]string{
		"NEWGAME no-such\nPLAYER a christian a@x.org\nPLAYER b ottoman b@x.org":                     `no scenario "no-such"`,
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org":                                          "needs a player for side ottoman",
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org\nPLAYER b turks b@x.org":                  `no side "turks"`,
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org Mars/Olympus\nPLAYER b ottoman b@x.org":   "not a time zone",
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org\nPLAYER b ottoman b@x.org\nCOLOUR red":    `line 4: "COLOUR red": not a NEWGAME line`,
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org\nPLAYER b ottoman b@x.org\nDEADLINE soon": "DEADLINE takes a number of hours",
	} {
		got := newgame("gm@example.net", "bad-"+want+"@x", body)
		if len(got) != 1 || !strings.Contains(got[0], "No game was created") || !strings.Contains(got[0], want) {
			t.Errorf("%q: %q, want a refusal with %q", body, got, want)
		}
	}
	var list strings.Builder
	games, _ := f.h.List()
	if len(games) != 1 {
		t.Fatalf("refused NEWGAME mails made games: %v", games)
	}
	got := newgame("GM@example.net", "good@x", good)
	if len(newgame("gm@example.net", "good@x", good)) != 0 {
		t.Error("the same NEWGAME mail delivered twice was answered twice")
	}
	games, _ = f.h.List()
	if len(games) != 2 {
		t.Fatalf("games after NEWGAME: %v", games)
	}
	tag := ""
	for _, m := range got {
		if i := strings.Index(m, "Game lep-"); i >= 0 {
			tag = strings.Fields(m[i:])[1]
		}
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{"carol@example.org: [navarch " + tag + "] welcome", "dave@example.com: [navarch " + tag + "] welcome",
		"gm@example.net: [navarch " + tag + "] welcome (referee)", "second@example.net: [navarch " + tag + "] welcome (referee)",
		"gm@example.net: [navarch] your mail: Hello, Game " + tag + " (lepanto1571, lions-at-sea) is created"} {
		if !strings.Contains(joined, want) {
			t.Errorf("after NEWGAME, no %q in:\n%s", want, joined)
		}
	}
	var show strings.Builder
	if err := f.h.Show(&show, tag); err != nil || !strings.Contains(show.String(), "referee <gm@example.net>") ||
		!strings.Contains(show.String(), "player carol christian <carol@example.org> Europe/Paris") ||
		!strings.Contains(show.String(), "deadlines 48h, reminder 12h before, without orders: referee") {
		t.Errorf("the new game: %v\n%s", err, show.String())
	}
	if err := f.h.Mails(&list, tag, 0); err != nil || !strings.Contains(list.String(), "gm@example.net") {
		t.Errorf("the NEWGAME mail is not the game's first: %v %s", err, list.String())
	}
}

func FuzzReadSpec(f *testing.F) {
	f.Add("NEWGAME lions-at-sea\nPLAYER carol christian carol@example.org Europe/Paris\nDEADLINE 48\nNOORDERS referee")
	f.Add("NEWGAME\nPLAYER\nOPTIONS ,,\nREMINDER -1")
	f.Fuzz(func(t *testing.T, text string) {
		req, err := mail.ReadRequest("", text)
		if err != nil || req.Command != mail.CmdNewGame {
			return
		}
		spec, err := readSpec(req)
		if err == nil && (spec.Scenario == "" || spec.Ruleset == "") {
			t.Fatalf("accepted %+v", spec)
		}
	})
}
