package host

import (
	"fmt"
	"strings"
	"testing"

	"navarch/mail"
)

// A game master creates a game by mail (docs/DESIGN.md 3.1); anyone else, or a mistake, gets an
// answer and no game; the same mail delivered twice makes one game.
func TestNewGameByMail(t *testing.T) {
	f := newFixture(t)
	f.outbox()
	f.h.cfg.GameMasters = map[string]string{"gm@example.net": "gm-secret"}
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
	if got := newgame("gm@example.net", "forged@x", good); len(got) != 1 || !strings.Contains(got[0], "needs the game master's key") {
		t.Errorf("a NEWGAME from the game master's address without the key: %q", got)
	}
	if got := newgame("gm@example.net", "wrongkey@x", good+"\nKEY gm-guess"); len(got) != 1 || !strings.Contains(got[0], "needs the game master's key") {
		t.Errorf("a NEWGAME with a wrong key: %q", got)
	}
	good += "\nKEY gm-secret"
	if got := newgame("eve@example.org", "eve@x", good); len(got) != 1 || !strings.Contains(got[0], "Only this server's game masters") {
		t.Errorf("a stranger's NEWGAME: %q", got)
	}
	for body, want := range map[string]string{
		"NEWGAME no-such\nPLAYER a christian a@x.org\nPLAYER b ottoman b@x.org":                     `no scenario "no-such"`,
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org":                                          "needs a player for side ottoman",
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org\nPLAYER b turks b@x.org":                  `no side "turks"`,
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org Mars/Olympus\nPLAYER b ottoman b@x.org":   "not a time zone",
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org\nPLAYER b ottoman b@x.org\nCOLOUR red":    `line 4: "COLOUR red": not a NEWGAME line`,
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org\nPLAYER b ottoman b@x.org\nDEADLINE soon": `DEADLINE: want hours (48) or a duration in minutes or hours (90m, 1h30m), not "soon"`,
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org\nPLAYER b ottoman b@x.org\nDEADLINE 90s":  `DEADLINE: want 1m to 720h in whole minutes, not "90s"`,
		"NEWGAME lions-at-sea\nPLAYER a christian a@x.org\nPLAYER b ottoman b@x.org\nDEADLINE 30m":  "reminder: 12h before the deadline (the installation's reminder_hours) must be less than the deadline, 30m (as given)",
	} {
		got := newgame("gm@example.net", "bad-"+want+"@x", body+"\nKEY gm-secret")
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
		if err == nil && spec.Scenario == "" {
			t.Fatalf("accepted %+v", spec)
		}
	})
}

// FuzzHandle hands any mail to a host with a game under way: nothing may panic, and
// nothing a sender writes may be taken for our own failure.
func FuzzHandle(f *testing.F) {
	fx := newFixtureTB(f)
	fx.h.cfg.RateLimit = 1 << 30
	fx.h.cfg.GameMasters = map[string]string{"gm@example.net": "gm-secret"}
	keys := map[string]string{}
	for _, m := range fx.outbox() {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil {
			keys[m.To[0]] = k[1]
		}
	}
	head := "From: alice@example.org\r\nSubject: Re: [navarch " + fx.tag + "] T1\r\n\r\n"
	for _, body := range []string{"JOIN\r\nKEY " + keys["alice@example.org"], "KEY " + keys["alice@example.org"] + "\r\nBARBARIGO ON BAR-LANT HIDDEN",
		"CHECK\r\nKEY x\r\nBAR-VEN1 MOVE 0711 RAM SIR-EGY1", "STATUS FULL", "ABSENT 2026-12-01 2026-12-05", "RESIGN", "HELP", "PROCEED",
		"ASSIGN BAR bob", "ASSIGN COMMANDER bob", "TEAM hold the left", "FOR bob\r\nBAR-VEN1 MOVE 0711", "NONE FOR bob",
		"HOLD FIRE BAR\r\nLEADERS STAY\r\nLET BURN CAN"} {
		f.Add([]byte(head + body))
	}
	f.Add([]byte("From: gm@example.net\r\nSubject: new\r\n\r\nNEWGAME lions-at-sea\r\nPLAYER a christian a@x.org\r\nPLAYER b ottoman b@x.org\r\nDEADLINE 9\r\nKEY gm-secret"))
	f.Add([]byte("From: gm@example.net\r\nSubject: new\r\n\r\nNEWGAME battle-of-lepanto\r\nPLAYER a christian a@x.org\r\nPLAYER c christian c@x.org\r\n" +
		"PLAYER b ottoman b@x.org\r\nCOMMAND a LEFT,CENTER\r\nCOMMAND c RESERVE,RIGHT\r\nCOMMANDER c\r\nKEY gm-secret")) // a team game
	f.Add([]byte("From: ref@example.net\r\nSubject: [navarch " + fx.tag + "]\r\n\r\nEXTEND 12"))
	f.Add([]byte("From: ref@example.net\r\nSubject: [navarch " + fx.tag + "]\r\n\r\nEXTEND 12\r\nKEY " + fx.refKey("ref@example.net")))
	n := 0
	f.Fuzz(func(t *testing.T, raw []byte) {
		n++ // a Message-ID of its own, so that every input is handled, not deduplicated
		raw = append([]byte(fmt.Sprintf("Message-ID: <fuzz%d@example.org>\r\n", n)), raw...)
		if err := fx.h.Handle(raw); err != nil {
			t.Fatalf("a sender's mail was taken for our failure: %v\n%q", err, raw)
		}
	})
}
