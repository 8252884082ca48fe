package host

import (
	"regexp"
	"strings"
	"testing"

	"navarch/mail"
)

// groupRequest starts a Lepanto game, sends both set-ups and returns the first request for
// orders of a group activation.
func groupRequest(t *testing.T) (*fixture, map[string]string, *mail.Outgoing) {
	t.Helper()
	f, keys := started(t)
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "NONE\nKEY "+keys[who]) // the set-up
	}
	for _, m := range f.outbox() {
		if strings.Contains(m.Subject, "orders due") {
			return f, keys, &m
		}
	}
	t.Fatal("no request after the set-up")
	return nil, nil, nil
}

// TestEveryErrorInOnePass: a typo on line 1 hides none of the three illegal lines after it;
// the one answer lists all four, each by its line (issue 15.3).
func TestEveryErrorInOnePass(t *testing.T) {
	f, keys, req := groupRequest(t)
	who := req.To[0]
	group := regexp.MustCompile(`group ([A-Z]+) `).FindStringSubmatch(req.Text)[1]
	unit := map[string]string{"BAR": "BAR-VEN1", "CAN": "CAN-CAN1", "BRA": "BRA-OLT1", "QUE": "QUE-GEN",
		"SIR": "SIR-ALI", "MEH": "MEH-EUB1", "AGA": "AGA-ANA1", "SUL": "SUL-MUS"}[group]
	enemy := map[bool]string{true: "SIR-ALI", false: "BAR-VEN1"}[who == "alice@example.org"]
	f.send(who, "KEY "+keys[who]+"\n"+unit+" MOOVE 0711\n"+unit+" MOVE 0101\n"+enemy+" PASS\nNOSUCH-1 PASS")
	mails := f.outbox()
	if len(mails) != 1 || !strings.Contains(mails[0].Subject, "not accepted") {
		t.Fatalf("want one refusal, got %v", subjects(mails))
	}
	text := mails[0].Text
	for _, want := range []string{"MOOVE 0711", "MOVE 0101", enemy + " PASS", "NOSUCH-1 PASS"} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer does not name the line %q:\n%s", want, text)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^\s*line \d+`).FindAllString(text, -1)); n != 4 {
		t.Errorf("%d errors by line, want 4:\n%s", n, text)
	}
}
