package host

import (
	"strings"
	"testing"
	"time"
)

// TestRefereeWelcome: the referee's welcome is a referee's: the referee key and how
// to use it, the referee commands, no JOIN and no player's key.
func TestRefereeWelcome(t *testing.T) {
	f := duelFixture(t)
	w := find(f.outbox(), "ref@example.net", "welcome (referee)")
	if w == nil {
		t.Fatal("no referee's welcome")
	}
	text := flat(w.Text)
	for _, want := range []string{"Dear referee", "Your secret referee key: " + f.refKey("ref@example.net"), "a referee's mail without it is refused",
		"PAUSE [HOURS]", "RESUME", "EXTEND [HOURS]", "PROCEED", "REPLACE PLAYER ADDRESS [ZONE]", "REKEY PLAYER", "ENDGAME [RESULT]",
		"a referee does not JOIN", "digest of the players who were late", "commitment C"} {
		if !strings.Contains(text, want) {
			t.Errorf("the referee's welcome lacks %q:\n%s", want, w.Text)
		}
	}
	for _, not := range []string{"players only", "reply with the word JOIN", "order key"} {
		if strings.Contains(text, not) {
			t.Errorf("the referee's welcome reads like a player's (%q):\n%s", not, w.Text)
		}
	}
}

// TestPauseStopsPlay: while paused, orders are taken and receipted but nothing
// is adjudicated and no deadline passes; RESUME announces the new deadline in each
// recipient's zone, and the step whose orders all came in is adjudicated.
func TestPauseStopsPlay(t *testing.T) {
	f, keys := started(t)
	d0 := f.deadline()
	f.ref("PAUSE")
	if m := find(f.outbox(), "alice@example.org", "announcement"); m == nil || !strings.Contains(flat(m.Text), "nothing is adjudicated and no deadline runs") {
		t.Fatalf("the pause was not announced as such: %+v", m)
	}
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "NONE\nKEY "+keys[who])
	}
	mails := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		if r := find(mails, who, "orders accepted"); r == nil || !strings.Contains(flat(r.Text), "The game is paused") {
			t.Errorf("%s's orders during the pause were not receipted as waiting: %v", who, subjects(mails))
		}
	}
	if find(mails, "alice@example.org", "report") != nil || find(mails, "alice@example.org", "your move") != nil {
		t.Errorf("play went on during the pause: %v", subjects(mails))
	}
	f.now = d0.Add(30 * time.Hour) // long past the deadline: none runs while paused
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	if mails := f.outbox(); len(mails) != 0 {
		t.Errorf("a deadline ran during the pause: %v", subjects(mails))
	}
	f.ref("RESUME")
	mails = f.outbox()
	for who, zone := range map[string]string{"alice@example.org": "in Europe/Rome", "bob@example.com": "in America/New_York", "ref@example.net": "UTC"} {
		m := find(mails, who, "announcement")
		if m == nil || !strings.Contains(flat(m.Text), "the referee (ref@example.net) announces") || !strings.Contains(flat(m.Text), "The deadline for") ||
			!strings.Contains(m.Text, zone) {
			t.Errorf("%s: the resumption does not state the deadline in the recipient's zone (%s): %+v", who, zone, m)
		}
	}
	if find(mails, "alice@example.org", "report") == nil {
		t.Errorf("the orders that came in during the pause were not adjudicated at RESUME: %v", subjects(mails))
	}
	f.checkLog()
}

// TestAnnouncementsNameWhoActed: a player's absence is the player's
// announcement, the operator's change the operator's, a referee's the referee's; EXTEND
// states the new deadline in each recipient's zone.
func TestAnnouncementsNameWhoActed(t *testing.T) {
	f, keys := started(t)
	f.send("bob@example.com", "ABSENT 2026-12-20 2026-12-22\nKEY "+keys["bob@example.com"])
	m := find(f.outbox(), "alice@example.org", "announcement")
	if m == nil || !strings.Contains(flat(m.Text), "bob (ottoman), a player, announces") || strings.Contains(m.Text, "referee") {
		t.Errorf("a player's absence: %+v", m)
	}
	if _, err := f.h.Operate(f.tag, "EXTEND", []string{"6"}); err != nil {
		t.Fatal(err)
	}
	if m := find(f.outbox(), "bob@example.com", "announcement"); m == nil || !strings.Contains(m.Text, "the operator announces") {
		t.Errorf("the operator's extension: %+v", m)
	}
	f.ref("EXTEND 12")
	ny, _ := time.LoadLocation("America/New_York")
	want := f.deadline().In(ny).Format("Mon 15:04 MST") + " in America/New_York"
	if m := find(f.outbox(), "bob@example.com", "announcement"); m == nil || !strings.Contains(m.Text, "the referee (ref@example.net) announces") ||
		!strings.Contains(flat(m.Text), want) {
		t.Errorf("the referee's extension, want %q: %+v", want, m)
	}
}

// TestRekey: REKEY PLAYER mails the player a new key at the address of record;
// the old key stops working, the new one works; a player cannot REKEY.
func TestRekey(t *testing.T) {
	f, keys := started(t)
	f.send("alice@example.org", "REKEY bob\nKEY "+keys["alice@example.org"])
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(m.Text, "referee's command") {
		t.Errorf("a player's REKEY: %+v", m)
	}
	f.ref("REKEY bob")
	mails := f.outbox()
	n := find(mails, "bob@example.com", "notice")
	if n == nil || keyRE.FindStringSubmatch(n.Text) == nil {
		t.Fatalf("bob got no new key: %v", subjects(mails))
	}
	key := keyRE.FindStringSubmatch(n.Text)[1]
	if key == keys["bob@example.com"] || find(mails, "alice@example.org", "announcement") == nil || strings.Contains(find(mails, "alice@example.org", "announcement").Text, key) {
		t.Errorf("the new key is the old one, or was not announced, or was told to others")
	}
	f.send("bob@example.com", "NONE\nKEY "+keys["bob@example.com"])
	if m := find(f.outbox(), "bob@example.com", "notice"); m == nil || !strings.Contains(flat(m.Text), "is not your key") {
		t.Errorf("the old key still counts: %+v", m)
	}
	f.send("bob@example.com", "NONE\nKEY "+key)
	if find(f.outbox(), "bob@example.com", "orders accepted") == nil {
		t.Error("the new key does not count")
	}
	if _, err := f.h.Operate(f.tag, "REKEY", []string{"ref@example.net"}); err != nil {
		t.Fatal(err)
	}
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(m.Text, "Your secret referee key: "+f.refKey("ref@example.net")) {
		t.Errorf("the operator's REKEY of the referee: %+v", m)
	}
}

// TestLateDigest: at a deadline the referee gets one mail naming the late players.
func TestLateDigest(t *testing.T) {
	f, keys := started(t)
	f.send("alice@example.org", "NONE\nKEY "+keys["alice@example.org"])
	f.outbox()
	f.now = f.deadline().Add(time.Minute)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	m := find(f.outbox(), "ref@example.net", "late players")
	if m == nil || !strings.Contains(m.Text, "bob (ottoman) <bob@example.com>") || strings.Contains(m.Text, "alice (christian)") {
		t.Errorf("the referee's digest of late players: %+v", m)
	}
}

// TestPauseBeforeStart: a game paused before everyone has joined begins only when it resumes.
func TestPauseBeforeStart(t *testing.T) {
	f := duelFixture(t)
	keys := map[string]string{}
	for _, m := range f.outbox() {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil {
			keys[m.To[0]] = k[1]
		}
	}
	f.ref("PAUSE")
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	if m := find(f.outbox(), "alice@example.org", "your move"); m != nil {
		t.Fatal("play began while the game was paused")
	}
	f.ref("RESUME")
	if m := find(f.outbox(), "alice@example.org", "your move"); m == nil {
		t.Error("play did not begin when the game resumed")
	}
}
