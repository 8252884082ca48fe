package host

import (
	"strings"
	"testing"

	"navarch/adjudicator/oinavarcoi"
	"navarch/mail"
)

// TestOiNavarcoiSignalsStaySecretByMail: Oi Navarcoi!'s pre-battle signal list, written with
// the secret deployment, reaches its own side's mail and no mail of the other side, nor the
// other side's copy of the log, through the whole host.
func TestOiNavarcoiSignalsStaySecretByMail(t *testing.T) {
	f, keys := joinedFixture(t, oinavarcoi.Ruleset, "clash")
	all := deployWithSignal(t, f, keys)
	f.send("bob@example.com", "LOG\nKEY "+keys["bob@example.com"])
	all = append(all, f.outbox()...)
	var alices int
	var bobsLog bool
	for _, m := range all {
		for _, a := range m.Attachments {
			bobsLog = bobsLog || m.To[0] == "bob@example.com" && strings.HasSuffix(a.Name, ".log") && strings.Contains(string(a.Data), "type sealed")
		}
		text := m.Text + m.HTML
		for _, a := range m.Attachments {
			text += string(a.Data)
		}
		switch m.To[0] {
		case "bob@example.com":
			if strings.Contains(text, "TURN-LEFT") {
				t.Errorf("a mail to sparta's player tells athens' signal list: %s", m.Subject)
			}
		case "alice@example.org":
			if strings.Contains(text, "TURN-LEFT") {
				alices++
			}
		}
	}
	if !bobsLog {
		t.Error("sparta's player got no copy of the log with the sealed deployment to search")
	}
	if alices == 0 {
		t.Error("no mail tells athens its own signal list back: the search proves nothing")
	}
}

// deployWithSignal answers Oi Navarcoi!'s deployment with each side's order form, alice's
// with a signal list (the hidden information that seals the state), and returns the mail
// that followed.
func deployWithSignal(t *testing.T, f *fixture, keys map[string]string) []mail.Outgoing {
	t.Helper()
	var all []mail.Outgoing
	for _, m := range f.outbox() {
		if !strings.Contains(m.Subject, "Your move") {
			continue
		}
		orders := formLines(t, m.Text)
		if m.To[0] == "alice@example.org" {
			orders += "\nSIGNAL TURN-LEFT WING LEFT"
		}
		f.send(m.To[0], orders+"\nKEY "+keys[m.To[0]])
		all = append(all, f.outbox()...)
	}
	return all
}
