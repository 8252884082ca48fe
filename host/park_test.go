package host

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"navarch/ident"
	"navarch/store"
)

// breakGame makes the fixture's game unreadable (a fault on our side) and returns a function
// that mends it.
func (f *fixture) breakGame() (mend func()) {
	f.t.Helper()
	var good []byte
	var id ident.GameID
	err := f.s.Update(func(tx *store.Tx) error {
		var err error
		if id, _, err = findGame(tx, f.tag); err != nil {
			return err
		}
		if good, err = store.Settings(tx, id); err != nil {
			return err
		}
		return store.PutSettings(tx, id, f.tag, []byte("{broken"))
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return func() {
		f.t.Helper()
		if err := f.s.Update(func(tx *store.Tx) error { return store.PutSettings(tx, id, f.tag, good) }); err != nil {
			f.t.Fatal(err)
		}
	}
}

// A mail we fail on is parked: its sender is told once that nothing was applied, it is
// retried, and once the fault is mended it is applied and answered as usual, once.
func TestParkedMailIsAnsweredThenApplied(t *testing.T) {
	f := newFixture(t)
	key := keyRE.FindStringSubmatch(find(f.outbox(), "alice@example.org", "welcome").Text)[1]
	mend := f.breakGame()
	raw := []byte(fmt.Sprintf("From: alice@example.org\r\nSubject: [navarch %s] joining\r\nMessage-ID: <join@example.org>\r\n\r\nJOIN\r\nKEY %s\r\n", f.tag, key))
	herr := f.h.Handle(raw)
	if herr == nil {
		t.Fatal("Handle succeeded on a broken game")
	}
	if got := f.outbox(); len(got) != 0 {
		t.Fatalf("a failed Handle queued mail: %v", subjects(got))
	}
	for range 2 {
		if err := f.h.Park(raw, herr); err != nil {
			t.Fatal(err)
		}
	}
	told := f.outbox()
	if len(told) != 1 || told[0].To[0] != "alice@example.org" || told[0].InReplyTo != "join@example.org" ||
		!strings.Contains(flat(told[0].Text), "fault on our side") || !strings.Contains(flat(told[0].Text), "need not send it again") {
		t.Fatalf("parking told %d mails: %+v", len(told), told)
	}
	parked, err := f.h.Parked()
	if err != nil || len(parked) != 1 || parked[0].From != "alice@example.org" || parked[0].Subject != "["+"navarch "+f.tag+"] joining" ||
		!strings.Contains(parked[0].Cause, "settings") {
		t.Fatalf("parked = %+v, %v", parked, err)
	}

	if handled, left, err := f.h.RetryParked(); err != nil || handled != 0 || left != 1 {
		t.Fatalf("retry while broken = %d handled, %d left, %v", handled, left, err)
	}
	if parked, _ := f.h.Parked(); parked[0].Attempts != 2 {
		t.Errorf("attempts after a failed retry = %d, want 2", parked[0].Attempts)
	}
	mend()
	if handled, left, err := f.h.RetryParked(); err != nil || handled != 1 || left != 0 {
		t.Fatalf("retry once mended = %d handled, %d left, %v", handled, left, err)
	}
	if m := find(f.outbox(), "alice@example.org", "notice"); m == nil || !strings.Contains(m.Text, "Waiting for: bob") {
		t.Fatalf("the parked JOIN was not answered as usual: %+v", m)
	}
	// The mail is now applied: delivered again, or parked again, it changes nothing.
	if err := f.h.Handle(raw); err != nil {
		t.Fatal(err)
	}
	if err := f.h.Park(raw, herr); err != nil {
		t.Fatal(err)
	}
	if got := f.outbox(); len(got) != 0 {
		t.Errorf("an applied mail was answered again: %v", subjects(got))
	}
	if parked, _ := f.h.Parked(); len(parked) != 0 {
		t.Errorf("an applied mail was parked: %+v", parked)
	}
}

// A game whose settings cannot be read does not stop the mail of the others.
func TestBrokenGameDoesNotHideOthers(t *testing.T) {
	f := newFixture(t)
	f.outbox()
	tag2, err := f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
		Players: []PlayerSpec{{"carol", "christian", "carol@example.org", "UTC"}, {"dave", "ottoman", "dave@example.com", "UTC"}}})
	if err != nil {
		t.Fatal(err)
	}
	f.breakGame() // the first game
	if err := f.h.Handle([]byte("From: carol@example.org\r\nSubject: [navarch " + tag2 + "]\r\nMessage-ID: <s@example.org>\r\n\r\nSTATUS\r\n")); err != nil {
		t.Fatalf("a mail to a sound game failed: %v", err)
	}
	if err := f.h.Handle([]byte("From: carol@example.org\r\nSubject: [navarch " + f.tag + "]\r\nMessage-ID: <b@example.org>\r\n\r\nSTATUS\r\n")); err == nil {
		t.Error("a mail to the broken game was answered as if it did not exist")
	}
}

// A mail that cannot be read at all is parked all the same, without an answer to nobody.
func TestParkUnreadableMail(t *testing.T) {
	f := newFixture(t)
	f.outbox()
	if err := f.h.Park([]byte("\x00\x01 not a mail"), fmt.Errorf("boom")); err != nil {
		t.Fatal(err)
	}
	parked, _ := f.h.Parked()
	if len(parked) != 1 || !strings.HasPrefix(parked[0].Key, "sha256:") {
		t.Fatalf("parked = %+v", parked)
	}
	if got := f.outbox(); len(got) != 0 {
		t.Errorf("mails for an unreadable mail: %v", subjects(got))
	}
	if err := f.h.DropParked(parked[0].Seq); err != nil {
		t.Fatal(err)
	}
	if parked, _ := f.h.Parked(); len(parked) != 0 {
		t.Errorf("dropped mail still parked: %+v", parked)
	}
}

// A game that fails at its deadline does not keep the other games from theirs.
func TestBrokenGameDoesNotStopDeadlines(t *testing.T) {
	f := newFixture(t)
	welcome := f.outbox()
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		f.send(who, "JOIN\nKEY "+keyRE.FindStringSubmatch(find(welcome, who, "welcome").Text)[1])
	}
	sound := f.tag
	// The broken game must come first in the store's order, which is by game id.
	for f.tag == sound || f.idOf(f.tag) > f.idOf(sound) {
		var err error
		f.tag, err = f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
			Players: []PlayerSpec{{"carol", "christian", "carol@example.org", "UTC"}, {"dave", "ottoman", "dave@example.com", "UTC"}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	f.breakGame()
	f.tag = sound
	f.outbox()
	f.now = f.now.Add(61 * time.Hour)
	err := f.h.Tick()
	if err == nil || errors.Is(err, ErrStoreDown) || !strings.Contains(err.Error(), "settings") {
		t.Errorf("Tick with a broken game = %v", err)
	}
	if m := find(f.outbox(), "bob@example.com", "reminder"); m == nil {
		t.Error("the sound game got no reminder")
	}
}

func (f *fixture) idOf(tag string) string {
	f.t.Helper()
	var id ident.GameID
	if err := f.s.View(func(tx *store.Tx) (err error) { id, _, err = findGame(tx, tag); return err }); err != nil {
		f.t.Fatal(err)
	}
	return string(id[:])
}
