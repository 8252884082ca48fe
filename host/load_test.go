package host

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"log/slog"
	"mime"
	netmail "net/mail"
	"os"
	"os/exec"
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
	"github.com/emersion/go-smtp"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/gamelog"
	"navarch/mail"
	"navarch/play"
	"navarch/store"
	"navarch/test/racesplit"
)

// The load test: many games in one store file, the daemon run as `navarch serve`
// runs it (Serve over the file with fsync, the maps, the default rate limit) in a
// subprocess, go-imap's memory server and a go-smtp server in the parent on loopback. Bots
// play a sample of the games by mail while the welcomes of all of them go out: joins, orders
// refused and accepted, CHECKs, wrong keys, strangers, and mails delivered twice with the
// same Message-ID. Nothing may be lost or doubled: every mail is answered exactly once, no
// mail is sent twice, every log verifies, every order accepted is in its log once, the
// outbox ends empty, and a restarted daemon sends nothing, not even when every mail is
// delivered again in a new mailbox. It logs games/s created, mails/s handled and sent, the
// answers' latency, the daemon's CPU and RSS while sending and idle, and the store's size
// (docs/BENCHMARKS.md).
//
// Size: NAVARCH_LOAD=1 runs 10,000 games (NAVARCH_LOAD_GAMES sets another number, also
// without NAVARCH_LOAD); without either it runs a small load that the ordinary test run
// checks in seconds (60 games, 20 under the race detector, five of them played). NAVARCH_LOAD_BUDGET bounds the time the mail may take (a Go duration).
const (
	envLoadDB   = "NAVARCH_HOST_LOAD_DB"
	envLoadIMAP = "NAVARCH_HOST_LOAD_IMAP"
	envLoadSMTP = "NAVARCH_HOST_LOAD_SMTP"
)

// loadDaemonMain is the load test's daemon: it serves until SIGTERM, logging warnings and
// errors to stderr.
func loadDaemonMain() int {
	lg := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return serveChild(childEnv{envLoadDB, envLoadIMAP, envLoadSMTP, ""}, loadConfig(), lg, 30*time.Second)
}

// loadConfig is the daemon's configuration: cmd/navarch's defaults and maps, with a first
// send retry after 100 ms rather than a second.
func loadConfig() Config {
	return Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example", SendRetry: 100 * time.Millisecond}
}

// loadSize is how much load a run makes.
type loadSize struct {
	games  int           // games in the store
	played int           // of them, played by the bots
	asks   int           // requests for orders a bot answers, per player
	budget time.Duration // the longest the mail may take
	idle   time.Duration // how long the restarted daemon is watched idle
}

func loadSizeOf(t *testing.T) loadSize {
	t.Helper()
	z := loadSize{games: 60, played: 5, asks: 2, budget: 3 * time.Minute, idle: 2 * time.Second}
	if racesplit.Enabled { // the same played games and checks, fewer welcomes only
		z.games = 20
	}
	if os.Getenv("NAVARCH_LOAD") != "" {
		z = loadSize{games: 10000, budget: 40 * time.Minute, asks: 2, idle: 75 * time.Second}
	}
	if s := os.Getenv("NAVARCH_LOAD_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("NAVARCH_LOAD_GAMES=%q: want a number of games", s)
		}
		z.games = n
	}
	if s := os.Getenv("NAVARCH_LOAD_BUDGET"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("NAVARCH_LOAD_BUDGET=%q: %v", s, err)
		}
		z.budget = d
	}
	if z.played == 0 || z.played > z.games {
		z.played = min(z.games, max(10, z.games/50))
	}
	return z
}

// TestLoad is the load test described at the top of this file.
func TestLoad(t *testing.T) {
	z := loadSizeOf(t)
	path := filepath.Join(t.TempDir(), "navarch.db")
	played := createLoadGames(t, path, z)
	size0 := fileSize(path)

	user, _, in, _ := loopback(t)
	sink := newLoadSink(t)
	bots := &loadBots{t: t, user: user, asks: z.asks, keys: map[string]string{}, asked: map[string]int{}, kinds: map[string]string{}, at: map[string]time.Time{}}
	sink.react = bots.react

	start := time.Now()
	d := startLoadDaemon(t, path, in.Port, sink.port)
	rss := watchRSS(d.Process.Pid)
	strangers := bots.strangers(max(2, z.played/4))
	deadline := start.Add(z.budget)
	welcomed := waitLoad(t, deadline, "every welcome", func() bool { return sink.welcomes() == 2*z.games })
	rssSending := rss.max()
	// The bots' mail flows while the welcomes go out; wait until each has its answer and the
	// daemon has sent nothing for a while (what the answers caused is out): twice the longest
	// pause between two mails so far (a map drawn on a loaded machine), and 2 s at least.
	waitLoad(t, deadline, "an answer to every bot mail", func() bool { return len(bots.unanswered(sink)) == 0 })
	waitLoad(t, deadline, "the daemon quiet", func() bool { q, gap := sink.quiet(); return q > max(2*time.Second, 2*gap) })
	busy := time.Since(start) - sink.quietFor()
	hwm, cpuBusy := pidStatus(d.Process.Pid, "VmHWM"), pidCPU(d.Process.Pid)
	rssPlaying := rss.max()
	rss.stop()
	stopLoadDaemon(t, d)
	if n, all := unseen(t, user); n != 0 {
		t.Errorf("%d mails of %d not flagged \\Seen (not handled)", n, all)
	}
	size1 := fileSize(path)
	sentBefore := sink.count()

	// Restarted, with nothing to do, the daemon sends nothing: its RSS and CPU while idle.
	d = startLoadDaemon(t, path, in.Port, sink.port)
	rss = watchRSS(d.Process.Pid)
	cpu0 := pidCPU(d.Process.Pid)
	time.Sleep(z.idle)
	cpuIdle := pidCPU(d.Process.Pid) - cpu0
	rssIdle := readRSS(d.Process.Pid)
	rssIdleMax := rss.max()
	rss.stop()
	stopLoadDaemon(t, d)
	if n := sink.count(); n != sentBefore {
		t.Errorf("the restarted daemon sent %d mails, with nothing to send", n-sentBefore)
	}

	// Every mail delivered again in a new mailbox (a new UIDVALIDITY), as after a restore of
	// the mail server: the daemon reads them all and answers none (docs/DESIGN.md 5).
	redelivered := bots.redeliver()
	d = startLoadDaemon(t, path, in.Port, sink.port)
	again := waitLoad(t, time.Now().Add(z.budget), "every mail delivered again handled", func() bool { n, _ := unseen(t, user); return n == 0 })
	time.Sleep(time.Second)
	stopLoadDaemon(t, d)
	if n := sink.count(); n != sentBefore {
		t.Errorf("the daemon answered %d of %d mails delivered again", n-sentBefore, redelivered)
	}

	// A stranger is answered once a day (UTC): twice if the run crossed midnight.
	days := 1 + btoi(start.UTC().YearDay() != time.Now().UTC().YearDay())
	checkLoadMail(t, sink, bots, strangers, days, z)
	verifyStart := time.Now()
	accepted := sink.acceptedOrders()
	checkLoadStore(t, path, played, accepted)
	handled := bots.count()
	t.Logf("load: %d games (%d played by bots, %d requests answered a player), budget %v", z.games, z.played, z.asks, z.budget)
	t.Logf("created: %.0f games/s (%v); store %.1f MiB with the welcomes queued, %.1f MiB after the run",
		float64(z.games)/played.took.Seconds(), played.took.Round(time.Millisecond), mib(size0), mib(size1))
	t.Logf("welcomes: %d sent in %v (%.0f mails/s)", 2*z.games, welcomed.Round(time.Millisecond), float64(2*z.games)/welcomed.Seconds())
	t.Logf("mail: %d bot mails handled (%d delivered twice) and %d mails sent in %v: %.1f mails/s handled, %.1f mails/s sent",
		handled, bots.dups, sink.count(), busy.Round(time.Millisecond), float64(handled)/busy.Seconds(), float64(sink.count())/busy.Seconds())
	if n, took := sink.after(start.Add(welcomed)); n > 0 {
		t.Logf("after the last welcome: %d mails sent in %v (%.1f mails/s)", n, took.Round(time.Millisecond), float64(n)/took.Seconds())
	}
	total, largest := sink.bytes()
	t.Logf("sent: %.1f MB in all, the largest mail %.0f KB", mb(total), float64(largest)/1e3)
	p50, p95, worst := bots.latency(sink)
	t.Logf("answers: %v median, %v at the 95th percentile, %v at most, from a bot's mail in the mailbox to its answer at the server",
		p50.Round(time.Millisecond), p95.Round(time.Millisecond), worst.Round(time.Millisecond))
	t.Logf("daemon CPU: %.0f s over the run's %v (%.0f%% of a core), %.1f ms a mail sent",
		cpuBusy.Seconds(), busy.Round(time.Second), 100*cpuBusy.Seconds()/busy.Seconds(), float64(cpuBusy.Milliseconds())/float64(sink.count()))
	t.Logf("daemon RSS: at most %v while sending the welcomes, at most %v in the whole run (VmHWM %.0f MB)", rssSending, rssPlaying, mb(hwm))
	t.Logf("daemon restarted and idle for %v: RSS %v at the end, at most %v; %.1f%% of a core",
		z.idle, rssIdle, rssIdleMax, 100*cpuIdle.Seconds()/z.idle.Seconds())
	t.Logf("delivered again in a new mailbox: %d mails read and none answered in %v (%.0f mails/s)",
		redelivered, again.Round(time.Millisecond), float64(redelivered)/again.Seconds())
	t.Logf("checked every log in %v", time.Since(verifyStart).Round(time.Millisecond))
}

// unseen is how many mails of navarch's mailbox are not flagged \Seen (handled), of how many.
func unseen(t *testing.T, user *imapmemserver.User) (int, int) {
	st, err := user.Status("INBOX", &imap.StatusOptions{NumMessages: true, NumUnseen: true})
	if err != nil {
		t.Fatal(err)
	}
	return int(*st.NumUnseen), int(*st.NumMessages)
}

// loadGames are the games created: the tags of those the bots play, and the time it took.
type loadGames struct {
	played map[string]bool
	took   time.Duration
}

// createLoadGames creates the games one at a time as the operator's `game new` does (the
// host's CreateGame, one transaction each, with fsync). The bots' players have addresses
// @bot.example, the others @idle.example.
func createLoadGames(t *testing.T, path string, z loadSize) loadGames {
	t.Helper()
	s, err := store.Open(path, slog.New(slog.DiscardHandler), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, loadConfig(), slog.New(slog.DiscardHandler))
	out := loadGames{played: map[string]bool{}}
	every := z.games / z.played
	start := time.Now()
	for i := range z.games {
		domain := "idle.example"
		bot := i%every == 0 && i/every < z.played
		if bot {
			domain = "bot.example"
		}
		tag, err := h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea", Players: []PlayerSpec{
			{"c", "christian", fmt.Sprintf("c%d@%s", i, domain), "UTC"}, {"o", "ottoman", fmt.Sprintf("o%d@%s", i, domain), "Europe/Rome"}}})
		if err != nil {
			t.Fatal(err)
		}
		if bot {
			out.played[tag] = true
		}
	}
	out.took = time.Since(start)
	return out
}

// startLoadDaemon runs the daemon in a subprocess (the test binary, see TestMain).
func startLoadDaemon(t *testing.T, path string, iport, sport int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envLoadDB+"="+path, envLoadIMAP+"="+strconv.Itoa(iport), envLoadSMTP+"="+strconv.Itoa(sport))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// stopLoadDaemon stops the daemon gracefully.
func stopLoadDaemon(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the daemon's graceful stop: %v", err)
		}
	case <-time.After(time.Minute):
		t.Error("the daemon did not stop within a minute of SIGTERM")
		cmd.Process.Kill()
		<-done
	}
}

// waitLoad waits until ok or the deadline, failing the test at the deadline. It returns
// how long the wait took.
func waitLoad(t *testing.T, deadline time.Time, what string, ok func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("out of time waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return time.Since(start)
}

// sentMail is what the SMTP server keeps of a mail it accepted.
type sentMail struct {
	id, inReplyTo, to, subject string
	size                       int
	at                         time.Time // when the server accepted it
}

// loadSink is a go-smtp server that keeps the headers of each mail accepted (a whole mail
// would keep hundreds of megabytes at 10,000 games) and hands the bots' mail to react.
type loadSink struct {
	port  int
	mu    sync.Mutex
	sent  []sentMail
	last  time.Time
	gap   time.Duration // the longest time between two mails
	react func(m sentMail, raw []byte)
	t     testing.TB
}

func newLoadSink(t testing.TB) *loadSink {
	t.Helper()
	s := &loadSink{t: t, last: time.Now()}
	srv := smtp.NewServer(s)
	srv.Domain, srv.AllowInsecureAuth, srv.ErrorLog = "localhost", true, log.New(io.Discard, "", 0)
	srv.MaxMessageBytes = 16 << 20
	ln, port := listen(t)
	s.port = port
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

func (s *loadSink) NewSession(*smtp.Conn) (smtp.Session, error) { return &loadSession{s}, nil }

type loadSession struct{ s *loadSink }

func (l *loadSession) Mail(string, *smtp.MailOptions) error { return nil }
func (l *loadSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (l *loadSession) Reset()                               {}
func (l *loadSession) Logout() error                        { return nil }
func (l *loadSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m, err := headersOf(raw)
	if err != nil {
		l.s.t.Errorf("an outgoing mail's header does not parse: %v", err)
		return nil
	}
	m.size, m.at = len(raw), time.Now()
	l.s.mu.Lock()
	l.s.sent = append(l.s.sent, m)
	if len(l.s.sent) > 1 {
		l.s.gap = max(l.s.gap, m.at.Sub(l.s.last))
	}
	l.s.last = m.at
	react := l.s.react
	l.s.mu.Unlock()
	if strings.HasSuffix(m.to, "@bot.example") && react != nil {
		react(m, raw)
	}
	return nil
}

// headersOf reads the headers the test needs.
func headersOf(raw []byte) (sentMail, error) {
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return sentMail{}, err
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return sentMail{}, err
	}
	return sentMail{id: strings.Trim(msg.Header.Get("Message-ID"), "<> "), inReplyTo: strings.Trim(msg.Header.Get("In-Reply-To"), "<> "),
		to: strings.Trim(strings.ToLower(msg.Header.Get("To")), "<> "), subject: subject}, nil
}

func (s *loadSink) all() []sentMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sent)
}

func (s *loadSink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sent)
}

// bytes is the size of the mails sent, and of the largest.
func (s *loadSink) bytes() (total, largest int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.sent {
		total, largest = total+int64(m.size), max(largest, int64(m.size))
	}
	return total, largest
}

// after counts the mails sent after a moment, and the time from it to the last.
func (s *loadSink) after(t0 time.Time) (int, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, last := 0, t0
	for _, m := range s.sent {
		if m.at.After(t0) {
			n, last = n+1, m.at
		}
	}
	return n, last.Sub(t0)
}

func (s *loadSink) quietFor() time.Duration {
	q, _ := s.quiet()
	return q
}

// quiet is the time since the last mail, and the longest time between two mails.
func (s *loadSink) quiet() (time.Duration, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Since(s.last), s.gap
}

func (s *loadSink) welcomes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range s.sent {
		if strings.HasSuffix(m.subject, "] welcome") {
			n++
		}
	}
	return n
}

// receipted reports whether a mail's subject is that of accepted orders' receipt: alone, or
// leading the report of the step they completed (host/moment.go, host/subject.go).
func receipted(subject string) bool {
	_, s, _ := strings.Cut(subject, "] ")
	s = strings.ToLower(s)
	for _, p := range []string{"orders accepted", "orders resolved", "your move", "turn ", "report"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// acceptedOrders are the Message-IDs of the orders receipts said were accepted.
func (s *loadSink) acceptedOrders() map[string]bool {
	out := map[string]bool{}
	for _, m := range s.all() {
		if receipted(m.subject) && !strings.Contains(m.inReplyTo, "@navarch.") { // not the thread's root
			out[m.inReplyTo] = true
		}
	}
	return out
}

// loadBots are the players of the played games: each joins when welcomed, with a mail under
// a wrong key first, and answers its first asks requests for orders with NONE, the first
// after a line that is no order, the second after a CHECK; every NONE is delivered twice.
type loadBots struct {
	t     *testing.T
	user  *imapmemserver.User
	asks  int
	mu    sync.Mutex
	keys  map[string]string    // by address
	asked map[string]int       // requests for orders answered, by address
	kinds map[string]string    // what each bot mail is, by Message-ID
	at    map[string]time.Time // when each was put in the mailbox
	order []string             // the bots' Message-IDs in the order sent
	dups  int                  // mails delivered a second time
	raws  []string             // every mail delivered, in order
}

func (b *loadBots) react(m sentMail, raw []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case strings.HasSuffix(m.subject, "] welcome"):
		in, err := mail.Parse(raw, mail.Options{MaxSize: 16 << 20})
		if err != nil {
			b.t.Errorf("a welcome does not parse: %v", err)
			return
		}
		k := keyRE.FindStringSubmatch(in.Text)
		if k == nil {
			b.t.Errorf("a welcome without a key: %s", m.subject)
			return
		}
		b.keys[m.to] = k[1]
		b.send(m.to, m.subject, "autoreply", "I am away until Monday.", false)
		b.send(m.to, m.subject, "wrongkey", "KEY NOTMYKEY0\nHELP", false)
		b.send(m.to, m.subject, "join", "KEY "+k[1]+"\nJOIN", false)
	case strings.Contains(strings.ToLower(m.subject), "your move"):
		if b.asked[m.to]++; b.asked[m.to] > b.asks {
			return
		}
		key := "KEY " + b.keys[m.to] + "\n"
		switch b.asked[m.to] {
		case 1:
			b.send(m.to, m.subject, "badorder", key+"NOSUCH MOVE 0101", false)
		case 2:
			b.send(m.to, m.subject, "check", key+"CHECK", false)
		}
		b.send(m.to, m.subject, "none", key+"NONE", true)
	}
}

// send puts a bot's mail in navarch's mailbox, twice if twice.
func (b *loadBots) send(from, subject, kind, body string, twice bool) {
	id := fmt.Sprintf("%d.%s.%s", len(b.order), kind, strings.Replace(from, "@", "@m.", 1))
	head := ""
	if kind == "autoreply" { // RFC 3834: never answered
		head = "Auto-Submitted: auto-replied\r\n"
	}
	raw := "From: " + from + "\r\nTo: navarch@host.example\r\nSubject: Re: " + subject + "\r\nMessage-ID: <" + id + ">\r\n" + head + "\r\n" +
		strings.ReplaceAll(body, "\n", "\r\n") + "\r\n"
	for range 1 + btoi(twice) {
		b.deliver(raw)
	}
	b.kinds[id], b.at[id] = kind, time.Now()
	b.order = append(b.order, id)
	b.dups += btoi(twice)
}

// deliver puts a mail in navarch's mailbox and keeps it (b.mu held).
func (b *loadBots) deliver(raw string) {
	if _, err := b.user.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
		b.t.Error(err)
	}
	b.raws = append(b.raws, raw)
}

// redeliver makes the mailbox anew (a new UIDVALIDITY: the intake reads it from its start)
// with every mail delivered so far in it again, and returns how many.
func (b *loadBots) redeliver() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.user.Delete("INBOX"); err != nil {
		b.t.Fatal(err)
	}
	if err := b.user.Create("INBOX", nil); err != nil {
		b.t.Fatal(err)
	}
	for _, raw := range b.raws {
		if _, err := b.user.Append("INBOX", strings.NewReader(raw), &imap.AppendOptions{}); err != nil {
			b.t.Fatal(err)
		}
	}
	return len(b.raws)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// strangers mails the daemon from addresses it does not know, two mails each (distinct
// Message-IDs) naming no game: each address is answered once a day, the
// second mail not at all. It returns the addresses.
func (b *loadBots) strangers(n int) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for i := range n {
		who := fmt.Sprintf("stranger%d@else.example", i)
		for j := range 2 {
			raw := fmt.Sprintf("From: %s\r\nTo: navarch@host.example\r\nSubject: hello\r\nMessage-ID: <%d.%d.stranger@else.example>\r\n\r\nhello\r\n", who, i, j)
			b.deliver(raw)
		}
		out = append(out, who)
	}
	return out
}

func (b *loadBots) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.order) + b.dups
}

// unanswered are the bots' mails with no mail sent in reply.
func (b *loadBots) unanswered(s *loadSink) []string {
	answered := map[string]bool{}
	for _, m := range s.all() {
		answered[m.inReplyTo] = true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, id := range b.order {
		if !answered[id] && b.kinds[id] != "autoreply" {
			out = append(out, id)
		}
	}
	return out
}

// latency is the time from each bot mail's delivery to its answer's arrival: the median, the
// 95th percentile and the largest.
func (b *loadBots) latency(s *loadSink) (p50, p95, most time.Duration) {
	first := map[string]time.Time{}
	for _, m := range s.all() {
		if _, ok := first[m.inReplyTo]; !ok && m.inReplyTo != "" {
			first[m.inReplyTo] = m.at
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var d []time.Duration
	for _, id := range b.order {
		if at, ok := first[id]; ok {
			d = append(d, at.Sub(b.at[id]))
		}
	}
	if len(d) == 0 {
		return 0, 0, 0
	}
	slices.Sort(d)
	return d[len(d)/2], d[len(d)*95/100], d[len(d)-1]
}

// checkLoadMail: no Message-ID sent twice, one welcome per player, each bot mail answered
// exactly once and as its kind wants, each stranger answered once a day.
func checkLoadMail(t *testing.T, s *loadSink, b *loadBots, strangers []string, days int, z loadSize) {
	t.Helper()
	sent := s.all()
	ids, replies, welcomes, to := map[string]int{}, map[string][]sentMail{}, map[string]int{}, map[string]int{}
	for _, m := range sent {
		if ids[m.id]++; ids[m.id] == 2 {
			t.Errorf("mail %s (%s) sent twice", m.id, m.subject)
		}
		if m.inReplyTo != "" {
			replies[m.inReplyTo] = append(replies[m.inReplyTo], m)
		}
		if strings.HasSuffix(m.subject, "] welcome") {
			welcomes[m.to]++
		}
		to[m.to]++
	}
	if len(welcomes) != 2*z.games {
		t.Errorf("%d players welcomed of %d", len(welcomes), 2*z.games)
	}
	for who, n := range welcomes {
		if n != 1 {
			t.Errorf("%s welcomed %d times", who, n)
		}
	}
	want := map[string]string{"autoreply": "", "wrongkey": "not applied", "join": "joined", "badorder": "refused", "check": "orders checked", "none": "orders accepted"}
	b.mu.Lock()
	defer b.mu.Unlock()
	kinds := map[string]int{}
	for _, id := range b.order {
		kind := b.kinds[id]
		kinds[kind]++
		switch r := replies[id]; {
		case kind == "autoreply":
			if len(r) > 0 {
				t.Errorf("an auto-reply, %s, answered: %v", id, subjectsOf(r))
			}
		case len(r) != 1:
			t.Errorf("bot mail %s answered %d times: %v", id, len(r), subjectsOf(r))
		case kind == "none" && !receipted(r[0].subject):
			t.Errorf("bot mail %s (none) answered %q, want a receipt", id, r[0].subject)
		case kind != "none" && !strings.Contains(strings.ToLower(r[0].subject), want[kind]):
			t.Errorf("bot mail %s (%s) answered %q, want %q", id, kind, r[0].subject, want[kind])
		}
	}
	for _, who := range strangers {
		if to[who] < 1 || to[who] > days {
			t.Errorf("stranger %s answered %d times, want once a day (%d days)", who, to[who], days)
		}
	}
	if kinds["none"] < 2*z.played {
		t.Errorf("the bots sent %d orders, fewer than the set-up of every played game (%d)", kinds["none"], 2*z.played)
	}
	t.Logf("bot mails by kind: %v; %d strangers", kinds, len(strangers))
}

func subjectsOf(ms []sentMail) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.id+" "+m.subject)
	}
	return out
}

// checkLoadStore: the store checks clean with an empty outbox; every game's log verifies,
// and those the bots played replay, with each order accepted in its log exactly once and
// no orders record from a mail that was not accepted.
func checkLoadStore(t *testing.T, path string, g loadGames, accepted map[string]bool) {
	t.Helper()
	s, err := store.Open(path, slog.New(slog.DiscardHandler), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	inLog := map[string]int{}
	s.View(func(tx *store.Tx) error {
		if p := store.Check(tx); len(p) > 0 {
			t.Errorf("store check: %v", p)
		}
		if e, ok := store.OutboxNext(tx, 0); ok {
			t.Errorf("the outbox is not empty: entry %d is queued", e.Seq)
		}
		if n := store.ParkedCount(tx); n > 0 {
			t.Errorf("%d mails parked", n)
		}
		for _, id := range store.Games(tx) {
			gm, err := loadGame(tx, id)
			if err != nil {
				t.Fatal(err)
			}
			data, err := exportData(tx, id)
			if err != nil {
				t.Fatal(err)
			}
			f, err := gamelog.ParseFile(data)
			if err != nil {
				t.Fatalf("game %s: %v", gm.Tag, err)
			}
			if rep := gamelog.Verify(f, gamelog.VerifyOptions{TrustLogKey: true}); !rep.OK() {
				t.Errorf("game %s: the log does not verify: %v", gm.Tag, rep.Failure)
			}
			if !g.played[gm.Tag] {
				continue
			}
			if _, err := play.Replay(f, []adjudicator.Ruleset{lepanto.Ruleset}); err != nil {
				t.Errorf("game %s: the log does not replay: %v", gm.Tag, err)
			}
			for _, e := range f.Entries {
				if e.Record != nil && e.Record.Type == gamelog.TypeOrders && e.Record.Get("message-id") != "" {
					inLog[e.Record.Get("message-id")]++
				}
			}
		}
		return nil
	})
	for id := range accepted {
		if inLog[id] != 1 {
			t.Errorf("orders %s accepted, and %d times in the log", id, inLog[id])
		}
	}
	for id := range inLog {
		if !accepted[id] {
			t.Errorf("orders %s in the log, and no receipt said so", id)
		}
	}
}

// rss is a process's resident memory (/proc/PID/status): VmRSS, and its parts RssAnon (the
// heap and stacks) and RssFile (pages of mapped files: the store, which bbolt maps).
type rss struct{ all, anon, file int64 }

func readRSS(pid int) rss {
	return rss{pidStatus(pid, "VmRSS"), pidStatus(pid, "RssAnon"), pidStatus(pid, "RssFile")}
}

func (r rss) String() string {
	return fmt.Sprintf("%.0f MB (anon %.0f, file %.0f)", mb(r.all), mb(r.anon), mb(r.file))
}

// rssWatch samples a process's resident memory every 100 ms and keeps the largest sample.
type rssWatch struct {
	mu   sync.Mutex
	peak rss
	done chan struct{}
}

func watchRSS(pid int) *rssWatch {
	w := &rssWatch{done: make(chan struct{})}
	go func() {
		for {
			if r := readRSS(pid); r.all > 0 {
				w.mu.Lock()
				if r.all > w.peak.all {
					w.peak = r
				}
				w.mu.Unlock()
			}
			select {
			case <-w.done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return w
}

func (w *rssWatch) max() rss {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.peak
}

func (w *rssWatch) stop() { close(w.done) }

// pidStatus reads a figure in kB from /proc/PID/status, in bytes; 0 if it cannot.
func pidStatus(pid int, field string) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// pidCPU is the CPU time a process has used (user and system, /proc/PID/stat), counted in
// the kernel's USER_HZ of 100 a second.
func pidCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	_, rest, _ := strings.Cut(string(data), ") ") // the command may hold spaces
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }
func mb(n int64) float64  { return float64(n) / 1e6 }
