package host

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/gamelog"
	"navarch/ledger/ledgertest"
	"navarch/mail"
	"navarch/rulesets"
	"navarch/store"
)

// testMaps are the maps cmd/navarch gives the host.
var testMaps = rulesets.Maps(rulesets.List)

type fixture struct {
	t    testing.TB
	s    *store.Store
	h    *Host
	now  time.Time
	tag  string
	sent int // outbox entries taken so far
	n    int // mails sent to the host
}

func newFixture(t *testing.T) *fixture { return newFixtureTB(t) }

// bareHostFixture is a fixture on a new store (no sync) at the fixtures' clock, without a
// host yet: the fixture functions give it theirs.
func bareHostFixture(t testing.TB) *fixture {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &fixture{t: t, s: s, now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
}

func newFixtureTB(t testing.TB) *fixture {
	t.Helper()
	f := bareHostFixture(t)
	s := f.s
	var err error
	f.h = New(s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example",
		Now: func() time.Time { return f.now }, Rand: ledgertest.Rand(t.Name())}, slog.New(slog.DiscardHandler))
	f.tag, err = f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Referees: []string{"ref@example.net"},
		Players: []PlayerSpec{{"alice", "christian", "Alice@Example.org", "Europe/Rome"}, {"bob", "ottoman", "bob@example.com", "America/New_York"}}})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// bareFixture is a host of ruleset rs on a fresh store, without a game, its clock f.now.
func bareFixture(t *testing.T, rs adjudicator.Ruleset) *fixture {
	t.Helper()
	f := bareHostFixture(t)
	s := f.s
	f.h = New(s, []adjudicator.Ruleset{rs}, Config{Address: "navarch@host.example", Domain: "navarch.host.example",
		Now: func() time.Time { return f.now }, Rand: ledgertest.Rand(t.Name())}, slog.New(slog.DiscardHandler))
	return f
}

// joinedFixture is a game of ruleset rs on scenario (its first if ""), without referee,
// alice playing its first side and bob its second, both joined; the mails since the join are
// still in the outbox. It returns the players' keys by address.
func joinedFixture(t *testing.T, rs adjudicator.Ruleset, scenario string) (*fixture, map[string]string) {
	t.Helper()
	f := bareFixture(t, rs)
	var err error
	sc := rs.Scenarios()[0]
	for _, c := range rs.Scenarios() {
		if c.ID == scenario {
			sc = c
		}
	}
	if f.tag, err = f.h.CreateGame(GameSpec{Ruleset: rs.ID(), Scenario: sc.ID, Players: []PlayerSpec{
		{"alice", sc.Sides[0], "alice@example.org", "UTC"}, {"bob", sc.Sides[1], "bob@example.com", "UTC"}}}); err != nil {
		t.Fatal(err)
	}
	keys := playerKeys(f.outbox())
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	return f, keys
}

// outbox returns the mails queued since the last call.
func (f *fixture) outbox() []mail.Outgoing {
	f.t.Helper()
	var out []mail.Outgoing
	f.s.View(func(tx *store.Tx) error {
		for _, e := range store.Outbox(tx)[f.sent:] {
			o, err := mail.UnmarshalOutgoing(e.Mail)
			if err != nil {
				f.t.Fatal(err)
			}
			out = append(out, o)
		}
		return nil
	})
	f.sent += len(out)
	return out
}

func (f *fixture) send(from, body string) {
	f.t.Helper()
	f.n++
	raw := fmt.Sprintf("From: %s\r\nTo: navarch@host.example\r\nSubject: Re: [navarch %s] T1\r\nMessage-ID: <m%d@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		from, f.tag, f.n, strings.ReplaceAll(body, "\n", "\r\n"))
	if err := f.h.Handle([]byte(raw)); err != nil {
		f.t.Fatalf("Handle: %v", err)
	}
}

// find is the first mail to to of the kind named (a template's name: "report",
// "announcement", "notice") or whose subject holds subject, in any case (host/subject.go);
// "accepted" also finds a receipt that leads a report (moment.go).
func find(mails []mail.Outgoing, to, subject string) *mail.Outgoing {
	for i := range mails {
		if mails[i].To[0] == to && mailIs(mails[i], subject) {
			return &mails[i]
		}
	}
	return nil
}

// mailIs reports whether m is of the kind named or its subject holds what, in any case; a
// report that leads with the receipt of the recipient's orders is "accepted" too.
func mailIs(m mail.Outgoing, what string) bool {
	if m.Kind == what || strings.Contains(strings.ToLower(m.Subject), strings.ToLower(what)) {
		return true
	}
	w := strings.ToLower(what)
	return (w == "accepted" || w == "orders accepted") && m.Kind == "report" && strings.Contains(m.Text, "your orders are accepted")
}

var keyRE = regexp.MustCompile(`Your secret order key: (\S+)`)

// TestWholeCycle: a new game is announced; both players JOIN; the secret set-up is asked
// of both; orders with a mistake are answered by line; corrected orders are receipted, and
// both sides get the report with the map.
func TestWholeCycle(t *testing.T) {
	f := newFixture(t)
	f.each()
	welcome := f.outbox()
	if len(welcome) != 3 {
		t.Fatalf("%d welcome mails, want two players and a referee", len(welcome))
	}
	keys := map[string]string{}
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		m := find(welcome, who, "welcome")
		if m == nil || !strings.Contains(m.Text, "BEGIN NAVARCH CHECKPOINT") {
			t.Fatalf("no welcome with a checkpoint for %s", who)
		}
		keys[who] = keyRE.FindStringSubmatch(m.Text)[1]
	}
	f.send("Alice <alice@example.org>", "JOIN fortune favours\nKEY "+keys["alice@example.org"])
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(m.Text, "Waiting for: bob") {
		t.Fatalf("join of alice: %+v", m)
	}
	f.send("bob@example.com", "JOIN\nKEY "+keys["bob@example.com"])
	mails := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		if r := find(mails, who, "your move"); r == nil || !strings.Contains(r.Text, "set-up") {
			t.Fatalf("%s was not asked for the set-up: %v", who, subjects(mails))
		}
	}
	// The set-up: alice hides a leader, bob declines.
	f.send("alice@example.org", "KEY "+keys["alice@example.org"]+"\nBARBARIGO ON BAR-LANT HIDDEN")
	if r := find(f.outbox(), "alice@example.org", "accepted"); r == nil || !strings.Contains(r.Text, "BARBARIGO ON BAR-LANT HIDDEN") {
		t.Fatalf("no receipt for the set-up")
	}
	f.send("bob@example.com", "KEY "+keys["bob@example.com"]+"\nNONE")
	mails = f.outbox()
	var asked, other string
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		if find(mails, who, "your move") != nil {
			asked = who
		} else {
			other = who
		}
		if rep := find(mails, who, "report"); rep == nil || len(rep.Attachments) != 1 || !strings.HasSuffix(rep.Attachments[0].Name, ".png") {
			t.Errorf("%s got no report with a map: %v", who, subjects(mails))
		}
	}
	if asked == "" {
		t.Fatalf("nobody was asked for orders after the set-up: %v", subjects(mails))
	}
	if strings.Contains(find(mails, other, "report").Text, "BAR-LANT HIDDEN") {
		t.Error("the other side's report shows the hidden set-up")
	}
	// The hidden set-up is sealed in the log (v2); alice's own report still tells it her, from
	// the log as her side sees it, and bob's does not.
	if !strings.Contains(find(mails, "alice@example.org", "report").Text, "hidden aboard BAR-LANT") {
		t.Errorf("alice's report lacks her own hidden set-up:\n%s", find(mails, "alice@example.org", "report").Text)
	}
	if strings.Contains(find(mails, "bob@example.com", "report").Text, "hidden aboard") {
		t.Error("bob's report tells the christian hidden set-up")
	}
	// A mistake, answered by line; then the correction.
	f.send(asked, "KEY "+keys[asked]+"\n\nNOSUCH-UNIT MOVE 0101")
	errMail := find(f.outbox(), asked, "refused")
	if errMail == nil || !strings.Contains(errMail.Text, "line 3") {
		t.Fatalf("no error by line: %+v", errMail)
	}
	f.send(asked, "KEY "+keys[asked]+"\nNONE")
	mails = f.outbox()
	if find(mails, asked, "accepted") == nil || find(mails, other, "report") == nil {
		t.Errorf("after corrected orders: %v", subjects(mails))
	}
	f.checkLog()
}

func subjects(ms []mail.Outgoing) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.To[0]+": "+m.Subject)
	}
	return out
}

// checkLog verifies the game's log as it stands.
func (f *fixture) checkLog() {
	f.t.Helper()
	f.s.View(func(tx *store.Tx) error {
		for _, id := range store.Games(tx) {
			data, err := exportData(tx, id)
			if err != nil {
				f.t.Fatal(err)
			}
			file, err := gamelog.ParseFile(data)
			if err != nil {
				f.t.Fatal(err)
			}
			if rep := gamelog.Verify(file, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
				f.t.Errorf("log: %v", rep.Failure)
			}
		}
		return nil
	})
}

func exportData(tx *store.Tx, id [16]byte) ([]byte, error) {
	g, _ := loadGame(tx, id)
	a, err := export(tx, g, id, "", true)
	return a.Data, err
}

// TestRefusals: a stranger, a wrong key, a repeated Message-ID and an auto-reply change
// nothing; the first two are answered, the last two are not.
func TestRefusals(t *testing.T) {
	f := duelFixture(t)
	welcome := f.outbox()
	key := keyRE.FindStringSubmatch(find(welcome, "alice@example.org", "welcome").Text)[1]
	f.send("mallory@example.net", "JOIN\nKEY "+key)
	mails := f.outbox()
	if find(mails, "alice@example.org", "notice") == nil || find(mails, "mallory@example.net", "") != nil {
		t.Errorf("a stranger using alice's key: %v", subjects(mails))
	}
	f.send("alice@example.org", "JOIN\nKEY wrong")
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(flat(m.Text), "is not your key") {
		t.Errorf("wrong key not answered")
	}
	raw := fmt.Sprintf("From: alice@example.org\r\nSubject: [navarch %s]\r\nMessage-ID: <same@example.org>\r\n\r\nJOIN\r\nKEY %s\r\n", f.tag, key)
	for i := 0; i < 2; i++ {
		if err := f.h.Handle([]byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(f.outbox()); n != 1 {
		t.Errorf("a mail delivered twice was answered %d times", n)
	}
	unknown := "From: eve@example.net\r\nSubject: Re: [navarch lep-0000]\r\nMessage-ID: <old@example.net>\r\n\r\nJOIN\r\n"
	if err := f.h.Handle([]byte(unknown)); err != nil {
		t.Fatal(err)
	}
	if m := find(f.outbox(), "eve@example.net", "your mail"); m == nil || strings.Contains(m.Text, "lep-0000") || !strings.Contains(flat(m.Text), "names no game you play here") ||
		!strings.HasPrefix(m.Text, "Hello,") || !strings.Contains(m.Text, "log-head none") {
		t.Errorf("a mail for an unknown game is not answered as to a stranger, with fixed text: %+v", m)
	}
	auto := fmt.Sprintf("From: alice@example.org\r\nSubject: [navarch %s] away\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <away@example.org>\r\n\r\nI am away.\r\n", f.tag)
	if err := f.h.Handle([]byte(auto)); err != nil || len(f.outbox()) != 0 {
		t.Errorf("an auto-reply was answered: %v", err)
	}
	// Every mail that named the game is kept raw, once, the refused ones too; the mail for
	// an unknown game is not the game's, and the auto-reply is listed after them as dropped,
	// not kept.
	var list strings.Builder
	if err := f.h.Mails(&list, f.tag, 0); err != nil {
		t.Fatal(err)
	}
	var from, dropped []string
	for _, l := range strings.Split(strings.TrimSpace(list.String()), "\n") {
		if strings.HasPrefix(l, "dropped ") {
			dropped = append(dropped, l)
			continue
		}
		from = append(from, strings.Fields(l)[3])
	}
	if len(dropped) != 1 || !strings.Contains(dropped[0], "away@example.org  automatic: auto-submitted") {
		t.Errorf("the auto-reply is not listed as dropped:\n%s", list.String())
	}
	if got := strings.Join(from, " "); got != "mallory@example.net alice@example.org alice@example.org" {
		t.Errorf("kept mails from %s:\n%s", got, list.String())
	}
	var third strings.Builder
	if err := f.h.Mails(&third, f.tag, 3); err != nil || third.String() != raw {
		t.Errorf("mail 3 = %q, %v; want it as it arrived", third.String(), err)
	}
}

// TestDeadline: a reminder before the deadline, then the no-orders policy at it.
func TestDeadline(t *testing.T) {
	f := duelFixture(t)
	welcome := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keyRE.FindStringSubmatch(find(welcome, who, "welcome").Text)[1])
	}
	f.outbox()
	f.now = f.now.Add(61 * time.Hour)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	if m := find(f.outbox(), "bob@example.com", "reminder"); m == nil || !strings.Contains(m.Text, "in America/New_York)") {
		t.Fatalf("no reminder in the player's zone")
	}
	f.now = f.now.Add(12 * time.Hour)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	mails := f.outbox()
	if find(mails, "bob@example.com", "deadline passed") == nil || find(mails, "ref@example.net", "no orders") == nil ||
		find(mails, "alice@example.org", "your move") == nil && find(mails, "bob@example.com", "your move") == nil {
		t.Errorf("after the deadline: %v", subjects(mails))
	}
	// The game applies the rules' default at once, and the late notice says so.
	if m := find(mails, "bob@example.com", "deadline passed"); m == nil || !strings.Contains(flat(m.Text), "The rules' no-orders default applies to your side at once: ") ||
		strings.Contains(m.Text, "referee") {
		t.Errorf("the late notice under the default policy: %+v", m)
	}
	f.checkLog()
}

// A mail over the size cap is not read, but its sender is told why (docs/DESIGN.md 4).
func TestTooBigMailIsAnswered(t *testing.T) {
	f := duelFixture(t)
	f.outbox()
	raw := fmt.Sprintf("From: alice@example.org\r\nSubject: [navarch %s] my orders, with a photo\r\nMessage-ID: <photo@example.org>\r\n\r\n%s", f.tag, strings.Repeat("x", mail.DefaultMaxText+1))
	if err := f.h.Handle([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	if m := find(f.outbox(), "alice@example.org", "your mail"); m == nil || !strings.Contains(flat(m.Text), "too big: its text is over 256 KB, the limit") {
		t.Errorf("a mail over the cap: %+v", m)
	}
}

// ref sends a mail from the referee with the referee's key.
func (f *fixture) ref(body string) {
	f.t.Helper()
	f.send("ref@example.net", body+"\nKEY "+f.refKey("ref@example.net"))
}

// refKey is a referee's key of the fixture's game, as the referee's welcome gave it.
func (f *fixture) refKey(address string) string {
	f.t.Helper()
	var key string
	f.s.View(func(tx *store.Tx) error {
		id, _, err := findGame(tx, f.tag)
		if err == nil {
			key, err = refereeKey(tx, id, address)
		}
		if err != nil || key == "" {
			f.t.Fatalf("no referee key for %s: %v", address, err)
		}
		return nil
	})
	return key
}

// each has every player of the fixture's games mailed every step's report (REPORTS EACH),
// for tests of what a step's report says rather than of when mail goes out.
func (f *fixture) each() {
	f.t.Helper()
	err := f.s.Update(func(tx *store.Tx) error {
		for _, id := range store.Games(tx) {
			g, err := loadGame(tx, id)
			if err != nil {
				return err
			}
			for i := range g.Players {
				g.Players[i].Each = true
			}
			g.RefEach = map[string]bool{}
			for _, r := range g.Referees {
				g.RefEach[r] = true
			}
			if err := f.h.saveGame(tx, id, g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
}
