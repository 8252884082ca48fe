package host

import (
	"strings"
	"testing"
)

// TestSubjectsForAPhone: the referee's commands each arrive under a subject of their own that
// says first what happened, the deadline in the recipient's zone, at most subjectMax
// characters with the game's tag in brackets.
func TestSubjectsForAPhone(t *testing.T) {
	f, _ := startedAs(t, false)
	for _, c := range []struct{ command, want string }{
		{"PAUSE", "] Paused by the referee"},
		{"RESUME", "] Resumed by the referee"},
		{"EXTEND 24", "] Deadline extended to "},
		{"REPLACE bob carol@example.net", "] A player replaced by the referee"},
	} {
		f.ref(c.command)
		mails := f.outbox()
		for _, who := range []string{"alice@example.org", "ref@example.net"} {
			m := find(mails, who, "announcement")
			if m == nil || !strings.Contains(m.Subject, c.want) {
				t.Errorf("%s: %s got %v, want a subject with %q", c.command, who, subjects(mails), c.want)
				continue
			}
			if n := len([]rune(m.Subject)); n > subjectMax {
				t.Errorf("%s: a subject of %d characters: %q", c.command, n, m.Subject)
			}
		}
		if c.command == "EXTEND 24" { // alice plays in Europe/Rome, the referee in UTC
			if a := find(mails, "alice@example.org", "announcement"); a == nil || !strings.HasSuffix(a.Subject, "CET") {
				t.Errorf("EXTEND: alice's subject is not in her zone: %v", subjects(mails))
			}
		}
	}
}

// TestSubjectsFit: a long step and headline are clipped, what the mail wants kept first
// and the turn's end kept whole.
func TestSubjectsFit(t *testing.T) {
	s := fitAround("lep-7f3a", "Your move by Fri 18:00 CET: Command and Control of E-MAIN (Main battle)", " · turn 2 over")
	if n := len([]rune("[navarch lep-7f3a] " + s)); n > subjectMax || !strings.HasPrefix(s, "Your move by Fri 18:00 CET: Comm") || !strings.HasSuffix(s, "… · turn 2 over") {
		t.Errorf("clipped to %q (%d characters)", s, n)
	}
	if got := refusedSubject("orders", nil); got != "Orders refused: 0 errors" {
		t.Errorf("refusedSubject: %q", got)
	}
	if got := shortWhat("action phase of group BAR (Agostino Barbarigo)"); got != "group BAR" {
		t.Errorf("shortWhat: %q", got)
	}
}
