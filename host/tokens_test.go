package host

import (
	"fmt"
	"strings"
	"testing"
)

// With reply tokens, a player's reply to the tokenized Reply-To needs no KEY line; the token
// from another address is refused and its player told; a new key (REPLACE) makes a new token.
func TestReplyTokens(t *testing.T) {
	f := newFixture(t)
	f.h.cfg.ReplyTokens = true
	f.outbox()
	tag, err := f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Referees: []string{"ref@example.net"},
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}})
	if err != nil {
		t.Fatal(err)
	}
	f.tag = tag
	welcome := f.outbox()
	w := find(welcome, "alice@example.org", "welcome")
	if w == nil || !strings.HasPrefix(w.ReplyTo, "navarch+") || !strings.HasSuffix(w.ReplyTo, "@host.example") ||
		!strings.Contains(w.Text, "needs no KEY line") {
		t.Fatalf("alice's welcome has no tokenized reply address: %+v", w)
	}
	r := find(welcome, "ref@example.net", "welcome")
	if r == nil || !strings.HasPrefix(r.ReplyTo, "navarch+") || r.ReplyTo == w.ReplyTo || !strings.Contains(r.Text, "needs no KEY line") {
		t.Fatalf("the referee's welcome has no tokenized reply address of its own: %+v", r)
	}
	reply := func(from, to, body string) {
		t.Helper()
		f.n++
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: [navarch %s] welcome\r\nMessage-ID: <t%d@example.org>\r\n\r\n%s\r\n", from, to, tag, f.n, body)
		if err := f.h.Handle([]byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	reply("mallory@example.net", w.ReplyTo, "JOIN")
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(flat(m.Text), "used your key (or your reply address)") {
		t.Errorf("alice was not told of a stranger using her reply address")
	}
	reply("bob@example.com", w.ReplyTo, "JOIN") // bob with alice's token: not his
	if m := find(f.outbox(), "bob@example.com", "notice"); m == nil || !strings.Contains(m.Text, "needs your key") {
		t.Errorf("bob joined with alice's token")
	}
	reply("alice@example.org", "navarch@host.example", "JOIN") // no token, no key
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(m.Text, "needs your key") {
		t.Errorf("alice joined without key or token")
	}
	reply("alice@example.org", w.ReplyTo, "JOIN")
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(m.Text, "Waiting for: bob") {
		t.Errorf("alice's reply to her token address was not applied")
	}
	reply("ref@example.net", w.ReplyTo, "REPLACE alice carol@example.org") // the referee with alice's token
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(flat(m.Text), "needs your referee key") {
		t.Errorf("the referee was not refused with a player's token: %+v", m)
	}
	reply("ref@example.net", r.ReplyTo, "REPLACE alice carol@example.org")
	mails := f.outbox()
	c := find(mails, "carol@example.org", "welcome")
	if c == nil || c.ReplyTo == "" || c.ReplyTo == w.ReplyTo {
		t.Fatalf("the new player's token: %+v (old %s)", c, w.ReplyTo)
	}
	reply("carol@example.org", w.ReplyTo, "STATUS") // the old token no longer counts
	if m := find(f.outbox(), "carol@example.org", "notice"); m == nil || !strings.Contains(m.Text, "needs your key") {
		t.Errorf("the old token still counts")
	}
}
