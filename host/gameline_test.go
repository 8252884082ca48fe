package host

import (
	"strings"
	"testing"
)

// TestGameLineNamingNoGameHere: a GAME line naming a game that does not exist is refused,
// naming the sender's games; it is not applied to his only game (which the subject, here,
// names too: the GAME line is the sender's last word). A GAME line naming another's game
// is refused the same way.
func TestGameLineNamingNoGameHere(t *testing.T) {
	f, keys, asked, _, _, _ := afterSetUp(t)
	f.outbox()
	f.handle("GAME lep-0000\nKEY "+keys[asked]+"\nNONE", "From: "+asked, "Subject: Re: [navarch "+f.tag+"] orders due", "Message-ID: <g1@mail.example>")
	ms := f.outbox()
	if len(ms) != 1 || ms[0].To[0] != asked {
		t.Fatalf("answers %v", subjects(ms))
	}
	text := flat(ms[0].Text)
	if !strings.Contains(text, `game "lep-0000" on its GAME line, and there is no such game here`) || !strings.Contains(text, "Your games here: "+f.tag+".") {
		t.Errorf("the refusal does not name the game and the sender's games:\n%s", ms[0].Text)
	}
	if strings.Contains(text, "accepted") {
		t.Errorf("the orders were applied:\n%s", ms[0].Text)
	}
	// The same orders without the GAME line are the orders of his game.
	f.handle("KEY "+keys[asked]+"\nNONE", "From: "+asked, "Subject: Re: [navarch "+f.tag+"] orders due", "Message-ID: <g2@mail.example>")
	if find(f.outbox(), asked, "orders accepted") == nil {
		t.Error("the orders were not applied without the GAME line")
	}
}

// TestReplyToClosedStep: orders sent in reply to the request of a step that is closed are
// read for the step open now, and the answer says that the request they answer is closed
// and which step is open; a reply to the open step's request says nothing of the kind.
func TestReplyToClosedStep(t *testing.T) {
	f := newFixture(t)
	f.each()
	keys := playerKeys(f.outbox())
	alice, bob := "alice@example.org", "bob@example.com"
	f.send(alice, "JOIN\nKEY "+keys[alice])
	f.send(bob, "JOIN\nKEY "+keys[bob])
	setUp := map[string]string{} // the set-up: both sides asked
	for _, m := range f.outbox() {
		if strings.Contains(m.Subject, "Your move") {
			setUp[m.To[0]] = m.MessageID
		}
	}
	f.send(alice, "KEY "+keys[alice]+"\nNONE")
	f.send(bob, "KEY "+keys[bob]+"\nNONE")
	var asked, request string
	for _, m := range f.outbox() {
		if strings.Contains(m.Subject, "Your move") && m.To[0] != "ref@example.net" {
			asked, request = m.To[0], m.MessageID
		}
	}
	if asked == "" || setUp[asked] == "" {
		t.Fatalf("no set-up request and next request: %v, %q", setUp, asked)
	}
	side := map[bool]string{true: "christian", false: "ottoman"}[asked == alice]
	f.handle("KEY "+keys[asked]+"\nCHECK\n"+f.botOrders(side), "From: "+asked, "Subject: Re: [navarch "+f.tag+"] orders due", "Message-ID: <c1@mail.example>",
		"In-Reply-To: <"+request+">", "References: <"+setUp[asked]+"> <"+request+">")
	if r := find(f.outbox(), asked, "orders checked"); r == nil || strings.Contains(r.Text, "is closed") {
		t.Errorf("a reply to the open step's request: %+v", r)
	}
	f.handle("KEY "+keys[asked]+"\nNONE", "From: "+asked, "Subject: Re: [navarch "+f.tag+"] orders due", "Message-ID: <c2@mail.example>",
		"In-Reply-To: <"+setUp[asked]+">", "References: <"+setUp[asked]+">")
	r := find(f.outbox(), asked, "orders accepted")
	if r == nil {
		t.Fatal("the orders sent in reply to the closed step's request were not applied to the open step")
	}
	text := flat(r.Text)
	if !strings.Contains(text, "The request your mail answers (turn 1, activation 0) is closed") || !strings.Contains(text, "Your mail was read for the step open now: turn 1, activation") {
		t.Errorf("the receipt does not say that the request it answers is closed:\n%s", r.Text)
	}
	if !strings.Contains(r.HTML, "is closed") {
		t.Errorf("the receipt's HTML does not say so")
	}
}
