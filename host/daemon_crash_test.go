package host

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/gamelog"
	"navarch/mail"
	"navarch/mail/mailtest"
	"navarch/play"
	"navarch/store"
)

// The daemon crash test: this test binary runs as `navarch serve` would (Serve
// over a store on disk, with fsync, reading go-imap's memory server and sending to a go-smtp
// server, both in the parent); the parent plays bots against it by mail and kills it with
// SIGKILL at random moments, restarting it each time.
const (
	envDaemonDB   = "NAVARCH_HOST_DAEMON_DB"
	envDaemonIMAP = "NAVARCH_HOST_DAEMON_IMAP"
	envDaemonSMTP = "NAVARCH_HOST_DAEMON_SMTP"
)

// daemonMain is the child: it serves until SIGTERM (graceful) or SIGKILL.
func daemonMain() int {
	return serveChild(childEnv{envDaemonDB, envDaemonIMAP, envDaemonSMTP, childReady}, daemonConfig(), slog.New(slog.DiscardHandler), 5*time.Second)
}

// childEnv names the environment variables that give a child daemon its store file and the
// ports of the parent's IMAP and SMTP servers, and the line it prints once its SIGTERM
// handler is in place ("" for none).
type childEnv struct{ db, imap, smtp, ready string }

// serveChild is a test binary run as `navarch serve` would run (Serve over a store on disk,
// with fsync, reading the parent's IMAP server and sending to its SMTP server) until SIGTERM;
// a stop while it still starts (right after a kill) is graceful too.
func serveChild(env childEnv, cfg Config, lg *slog.Logger, timeout time.Duration) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if env.ready != "" {
		fmt.Println(env.ready)
	}
	s, err := store.Open(os.Getenv(env.db), lg, store.Options{Timeout: 10 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	defer s.Close()
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, cfg, lg)
	iport, _ := strconv.Atoi(os.Getenv(env.imap))
	sport, _ := strconv.Atoi(os.Getenv(env.smtp))
	in := &mail.Intake{IMAP: mail.IMAP{Host: "127.0.0.1", Port: iport, TLS: mail.TLSNone, Username: "navarch@host.example",
		Password: "secret", Poll: 100 * time.Millisecond, Timeout: timeout}, Log: lg}
	out := mail.SMTP{Host: "127.0.0.1", Port: sport, TLS: mail.TLSNone, From: "navarch@host.example", Timeout: timeout}
	h.Serve(ctx, in, out)
	return 0
}

func daemonConfig() Config {
	return Config{Address: "navarch@host.example", Domain: "navarch.host.example", SendRetry: 50 * time.Millisecond, RateLimit: 1000}
}

// crashBots are the players: they answer each welcome with JOIN and each request for orders
// with NONE, up to a number of mails, and keep what they sent.
type crashBots struct {
	t    *testing.T
	user *imapmemserver.User
	srv  *mailtest.Server
	max  int
	mu   sync.Mutex
	read int             // accepted mails read so far
	seen map[string]bool // Message-IDs read
	sent []string        // Message-IDs of the bots' mails
	keys map[string]string
	pace int         // mails sent a step at most (0: all due)
	todo [][3]string // mails to send: from, subject, body
}

// step reads the mails accepted since the last step and answers them.
func (b *crashBots) step() {
	b.mu.Lock()
	defer b.mu.Unlock()
	acc := b.srv.Accepted()
	for ; b.read < len(acc); b.read++ {
		raw := acc[b.read]
		id := mailtest.MessageID(raw)
		if b.seen[id] {
			continue // a resend
		}
		b.seen[id] = true
		m, err := mail.Parse(raw, mail.Options{MaxSize: 8 << 20})
		if err != nil {
			b.t.Errorf("an outgoing mail does not parse: %v", err)
			continue
		}
		to := toOf(raw)
		switch {
		case strings.Contains(m.Subject, "welcome"):
			b.keys[to+" "+mail.GameTag(m.Subject)] = keyRE.FindStringSubmatch(m.Text)[1]
			b.todo = append(b.todo, [3]string{to, m.Subject, "JOIN"})
		case strings.Contains(m.Subject, "Your move"):
			b.todo = append(b.todo, [3]string{to, m.Subject, "NONE"})
		}
	}
	n := len(b.todo)
	if b.pace > 0 {
		n = min(n, b.pace)
	}
	for _, m := range b.todo[:n] {
		b.send(m[0], m[1], m[2])
	}
	b.todo = b.todo[n:]
}

func (b *crashBots) send(from, subject, body string) {
	if len(b.sent) >= b.max {
		return
	}
	id := fmt.Sprintf("%d.bot@example.org", len(b.sent))
	raw := "From: " + from + "\r\nTo: navarch@host.example\r\nSubject: Re: " + subject + "\r\nMessage-ID: <" + id + ">\r\n\r\n" +
		"KEY " + b.keys[from+" "+mail.GameTag(subject)] + "\r\n" + body + "\r\n"
	if _, err := b.user.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
		b.t.Fatal(err)
	}
	b.sent = append(b.sent, id)
}

// TestDaemonCrash: killed at many moments and restarted, the daemon answers every mail,
// adjudicates none twice, keeps every log verifying and replaying, and sends a mail again
// only across a kill and with the same Message-ID. It reports kills, mails, the mails that
// went out between kills and the resends a kill (docs/RELIABILITY.md: at most 0.05).
// NAVARCH_CRASH_KILLS=N kills N times; NAVARCH_CRASH_GAMES=G plays G games at once (under
// load: 14 games put some 15-45 mails out between kills), the bots writing a mail every
// 100 ms (NAVARCH_CRASH_PACE=P: P mails).
func TestDaemonCrash(t *testing.T) {
	kills, maxMails, games := 16, 32, 2
	if testing.Short() {
		kills, maxMails = 8, 16
	}
	if n, err := strconv.Atoi(os.Getenv("NAVARCH_CRASH_KILLS")); err == nil && n > 0 { // a longer run, to measure
		kills, maxMails = n, 2*n
	}
	pace := 0
	if g, err := strconv.Atoi(os.Getenv("NAVARCH_CRASH_GAMES")); err == nil && g > 0 {
		games, maxMails, pace = g, 12*kills, 1 // a bot mail every 100 ms: some 15 mails out a kill
	}
	if p, err := strconv.Atoi(os.Getenv("NAVARCH_CRASH_PACE")); err == nil && p > 0 && pace > 0 {
		pace, maxMails = p, 12*p*kills // p bot mails every 100 ms
	}
	user, _, in, _ := loopback(t)
	srv := mailtest.Start(t)
	path := filepath.Join(t.TempDir(), "navarch.db")
	s, err := store.Open(path, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, daemonConfig(), slog.New(slog.DiscardHandler))
	for i := range games {
		p := [2]string{fmt.Sprintf("c%d@example.org", i), fmt.Sprintf("o%d@example.com", i)}
		if i < 2 {
			p = [][2]string{{"alice@example.org", "bob@example.com"}, {"carol@example.org", "dave@example.com"}}[i]
		}
		if _, err := h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
			Players: []PlayerSpec{{fmt.Sprint("c", i), "christian", p[0], "UTC"}, {fmt.Sprint("o", i), "ottoman", p[1], "UTC"}}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	bots := &crashBots{t: t, user: user, srv: srv, max: maxMails, seen: map[string]bool{}, keys: map[string]string{}, pace: pace}
	every := 20 * time.Millisecond
	if pace > 0 {
		every = 100 * time.Millisecond
	}
	stopBots := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stopBots:
				return
			case <-time.After(every):
				bots.step()
			}
		}
	}()
	defer func() { close(stopBots); wg.Wait() }()

	rng := rand.New(rand.NewPCG(12, 7))
	var marks []int // accepted mails when each kill was done
	child := runChild(t, path, in.Port, srv.Port)
	for range kills {
		time.Sleep(time.Duration(200+rng.IntN(2200)) * time.Millisecond)
		child.Process.Signal(syscall.SIGKILL)
		child.Wait()
		marks = append(marks, len(srv.Accepted()))
		child = runChild(t, path, in.Port, srv.Port)
	}
	// Then the bots send no more, and the daemon runs in peace until every bot mail is answered.
	bots.mu.Lock()
	bots.max, bots.todo = len(bots.sent), nil
	bots.mu.Unlock()
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline) && len(unanswered(t, srv, bots)) > 0; {
		time.Sleep(100 * time.Millisecond)
	}
	select { // a stop before the child's handler is in place is no graceful stop
	case <-child.ready:
	case <-time.After(30 * time.Second):
		t.Error("the last daemon never got ready")
	}
	child.Process.Signal(syscall.SIGTERM)
	if err := child.Wait(); err != nil {
		t.Errorf("the daemon's graceful stop: %v", err)
	}
	if left := unanswered(t, srv, bots); len(left) > 0 {
		t.Errorf("%d of %d mails not answered: %v", len(left), len(bots.sent), left)
	}
	resends := checkResends(t, srv.MessageIDs(), marks)
	checkLogs(t, path)
	t.Logf("%d kills, %d games; %d mails in, %d accepted out (%d distinct); between kills %s; %d resends, %.3f a kill",
		kills, games, len(bots.sent), len(srv.Accepted()), len(bots.seen), between(marks), resends, float64(resends)/float64(kills))
}

// between describes the mails accepted between kills: least, median, most.
func between(marks []int) string {
	var d []int
	for i, m := range marks {
		if i > 0 {
			d = append(d, m-marks[i-1])
		} else {
			d = append(d, m)
		}
	}
	if len(d) == 0 {
		return "none"
	}
	slices.Sort(d)
	return fmt.Sprintf("%d-%d mails (median %d)", d[0], d[len(d)-1], d[len(d)/2])
}

// unanswered returns the bot mails with no answer among the accepted mails.
func unanswered(t *testing.T, srv *mailtest.Server, b *crashBots) []string {
	answered := map[string]bool{}
	for _, raw := range srv.Accepted() {
		if m, err := mail.Parse(raw, mail.Options{MaxSize: 8 << 20}); err == nil {
			for _, id := range m.InReplyTo {
				answered[id] = true
			}
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, id := range b.sent {
		if !answered[id] {
			out = append(out, id)
		}
	}
	return out
}

// checkResends fails a mail accepted twice without a kill between, and counts resends.
func checkResends(t *testing.T, ids []string, marks []int) int {
	t.Helper()
	last, resends := map[string]int{}, 0
	for i, id := range ids {
		if prev, ok := last[id]; ok {
			resends++
			across := false
			for _, m := range marks {
				across = across || prev < m && m <= i
			}
			if !across {
				t.Errorf("mail %s sent again without a kill between (at %d and %d)", id, prev, i)
			}
		}
		last[id] = i
	}
	return resends
}

// checkLogs verifies and replays every game's log, and fails a mail adjudicated twice (two
// orders records with its Message-ID).
func checkLogs(t *testing.T, path string) {
	t.Helper()
	s, err := store.Open(path, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.View(func(tx *store.Tx) error {
		if p := store.Check(tx); len(p) > 0 {
			t.Errorf("store check: %v", p)
		}
		for _, id := range store.Games(tx) {
			data, err := exportData(tx, id)
			if err != nil {
				t.Fatal(err)
			}
			f, err := gamelog.ParseFile(data)
			if err != nil {
				t.Fatal(err)
			}
			if rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
				t.Errorf("log does not verify: %v", rep.Failure)
			}
			if _, err := play.Replay(f, []adjudicator.Ruleset{lepanto.Ruleset}); err != nil {
				t.Errorf("log does not replay: %v", err)
			}
			orders := map[string]int{}
			for _, e := range f.Entries {
				if e.Record != nil && e.Record.Type == gamelog.TypeOrders && e.Record.Get("message-id") != "" {
					id := e.Record.Get("message-id")
					if orders[id]++; orders[id] == 2 {
						t.Errorf("mail %s adjudicated twice", id)
					}
				}
			}
		}
		return nil
	})
}

// childReady is what the daemon prints once a SIGTERM stops it gracefully.
const childReady = "navarch-crash-child: ready"

// daemon is a running child daemon.
type daemon struct {
	*exec.Cmd
	ready chan struct{} // closed once the child prints childReady
}

// runChild starts the daemon.
func runChild(t *testing.T, path string, iport, sport int) daemon {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envDaemonDB+"="+path, envDaemonIMAP+"="+strconv.Itoa(iport), envDaemonSMTP+"="+strconv.Itoa(sport))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := daemon{cmd, make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == childReady {
				close(d.ready)
			}
		}
	}()
	return d
}
