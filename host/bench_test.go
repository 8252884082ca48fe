package host

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

// BenchmarkHandleCheck is one order mail through the host without the transport: read the
// mail, authenticate, rebuild the game from its log, parse and validate the orders, queue the
// receipt, commit (a CHECK, so that the game stays where it is for the next iteration).
func BenchmarkHandleCheck(b *testing.B) {
	f := newBenchFixture(b)
	key := f.keys["alice@example.org"]
	i := 0
	for b.Loop() {
		i++
		raw := fmt.Sprintf("From: alice@example.org\r\nSubject: [navarch %s]\r\nMessage-ID: <b%d@example.org>\r\n\r\nCHECK\r\nKEY %s\r\nBARBARIGO ON BAR-LANT HIDDEN\r\n", f.tag, i, key)
		if err := f.h.Handle([]byte(raw)); err != nil {
			b.Fatal(err)
		}
	}
}

type benchFixture struct {
	*fixture
	keys map[string]string
}

func newBenchFixture(b *testing.B) benchFixture {
	f := newFixtureTB(b)
	keys := map[string]string{}
	for _, m := range f.outbox() {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil && m.To[0] != "ref@example.net" {
			keys[m.To[0]] = k[1]
		}
	}
	for who, k := range keys {
		f.send(who, "JOIN\nKEY "+k)
	}
	if len(keys) != 2 || !strings.HasPrefix(f.tag, "lep-") {
		b.Fatalf("fixture: %v", keys)
	}
	return benchFixture{f, keys}
}

// BenchmarkServeLoopback is the daemon's throughput on loopback: b.N order mails (CHECK) put
// in navarch's mailbox on go-imap's memory server, read by the IMAP intake, handled and
// answered through SMTP to a go-smtp sink; it ends when every receipt has arrived.
func BenchmarkServeLoopback(b *testing.B) {
	f := newBenchFixture(b)
	f.h.cfg.RateLimit = 1 << 30
	f.outbox()
	user, out, in, smtpOut := loopback(b)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.h.Serve(ctx, in, smtpOut) }()
	defer func() { cancel(); <-done }()
	key := f.keys["alice@example.org"]
	b.ResetTimer()
	for i := range b.N {
		raw := fmt.Sprintf("From: alice@example.org\r\nSubject: [navarch %s]\r\nMessage-ID: <s%d@example.org>\r\n\r\nCHECK\r\nKEY %s\r\nBARBARIGO ON BAR-LANT HIDDEN\r\n", f.tag, i, key)
		if _, err := user.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	for deadline := time.Now().Add(5 * time.Minute); out.count() < b.N; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d receipts after five minutes", out.count(), b.N)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}
