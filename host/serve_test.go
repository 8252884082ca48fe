package host

import (
	"context"
	"io"
	"log"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ledger/ledgertest"
	"navarch/mail"
	"navarch/mail/mailtest"
	"navarch/store"
)

// sink is an SMTP server that keeps what it is sent.
type sink struct {
	mu   sync.Mutex
	msgs [][]byte
}

func (b *sink) NewSession(*smtp.Conn) (smtp.Session, error) { return &sinkSession{b: b}, nil }

type sinkSession struct{ b *sink }

func (s *sinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *sinkSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *sinkSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	s.b.mu.Lock()
	s.b.msgs = append(s.b.msgs, data)
	s.b.mu.Unlock()
	return err
}
func (s *sinkSession) Reset()        {}
func (s *sinkSession) Logout() error { return nil }

func (b *sink) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.msgs)
}

func (b *sink) mails(t *testing.T) []*mail.Incoming {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []*mail.Incoming
	for _, raw := range b.msgs {
		in, err := mail.Parse(raw, mail.Options{MaxSize: 4 << 20})
		if err != nil {
			t.Fatalf("an outgoing mail does not parse: %v", err)
		}
		in.From = toOf(raw)
		out = append(out, in)
	}
	return out
}

// toOf reads the To header (Parse keeps From; here we want the recipient).
func toOf(raw []byte) string {
	for _, l := range strings.Split(string(raw), "\r\n") {
		if v, ok := strings.CutPrefix(l, "To: "); ok {
			return strings.Trim(strings.ToLower(v), "<> ")
		}
	}
	return ""
}

func listen(t testing.TB) (net.Listener, int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln, ln.Addr().(*net.TCPAddr).Port
}

// loopback starts go-imap's memory server with navarch's mailbox and a go-smtp sink on
// loopback; it returns the mailbox's user, the sink and a daemon wired to both.
func loopback(t testing.TB) (*imapmemserver.User, *sink, *mail.Intake, mail.SMTP) {
	t.Helper()
	box := mailtest.NewIMAP(t, "navarch@host.example", "secret", nil)
	user, iport := box.User, box.Port
	out := &sink{}
	ssrv := smtp.NewServer(out)
	ssrv.Domain, ssrv.AllowInsecureAuth, ssrv.ErrorLog = "localhost", true, log.New(io.Discard, "", 0)
	sln, sport := listen(t)
	go ssrv.Serve(sln)
	t.Cleanup(func() { ssrv.Close() })
	in := &mail.Intake{IMAP: mail.IMAP{Host: "127.0.0.1", Port: iport, TLS: mail.TLSNone, Username: "navarch@host.example",
		Password: "secret", Poll: 200 * time.Millisecond, Timeout: 5 * time.Second}, Log: slog.New(slog.DiscardHandler)}
	return user, out, in, mail.SMTP{Host: "127.0.0.1", Port: sport, TLS: mail.TLSNone, From: "navarch@host.example", Timeout: 5 * time.Second}
}

// TestServeThroughIMAPAndSMTP plays the opening of a game through real protocols: go-imap's
// memory server holds navarch's mailbox, a go-smtp server receives what navarch sends.
func TestServeThroughIMAPAndSMTP(t *testing.T) {
	user, out, in, smtpOut := loopback(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var beats atomic.Int32
	backups := store.Rotation{Dir: filepath.Join(t.TempDir(), "backups"), Every: time.Hour, Keep: 1}
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example",
		Rand: ledgertest.Rand("serve"), Heartbeat: func(int) { beats.Add(1) }, Backups: backups}, slog.New(slog.DiscardHandler))
	tag, err := h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "Europe/Rome"}, {"bob", "ottoman", "bob@example.com", "UTC"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- h.Serve(ctx, in, smtpOut)
	}()
	defer func() { cancel(); <-done }()

	waitFor := func(what string, ok func([]*mail.Incoming) bool) []*mail.Incoming {
		t.Helper()
		// A minute: under -race on a shared 2-core machine the maps alone take tens of seconds.
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if ms := out.mails(t); ok(ms) {
				return ms
			}
		}
		t.Fatalf("timed out waiting for %s; got %d mails", what, len(out.mails(t)))
		return nil
	}
	has := func(ms []*mail.Incoming, to, subject string) *mail.Incoming {
		for _, m := range ms {
			if m.From == to && strings.Contains(strings.ToLower(m.Subject), strings.ToLower(subject)) {
				return m
			}
		}
		return nil
	}
	ms := waitFor("welcome mails", func(ms []*mail.Incoming) bool { return len(ms) >= 2 })
	n := 0
	send := func(from, body string) {
		n++
		raw := "From: " + from + "\r\nTo: navarch@host.example\r\nSubject: [navarch " + tag + "]\r\nMessage-ID: <" + strconv.Itoa(n) + ".serve@example.org>\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
		if _, err := user.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		w := has(ms, who, "welcome")
		if w == nil {
			t.Fatalf("no welcome for %s", who)
		}
		send(who, "JOIN\nKEY "+keyRE.FindStringSubmatch(w.Text)[1])
	}
	ms = waitFor("set-up requests", func(ms []*mail.Incoming) bool {
		return has(ms, "alice@example.org", "your move") != nil && has(ms, "bob@example.com", "your move") != nil
	})
	if r := has(ms, "bob@example.com", "your move"); r.InReplyTo == nil || !strings.Contains(r.Text, "set-up") {
		t.Errorf("the request is not threaded or not the set-up: %+v", r)
	}
	// Both decline the set-up; then whoever is asked first sends a mistake and its correction.
	keys := map[string]string{}
	for _, who := range []string{"alice@example.org", "bob@example.com"} {
		keys[who] = keyRE.FindStringSubmatch(has(ms, who, "welcome").Text)[1]
		send(who, "KEY "+keys[who]+"\nNONE")
	}
	ms = waitFor("the first group's request", func(ms []*mail.Incoming) bool {
		n := 0
		for _, m := range ms {
			if strings.Contains(m.Subject, "Your move") {
				n++
			}
		}
		return n >= 3
	})
	var asked string
	for _, m := range ms {
		if strings.Contains(m.Subject, "Your move") && !strings.Contains(m.Text, "set-up") {
			asked = m.From
		}
	}
	send(asked, "KEY "+keys[asked]+"\nNOSUCH MOVE 0101")
	waitFor("the errors", func(ms []*mail.Incoming) bool { return has(ms, asked, "refused") != nil })
	send(asked, "KEY "+keys[asked]+"\nNONE")
	// One mail for the moment: the receipt leads the report of the step it completed.
	receipt := func(ms []*mail.Incoming) *mail.Incoming {
		for _, m := range ms {
			if m.From == asked && strings.Contains(m.Text, "your orders are accepted") && strings.Contains(m.Text, "what happened in turn") {
				return m
			}
		}
		return nil
	}
	ms = waitFor("the receipt with the report", func(ms []*mail.Incoming) bool { return receipt(ms) != nil })
	if r := receipt(ms); !strings.Contains(r.Text, "#") {
		t.Errorf("the report lists no log records:\n%s", r.Text)
	}
	unseen := -1
	for deadline := time.Now().Add(10 * time.Second); unseen != 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		st, _ := user.Status("INBOX", &imap.StatusOptions{NumUnseen: true})
		unseen = int(*st.NumUnseen)
	}
	if unseen != 0 {
		t.Errorf("%d handled mails not flagged \\Seen", unseen)
	}
	if beats.Load() == 0 {
		t.Error("the daemon never beat its heart")
	}
	if backups.Latest().IsZero() {
		t.Error("the daemon took no backup of its own at start")
	}
}

// TestServeParksAndGoesOn: a mail for a broken game fails, is parked after the intake's
// attempts and its sender told; the mail behind it, for a sound game, is answered.
func TestServeParksAndGoesOn(t *testing.T) {
	user, out, in, smtpOut := loopback(t)
	in.Attempts = 2
	s, err := store.Open(filepath.Join(t.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example",
		Rand: ledgertest.Rand("park")}, slog.New(slog.DiscardHandler))
	var tags []string
	for _, p := range [][2]string{{"alice@example.org", "bob@example.com"}, {"carol@example.org", "dave@example.com"}} {
		tag, err := h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
			Players: []PlayerSpec{{"p1", "christian", p[0], "UTC"}, {"p2", "ottoman", p[1], "UTC"}}})
		if err != nil {
			t.Fatal(err)
		}
		tags = append(tags, tag)
	}
	err = s.Update(func(tx *store.Tx) error {
		id, _, err := findGame(tx, tags[0])
		if err != nil {
			return err
		}
		return store.PutSettings(tx, id, tags[0], []byte("{broken"))
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []struct{ from, tag string }{{"alice@example.org", tags[0]}, {"carol@example.org", tags[1]}} {
		raw := "From: " + m.from + "\r\nSubject: [navarch " + m.tag + "]\r\nMessage-ID: <" + strconv.Itoa(i) + ".park@example.org>\r\n\r\nSTATUS\r\n"
		if _, err := user.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Serve(ctx, in, smtpOut) }()
	defer func() { cancel(); <-done }()
	var told, answered bool
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && !(told && answered); time.Sleep(50 * time.Millisecond) {
		for _, m := range out.mails(t) {
			told = told || m.From == "alice@example.org" && strings.Contains(flat(m.Text), "fault on our side")
			answered = answered || m.From == "carol@example.org" && strings.Contains(m.Subject, tags[1]) && !strings.Contains(m.Subject, "welcome")
		}
	}
	if !told || !answered {
		t.Fatalf("alice told of the fault: %v; carol answered behind her: %v", told, answered)
	}
	if parked, err := h.Parked(); err != nil || len(parked) != 1 || parked[0].From != "alice@example.org" {
		t.Errorf("parked = %+v, %v", parked, err)
	}
}
