package host

import (
	"regexp"
	"strings"
	"testing"
)

// TestReportsHeadedByTheirSteps: a report is headed with the steps its records were
// resolved in (the set-up, turn 1 activation 0, then the draw, activation 1), not with the
// step the game waits for next (activation 2), in both parts; its subject names the step
// awaited as the request does.
func TestReportsHeadedByTheirSteps(t *testing.T) {
	f, keys := started(t)
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "NONE\nKEY "+keys[who])
	}
	mails := f.outbox()
	r := find(mails, "ref@example.net", "report")
	if r == nil {
		t.Fatalf("no report for the referee: %v", subjects(mails))
	}
	info := regexp.MustCompile(`turn (\d+)\nactivation (\d+)\n`).FindStringSubmatch(r.Text)
	if info == nil || info[1] != "1" || info[2] == "1" {
		t.Fatalf("the report's info block is not at the step awaited after the draw: %v\n%s", info, r.Text)
	}
	if !strings.Contains(r.Text, "what happened in turn 1, activation 0") || !strings.Contains(r.Text, "then in turn 1, activation 1:") ||
		strings.Contains(r.Text, "happened in turn 1, activation "+info[2]) {
		t.Errorf("the report is not headed with its steps (the game waits for activation %s):\n%s", info[2], r.Text)
	}
	if html := stripTags(r.HTML); !strings.Contains(html, "What happened in turn 1, activation 1") {
		t.Errorf("the HTML report is not headed with its step:\n%s", html)
	}
}

// TestGameOverNumberedByItsEnd: the game-over mail (and the report that goes with it) is
// numbered by the game's last step, not "turn 0, activation 0".
func TestGameOverNumberedByItsEnd(t *testing.T) {
	f, keys := started(t)
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "NONE\nKEY "+keys[who])
	}
	// The last step resolved is the last one the referee's report is headed with; the game
	// then waits for the next, which ENDGAME leaves unresolved.
	heads := regexp.MustCompile(`in turn (\d+), activation (\d+)`).FindAllStringSubmatch(find(f.outbox(), "ref@example.net", "report").Text, -1)
	last := heads[len(heads)-1]
	f.ref("ENDGAME drawn by agreement")
	mails := f.outbox()
	m := find(mails, "alice@example.org", "game over")
	if m == nil {
		t.Fatalf("no game-over mail: %v", subjects(mails))
	}
	if !strings.Contains(m.Text, "\nturn "+last[1]+"\nactivation "+last[2]+"\n") || strings.Contains(m.Text, "turn 0") {
		t.Errorf("the game-over mail is not numbered by the game's end (turn %s, activation %s):\n%s", last[1], last[2], m.Text)
	}
	if html := stripTags(m.HTML); !strings.Contains(html, "turn "+last[1]+", game over") || strings.Contains(html, "turn 0") {
		t.Errorf("the game-over mail's HTML is not headed with the game's end:\n%s", html)
	}
}

// stripTags is the text of an HTML part as a reader sees it.
func stripTags(html string) string { return regexp.MustCompile(`<[^>]*>`).ReplaceAllString(html, "") }

// TestReplaceTakesOver: the player who takes over a side in play is greeted by his own
// name, told where the game stands, what is due from him (the request, with the map) and
// his side's state of play, and needs no JOIN; a JOIN from him, or to a game that is over,
// is answered as such, not "joined already".
func TestReplaceTakesOver(t *testing.T) {
	f, keys := started(t) // the set-up waits for both sides
	f.send("bob@example.com", "NONE\nKEY "+keys["bob@example.com"])
	f.outbox()
	f.ref("REPLACE bob Carol@Example.net Asia/Tokyo")
	mails := f.outbox()
	w := find(mails, "carol@example.net", "you take over ottoman (bob)")
	if w == nil {
		t.Fatalf("no take-over welcome for carol: %v", subjects(mails))
	}
	text := flat(w.Text)
	for _, want := range []string{"Dear Carol (ottoman),", "you take over the side ottoman", "in turn 1, activation 0",
		"call the side's player bob", "The game waits for set-up", "due by", "Orders of your side for this step were received",
		"You need not JOIN", "--- your move ---", "Your secret order key:"} {
		if !strings.Contains(text, want) {
			t.Errorf("carol's welcome lacks %q:\n%s", want, w.Text)
		}
	}
	for _, bad := range []string{"Dear bob", "reply with the word JOIN"} {
		if strings.Contains(text, bad) || strings.Contains(stripTags(w.HTML), bad) {
			t.Errorf("carol's welcome says %q:\n%s", bad, w.Text)
		}
	}
	if len(w.Attachments) == 0 || w.Attachments[0].ContentType != "image/png" {
		t.Errorf("carol's welcome carries no map: %+v", w.Attachments)
	}
	carol := keyRE.FindStringSubmatch(w.Text)[1]
	f.send("carol@example.net", "JOIN\nKEY "+carol)
	if m := find(f.outbox(), "carol@example.net", "notice"); m == nil || !strings.Contains(m.Text, "You need not JOIN") || strings.Contains(m.Text, "joined this game already") {
		t.Errorf("carol's JOIN: %+v", m)
	}
	f.ref("ENDGAME")
	f.outbox()
	f.send("alice@example.org", "JOIN\nKEY "+keys["alice@example.org"])
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(m.Text, "is over; there is nothing to join") {
		t.Errorf("a JOIN to an ended game: %+v", m)
	}
}

// TestReplaceBeforePlay: before play, a side whose player has joined is taken over without
// a JOIN (play waits for the others); a side whose player has not is welcomed as a new
// player, greeted by his own name, who JOINs to start.
func TestReplaceBeforePlay(t *testing.T) {
	f := newFixture(t)
	keys := playerKeys(f.outbox())
	f.send("alice@example.org", "JOIN\nKEY "+keys["alice@example.org"])
	f.outbox()
	f.ref("REPLACE alice Dave@example.net")
	f.ref("REPLACE bob erin@example.net")
	mails := f.outbox()
	if w := find(mails, "dave@example.net", "welcome: you take over christian (alice)"); w == nil ||
		!strings.Contains(flat(w.Text), "Dear Dave (christian), you take over the side christian") ||
		!strings.Contains(flat(w.Text), "before play begins") || !strings.Contains(flat(w.Text), "waiting for: bob.") ||
		strings.Contains(w.Text, "reply with the word JOIN") {
		t.Errorf("dave's take-over of a joined side before play: %v\n%+v", subjects(mails), w)
	}
	if w := find(mails, "erin@example.net", "welcome"); w == nil || !strings.HasPrefix(w.Text, "Dear erin (ottoman),") ||
		!strings.Contains(w.Text, "To start, reply with the word JOIN") {
		t.Errorf("erin's welcome to a side not joined: %+v", w)
	}
}
