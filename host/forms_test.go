package host

import (
	"fmt"
	"navarch/adjudicator"
	"navarch/store"
	"regexp"
	"strings"
	"testing"

	"navarch/mail"
	"navarch/test/racesplit"
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
		if strings.Contains(m.Subject, "Your move") {
			return f, keys, &m
		}
	}
	t.Fatal("no request after the set-up")
	return nil, nil, nil
}

// TestEveryErrorInOnePass: a typo on line 1 hides none of the three illegal lines after it;
// the one answer lists all four, each by its line.
func TestEveryErrorInOnePass(t *testing.T) {
	f, keys, req := groupRequest(t)
	who := req.To[0]
	group := regexp.MustCompile(`group ([A-Z]+) `).FindStringSubmatch(req.Text)[1]
	unit := map[string]string{"BAR": "BAR-VEN1", "CAN": "CAN-CAN1", "BRA": "BRA-OLT1", "QUE": "QUE-GEN",
		"SIR": "SIR-ALI", "MEH": "MEH-EUB1", "AGA": "AGA-ANA1", "SUL": "SUL-MUS"}[group]
	enemy := map[bool]string{true: "SIR-ALI", false: "BAR-VEN1"}[who == "alice@example.org"]
	f.send(who, "KEY "+keys[who]+"\n"+unit+" MOOVE 0711\n"+unit+" MOVE 0101\n"+enemy+" PASS\nNOSUCH-1 PASS")
	mails := f.outbox()
	if len(mails) != 1 || !strings.Contains(mails[0].Subject, "refused") {
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
	if n := strings.Count(text, "legal here:"); n != 4 {
		t.Errorf("%d errors say what is legal, want 4:\n%s", n, text)
	}
}

// formLines are the pre-filled lines of a request's order form.
func formLines(t *testing.T, text string) string {
	t.Helper()
	_, form, ok := strings.Cut(text, "edited to your orders, and your key:\n\n")
	form, _, ok2 := strings.Cut(form, "\n\nReply with")
	if !ok || !ok2 || strings.TrimSpace(form) == "" {
		t.Fatalf("the request has no order form:\n%s", text)
	}
	return form
}

// TestRequestIsAnOrderForm: a request for a group's orders lists the group's units with hex,
// facing, allowance and what each may do, says the no-orders default, and carries
// pre-filled lines that, sent back unchanged, are accepted.
func TestRequestIsAnOrderForm(t *testing.T) {
	f, keys, req := groupRequest(t)
	who := req.To[0]
	group := regexp.MustCompile(`group ([A-Z]+) `).FindStringSubmatch(req.Text)[1]
	units := regexp.MustCompile(`(?m)^  (`+group+`-[A-Z0-9]+) at (\d{4}), facing [A-Z]+, \d+ MP`).FindAllStringSubmatch(req.Text, -1)
	if len(units) == 0 {
		t.Fatalf("the request lists no unit of group %s with hex, facing and MP:\n%s", group, req.Text)
	}
	for _, want := range []string{"If you send no orders: the group's units hold", "MOVE to "} {
		if !strings.Contains(req.Text, want) {
			t.Errorf("the request lacks %q:\n%s", want, req.Text)
		}
	}
	if !strings.Contains(req.HTML, `<b><span style="white-space: nowrap">`+units[0][1]+"</span></b> at "+units[0][2]) {
		t.Errorf("the HTML part does not list %s:\n%s", units[0][1], req.HTML)
	}
	form := formLines(t, req.Text)
	for _, u := range units {
		if !strings.Contains(form, u[1]+" ") {
			t.Errorf("the form has no line for %s:\n%s", u[1], form)
		}
	}
	f.send(who, "KEY "+keys[who]+"\n"+form)
	if m := find(f.outbox(), who, "orders accepted"); m == nil {
		t.Fatalf("the order form sent back unchanged was not accepted")
	} else if !strings.Contains(flat(m.Text), "No advance orders are held for your side.") {
		t.Errorf("the receipt does not say that no advance orders are held:\n%s", m.Text)
	}
}

// TestReceiptAndReportSayWhatIsHeld: orders for the step with advance orders along are
// receipted with the advance orders held; when the advance orders are used, the report says
// so, with the step and the record.
func TestReceiptAndReportSayWhatIsHeld(t *testing.T) {
	f, keys, req := groupRequest(t)
	alice := "alice@example.org"
	unit := map[string]string{"CAN": "CAN-CAN1", "BRA": "BRA-OLT1", "QUE": "QUE-GEN"}
	pending := []mail.Outgoing{*req}
	var due string
	for i := 0; i < 40 && due == ""; i++ {
		var next []mail.Outgoing
		for _, m := range pending {
			if !strings.Contains(m.Subject, "Your move") {
				continue
			}
			group := regexp.MustCompile(`group ([A-Z]+) `).FindStringSubmatch(m.Text)
			if m.To[0] == alice && group != nil && unit[group[1]] != "" {
				due = unit[group[1]]
				break
			}
			f.send(m.To[0], "NONE\nKEY "+keys[m.To[0]])
			next = append(next, f.outbox()...)
		}
		pending = next
	}
	if due == "" {
		t.Fatal("alice was never asked for a group other than BAR")
	}
	f.send(alice, "KEY "+keys[alice]+"\n"+due+" PASS\nBAR-VEN1 MOVE 0711")
	mails := f.outbox()
	r := find(mails, alice, "orders accepted")
	if r == nil || !strings.Contains(r.Text, "Held as advance orders") || !strings.Contains(r.Text, "BAR-VEN1 MOVE 0711") {
		t.Fatalf("the receipt does not say the advance orders held: %v\n%v", subjects(mails), r)
	}
	used := false
	for i := 0; i < 60 && !used; i++ {
		for _, m := range mails {
			if m.To[0] == alice && mailIs(m, "report") && strings.Contains(m.Text, "your advance orders were used, as record #") {
				used = strings.Contains(m.Text, "BAR-VEN1 MOVE 0711")
			}
		}
		var next []mail.Outgoing
		for _, m := range mails {
			if strings.Contains(m.Subject, "Your move") {
				f.send(m.To[0], "NONE\nKEY "+keys[m.To[0]])
				next = append(next, f.outbox()...)
			}
		}
		mails = next
	}
	if !used {
		t.Error("no report said the advance orders were used")
	}
}

// botOrders is the order text the ruleset's bot would send now for side.
func (f *fixture) botOrders(side string) string {
	f.t.Helper()
	var text string
	f.s.View(func(tx *store.Tx) error {
		eng, err := f.h.engine(tx, f.gameID())
		if err != nil {
			f.t.Fatal(err)
		}
		text = eng.(adjudicator.Bot).BotOrders(side)
		return nil
	})
	return text
}

// TestReportsSayNoEffect: played by the bot through the daemon, Lepanto's fire results read
// as words in the reports: "no effect", never the code "NE" that reads as a direction (5.5.1).
func TestReportsSayNoEffect(t *testing.T) {
	racesplit.Long(t) // on one goroutine (Handle on the test's): the detector finds nothing
	f, keys, req := groupRequest(t)
	side := map[string]string{"alice@example.org": "christian", "bob@example.com": "ottoman"}
	code := regexp.MustCompile(`(d6 \d+|speed \d+|\)|-damage): NE\b`)
	mails, fires, words := []mail.Outgoing{*req}, 0, 0
	for i := 0; i < 150 && words == 0 && len(mails) > 0; i++ {
		var next []mail.Outgoing
		for _, m := range mails {
			if mailIs(m, "report") {
				for _, l := range strings.Split(m.Text, "\n") {
					if strings.Contains(l, "fire: ") {
						fires++
					}
					if strings.Contains(l, "fire: ") && strings.Contains(l, ": no effect") {
						words++
					}
					if code.MatchString(l) {
						t.Errorf("a report shows the code NE: %s", l)
					}
				}
			}
		}
		for _, m := range mails {
			if strings.Contains(m.Subject, "Your move") {
				orders := f.botOrders(side[m.To[0]])
				if orders == "" {
					orders = "NONE"
				}
				f.send(m.To[0], orders+"\nKEY "+keys[m.To[0]])
				next = append(next, f.outbox()...)
			}
		}
		mails = next
	}
	if words == 0 {
		t.Fatalf("no fire result with no effect was reported (%d fire lines)", fires)
	}
}

// TestWrongKeyAnsweredAsWrongKey: a mail with a wrong key is told its key is wrong; one with
// no key is told it needs one.
func TestWrongKeyAnsweredAsWrongKey(t *testing.T) {
	f, _ := started(t)
	f.send("alice@example.org", "STATUS\nKEY wrong-wrong")
	if m := find(f.outbox(), "alice@example.org", ""); m == nil || !strings.Contains(flat(m.Text), "the key on its KEY line is not your key for game "+f.tag) {
		t.Errorf("a wrong key was not answered as a wrong key: %+v", m)
	}
	f.send("alice@example.org", "STATUS")
	if m := find(f.outbox(), "alice@example.org", ""); m == nil || !strings.Contains(flat(m.Text), "it needs your key") {
		t.Errorf("a missing key was not answered as a missing key: %+v", m)
	}
}

// TestOnlyGameAnswered: a player in exactly one game whose mail names a wrong tag, or none,
// is answered about that game; a sender in two games is asked to name one.
func TestOnlyGameAnswered(t *testing.T) {
	f, keys := started(t)
	for i, subject := range []string{"Re: [navarch lep-0000] status", "my orders"} {
		raw := fmt.Sprintf("From: alice@example.org\r\nTo: navarch@host.example\r\nSubject: %s\r\nMessage-ID: <only%d@example.org>\r\n\r\nSTATUS\r\nKEY %s\r\n",
			subject, i, keys["alice@example.org"])
		if err := f.h.Handle([]byte(raw)); err != nil {
			t.Fatal(err)
		}
		m := find(f.outbox(), "alice@example.org", "")
		if m == nil || !strings.Contains(m.Subject, f.tag) || !strings.Contains(m.Text, "The game waits for:") {
			t.Errorf("subject %q: not answered about alice's game %s: %+v", subject, f.tag, m)
		}
	}
	other, err := f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"carol", "ottoman", "carol@example.com", "UTC"}}})
	if err != nil || other == f.tag {
		t.Fatal(err)
	}
	f.outbox()
	raw := "From: alice@example.org\r\nTo: navarch@host.example\r\nSubject: my orders\r\nMessage-ID: <two@example.org>\r\n\r\nSTATUS\r\nKEY " + keys["alice@example.org"] + "\r\n"
	if err := f.h.Handle([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	if m := find(f.outbox(), "alice@example.org", ""); m == nil || !strings.Contains(m.Text, "names no game") {
		t.Errorf("a player of two games was not asked to name one: %+v", m)
	}
}
