package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"navarch/mail/mailtest"
)

// mailbox starts go-imap's memory server on loopback with the given mails in INBOX and
// returns an Intake pointed at it.
func mailbox(t *testing.T, bodies ...string) *Intake {
	t.Helper()
	box := mailtest.NewIMAP(t, "navarch", "secret", nil)
	for i, b := range bodies {
		if err := box.Deliver(fmt.Sprintf("From: p@example.org\r\nMessage-ID: <%d@example.org>\r\n\r\n%s\r\n", i, b)); err != nil {
			t.Fatal(err)
		}
	}
	var cur Cursor
	var mu sync.Mutex
	in := &Intake{IMAP: IMAP{Host: "127.0.0.1", Port: box.Port, TLS: TLSNone, Username: box.Username, Password: box.Password,
		Poll: 100 * time.Millisecond, Timeout: 5 * time.Second}, Log: slog.New(slog.DiscardHandler),
		Load: func() (Cursor, error) { mu.Lock(); defer mu.Unlock(); return cur, nil },
		Save: func(c Cursor) error { mu.Lock(); defer mu.Unlock(); cur = c; return nil }}
	return in
}

// body returns the last line of a raw test mail.
func body(raw []byte) string {
	lines := strings.Split(strings.TrimSpace(string(raw)), "\r\n")
	return lines[len(lines)-1]
}

// record keeps what Handle and Park saw, safely across the intake goroutine.
type record struct {
	mu      sync.Mutex
	handled []string
	parked  []string
	tries   map[string]int
}

func (r *record) snapshot() (handled, parked []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.handled), slices.Clone(r.parked)
}

// run runs the intake until the test ends, and returns once n mails were handled (or after
// 30 seconds).
func run(t *testing.T, in *Intake, r *record, n int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if h, _ := r.snapshot(); len(h) >= n {
			return
		}
	}
}

// A mail Handle keeps failing on is parked after Attempts tries, a panicking one at once;
// the mail behind them is handled, and the parked ones are flagged for the operator.
func TestIntakeParksWhatKeepsFailing(t *testing.T) {
	in := mailbox(t, "first", "FAIL", "BOOM", "last")
	r := &record{tries: map[string]int{}}
	in.Attempts = 3
	in.Handle = func(raw []byte) error {
		b := body(raw)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.tries[b]++
		switch b {
		case "FAIL":
			return errors.New("our failure")
		case "BOOM":
			panic("a bug")
		}
		r.handled = append(r.handled, b)
		return nil
	}
	in.Park = func(raw []byte, cause error) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.parked = append(r.parked, body(raw)+": "+strings.SplitN(cause.Error(), "\n", 2)[0])
		return nil
	}
	run(t, in, r, 2)
	handled, parked := r.snapshot()
	if !slices.Equal(handled, []string{"first", "last"}) {
		t.Fatalf("handled %q, want first and last", handled)
	}
	if want := []string{"FAIL: handle mail 2: our failure", "BOOM: panic: a bug"}; !slices.Equal(parked, want) {
		t.Errorf("parked %q, want %q", parked, want)
	}
	r.mu.Lock()
	if r.tries["FAIL"] != 3 || r.tries["BOOM"] != 1 {
		t.Errorf("tries %v, want FAIL 3 times and BOOM once", r.tries)
	}
	r.mu.Unlock()
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		got = ""
		for uid, fl := range flags(t, in) {
			got += fmt.Sprintf("%d:%v:%v ", uid, slices.Contains(fl, imap.FlagSeen), slices.Contains(fl, imap.FlagFlagged))
		}
		if got = sortWords(got); got == "1:true:false 2:true:true 3:true:true 4:true:false" {
			break
		}
	}
	if got != "1:true:false 2:true:true 3:true:true 4:true:false" {
		t.Errorf("uid:seen:flagged = %s; want all seen, the parked 2 and 3 flagged", got)
	}
}

func sortWords(s string) string {
	w := strings.Fields(s)
	slices.Sort(w)
	return strings.Join(w, " ")
}

// flags reads the flags of every mail in INBOX over IMAP, by UID.
func flags(t *testing.T, in *Intake) map[imap.UID][]imap.Flag {
	t.Helper()
	c, err := imapclient.DialInsecure(net.JoinHostPort(in.Host, strconv.Itoa(in.Port)), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(in.Username, in.Password).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Fetch(imap.SeqSet{imap.SeqRange{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	out := map[imap.UID][]imap.Flag{}
	for _, m := range msgs {
		out[m.UID] = m.Flags
	}
	return out
}

// Without Park, a panicking mail is passed over so that the mail behind it is handled.
func TestIntakeWithoutParkPassesOverAPanic(t *testing.T) {
	in := mailbox(t, "BOOM", "after")
	r := &record{}
	in.Handle = func(raw []byte) error {
		if body(raw) == "BOOM" {
			panic("a bug")
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.handled = append(r.handled, body(raw))
		return nil
	}
	run(t, in, r, 1)
	if h, _ := r.snapshot(); !slices.Equal(h, []string{"after"}) {
		t.Errorf("handled %q, want the mail after the panic", h)
	}
}

// The intake's health: Check and Run record a refused login as the operator's (auth), a
// server that does not answer as the connection's, and a poll that read the mailbox as a
// success, with an injected clock.
func TestIntakeHealth(t *testing.T) {
	in := mailbox(t, "first")
	if err := in.Check(context.Background()); err != nil {
		t.Fatalf("check with the right password: %v", err)
	}
	in.Password = "wrong"
	err := in.Check(context.Background())
	if k := ErrorKind(err); k != KindAuth || !strings.Contains(err.Error(), "imap login as navarch: login refused") {
		t.Errorf("a wrong password: %s, %v; want auth", k, err)
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	in.Health, in.Now = &Health{}, func() time.Time { return now }
	r := &record{tries: map[string]int{}}
	in.Handle = func(raw []byte) error {
		r.mu.Lock()
		r.handled = append(r.handled, body(raw))
		r.mu.Unlock()
		return nil
	}
	in.Log = slog.New(slog.DiscardHandler)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx) }()
	for end := time.Now().Add(10 * time.Second); in.Health.Status().FailingSince.IsZero(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no failure recorded for the wrong password")
		}
	}
	cancel()
	<-done
	s := in.Health.Status()
	if s.Kind != KindAuth || s.Failures[KindAuth] < 1 || !s.LastOK.IsZero() || s.Failing(now.Add(time.Minute)) != time.Minute {
		t.Errorf("with the wrong password: %+v", s)
	}
	in.Password = "secret"
	now = now.Add(2 * time.Minute)
	run(t, in, r, 1)
	for end := time.Now().Add(10 * time.Second); in.Health.Status().LastOK.IsZero(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no success recorded once the password is right")
		}
	}
	if s := in.Health.Status(); !s.LastOK.Equal(now) || !s.FailingSince.IsZero() || s.Err != "" || s.Failures[KindAuth] < 1 {
		t.Errorf("once mended: %+v", s)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	in.Port = ln.Addr().(*net.TCPAddr).Port
	if err := in.Check(context.Background()); ErrorKind(err) != KindConnection {
		t.Errorf("nothing listening: %s, %v; want connection", ErrorKind(err), err)
	}
}
