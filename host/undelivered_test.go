package host

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"navarch/mail"
	"navarch/store"
)

// refuser is a Sender whose server refuses one address for good and takes the rest.
type refuser struct {
	refuse string
	sent   []mail.Outgoing
}

func (r *refuser) Send(_ context.Context, o mail.Outgoing) error {
	if slices.Contains(o.To, r.refuse) {
		return errors.New("550 5.1.1 no such user")
	}
	r.sent = append(r.sent, o)
	return nil
}

// A mail refused for good leaves the outbox, is noted in the game's log, and the referee is
// told when it was a player's; the mails beside it are sent.
func TestRefusedMailIsNotedAndTold(t *testing.T) {
	f := newFixture(t)
	r := &refuser{refuse: "bob@example.com"}
	for range 2 { // the notice is queued by the first flush and sent by the second
		if err := f.h.Flush(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	if find(r.sent, "alice@example.org", "welcome") == nil {
		t.Errorf("the mails beside the refused one were not sent: %v", subjects(r.sent))
	}
	if m := find(r.sent, "ref@example.net", "notice"); m == nil || !strings.Contains(flat(m.Text), "bob (ottoman) has not had it") ||
		!strings.Contains(flat(m.Text), "no such user") {
		t.Errorf("the referee was not told: %v", subjects(r.sent))
	}
	f.s.View(func(tx *store.Tx) error {
		if n := len(store.Outbox(tx)); n != 0 {
			t.Errorf("%d mails left in the outbox", n)
		}
		return nil
	})
	var export strings.Builder
	if err := f.h.Export(&export, f.tag, "christian"); err != nil || !strings.Contains(export.String(), "to bob@example.com for good") {
		t.Errorf("the refusal is not in the players' log: %v\n%s", err, export.String())
	}
}

// A referee's mail refused for good is noted, and begets no notice.
func TestRefusedRefereeMailIsOnlyNoted(t *testing.T) {
	f := newFixture(t)
	r := &refuser{refuse: "ref@example.net"}
	for range 2 {
		if err := f.h.Flush(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.sent) != 2 || find(r.sent, "alice@example.org", "welcome") == nil || find(r.sent, "bob@example.com", "welcome") == nil {
		t.Errorf("sent %v; want the players' welcomes only", subjects(r.sent))
	}
	var export strings.Builder
	if err := f.h.Export(&export, f.tag, ""); err != nil || !strings.Contains(export.String(), "to ref@example.net for good") {
		t.Errorf("the refusal is not in the log: %v", err)
	}
}

// A refused mail of a game that cannot be read still leaves the outbox.
func TestRefusedMailOfABrokenGame(t *testing.T) {
	f := newFixture(t)
	f.breakGame()
	r := &refuser{refuse: "bob@example.com"}
	if err := f.h.Flush(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	f.s.View(func(tx *store.Tx) error {
		if n := len(store.Outbox(tx)); n != 0 {
			t.Errorf("%d mails left in the outbox", n)
		}
		return nil
	})
}
