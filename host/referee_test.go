package host

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"navarch/store"
)

func started(t *testing.T) (*fixture, map[string]string) {
	t.Helper()
	f := newFixture(t)
	keys := map[string]string{}
	for _, m := range f.outbox() {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil && m.To[0] != "ref@example.net" {
			keys[m.To[0]] = k[1]
		}
	}
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keys[who])
	}
	f.outbox()
	return f, keys
}

func (f *fixture) deadline() time.Time {
	f.t.Helper()
	var d time.Time
	f.s.View(func(tx *store.Tx) error {
		g, _ := loadGame(tx, store.Games(tx)[0])
		d = g.Step.Deadline
		return nil
	})
	return d
}

// TestRefereeCommands: extend, pause and resume move the deadline and are announced to
// everyone; a player cannot use them.
func TestRefereeCommands(t *testing.T) {
	f, keys := started(t)
	d0 := f.deadline()
	f.send("alice@example.org", "EXTEND 24\nKEY "+keys["alice@example.org"])
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(m.Text, "referee's command") {
		t.Error("a player extended the deadline")
	}
	f.send("ref@example.net", "EXTEND 24")
	mails := f.outbox()
	if len(mails) != 3 || find(mails, "bob@example.com", "announcement") == nil || !f.deadline().Equal(d0.Add(24*time.Hour)) {
		t.Errorf("extend: %v, deadline %v", subjects(mails), f.deadline())
	}
	f.send("ref@example.net", "EXTEND 1000")
	if m := find(f.outbox(), "ref@example.net", "notice"); m == nil || !strings.Contains(m.Text, "from 1 to 168") {
		t.Error("an extension over the cap was not refused")
	}
	f.send("ref@example.net", "PAUSE 48")
	f.now = f.now.Add(10 * time.Hour)
	f.send("ref@example.net", "RESUME")
	if got, want := f.deadline(), d0.Add(34*time.Hour); !got.Equal(want) {
		t.Errorf("after a 10-hour pause the deadline is %v, want %v", got, want)
	}
	f.send("ref@example.net", "ENDGAME the players agreed a draw")
	mails = f.outbox()
	if m := find(mails, "alice@example.org", "game over"); m == nil || len(m.Attachments) != 1 || !strings.Contains(m.Text, "agreed a draw") {
		t.Errorf("end by the referee: %v", subjects(mails))
	}
	f.checkLog()
}

func TestAbsenceAndRate(t *testing.T) {
	f, keys := started(t)
	d0 := f.deadline()
	away := d0.Add(-24 * time.Hour).Format("2006-01-02")
	back := d0.Add(48 * time.Hour).Format("2006-01-02")
	f.send("bob@example.com", fmt.Sprintf("ABSENT %s %s\nKEY %s", away, back, keys["bob@example.com"]))
	if find(f.outbox(), "ref@example.net", "announcement") == nil {
		t.Fatal("the absence was not announced")
	}
	f.now = d0.Add(time.Minute)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	if find(f.outbox(), "bob@example.com", "deadline passed") != nil || !f.deadline().After(d0.Add(47*time.Hour)) {
		t.Errorf("a deadline passed while bob was away: %v", f.deadline())
	}
	for i := 0; i < RateLimit+5; i++ {
		f.send("alice@example.org", "HELP\nKEY "+keys["alice@example.org"])
	}
	if n := len(f.outbox()); n > RateLimit {
		t.Errorf("%d answers to one sender in an hour", n)
	}
}

// TestPauseExpires: a pause ends by itself at its expiry, moving the deadline on.
func TestPauseExpires(t *testing.T) {
	f, _ := started(t)
	d0 := f.deadline()
	f.send("ref@example.net", "PAUSE 10")
	f.outbox()
	f.now = f.now.Add(11 * time.Hour)
	if err := f.h.Tick(); err != nil {
		t.Fatal(err)
	}
	if got := f.deadline(); !got.Equal(d0.Add(10 * time.Hour)) {
		t.Errorf("after a 10-hour pause expired the deadline is %v, want %v", got, d0.Add(10*time.Hour))
	}
}

// TestOperate: the operator's pause moves nothing until resumed, is announced to every
// player and referee, and a refused command queues no mail.
func TestOperate(t *testing.T) {
	f, _ := started(t)
	before := f.deadline()
	text, err := f.h.Operate(f.tag, "PAUSE", []string{"10"})
	if err != nil || !strings.Contains(text, "paused for 10 hours") {
		t.Fatalf("pause: %q %v", text, err)
	}
	mails := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com", "ref@example.net"} {
		if m := find(mails, who, "announcement"); m == nil || !strings.Contains(m.Text, "the operator") {
			t.Errorf("%s: no announcement naming the operator in %v", who, subjects(mails))
		}
	}
	f.now = f.now.Add(4 * time.Hour)
	if _, err := f.h.Operate(f.tag, "RESUME", nil); err != nil {
		t.Fatal(err)
	}
	if got := f.deadline(); !got.Equal(before.Add(4 * time.Hour)) {
		t.Errorf("after a 4-hour pause the deadline is %v, want %v", got, before.Add(4*time.Hour))
	}
	f.outbox()
	if _, err := f.h.Operate(f.tag, "EXTEND", []string{"1000"}); err == nil || len(f.outbox()) != 0 {
		t.Errorf("an extension beyond the cap: %v, or mail was queued", err)
	}
	if _, err := f.h.Operate("xyz-0000", "PAUSE", nil); err == nil {
		t.Error("an unknown game was paused")
	}
}

// TestReplace: the referee hands bob's side to carol; carol gets a welcome with a new key and
// the game's commitment, everyone is told, bob's address no longer counts and carol's orders
// do; mistakes in the command change nothing.
func TestReplace(t *testing.T) {
	f, keys := started(t)
	for _, bad := range []string{"REPLACE bob", "REPLACE zed carol@example.net", "REPLACE bob not-an-address", "REPLACE bob alice@example.org",
		"REPLACE bob carol@example.net Mars/Olympus"} {
		f.send("ref@example.net", bad)
		if mails := f.outbox(); len(mails) != 1 || find(mails, "ref@example.net", "notice") == nil {
			t.Errorf("%s: %v", bad, subjects(mails))
		}
	}
	f.send("ref@example.net", "REPLACE bob Carol@Example.net Asia/Tokyo")
	mails := f.outbox()
	w := find(mails, "carol@example.net", "welcome")
	if w == nil || !strings.Contains(w.Text, "commitment C") || !strings.Contains(w.Text, "BEGIN NAVARCH CHECKPOINT") {
		t.Fatalf("no welcome for carol with the commitment and checkpoint: %v", subjects(mails))
	}
	for _, who := range []string{"alice@example.org", "carol@example.net", "ref@example.net"} {
		if m := find(mails, who, "announcement"); m == nil || !strings.Contains(m.Text, "bob (ottoman) is now played from carol@example.net instead of bob@example.com") {
			t.Errorf("%s was not told of the replacement", who)
		}
	}
	if m := find(mails, "bob@example.com", "notice"); m == nil || !strings.Contains(m.Text, "You no longer play bob (ottoman)") ||
		!strings.HasPrefix(strings.TrimSpace(m.Text), "Hello,") {
		t.Errorf("the old address was not told, or not greeted as a former player: %+v", m)
	}
	carol := keyRE.FindStringSubmatch(w.Text)[1]
	if carol == keys["bob@example.com"] {
		t.Error("the new player got the old key")
	}
	f.send("bob@example.com", "NONE\nKEY "+keys["bob@example.com"])
	if m := find(f.outbox(), "bob@example.com", ""); m == nil || !strings.Contains(m.Text, "not a player") || strings.Contains(m.Text, "Dear referee") {
		t.Errorf("the replaced address still counts: %+v", m)
	}
	f.send("carol@example.net", "NONE\nKEY "+carol)
	if m := find(f.outbox(), "carol@example.net", "orders accepted"); m == nil || !strings.Contains(m.Text, "Dear bob (ottoman)") || !strings.Contains(m.HTML, "Asia/Tokyo") {
		t.Errorf("carol's orders for bob's side: %+v", m)
	}
	f.checkLog()
}
