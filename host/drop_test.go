package host

import (
	"fmt"
	"strings"
	"testing"

	"navarch/mail"
	"navarch/store"
)

// handle hands the host a mail of the given header lines (CRLF added) and body.
func (f *fixture) handle(body string, header ...string) {
	f.t.Helper()
	raw := strings.Join(header, "\r\n") + "\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n") + "\r\n"
	if err := f.h.Handle([]byte(raw)); err != nil {
		f.t.Fatalf("Handle: %v", err)
	}
}

// dropped are the notes of dropped mail, and the counts by reason.
func (f *fixture) dropped() ([]store.DroppedMail, map[string]int) {
	f.t.Helper()
	notes, err := f.h.Dropped("")
	if err != nil {
		f.t.Fatal(err)
	}
	fig, err := f.h.Figures()
	if err != nil {
		f.t.Fatal(err)
	}
	return notes, fig.Dropped
}

// TestOwnMailByItsMessageIDs: navarch knows its own mail by the MAC in the Message-IDs it
// wrote, not by their domain. A copy of its own mail coming back is dropped, noted and
// counted; a player's mail whose Message-ID is @ navarch's domain, in navarch's old form or
// with a forged MAC, is read as his.
func TestOwnMailByItsMessageIDs(t *testing.T) {
	f := newFixture(t)
	welcome := f.outbox()
	keys := playerKeys(welcome)
	alice := "alice@example.org"
	w := find(welcome, alice, "welcome")
	if !f.h.own(w.MessageID) || !strings.HasPrefix(w.MessageID, "1."+f.tag+".k") {
		t.Fatalf("the welcome's Message-ID %q is not known as ours", w.MessageID)
	}
	// Its own mail, delivered back to its mailbox as sent (From: navarch, its Message-ID), and
	// a copy of it from another address.
	f.handle(w.Text, "From: navarch@host.example", "To: "+alice, "Subject: "+w.Subject, "Message-ID: <"+w.MessageID+">")
	f.handle("Auto-forwarded copy", "From: archive@example.net", "Subject: [navarch "+f.tag+"] welcome", "Message-ID: <"+w.MessageID+">")
	if ms := f.outbox(); len(ms) != 0 {
		t.Fatalf("our own mail was answered: %v", subjects(ms))
	}
	notes, counts := f.dropped()
	if len(notes) != 2 || notes[0].Reason != DropOwn || notes[1].Reason != DropOwn || notes[1].Game != f.tag || counts[DropOwn] != 2 {
		t.Fatalf("own mail: notes %+v, counts %v", notes, counts)
	}
	// A player's mail @ navarch's domain: the old form of our Message-IDs, and a forged MAC.
	for i, id := range []string{"2." + f.tag + "@navarch.host.example", "3." + f.tag + ".k00112233445566778899@navarch.host.example",
		strings.Replace(w.MessageID, "1.", "9.", 1)} {
		if f.h.own(id) {
			t.Errorf("%s counts as ours", id)
		}
		f.handle(fmt.Sprintf("KEY %s\nSTATUS", keys[alice]), "From: "+alice, "Subject: [navarch "+f.tag+"]", "Message-ID: <"+id+">")
		if ms := f.outbox(); find(ms, alice, "status") == nil {
			t.Errorf("mail %d from a player with Message-ID %s was not answered: %v", i, id, subjects(ms))
		}
	}
}

// TestClubSharingNavarchsDomain: an installation whose players share its domain (the
// club's own server: "domain": "club.example", players @club.example) reads their mail,
// whose clients write Message-IDs @club.example, through the daemon's IMAP and SMTP: both
// JOINs are applied and the set-up is asked of both. (Before, every such mail was dropped
// as navarch's own, in silence.) A copy of navarch's own mail in its mailbox is dropped and
// noted.
func TestClubSharingNavarchsDomain(t *testing.T) {
	t.Parallel()
	c := newServed(t, "navarch@club.example", "club.example",
		[]PlayerSpec{{"alice", "christian", "alice@club.example", "UTC"}, {"bob", "ottoman", "bob@club.example", "UTC"}})
	ms := c.waitFor("welcome mails", func(ms []*mail.Incoming) bool { return len(ms) >= 2 })
	for i, who := range []string{"alice@club.example", "bob@club.example"} {
		w := has(ms, who, "welcome")
		if w == nil {
			t.Fatalf("no welcome for %s", who)
		}
		// As s-nail and mutt write it: a Message-ID @ the sender's domain, a reply's headers.
		c.deliver(fmt.Sprintf("From: %s\r\nTo: navarch@club.example\r\nSubject: Re: %s\r\nMessage-ID: <20261201090%d.Xy7Q%d@club.example>\r\n"+
			"In-Reply-To: <%s>\r\nReferences: <%s>\r\n\r\nJOIN\r\nKEY %s\r\n", who, w.Subject, i, i, w.MessageID, w.MessageID, keyRE.FindStringSubmatch(w.Text)[1]))
	}
	c.deliver(string(c.sent(t, 0)))
	ms = c.waitFor("the set-up asked of both", func(ms []*mail.Incoming) bool {
		return has(ms, "alice@club.example", "your move") != nil && has(ms, "bob@club.example", "your move") != nil
	})
	if has(ms, "navarch@club.example", "") != nil {
		t.Error("navarch mailed itself")
	}
	c.waitDrops(t, DropOwn, 1)
}

// TestMessageIDOfAnotherSender: processed mail is keyed by sender and Message-ID, so a
// Message-ID that another sender used before (a careless client, another game's player)
// does not make a player's mail count as handled: both JOINs, under one Message-ID, are
// applied. The same sender's copy is dropped as a duplicate, counted.
func TestMessageIDOfAnotherSender(t *testing.T) {
	f := newFixture(t)
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.handle("JOIN\nKEY "+keys[who], "From: "+who, "Subject: [navarch "+f.tag+"]", "Message-ID: <same@mail.example>")
		if ms := f.outbox(); find(ms, who, "joined") == nil {
			t.Fatalf("%s's JOIN under a Message-ID used before was not answered: %v", who, subjects(ms))
		}
	}
	f.handle("JOIN\nKEY "+keys["bob@example.com"], "From: bob@example.com", "Subject: [navarch "+f.tag+"]", "Message-ID: <same@mail.example>")
	if ms := f.outbox(); len(ms) != 0 {
		t.Errorf("a copy of a mail handled before was answered: %v", subjects(ms))
	}
	if _, counts := f.dropped(); counts[DropDuplicate] != 1 {
		t.Errorf("drop counts %v, want one duplicate", counts)
	}
}

// TestBulkHeadersOnKeyedOrders: X-Auto-Response-Suppress and Precedence: bulk ask others
// not to answer automatically; they do not make a player's keyed orders automatic. His
// orders are applied and receipted; the same headers on mail that does not authenticate (a
// stranger's, a wrong key) drop it unanswered, noted as bulk.
func TestBulkHeadersOnKeyedOrders(t *testing.T) {
	f, keys, asked, other, _, _ := afterSetUp(t)
	f.outbox()
	side := map[bool]string{true: "christian", false: "ottoman"}[asked == "alice@example.org"]
	orders := f.botOrders(side)
	if orders == "" {
		orders = "NONE"
	}
	f.handle("KEY "+keys[other]+"\nSTATUS", "From: "+other, "Subject: Re: [navarch "+f.tag+"] orders due", "Message-ID: <s1@mail.example>",
		"X-Auto-Response-Suppress: All")
	if find(f.outbox(), other, "status") == nil {
		t.Error("a keyed STATUS with X-Auto-Response-Suppress was not answered")
	}
	f.handle("KEY "+keys[asked]+"\n"+orders, "From: "+asked, "Subject: Re: [navarch "+f.tag+"] orders due", "Message-ID: <o1@mail.example>",
		"X-Auto-Response-Suppress: All", "Precedence: bulk")
	ms := f.outbox()
	if r := find(ms, asked, "orders accepted"); r == nil || !strings.Contains(r.Text, strings.Fields(orders)[0]) {
		t.Fatalf("keyed orders with Precedence: bulk were not applied: %v", subjects(ms))
	}
	f.handle("KEY not-the-key\nNONE", "From: "+other, "Subject: [navarch "+f.tag+"]", "Message-ID: <o2@mail.example>", "Precedence: bulk")
	f.handle("hello", "From: eve@example.net", "Subject: [navarch "+f.tag+"]", "Message-ID: <e1@mail.example>", "X-Auto-Response-Suppress: OOF")
	if ms := f.outbox(); len(ms) != 0 {
		t.Errorf("bulk mail that did not authenticate was answered: %v", subjects(ms))
	}
	// The header asks not to answer the sender; the player whose key a stranger used is told.
	f.handle("KEY "+keys[asked]+"\nNONE", "From: eve@example.net", "Subject: [navarch "+f.tag+"]", "Message-ID: <e2@mail.example>", "Precedence: bulk")
	if ms := f.outbox(); len(ms) != 1 || ms[0].To[0] != asked || !strings.Contains(flat(ms[0].Text), "eve@example.net used your key") {
		t.Errorf("the player whose key a stranger's bulk mail used was not told: %v", subjects(ms))
	}
	notes, counts := f.dropped()
	if len(notes) != 3 || notes[0].From != other || notes[1].From != "eve@example.net" || counts[DropBulk] != 3 {
		t.Errorf("notes %+v, counts %v", notes, counts)
	}
	if game, _ := f.h.Dropped(f.tag); len(game) != 3 {
		t.Errorf("the game's dropped mail: %+v", game)
	}
}
