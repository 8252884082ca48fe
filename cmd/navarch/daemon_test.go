package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"image/png"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	gosmtp "github.com/emersion/go-smtp"

	"navarch/host"
	"navarch/mail/mailtest"
	"navarch/outbox"
)

// testServers are navarch's IMAP mailbox (go-imap's memory server) and an SMTP server
// (go-smtp) that keeps what navarch sends and refuses for good any mail to refused.example.
type testServers struct {
	box                *mailtest.IMAP
	imapPort, smtpPort int
	refuseLogin        atomic.Bool // the SMTP server refuses every login (535)
	mu                 sync.Mutex
	sent               []string            // the recipients of the mails taken, in order
	raw                map[string][]string // the mails taken, by recipient
}

const testPassword = "test-secret"

// startTestServers starts the servers on loopback; with a TLS configuration, the IMAP server
// speaks TLS from the first byte and the SMTP server offers STARTTLS with it.
func startTestServers(t *testing.T, withTLS ...*tls.Config) *testServers {
	t.Helper()
	var imapTLS *tls.Config
	if len(withTLS) > 0 {
		imapTLS = withTLS[0]
	}
	ts := &testServers{box: mailtest.NewIMAP(t, "navarch@host.example", testPassword, imapTLS), raw: map[string][]string{}}
	smtpSrv := gosmtp.NewServer(testBackend{ts})
	smtpSrv.Domain, smtpSrv.AllowInsecureAuth, smtpSrv.ErrorLog = "localhost", true, log.New(io.Discard, "", 0)
	if len(withTLS) > 0 {
		smtpSrv.TLSConfig = withTLS[0]
	}
	sln, sport, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	go smtpSrv.Serve(sln)
	t.Cleanup(func() { smtpSrv.Close() })
	ts.imapPort, ts.smtpPort = ts.box.Port, sport
	return ts
}

// key is the secret order key in a player's welcome.
func (ts *testServers) key(t *testing.T, to string) string {
	t.Helper()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, raw := range ts.raw[to] {
		if m := regexp.MustCompile(`Your secret order key: (\S+)`).FindStringSubmatch(raw); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no key in the mail to %s", to)
	return ""
}

func (ts *testServers) taken() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]string(nil), ts.sent...)
}

// mail puts a mail in navarch's mailbox.
func (ts *testServers) mail(t *testing.T, from, subject, body string) {
	t.Helper()
	raw := fmt.Sprintf("From: %s\r\nTo: navarch@host.example\r\nSubject: %s\r\nMessage-ID: <%d@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, subject, time.Now().UnixNano(), body)
	if err := ts.box.Deliver(raw); err != nil {
		t.Fatal(err)
	}
}

type testBackend struct{ ts *testServers }

func (b testBackend) NewSession(*gosmtp.Conn) (gosmtp.Session, error) {
	return &testSession{ts: b.ts}, nil
}

type testSession struct {
	ts *testServers
	to []string
}

// The SMTP server offers AUTH PLAIN and takes any user name and password, or refuses every
// login with 535 while refuseLogin is set.
func (s *testSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *testSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, _, _ string) error {
		if s.ts.refuseLogin.Load() {
			return &gosmtp.SMTPError{Code: 535, EnhancedCode: gosmtp.EnhancedCode{5, 7, 8}, Message: "authentication credentials invalid"}
		}
		return nil
	}), nil
}

func (s *testSession) Mail(string, *gosmtp.MailOptions) error { return nil }
func (s *testSession) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	if strings.HasSuffix(to, "@refused.example") {
		return &gosmtp.SMTPError{Code: 550, EnhancedCode: gosmtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	s.to = append(s.to, to)
	return nil
}
func (s *testSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.ts.mu.Lock()
	s.ts.sent = append(s.ts.sent, s.to...)
	for _, to := range s.to {
		s.ts.raw[to] = append(s.ts.raw[to], string(raw))
	}
	s.ts.mu.Unlock()
	return nil
}
func (s *testSession) Reset()        { s.to = nil }
func (s *testSession) Logout() error { return nil }

// syncBuffer is the daemon's log, written by its goroutines and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// daemonClocks are the outbox clocks of the daemons tests run, by test (daemonClock).
var daemonClocks sync.Map

// daemonClock is the outbox's clock of the daemon t runs: a test moves it to have the outbox
// retry after a failure of the server (its backoff is on this clock).
func daemonClock(t *testing.T) *outbox.ManualClock {
	c, _ := daemonClocks.Load(t)
	return c.(*outbox.ManualClock)
}

// daemon runs navarch serve's daemon (serveDaemon) on the test servers, with metrics on
// loopback, until the test ends. Its outbox's clock stands still (outbox.ManualClock, never
// moved): the outbox sends only when woken, never on its own timers. It returns the
// configuration's path, the database's, the metrics address and the daemon's log.
func daemon(t *testing.T, ts *testServers, edit ...func(config string) string) (cfg, db, metricsAddr string, logs *syncBuffer) {
	t.Helper()
	dir := t.TempDir()
	cfg, db = filepath.Join(dir, "navarch.json"), filepath.Join(dir, "navarch.db")
	ln, port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	metricsAddr = fmt.Sprintf("127.0.0.1:%d", port)
	text := fmt.Sprintf(`{"database": %q, "address": "navarch@host.example", "domain": "navarch.host.example", "metrics_listen": %q,
 "imap": {"host": "127.0.0.1", "port": %d, "tls": "none", "username": "navarch@host.example", "password": %q, "poll_seconds": 1},
 "smtp": {"host": "127.0.0.1", "port": %d, "tls": "none"}}`, db, metricsAddr, ts.imapPort, testPassword, ts.smtpPort)
	for _, e := range edit {
		text = e(text)
	}
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(cfg)
	if err == nil {
		err = c.credentials()
	}
	if err != nil {
		t.Fatal(err)
	}
	logs = &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	still := outbox.NewManualClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	daemonClocks.Store(t, still)
	t.Cleanup(func() { daemonClocks.Delete(t) })
	go func() {
		done <- serveDaemon(ctx, c, slog.New(slog.NewTextHandler(logs, nil)), func(hc *host.Config) { hc.Clock = still })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the daemon: %v", err)
		}
	})
	// The socket's file exists from bind(2), before it listens: wait until it answers.
	waitFor(t, 10*time.Second, "the control socket", func() bool {
		conn, err := net.Dial("unix", db+".sock")
		if err == nil {
			conn.Close()
		}
		return err == nil
	})
	return cfg, db, metricsAddr, logs
}

// waitFor polls until ok, failing the test after within; said, if given, tells what was seen.
func waitFor(t *testing.T, within time.Duration, what string, ok func() bool, said ...func() string) {
	t.Helper()
	for end := time.Now().Add(within); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			seen := ""
			for _, s := range said {
				seen += s()
			}
			t.Fatalf("no %s within %v %s", what, within, seen)
		}
	}
}

// TestDaemonOperator: while the daemon runs, the database commands run through
// its control socket, render and backup included, with -config and the game's tag; the
// welcome mails a command queues leave at once, woken by the command (the outbox's clock
// stands still, so its own timers never fire); each
// sent and each refused mail is one log line with game, recipient, kind and Message-ID; once
// the players have joined by mail, game list shows whose move it is and the deadline.
func TestDaemonOperator(t *testing.T) {
	ts := startTestServers(t)
	cfg, _, _, logs := daemon(t, ts)
	code, out, errs := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea", "-referee", "ref@refused.example",
		"-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@example.com")
	if code != 0 {
		t.Fatalf("game new through the daemon: exit %d\n%s%s", code, out, errs)
	}
	tag := strings.TrimSuffix(strings.Fields(out)[2], ";")
	waitFor(t, 10*time.Second, "welcome mails taken by the server", func() bool { return len(ts.taken()) == 2 })
	waitFor(t, 5*time.Second, "log line of the refused mail", func() bool { return strings.Contains(logs.String(), "mail refused for good") })
	for _, want := range []string{
		fmt.Sprintf(`msg="mail sent" game=%s to=alice@example.org kind=welcome message-id=`, tag),
		fmt.Sprintf(`msg="mail sent" game=%s to=bob@example.com kind=welcome message-id=`, tag),
		fmt.Sprintf(`msg="mail refused for good" game=%s to=ref@refused.example kind=refwelcome message-id=`, tag),
	} {
		if n := strings.Count(logs.String(), want); n != 1 {
			t.Errorf("%d log lines with %q, want 1:\n%s", n, want, logs)
		}
	}
	png1 := filepath.Join(t.TempDir(), "map.png")
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"render", "-config", cfg, "-side", "christian", "-o", png1, tag}, "wrote " + png1},
		{[]string{"check", "-config", cfg}, "OK: "},
		{[]string{"backup", "-config", cfg, filepath.Join(t.TempDir(), "copy.db")}, "backed up"},
		{[]string{"game", "list", "-config", cfg}, " lepanto1571 lions-at-sea joining"},
		{[]string{"game", "show", "-config", cfg, tag}, "game " + tag},
	}
	for _, st := range steps {
		if code, out, e := navarch(st.args...); code != 0 || !strings.Contains(out, st.want) {
			t.Errorf("%v through the daemon: exit %d, want 0 and %q:\n%s%s", st.args, code, st.want, out, e)
		}
	}
	data, _ := os.ReadFile(png1)
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("the map drawn through the daemon: %v", err)
	}
	// Named by its hex id, the game's map is the same picture: titled with the tag.
	_, show, _ := navarch("game", "show", "-config", cfg, tag)
	id := strings.Trim(strings.Fields(show)[2], "()")
	png2 := filepath.Join(t.TempDir(), "map.png")
	if code, out, e := navarch("render", "-config", cfg, "-side", "christian", "-o", png2, id[:6]); code != 0 {
		t.Errorf("render by the hex id: exit %d\n%s%s", code, out, e)
	}
	if data2, _ := os.ReadFile(png2); !bytes.Equal(data, data2) {
		t.Errorf("the map by hex id (%s) differs from the map by tag: its title is not the tag", id[:6])
	}
	if !strings.Contains(logs.String(), `msg="control command" args="render -config`) {
		t.Errorf("render was not run by the daemon:\n%s", logs)
	}
	// Both players join by mail: game list shows the game in play, whose move it is and the
	// deadline.
	for _, p := range []string{"alice@example.org", "bob@example.com"} {
		ts.mail(t, p, "Re: [navarch "+tag+"] welcome", "JOIN\nKEY "+ts.key(t, p))
	}
	var list string
	waitFor(t, 20*time.Second, "the game in play in game list", func() bool {
		_, list, _ = navarch("game", "list", "-config", cfg)
		return strings.Contains(list, " playing; T1 A0; to move: christian (alice), ottoman (bob); deadline ")
	}, func() string { return list })
}

// TestMetricsScraped: after a few mails, the daemon's metrics, scraped over
// loopback, count them, and navarch health reports the same figures.
func TestMetricsScraped(t *testing.T) {
	ts := startTestServers(t)
	cfg, _, addr, logs := daemon(t, ts)
	code, out, errs := navarch("game", "new", "-config", cfg, "-scenario", "lions-at-sea", "-referee", "ref@example.net",
		"-player", "alice:christian:alice@example.org", "-player", "bob:ottoman:bob@refused.example")
	if code != 0 {
		t.Fatalf("game new: exit %d\n%s%s\nthe daemon:\n%s", code, out, errs, logs)
	}
	tag := strings.TrimSuffix(strings.Fields(out)[2], ";")
	ts.mail(t, "alice@example.org", "Re: [navarch "+tag+"] welcome", "JOIN") // no key: answered with why (with the welcomes and the referee told of the refused one, 5 answers)
	ts.mail(t, "stranger@example.com", "hello", "is this the wargame club?") // a stranger: answered once
	var v map[string]float64
	var games string
	waitFor(t, 20*time.Second, "both mails handled and answered", func() bool {
		v, games = scrapeFigures(t, addr)
		return v["navarch_mails_received_total"] == 2 && v["navarch_mails_answered_total"] == 5 && v["navarch_outbox_depth"] == 0
	}, func() string { return fmt.Sprint(v) })
	want := map[string]float64{
		"navarch_mails_received_total": 2, "navarch_mails_answered_total": 5, "navarch_mails_refused_total": 1,
		"navarch_mails_parked_total": 0, "navarch_mails_parked_waiting": 0, "navarch_mails_failed_total": 0,
		"navarch_outbox_depth": 0, "navarch_outbox_oldest_age_seconds": 0, "navarch_deadlines_pending": 0,
		"navarch_games": 1, "navarch_mail_handling_seconds_count": 2, "navarch_figures_error": 0,
	}
	for name, n := range want {
		if v[name] != n {
			t.Errorf("%s = %g, want %g", name, v[name], n)
		}
	}
	if games != "joining 1" {
		t.Errorf("games by state: %q, want joining 1", games)
	}
	text := get(t, "http://"+addr+"/metrics")
	for _, line := range []string{`navarch_mails_answered_total{kind="welcome"} 1`, `navarch_mails_answered_total{kind="refwelcome"} 1`, `navarch_mails_refused_total{kind="welcome"} 1`,
		`navarch_games{state="joining"} 1`, `navarch_games{state="playing"} 0`} {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("no %q in the metrics", line)
		}
	}
	waitFor(t, 10*time.Second, "a heartbeat", func() bool { c, _, _ := navarch("health", "-config", cfg); return c == 0 })
	code, out, _ = navarch("health", "-config", cfg)
	for _, want := range []string{"alive", "outbox: 0 queued", "deadlines: 0 pending", "games: joining 1",
		"mails: 2 received, 5 answered, 0 parked (0 waiting), 1 rejected, 1 refused, 0 failed"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("health: exit %d, no %q:\n%s", code, want, out)
		}
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", url, resp.Status, err)
	}
	return string(data)
}

func scrapeFigures(t *testing.T, addr string) (map[string]float64, string) {
	t.Helper()
	return readFigures(get(t, "http://"+addr+"/metrics"))
}

// A daemon whose metrics do not answer is not alive to navarch health.
func TestHealthMetricsDown(t *testing.T) {
	dir, cfg, db := testConfig(t)
	ln, port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	text := fmt.Sprintf(`{"database": %q, "address": "navarch@host.example", "domain": "navarch.host.example", "metrics_listen": "127.0.0.1:%d",
 "imap": {"host": "127.0.0.1", "port": 1143, "tls": "none"}, "smtp": {"host": "127.0.0.1", "port": 1025, "tls": "none"}}`, db, port)
	os.WriteFile(filepath.Join(dir, "navarch.json"), []byte(text), 0o600)
	heartbeat(db, slog.New(slog.DiscardHandler), func() host.Health { return host.Health{} })(0)
	if code, out, _ := navarch("health", "-config", cfg); code != 1 || !strings.Contains(out, "the metrics do not answer") {
		t.Errorf("health with the metrics down: exit %d %s", code, out)
	}
}

// readFigures reads whatever answers at the metrics address without panicking, and sums only
// navarch's well-formed samples.
func FuzzReadFigures(f *testing.F) {
	f.Add("navarch_games{state=\"joining\"} 1\nnavarch_outbox_depth 3\n# HELP x\n")
	f.Add("navarch_x{ 1e400\nnavarch_y NaN\nnavarch_z")
	f.Fuzz(func(t *testing.T, text string) {
		v, games := readFigures(text)
		if games == "" {
			t.Fatal("no games line")
		}
		for name := range v {
			if !strings.HasPrefix(name, "navarch_") {
				t.Fatalf("counted %q", name)
			}
		}
	})
}
