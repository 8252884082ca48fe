package host

import (
	"strings"
	"testing"
)

// TestZone: ZONE sets the sender's time zone, a referee's as a player's; the next mail that
// gives a deadline shows it in that zone beside UTC; a name that is no zone is answered
// and changes nothing.
func TestZone(t *testing.T) {
	f, keys := started(t)
	f.ref("EXTEND 1")
	if m := find(f.outbox(), "ref@example.net", "announcement"); m == nil || strings.Contains(m.Text, "Asia/Tokyo") || strings.Contains(m.Text, "JST") {
		t.Fatalf("before ZONE: %v", m)
	}
	f.ref("ZONE Asia/Tokyo")
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(m.Text, "Your time zone is now Asia/Tokyo") {
		t.Fatalf("ZONE was not acknowledged: %v", m)
	}
	f.send("bob@example.com", "ZONE Mars/Olympus\nKEY "+keys["bob@example.com"])
	if m := find(f.outbox(), "bob@example.com", "notice"); m == nil || !strings.Contains(m.Text, `"Mars/Olympus" is not a time zone`) {
		t.Fatalf("a bad zone was not refused: %v", m)
	}
	f.send("bob@example.com", "ZONE Australia/Perth\nKEY "+keys["bob@example.com"])
	f.outbox()
	f.ref("EXTEND 1")
	mails := f.outbox()
	for who, want := range map[string]string{"ref@example.net": "JST in Asia/Tokyo", "bob@example.com": "AWST in Australia/Perth", "alice@example.org": "in Europe/Rome"} {
		if m := find(mails, who, "announcement"); m == nil || !strings.Contains(m.Text, want) {
			t.Errorf("%s's announcement does not say %q: %v", who, want, m)
		}
	}
}
