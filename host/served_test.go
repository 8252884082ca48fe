package host

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ledger/ledgertest"
	"navarch/mail"
	"navarch/store"
)

// served is a daemon (Serve) with one game, reading go-imap's memory server and sending to
// a go-smtp sink on loopback.
type served struct {
	t    *testing.T
	h    *Host
	tag  string
	user *imapmemserver.User
	out  *sink
}

// newServed starts a daemon for navarch's address and domain with a game of players.
func newServed(t *testing.T, address, domain string, players []PlayerSpec) *served {
	t.Helper()
	user, out, in, smtpOut := loopback(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	smtpOut.From = address
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Maps: testMaps, Address: address, Domain: domain,
		Rand: ledgertest.Rand(t.Name())}, slog.New(slog.DiscardHandler))
	tag, err := h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Players: players})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Serve(ctx, in, smtpOut) }()
	t.Cleanup(func() { cancel(); <-done })
	return &served{t: t, h: h, tag: tag, user: user, out: out}
}

// deliver puts a raw mail (CRLF line ends) in navarch's mailbox.
func (c *served) deliver(raw string) {
	c.t.Helper()
	if _, err := c.user.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
		c.t.Fatal(err)
	}
}

// sent is the i-th mail the daemon sent, as the SMTP server took it.
func (c *served) sent(t *testing.T, i int) []byte {
	t.Helper()
	c.out.mu.Lock()
	defer c.out.mu.Unlock()
	if i >= len(c.out.msgs) {
		t.Fatalf("no mail %d sent", i)
	}
	return c.out.msgs[i]
}

// waitFor waits until the mails sent (From set to each one's recipient) satisfy ok.
func (c *served) waitFor(what string, ok func([]*mail.Incoming) bool) []*mail.Incoming {
	c.t.Helper()
	// A minute: under -race on a shared 2-core machine the maps alone take tens of seconds.
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if ms := c.out.mails(c.t); ok(ms) {
			return ms
		}
	}
	c.t.Fatalf("timed out waiting for %s; got %d mails", what, len(c.out.mails(c.t)))
	return nil
}

// waitDrops waits until n mails have been dropped for reason.
func (c *served) waitDrops(t *testing.T, reason string, n int) {
	t.Helper()
	got := 0
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		f, err := c.h.Figures()
		if err != nil {
			t.Fatal(err)
		}
		if got = f.Dropped[reason]; got >= n {
			break
		}
	}
	if got != n {
		t.Errorf("%d mails dropped as %s, want %d", got, reason, n)
	}
}

// has is the first mail to address whose subject holds subject.
func has(ms []*mail.Incoming, to, subject string) *mail.Incoming {
	for _, m := range ms {
		if m.From == to && strings.Contains(strings.ToLower(m.Subject), strings.ToLower(subject)) {
			return m
		}
	}
	return nil
}
