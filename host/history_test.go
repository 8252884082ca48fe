package host

import (
	"strings"
	"testing"
)

// TestHistoryAndGameEnd: HISTORY answers with the game so far, turn by turn, in
// words, as the sender's side sees it (a hidden leader only in its own side's history); the
// game-over mail carries the final map, the state of play and the log.
func TestHistoryAndGameEnd(t *testing.T) {
	f, keys := started(t)
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nBARBARIGO ON BAR-LANT HIDDEN")
	f.send("bob@example.com", "NONE\nKEY "+keys["bob@example.com"])
	f.outbox()
	for who, hidden := range map[string]bool{"alice@example.org": true, "bob@example.com": false} {
		f.send(who, "HISTORY\nKEY "+keys[who])
		m := find(f.outbox(), who, "history")
		if m == nil {
			t.Fatalf("%s: no answer to HISTORY", who)
		}
		if !strings.Contains(m.Text, "Turn 1\n- ") || !strings.Contains(m.Text, "Game turn 1 begins") {
			t.Errorf("%s: the history does not tell turn 1:\n%s", who, m.Text)
		}
		if got := strings.Contains(m.Text, "hidden aboard BAR-LANT"); got != hidden {
			t.Errorf("%s: the hidden leader in the history: %v, want %v:\n%s", who, got, hidden, m.Text)
		}
	}
	f.send("bob@example.com", "RESIGN CONFIRM\nKEY "+keys["bob@example.com"])
	m := find(f.outbox(), "alice@example.org", "game over")
	if m == nil || len(m.Attachments) != 3 || m.Attachments[0].ContentType != "image/png" || m.Attachments[2].Name != "navarch-verify.html" || !strings.HasSuffix(m.Attachments[1].Name, ".log") {
		t.Fatalf("the game-over mail lacks its final map or log: %+v", m)
	}
	if !strings.Contains(m.Text, "otherwise than this count):\n\nPositions:\n  BAR-") || !strings.Contains(m.Text, "\n\nVictory points (10.1):\n  Christian victory points ") || !strings.Contains(m.HTML, `src="cid:`+m.Attachments[0].Name) {
		t.Errorf("the game-over mail lacks the state of play or the map:\n%s", m.Text)
	}
}

// TestReportCarriesTheRequest: the player asked next gets one mail with the
// report, its map and the request, under a subject that says so.
func TestReportCarriesTheRequest(t *testing.T) {
	f, keys := startedAs(t, false)
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "NONE\nKEY "+keys[who]) // the set-up
	}
	mails := f.outbox()
	var asked int
	for _, m := range mails {
		if !strings.HasPrefix(strings.SplitN(m.Subject, "] ", 2)[1], "Your move by ") {
			continue
		}
		asked++
		if m.Kind != "report" || len(m.Attachments) != 1 || !strings.Contains(m.Text, "--- your move ---") ||
			strings.Count(m.Text, "BEGIN NAVARCH INFO") != 1 {
			t.Errorf("the request is not one mail with the report and the map: %q\n%s", m.Subject, m.Text)
		}
		if n := len([]rune(m.Subject)); n > subjectMax {
			t.Errorf("a subject of %d characters: %q", n, m.Subject)
		}
		if m.To[0] == "bob@example.com" && (!strings.Contains(m.Text, "your orders are accepted") || strings.HasSuffix(m.InReplyTo, "@navarch.host.example")) {
			t.Errorf("bob's orders completed the set-up: his request does not lead with their receipt, in reply to his mail:\n%s", m.Text)
		}
		n := 0
		for _, o := range mails {
			if o.To[0] == m.To[0] && !strings.Contains(o.Subject, "Orders accepted") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s got more than one mail: %v", m.To[0], subjects(mails))
		}
	}
	if asked != 1 {
		t.Errorf("%d requests after the set-up: %v", asked, subjects(mails))
	}
	f.send("bob@example.com", "KEY "+keys["bob@example.com"]+"\nNOSUCH MOVE 0101\nNOSUCH2 MOVE 0101")
	if m := find(f.outbox(), "bob@example.com", "refused"); m == nil || !strings.Contains(m.Subject, "refused: ") {
		t.Errorf("refused orders: %+v", m)
	}
}

// TestDigestCommand: DIGEST takes ON or OFF; anything else, or a referee's DIGEST, is
// answered and changes nothing.
func TestDigestCommand(t *testing.T) {
	f, keys := started(t)
	alice := "alice@example.org"
	for _, c := range []struct{ body, want string }{
		{"DIGEST\nKEY " + keys[alice], "Write REPORTS EACH"},
		{"DIGEST SOMETIMES\nKEY " + keys[alice], "Write REPORTS EACH"},
		{"REPORTS\nKEY " + keys[alice], "Write REPORTS EACH"},
		{"digest off\nKEY " + keys[alice], "Reports each"},
		{"REPORTS DIGEST\nKEY " + keys[alice], "Reports digest"},
		{"reports each\nKEY " + keys[alice], "Reports each"},
		{"DIGEST ON\nKEY " + keys[alice], "Reports digest"},
	} {
		f.send(alice, c.body)
		if m := find(f.outbox(), alice, "notice"); m == nil || !strings.Contains(m.Text, c.want) {
			t.Errorf("%q: answered %+v, want %q", c.body, m, c.want)
		}
	}
	f.ref("REPORTS EACH")
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(m.Text, "Reports each") {
		t.Errorf("a referee's REPORTS EACH: %+v", m)
	}
}

// TestNoticeSubject: a notice's subject says what it is, in one clipped line without
// control characters.
func TestNoticeSubject(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"You have joined the game.", "Waiting for: bob."}, "notice: You have joined the game."},
		{[]string{"", "Held:\nBAR-VEN1 MOVE 0711"}, "notice: Held:"},
		{[]string{"a\x1b[31m\u202eb"}, "notice: a [31m b"},
		{[]string{strings.Repeat("word ", 20)}, "notice: " + strings.TrimSpace(strings.Repeat("word ", 12)) + "…"},
		{nil, "notice"},
	} {
		if got := noticeSubject(c.lines); got != c.want {
			t.Errorf("noticeSubject(%q) = %q, want %q", c.lines, got, c.want)
		}
	}
	f, keys := started(t)
	f.send("bob@example.com", "HELP\nKEY "+keys["bob@example.com"])
	if m := find(f.outbox(), "bob@example.com", "notice: Lepanto 1571 orders"); m == nil {
		t.Error("HELP's answer does not say it is the order words")
	}
}
