package host

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ledger/ledgertest"
	"navarch/mail"
	"navarch/mail/mailtest"
	"navarch/outbox"
	"navarch/store"
)

// faultDaemon is a daemon (Host.Serve) over go-imap's memory server and a go-smtp server
// that misbehaves on command, with one game whose two welcome mails are queued. Its outbox
// runs on a clock the test moves by hand: no test waits for a backoff in real time.
type faultDaemon struct {
	t      *testing.T
	clock  *outbox.ManualClock
	user   *imapmemserver.User
	srv    *mailtest.Server
	in     *mail.Intake
	out    mail.SMTP
	s      *store.Store
	h      *Host
	tag    string
	n      int
	cancel context.CancelFunc
	done   chan error
}

func newFaultDaemon(t *testing.T) *faultDaemon {
	t.Helper()
	user, _, in, out := loopback(t)
	d := &faultDaemon{t: t, user: user, in: in, srv: mailtest.Start(t), clock: outbox.NewManualClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))}
	out.Port, out.Timeout = d.srv.Port, time.Second
	d.out = out
	var err error
	d.s, err = store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.s.Close() })
	d.h = New(d.s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Address: "navarch@host.example", Domain: "navarch.host.example",
		Rand: ledgertest.Rand(t.Name()), SendRetry: 50 * time.Millisecond, RateLimit: 1000, Clock: d.clock}, slog.New(slog.DiscardHandler))
	d.tag, err = d.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// start runs the daemon until stop (or the test's end).
func (d *faultDaemon) start() {
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel, d.done = cancel, make(chan error, 1)
	go func() { d.done <- d.h.Serve(ctx, d.in, d.out) }()
	d.t.Cleanup(d.stop)
}

// stop stops the daemon as SIGTERM does, and waits for it.
func (d *faultDaemon) stop() {
	if d.cancel != nil {
		d.cancel()
		<-d.done
		d.cancel = nil
	}
}

// mail delivers a player's mail (without its key: each is answered with one notice) and
// returns its Message-ID.
func (d *faultDaemon) mail(from string) string {
	d.n++
	id := fmt.Sprintf("%d.fault@example.org", d.n)
	raw := "From: " + from + "\r\nTo: navarch@host.example\r\nSubject: [navarch " + d.tag + "]\r\nMessage-ID: <" + id + ">\r\n\r\nHELP\r\n"
	if _, err := d.user.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
		d.t.Fatal(err)
	}
	return id
}

func (d *faultDaemon) queued() int {
	n := 0
	d.s.View(func(tx *store.Tx) error { n = store.OutboxLen(tx); return nil })
	return n
}

// until waits up to 30 s for ok.
func (d *faultDaemon) until(what string, ok func() bool) {
	d.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return
		}
	}
	d.t.Fatalf("timed out waiting for %s: %d accepted, %d queued", what, len(d.srv.Accepted()), d.queued())
}

// answered reports whether every mail in ids has an answer among the accepted mails.
func (d *faultDaemon) answered(ids []string) bool {
	var replies []string
	for _, raw := range d.srv.Accepted() {
		if in, err := mail.Parse(raw, mail.Options{MaxSize: 4 << 20}); err == nil {
			replies = append(replies, in.InReplyTo...)
		}
	}
	for _, id := range ids {
		if !slices.Contains(replies, id) {
			return false
		}
	}
	return true
}

// once checks that no Message-ID was accepted twice and returns how many were accepted.
func (d *faultDaemon) once() int {
	d.t.Helper()
	ids := d.srv.MessageIDs()
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			d.t.Errorf("mail %s accepted twice", id)
		}
		seen[id] = true
	}
	return len(ids)
}

// noted reports whether the game's log says a mail was refused for good.
func (d *faultDaemon) noted() bool {
	var export strings.Builder
	if err := d.h.Export(&export, d.tag, ""); err != nil {
		d.t.Fatal(err)
	}
	return strings.Contains(export.String(), "for good")
}

// drive moves the outbox's clock on, to its next timer each time the outbox waits on one,
// until ok; it returns how far the clock moved. It fails the test after 30 s of real time
// (the outbox, the mail servers and the intake at work) or 2 hours of the clock.
func (d *faultDaemon) drive(what string, ok func() bool) time.Duration {
	d.t.Helper()
	from := d.clock.Now()
	for deadline := time.Now().Add(30 * time.Second); !ok(); {
		if time.Now().After(deadline) || d.clock.Now().Sub(from) > 2*time.Hour {
			d.t.Fatalf("no %s: %d accepted, %d queued, clock moved %v", what, len(d.srv.Accepted()), d.queued(), d.clock.Now().Sub(from))
		}
		select { // let the outbox finish what it is doing
		case <-d.clock.Changed():
			continue
		case <-time.After(20 * time.Millisecond):
		}
		if n, next := d.clock.Waiting(); n > 0 {
			d.clock.Advance(next)
		}
	}
	return d.clock.Now().Sub(from)
}

// status is the running outbox's.
func (d *faultDaemon) status() outbox.Status {
	if o := d.h.Outbox(); o != nil {
		return o.Status()
	}
	return outbox.Status{}
}

// Under every fault short of an explicit 5xx refusal, no answer is lost and none is doubled:
// the mail stays queued until the server has accepted it, the game's log notes no refusal.
// The fault lasts a while (or, for "every third", for good), then clears.
func TestServeLosesNothingUnderSMTPFaults(t *testing.T) {
	cases := []struct {
		name  string
		fault mailtest.Fault
		every int
		clear bool
	}{
		{"drop after DATA", mailtest.DropAfterData, 0, true},
		{"drop every third DATA", mailtest.DropAfterData, 3, false},
		{"drop at RCPT", mailtest.DropAtRcpt, 0, true},
		{"hang after DATA", mailtest.Hang, 0, true},
		{"451 after DATA", mailtest.TempData, 0, true},
		{"450 at RCPT", mailtest.TempRcpt, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newFaultDaemon(t)
			d.srv.Set(c.fault, c.every)
			d.srv.SetHang(1500 * time.Millisecond) // the server's hang, beyond the client's 1 s timeout
			d.start()
			var ids []string
			for i := range 6 {
				ids = append(ids, d.mail([]string{"alice@example.org", "bob@example.com"}[i%2]))
			}
			if c.clear {
				d.drive("three failed tries", func() bool {
					s := d.status()
					return s.Failures[outbox.Connection]+s.Failures[outbox.Temporary] >= 3
				})
				d.srv.Set(mailtest.OK, 0)
			}
			d.drive("every mail answered", func() bool { return d.answered(ids) && d.queued() == 0 })
			if n := d.once(); n != 2+len(ids) {
				t.Errorf("%d mails accepted, want %d (2 welcomes and %d answers)", n, 2+len(ids), len(ids))
			}
			if d.noted() {
				t.Error("the game's log says a mail was refused for good")
			}
		})
	}
}

// A 450 at RCPT for one recipient defers only the mails to him: the others' answers go at
// once, without the clock moving; his wait out their own backoff, stored with them, and go
// once the server takes them.
func TestDeferredRecipientHoldsUpNoOther(t *testing.T) {
	d := newFaultDaemon(t)
	d.srv.Defer("bob@example.com", true)
	d.start()
	var alice []string
	for range 3 {
		alice = append(alice, d.mail("alice@example.org"))
		d.mail("bob@example.com")
	}
	d.until("alice's welcome and answers, the clock standing", func() bool { return d.answered(alice) && d.queued() == 4 })
	if moved := d.clock.Now().Sub(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)); moved != 0 {
		t.Fatalf("the clock moved %v", moved)
	}
	d.drive("bob's mails deferred twice", func() bool { return d.status().Failures[outbox.Temporary] >= 8 })
	var retry store.Retry
	d.s.View(func(tx *store.Tx) error { e, _ := store.OutboxNext(tx, 0); retry = e.Retry; return nil })
	if retry.Failures < 2 || !retry.Next.After(d.clock.Now()) {
		t.Errorf("bob's first mail's stored retry state %+v at %v", retry, d.clock.Now())
	}
	if s := d.status(); s.Deferred != 4 || s.Queued != 4 || s.Kind != outbox.Temporary || !s.RetryAt.IsZero() {
		t.Errorf("status %+v: want 4 deferred, the outbox itself not backing off", s)
	}
	d.srv.Defer("bob@example.com", false)
	d.drive("bob's mails", func() bool { return d.queued() == 0 })
	if n := d.once(); n != 2+6 {
		t.Errorf("%d mails accepted, want 8", n)
	}
}

// An explicit 5xx to the recipient or the content is permanent: the mail leaves the outbox
// and the game's log says so.
func TestServeRefusedForGood(t *testing.T) {
	for _, f := range []mailtest.Fault{mailtest.RefuseRcpt, mailtest.RefuseData} {
		t.Run(fmt.Sprint(f), func(t *testing.T) {
			d := newFaultDaemon(t)
			d.srv.Set(f, 0)
			d.start()
			d.until("the welcomes refused", func() bool { return d.queued() == 0 })
			if !d.noted() {
				t.Error("the refusal is not in the game's log")
			}
			if n := len(d.srv.Accepted()); n != 0 {
				t.Errorf("%d mails accepted", n)
			}
			// A mail refused for good is no failure of the server.
			if s := d.h.Health().Send; !s.FailingSince.IsZero() || s.LastOK.IsZero() {
				t.Errorf("the sending's health after refusals for good: %+v", s)
			}
		})
	}
}

// A graceful stop while a mail is being sent lets the send finish and records it; the next
// run does not send it again.
func TestGracefulStopSendsOnce(t *testing.T) {
	d := newFaultDaemon(t)
	d.srv.Set(mailtest.Slow, 0)
	d.srv.SetHang(400 * time.Millisecond) // the server's slowness, not a wait of ours
	d.start()
	d.until("the first send to begin", func() bool { return d.srv.Tries() >= 1 })
	d.stop()
	accepted := len(d.srv.Accepted())
	if accepted != 1 {
		t.Errorf("%d mails accepted by the stop, want the one in flight", accepted)
	}
	d.srv.Set(mailtest.OK, 0)
	d.start()
	d.until("the outbox sent", func() bool { return d.queued() == 0 })
	if n := d.once(); n != 2 {
		t.Errorf("%d mails accepted, want the 2 welcomes", n)
	}
}

// After failures of the server have grown the outbox's backoff, new mail has it try again
// at once (the clock does not move), not when the backoff runs out.
func TestNewMailResetsBackoff(t *testing.T) {
	d := newFaultDaemon(t)
	d.srv.Set(mailtest.DropAtRcpt, 0)
	d.start()
	// 50 ms doubling: after the 7th failed pass the outbox waits 3.2 s.
	d.drive("the backoff to grow", func() bool { return d.status().RetryAt.Sub(d.clock.Now()) >= 3200*time.Millisecond })
	d.srv.Set(mailtest.OK, 0)
	at := d.clock.Now()
	id := d.mail("alice@example.org")
	d.until("the answer", func() bool { return d.answered([]string{id}) })
	if moved := d.clock.Now().Sub(at); moved != 0 {
		t.Errorf("the answer waited %v of the outbox's clock", moved)
	}
}

// After an outage, the server answering a probe again (one every SendRetry) has the queued
// mail go at once, not when the grown backoff runs out.
func TestServerBackResetsBackoff(t *testing.T) {
	d := newFaultDaemon(t)
	d.srv.Down()
	d.start()
	d.drive("the backoff to grow", func() bool { return d.status().RetryAt.Sub(d.clock.Now()) >= 3200*time.Millisecond })
	if s := d.status(); s.Kind != outbox.Connection || s.Queued != 2 {
		t.Errorf("status in the outage: %+v", s)
	}
	if s := d.h.Health().Send; s.FailingSince.IsZero() || s.Kind != mail.KindConnection || s.Failures[mail.KindConnection] < 2 {
		t.Errorf("the sending's health while the server is down: %+v", s)
	}
	d.srv.Up()
	if moved := d.drive("the welcomes", func() bool { return len(d.srv.Accepted()) == 2 }); moved > 200*time.Millisecond {
		t.Errorf("the queued mail waited %v of the outbox's clock after the server came back", moved)
	}
	d.until("the sending well again", func() bool { return d.h.Health().Send.FailingSince.IsZero() })
}
