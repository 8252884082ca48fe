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
	"navarch/store"
)

// faultDaemon is a daemon (Host.Serve) over go-imap's memory server and a go-smtp server
// that misbehaves on command, with one game whose two welcome mails are queued.
type faultDaemon struct {
	t      *testing.T
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
	d := &faultDaemon{t: t, user: user, in: in, srv: mailtest.Start(t)}
	out.Port, out.Timeout = d.srv.Port, time.Second
	d.out = out
	var err error
	d.s, err = store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.s.Close() })
	d.h = New(d.s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Address: "navarch@host.example", Domain: "navarch.host.example",
		Rand: ledgertest.Rand(t.Name()), SendRetry: 50 * time.Millisecond, RateLimit: 1000}, slog.New(slog.DiscardHandler))
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

// Issue 12.1: under every fault short of an explicit 5xx refusal, no answer is lost and none
// is doubled: the mail stays queued until the server has accepted it, the game's log notes
// no refusal. The fault lasts a while (or, for "every third", for good), then clears.
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
			d.srv.SetHang(1500 * time.Millisecond)
			d.start()
			var ids []string
			for i := range 6 {
				ids = append(ids, d.mail([]string{"alice@example.org", "bob@example.com"}[i%2]))
			}
			if c.clear {
				d.until("the daemon to try", func() bool {
					return d.srv.Tries() >= 3 || c.fault == mailtest.DropAtRcpt || c.fault == mailtest.TempRcpt
				})
				time.Sleep(500 * time.Millisecond)
				d.srv.Set(mailtest.OK, 0)
			}
			d.until("every mail answered", func() bool { return d.answered(ids) && d.queued() == 0 })
			if n := d.once(); n != 2+len(ids) {
				t.Errorf("%d mails accepted, want %d (2 welcomes and %d answers)", n, 2+len(ids), len(ids))
			}
			if d.noted() {
				t.Error("the game's log says a mail was refused for good")
			}
		})
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

// Issue 12.2: a graceful stop while a mail is being sent lets the send finish and records
// it; the next run does not send it again.
func TestGracefulStopSendsOnce(t *testing.T) {
	d := newFaultDaemon(t)
	d.srv.Set(mailtest.Slow, 0)
	d.srv.SetHang(400 * time.Millisecond)
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

// Issue 12.10: after failures have grown the backoff, new mail (or the server answering again
// after an outage) has the outbox retried at once, not when the backoff runs out.
func TestNewMailResetsBackoff(t *testing.T) {
	d := newFaultDaemon(t)
	d.srv.Set(mailtest.TempData, 0)
	d.start()
	// 50 ms doubling: after the 7th try the daemon waits 3.2 s.
	d.until("the backoff to grow", func() bool { return d.srv.Tries() >= 7 })
	d.srv.Set(mailtest.OK, 0)
	at := time.Now()
	id := d.mail("alice@example.org")
	d.until("the answer", func() bool { return d.answered([]string{id}) })
	if waited := time.Since(at); waited > 2500*time.Millisecond {
		t.Errorf("the answer waited %v, the backoff's length", waited)
	}
}

func TestServerBackResetsBackoff(t *testing.T) {
	d := newFaultDaemon(t)
	d.srv.Down()
	d.start()
	time.Sleep(3500 * time.Millisecond) // 50 ms doubling: the daemon now waits 3.2 s
	if s := d.h.Health().Send; s.FailingSince.IsZero() || s.Kind != mail.KindConnection || s.Failures[mail.KindConnection] < 2 {
		t.Errorf("the sending's health while the server is down: %+v", s)
	}
	d.srv.Up()
	at := time.Now()
	d.until("the welcomes", func() bool { return len(d.srv.Accepted()) == 2 })
	if waited := time.Since(at); waited > 2500*time.Millisecond {
		t.Errorf("the queued mail waited %v after the server came back", waited)
	}
	d.until("the sending well again", func() bool { return d.h.Health().Send.FailingSince.IsZero() })
}
