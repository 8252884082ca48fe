package host

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// sendDated sends a mail with a Date header: when the player wrote it.
func (f *fixture) sendDated(from string, written time.Time, body string) {
	f.t.Helper()
	f.n++
	raw := fmt.Sprintf("From: %s\r\nSubject: Re: [navarch %s] T1\r\nDate: %s\r\nMessage-ID: <d%d@example.org>\r\n\r\n%s",
		from, f.tag, written.Format(time.RFC1123Z), f.n, strings.ReplaceAll(body, "\n", "\r\n"))
	if err := f.h.Handle([]byte(raw)); err != nil {
		f.t.Fatalf("Handle: %v", err)
	}
}

// Mail can arrive out of order: orders written before those in place, current or advance,
// do not replace them, however late they arrive (the Eressea practice); a fast clock does
// not make later mail look older.
func TestOlderOrdersDoNotReplaceNewer(t *testing.T) {
	f, keys := started(t)
	alice, bob := "alice@example.org", "bob@example.com"
	at := func(min int) time.Time { return f.now.Add(time.Duration(min) * time.Minute) }
	// The set-up asks both sides; alice's orders stand until bob answers.
	f.sendDated(alice, at(-10), "KEY "+keys[alice]+"\nBARBARIGO ON BAR-LANT HIDDEN")
	f.sendDated(alice, at(-20), "KEY "+keys[alice]+"\nNONE")
	if m := find(f.outbox(), alice, "notice"); m == nil || !strings.Contains(flat(m.Text), "do not replace them") || !strings.Contains(flat(m.Text), "record #") {
		t.Fatalf("older set-up orders were not refused")
	}
	f.sendDated(alice, at(60), "KEY "+keys[alice]+"\nBARBARIGO ON BAR-LANT HIDDEN") // a clock an hour fast: taken as written on arrival
	f.outbox()
	f.now = f.now.Add(10 * time.Minute)
	f.sendDated(alice, at(-5), "KEY "+keys[alice]+"\nNONE") // written after the fast mail arrived
	if m := find(f.outbox(), alice, "accepted"); m == nil {
		t.Fatalf("orders written after a fast-clock mail arrived were refused")
	}
	f.send(bob, "KEY "+keys[bob]+"\nNONE")
	pending := f.outbox()
	f.now = f.now.Add(10 * time.Minute) // advance orders are written after the set-up was resolved (else stale)
	// The side not asked now sends advance orders; older ones then do not replace them.
	other, unit := alice, "BAR-VEN1"
	if find(pending, alice, "your move") != nil {
		other, unit = bob, "SIR-EGY1"
	}
	f.sendDated(other, at(-2), "KEY "+keys[other]+"\n"+unit+" PASS")
	if m := find(f.outbox(), other, "notice"); m == nil || !strings.Contains(m.Text, "held as advance orders") {
		t.Fatalf("advance orders were not held: %+v", m)
	}
	f.sendDated(other, at(-5), "KEY "+keys[other]+"\n"+unit+" PASS")
	if m := find(f.outbox(), other, "notice"); m == nil || !strings.Contains(flat(m.Text), "before the advance orders held now") {
		t.Fatalf("older advance orders were not refused: %+v", m)
	}
	f.checkLog()
}
