package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"navarch/mail"
	"navarch/mail/mailtest"
	"navarch/store"
)

var start = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// kindErr is a send's failure of a given kind (the tests' Config.Kind reads it).
type kindErr struct{ k Kind }

func (e kindErr) Error() string { return "test failure: " + string(e.k) }

func testKind(err error) Kind {
	var k kindErr
	if errors.As(err, &k) {
		return k.k
	}
	return KindOf(err)
}

// fakeSender takes mail, failing as told: by recipient, or every mail while down is set.
type fakeSender struct {
	mu    sync.Mutex
	fail  map[string]Kind // by recipient
	down  Kind            // every send fails so
	sent  []string        // Message-IDs taken
	tries int
}

func (s *fakeSender) Send(_ context.Context, o mail.Outgoing) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tries++
	if s.down != "" {
		return kindErr{s.down}
	}
	if k := s.fail[o.To[0]]; k != "" {
		return kindErr{k}
	}
	s.sent = append(s.sent, o.MessageID)
	return nil
}

func (s *fakeSender) set(f func(*fakeSender)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

func (s *fakeSender) taken() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sent)
}

type fixture struct {
	t     *testing.T
	s     *store.Store
	clock *ManualClock
	send  *fakeSender
	cfg   Config
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f := &fixture{t: t, s: s, clock: NewManualClock(start), send: &fakeSender{fail: map[string]Kind{}}}
	f.cfg = Config{Store: s, Sender: f.send, Clock: f.clock, Kind: testKind, Retry: time.Second}
	return f
}

func (f *fixture) outbox() *Outbox {
	f.t.Helper()
	o, err := New(f.cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	return o
}

// queue queues a mail to each address; it returns their Message-IDs.
func (f *fixture) queue(to ...string) []string {
	f.t.Helper()
	var ids []string
	err := f.s.Update(func(tx *store.Tx) error {
		for _, a := range to {
			seq, _ := store.OutboxFirst(tx)
			id := fmt.Sprintf("%d.%d.%s@navarch.test", len(ids), seq, a)
			o := mail.Outgoing{MessageID: id, To: []string{a}, Subject: "[navarch x] test", Text: "hi"}
			if _, err := store.OutboxAdd(tx, o.Marshal()); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return ids
}

func (f *fixture) queued() (n int) {
	f.s.View(func(tx *store.Tx) error { n = store.OutboxLen(tx); return nil })
	return n
}

// A 450 at RCPT for one recipient defers that mail alone: the others go, its retry state is
// stored (next attempt, failures) and doubles with each failure; once it is due, it goes.
func TestDeferredMailHoldsUpNoOther(t *testing.T) {
	f := newFixture(t)
	ids := f.queue("bob@example.com", "alice@example.org", "ref@example.net")
	f.send.fail["bob@example.com"] = Temporary
	o := f.outbox()
	next, err := o.Flush(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := f.send.taken(); !slices.Equal(got, ids[1:]) {
		t.Fatalf("sent %v, want the two behind the deferred one %v", got, ids[1:])
	}
	if !next.Equal(start.Add(time.Second)) {
		t.Errorf("next attempt %v, want a second on", next)
	}
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		var e store.OutboxEntry
		f.s.View(func(tx *store.Tx) error { e, _ = store.OutboxNext(tx, 0); return nil })
		if e.Retry.Failures != i+1 || !e.Retry.Next.Equal(f.clock.Now().Add(want)) {
			t.Fatalf("after %d failures: %+v, want next in %v", i+1, e.Retry, want)
		}
		tries := f.send.tries
		f.clock.Advance(want - time.Millisecond)
		if _, err := o.Flush(context.Background()); err != nil || f.send.tries != tries {
			t.Fatalf("tried before its time (%v, %d tries)", err, f.send.tries-tries)
		}
		f.clock.Advance(time.Millisecond)
		if _, err := o.Flush(context.Background()); err != nil || f.send.tries != tries+1 {
			t.Fatalf("not tried when due (%v, %d tries)", err, f.send.tries-tries)
		}
	}
	if s := o.Status(); s.Queued != 1 || s.Deferred != 1 || s.Kind != Temporary || s.Failures[Temporary] != 4 || s.Oldest != 7*time.Second {
		t.Errorf("status %+v", s)
	}
	f.send.set(func(s *fakeSender) { delete(s.fail, "bob@example.com") })
	f.clock.Advance(8 * time.Second)
	if _, err := o.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.send.taken(); len(got) != 3 || got[2] != ids[0] || f.queued() != 0 {
		t.Errorf("sent %v, %d queued", got, f.queued())
	}
	if s := o.Status(); s.Queued != 0 || s.Err != "" || !s.LastSent.Equal(f.clock.Now()) {
		t.Errorf("status after all went: %+v", s)
	}
}

// A refused login is the operator's to mend: it counts against no mail, no mail is refused,
// the whole outbox backs off (new mail does not cut it short) and says so in its Status.
func TestAuthFailureBacksOffTheOutbox(t *testing.T) {
	f := newFixture(t)
	f.queue("alice@example.org", "bob@example.com")
	f.send.down = Auth
	o := f.outbox()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { o.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	waits := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}
	for i, w := range waits {
		waitTimer(t, f.clock, w)
		if i == 1 {
			o.Wake() // new mail: a refused login is not retried for it
			f.queue("ref@example.net")
		}
		if n := f.send.tries; n != i+1 {
			t.Fatalf("%d tries after %d waits", n, i)
		}
		f.clock.Advance(w)
	}
	waitTimer(t, f.clock, 16*time.Second)
	s := o.Status()
	if s.Kind != Auth || s.Failures[Auth] != 5 || !s.RetryAt.Equal(f.clock.Now().Add(16*time.Second)) || s.Queued != 3 {
		t.Errorf("status %+v", s)
	}
	f.s.View(func(tx *store.Tx) error {
		for _, e := range store.Outbox(tx) {
			if e.Retry != (store.Retry{}) {
				t.Errorf("mail %d has %+v after the login failures", e.Seq, e.Retry)
			}
		}
		return nil
	})
	f.send.set(func(s *fakeSender) { s.down = "" })
	f.clock.Advance(16 * time.Second)
	until(t, "the queue sent", func() bool { return len(f.send.taken()) == 3 })
}

// waitTimer waits until the loop waits on a timer due in d (the backoff it chose).
func waitTimer(t *testing.T, c *ManualClock, d time.Duration) {
	t.Helper()
	until(t, fmt.Sprintf("a wait of %v", d), func() bool { n, next := c.Waiting(); return n > 0 && next == d })
}

// until polls for an outcome (never for a time to pass: the clock is the test's).
func until(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); !ok(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no %s", what)
		}
	}
}

// The send is recorded in the journal, not in a write transaction: an outbox dropped without
// folding (a kill -9) leaves the journal, and the next one sends nothing again and takes
// the journal's mails out of the store.
func TestJournalAfterKill(t *testing.T) {
	f := newFixture(t)
	ids := f.queue("alice@example.org", "bob@example.com")
	o := f.outbox()
	if _, err := o.pass(context.Background()); err != nil { // a pass, killed before its fold
		t.Fatal(err)
	}
	if f.queued() != 2 {
		t.Fatalf("%d queued: the pass wrote to the store", f.queued())
	}
	data, err := os.ReadFile(f.s.Path() + ".sent")
	if err != nil || len(parseJournal(data)) != 2 {
		t.Fatalf("journal %q, %v", data, err)
	}
	o2 := f.outbox()
	if _, err := o2.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.send.taken(); !slices.Equal(got, ids) || f.queued() != 0 {
		t.Errorf("sent %v, %d queued, want %v once each and none", got, f.queued(), ids)
	}
	if data, err := os.ReadFile(f.s.Path() + ".sent"); err != nil || len(data) != 0 {
		t.Errorf("journal left after the fold: %q, %v", data, err)
	}
}

// A journal line names its mail by seq and Message-ID: beside a database restored from a
// backup (the seq queued again, another mail), or cut short by a kill, it takes out nothing.
func TestJournalTakesOutOnlyItsMail(t *testing.T) {
	f := newFixture(t)
	ids := f.queue("alice@example.org", "bob@example.com")
	var seqs []uint64
	f.s.View(func(tx *store.Tx) error { seqs = store.OutboxSeqs(tx); return nil })
	line := fmt.Sprintf("%d other@navarch.test\n%d %s", seqs[0], seqs[1], ids[1][:5])
	if err := os.WriteFile(f.s.Path()+".sent", []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	o := f.outbox()
	o.sent = map[uint64]bool{} // pass over nothing: only the fold is tested
	if err := o.fold(); err != nil {
		t.Fatal(err)
	}
	if f.queued() != 2 {
		t.Errorf("%d queued after folding lines of other mails, want 2", f.queued())
	}
}

// A full disk: the server takes a mail, but neither the journal nor the store can record
// it. The outbox sends nothing twice, backs off at most MaxStoreRetry, and once the disk has
// room the backlog goes out within 10 s of the test's clock.
func TestFullDiskBacklogWithinTenSeconds(t *testing.T) {
	f := newFixture(t)
	ids := f.queue("a@example.org", "b@example.org", "c@example.org", "d@example.org")
	o := f.outbox()
	var mu sync.Mutex
	full := true
	isFull := func() bool { mu.Lock(); defer mu.Unlock(); return full }
	enospc := &os.PathError{Op: "write", Path: "navarch.db", Err: syscall.ENOSPC}
	o.update = func(fn func(*store.Tx) error) error {
		if isFull() {
			return enospc
		}
		return f.s.Update(fn)
	}
	o.j.write = func(file *os.File, line []byte) error {
		if isFull() {
			return enospc
		}
		return appendSync(file, line)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { o.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	for range 8 { // a long outage: the backoff grows to its cap
		until(t, "a backoff", func() bool { n, _ := f.clock.Waiting(); return n > 0 })
		_, d := f.clock.Waiting()
		if d > MaxStoreRetry {
			t.Fatalf("backing off %v with a full disk, over %v", d, MaxStoreRetry)
		}
		f.clock.Advance(d)
	}
	if s := o.Status(); s.Kind != Store {
		t.Errorf("status with a full disk: %+v", s)
	}
	mu.Lock()
	full = false
	mu.Unlock()
	freed := f.clock.Now()
	for f.queued() > 0 || o.Status().Queued > 0 {
		if f.clock.Now().Sub(freed) > 10*time.Second {
			t.Fatalf("%d mails queued 10 s after the disk had room", f.queued())
		}
		until(t, "a wait", func() bool { n, _ := f.clock.Waiting(); return n > 0 || f.queued() == 0 })
		if f.queued() == 0 {
			break
		}
		_, d := f.clock.Waiting()
		f.clock.Advance(min(d, time.Second))
	}
	got := f.send.taken()
	slices.Sort(got)
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("sent %v, want each of %v once", got, want)
	}
}

// KindOf reads mail.SMTP's errors from a real server: a 450 at RCPT is the mail's
// (Temporary), a 550 its for good, a server that is down the outbox's (Connection).
func TestKindOfThroughAServer(t *testing.T) {
	srv := mailtest.Start(t)
	c := mail.SMTP{Host: "127.0.0.1", Port: srv.Port, TLS: mail.TLSNone, From: "navarch@host.example", Timeout: 2 * time.Second}
	m := mail.Outgoing{MessageID: "1@navarch.test", To: []string{"bob@example.com"}, Subject: "s", Text: "t"}
	for _, c2 := range []struct {
		fault mailtest.Fault
		want  Kind
	}{{mailtest.OK, ""}, {mailtest.TempRcpt, Temporary}, {mailtest.TempData, Temporary}, {mailtest.RefuseRcpt, Refused},
		{mailtest.RefuseData, Refused}, {mailtest.DropAtRcpt, Connection}} {
		srv.Set(c2.fault, 0)
		if k := KindOf(c.Send(context.Background(), m)); k != c2.want {
			t.Errorf("fault %d: kind %q, want %q", c2.fault, k, c2.want)
		}
	}
	srv.Set(mailtest.OK, 0)
	srv.Defer("bob@example.com", true)
	if k := KindOf(c.Send(context.Background(), m)); k != Temporary {
		t.Errorf("one recipient deferred: kind %q", k)
	}
	srv.Down()
	if k := KindOf(c.Send(context.Background(), m)); k != Connection {
		t.Errorf("server down: kind %q", k)
	}
}

// KindOf tells a refused login and a TLS failure from connection trouble by go-mail's
// words, never by ours (the Message-ID in the error names our domain).
func TestKindOfLoginAndTLS(t *testing.T) {
	wrap := func(text string) error {
		return fmt.Errorf("send 1.lep-ab12@auth.tls.example: %w: %v", mail.ErrTemporary, errors.New(text))
	}
	for text, want := range map[string]Kind{
		`SMTP AUTH failed: 535 5.7.8 Error: authentication failed`:                         Auth,
		`SMTP AUTH failed: 530 5.7.0 Must issue a STARTTLS command first`:                  Auth,
		`server does not support SMTP AUTH`:                                                Auth,
		`tls: failed to verify certificate: x509: certificate signed by unknown authority`: TLS,
		`STARTTLS mode set to: "TLSMandatory", but target host does not support STARTTLS`:  TLS,
		`dial tcp 127.0.0.1:25: connect: connection refused`:                               Connection,
		`EOF`: Connection,
	} {
		if k := KindOf(wrap(text)); k != want {
			t.Errorf("%q: %q, want %q", text, k, want)
		}
	}
	if k := KindOf(errors.New("550 5.1.1 no such user")); k != Refused {
		t.Errorf("a refusal: %q", k)
	}
}
