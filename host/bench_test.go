package host

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
	"navarch/ledger/ledgertest"
	"navarch/mail"
	"navarch/store"
)

// BenchmarkHandleCheck is one order mail through the host without the transport: read the
// mail, authenticate, rebuild the game from its log, parse and validate the orders, queue the
// receipt, commit (a CHECK, so that the game stays where it is for the next iteration).
func BenchmarkHandleCheck(b *testing.B) {
	f := newBenchFixture(b)
	f.checkMails(b, "b")
}

// checkMails sends alice's CHECK mails for the benchmark's loop, with the rate limit lifted,
// and fails unless every one was answered.
func (f benchFixture) checkMails(b *testing.B, prefix string) {
	f.mailsFrom(b, "alice@example.org", f.keys["alice@example.org"], prefix, "CHECK\r\nKEY %s\r\nBARBARIGO ON BAR-LANT HIDDEN")
}

// mailsFrom is checkMails with another sender, key and body (%s: the key).
func (f benchFixture) mailsFrom(b *testing.B, from, key, prefix, body string) {
	f.h.cfg.RateLimit = 1 << 30
	f.outbox()
	i := 0
	for b.Loop() {
		i++
		raw := fmt.Sprintf("From: %s\r\nSubject: [navarch %s]\r\nMessage-ID: <%s%d@example.org>\r\n\r\n", from, f.tag, prefix, i) + fmt.Sprintf(body, key)
		if err := f.h.Handle([]byte(raw)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if n := len(f.outbox()); n != i {
		b.Fatalf("%d mails answered of %d", n, i)
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

// BenchmarkManyGames is one order mail (CHECK) to the newest of many games in one store file,
// with what an idle daemon costs as the games grow (docs/BENCHMARKS.md), each figure
// beside its floor in the same run:
//   - ns/op: the CHECK mail; floor-write-ns: a bare write transaction of the same file;
//   - pass-ns: the deadline pass with nothing due; floor-view-ns: a bare read transaction,
//     index-ns: reading the due index's due entries, scan-ns: one read transaction over
//     every game's settings (what the pass read before the index);
//   - figures-ns: Figures, what a metrics scrape reads (it read every game's settings before
//     the store kept the game counts: scan-ns); figures-index-ns: its floor, a bare read
//     transaction of the counts (store.CountGames) and of the due entries;
//   - create-ms/game: CreateGame;
//   - KiB-file/game and MiB-file after the welcome mails are sent (Flush, to a sender that
//     drops them; bbolt never shrinks its file, so the peak counts), MiB-pages: bbolt's pages
//     (its high-water mark, free pages included), MiB-queued: the file with every welcome still queued;
//   - MiB-heap (HeapInuse) and MiB-rss (VmRSS) idle, MiB-heap-send and MiB-rss-send: their
//     peaks while the welcomes are sent.
func BenchmarkManyGames(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 5000, 10000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			f := newBenchFixture(b)
			m := figures{} // reported after the loop: b.Loop's start drops metrics reported before
			start := time.Now()
			for i := 1; i < n; i++ {
				if _, err := f.h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "lions-at-sea",
					Players: []PlayerSpec{{"p1", "christian", fmt.Sprintf("c%d@example.org", i), "UTC"}, {"p2", "ottoman", fmt.Sprintf("o%d@example.org", i), "UTC"}}}); err != nil {
					b.Fatal(err)
				}
			}
			m["create-ms/game"] = float64(time.Since(start).Milliseconds()) / float64(max(n-1, 1))
			m["MiB-queued"] = f.fileMiB(b)
			f.sendWelcomes(b, n, m)
			m["MiB-file"] = f.fileMiB(b)
			m["KiB-file/game"] = m["MiB-file"] * 1024 / float64(n)
			f.s.View(func(tx *store.Tx) error { m["MiB-pages"] = float64(store.Used(tx)) / (1 << 20); return nil })
			f.timePass(b, m)
			f.timeFigures(b, m)
			f.checkMails(b, "many")
			m["floor-write-ns"] = float64(timed(200, func() { f.s.Update(func(*store.Tx) error { return nil }) }))
			runtime.GC()
			m["MiB-heap"], m["MiB-rss"] = memory()
			f.timeOpen(b, m)
			for name, v := range m {
				if v != 0 || !strings.HasPrefix(name, "MiB-rss") {
					b.ReportMetric(v, name)
				}
			}
		})
	}
}

// figures are a benchmark's metrics by unit.
type figures map[string]float64

// timed is the mean wall time of fn over n runs, in ns.
func timed(n int, fn func()) int64 {
	start := time.Now()
	for range n {
		fn()
	}
	return time.Since(start).Nanoseconds() / int64(n)
}

// timeOpen closes the store and times opening it again: as the daemon does (bbolt rebuilds
// its list of free pages by walking every page: what recovery after a crash costs too), and,
// as the floor, with the list synced by the commit before (store.Options.SyncFreelist).
func (f benchFixture) timeOpen(b *testing.B, m figures) {
	b.Helper()
	path := f.s.Path()
	reopen := func(opts store.Options) float64 {
		f.s.Close()
		start := time.Now()
		s, err := store.Open(path, slog.New(slog.DiscardHandler), opts)
		if err != nil {
			b.Fatal(err)
		}
		f.s = s
		b.Cleanup(func() { s.Close() })
		return float64(time.Since(start).Microseconds()) / 1000
	}
	m["open-ms"] = reopen(store.Options{NoSync: true})
	reopen(store.Options{NoSync: true, SyncFreelist: true}) // writes the list
	m["open-synced-ms"] = reopen(store.Options{NoSync: true, SyncFreelist: true})
}

// fileMiB is the size of the store's file.
func (f benchFixture) fileMiB(b *testing.B) float64 {
	b.Helper()
	st, err := os.Stat(f.s.Path())
	if err != nil {
		b.Fatal(err)
	}
	return float64(st.Size()) / (1 << 20)
}

// sendWelcomes flushes the outbox (every game's welcome mails) to a sender that drops them,
// and reports the peaks of the heap and of the process's RSS meanwhile.
func (f benchFixture) sendWelcomes(b *testing.B, n int, m figures) {
	b.Helper()
	resetPeakRSS()
	runtime.GC()
	var peak float64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			heap, _ := memory()
			peak = max(peak, heap)
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	var sent dropSender
	if err := f.h.Flush(context.Background(), &sent); err != nil {
		b.Fatal(err)
	}
	close(stop)
	<-done
	if int(sent) < 2*n {
		b.Fatalf("%d welcome mails sent for %d games", sent, n)
	}
	f.sent = 0
	m["MiB-heap-send"], m["MiB-rss-send"] = peak, procStatus("VmHWM")
}

// timePass times the deadline pass with nothing due, beside a bare read transaction, a read
// of the due index, and one read transaction over every game's settings.
func (f benchFixture) timePass(b *testing.B, m figures) {
	b.Helper()
	if err := f.h.Tick(); err != nil { // the first pass stamps the index
		b.Fatal(err)
	}
	now := f.h.cfg.Now()
	var due int
	f.s.View(func(tx *store.Tx) error { due = len(store.Due(tx, now)); return nil })
	if due != 0 {
		b.Fatalf("%d games due", due)
	}
	m["pass-ns"] = float64(timed(50, func() {
		if err := f.h.Tick(); err != nil {
			b.Fatal(err)
		}
	}))
	m["floor-view-ns"] = float64(timed(200, func() { f.s.View(func(*store.Tx) error { return nil }) }))
	m["index-ns"] = float64(timed(200, func() { f.s.View(func(tx *store.Tx) error { store.Due(tx, now); return nil }) }))
	m["scan-ns"] = float64(timed(3, func() {
		f.s.View(func(tx *store.Tx) error {
			for _, id := range store.Games(tx) {
				if _, err := loadGame(tx, id); err != nil {
					b.Fatal(err)
				}
			}
			return nil
		})
	}))
}

// timeFigures times Figures beside its floor, a read transaction of the game counts and the
// due index's due entries alone.
func (f benchFixture) timeFigures(b *testing.B, m figures) {
	b.Helper()
	fig, err := f.h.Figures() // the first call stamps the index where it was not
	if err != nil {
		b.Fatal(err)
	}
	if n := fig.Games["joining"] + fig.Games["playing"]; n != f.games(b) {
		b.Fatalf("figures count %d games of %d: %+v", n, f.games(b), fig)
	}
	m["figures-ns"] = float64(timed(200, func() {
		if _, err := f.h.Figures(); err != nil {
			b.Fatal(err)
		}
	}))
	now := f.h.cfg.Now()
	m["figures-index-ns"] = float64(timed(200, func() {
		f.s.View(func(tx *store.Tx) error { store.CountGames(tx); store.Due(tx, now); return nil })
	}))
}

// games is the number of games in the store.
func (f benchFixture) games(b *testing.B) int {
	b.Helper()
	var n int
	f.s.View(func(tx *store.Tx) error { n = len(store.Games(tx)); return nil })
	return n
}

// dropSender takes every mail and keeps none (it counts them).
type dropSender int

func (d *dropSender) Send(context.Context, mail.Outgoing) error { *d++; return nil }

// memory is the heap in use after a collection and the process's resident set (0 where
// /proc/self/status cannot be read), in MiB.
func memory() (heap, rss float64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapInuse) / (1 << 20), procStatus("VmRSS")
}

// procStatus reads a "kB" field of /proc/self/status, in MiB (0 if it cannot).
func procStatus(field string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(v), "%f kB", &kb)
			return kb / 1024
		}
	}
	return 0
}

// resetPeakRSS starts VmHWM again from the current RSS (Linux's clear_refs 5).
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// BenchmarkLateGame is one mail that needs the game's engine (HELP, which lists the
// sender's own units) later in the full battle (13.1), its sides having answered NONE to 30
// requests: with the engine kept in memory between mails, and without it (every mail
// replays the whole log). Most of the set-up's time is the maps of
// the reports.
func BenchmarkLateGame(b *testing.B) {
	s, err := store.Open(filepath.Join(b.TempDir(), "navarch.db"), slog.New(slog.DiscardHandler), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	h := New(s, []adjudicator.Ruleset{lepanto.Ruleset}, Config{Maps: testMaps, Address: "navarch@host.example", Domain: "navarch.host.example",
		Now: func() time.Time { return ledgertest.Clock }, Rand: ledgertest.Rand("late"), RateLimit: 1 << 30}, slog.New(slog.DiscardHandler))
	tag, err := h.CreateGame(GameSpec{Ruleset: "lepanto1571", Scenario: "battle-of-lepanto",
		Players: []PlayerSpec{{"alice", "christian", "alice@example.org", "UTC"}, {"bob", "ottoman", "bob@example.com", "UTC"}}})
	if err != nil {
		b.Fatal(err)
	}
	f := &fixture{t: b, s: s, h: h, tag: tag}
	keys := map[string]string{}
	for _, m := range f.outbox() {
		if k := keyRE.FindStringSubmatch(m.Text); k != nil {
			keys[m.To[0]] = k[1]
		}
	}
	for who, k := range keys {
		f.send(who, "JOIN\nKEY "+k)
	}
	asked := ""
	for n := 0; n < 30; {
		var due []string
		for _, m := range f.outbox() {
			if strings.Contains(m.Subject, "Your move") {
				due = append(due, m.To[0])
			}
		}
		if len(due) == 0 {
			break
		}
		for _, who := range due {
			f.send(who, "NONE\nKEY "+keys[who])
			asked, n = who, n+1
		}
	}
	for _, m := range f.outbox() {
		if strings.Contains(m.Subject, "Your move") {
			asked = m.To[0]
		}
	}
	var size uint64
	s.View(func(tx *store.Tx) error { size, _, err = logHead(tx, store.Games(tx)[0]); return err })
	f.send(asked, "HELP\nKEY "+keys[asked])
	if m := f.outbox(); len(m) != 1 || !strings.Contains(m[0].Text, "Mail commands") {
		b.Fatalf("HELP is not answered: %v", subjects(m))
	}
	for _, cache := range []int{EngineCache, 0} {
		b.Run(fmt.Sprintf("engines=%d", cache), func(b *testing.B) {
			h.engines.max = cache
			f.t = b
			benchFixture{fixture: f}.mailsFrom(b, asked, keys[asked], fmt.Sprintf("late%d-", cache), "HELP\r\nKEY %s\r\n")
			b.ReportMetric(float64(size), "records")
		})
	}
}
